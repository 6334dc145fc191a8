#!/usr/bin/env bash
# run.sh -- build cubic_reference.cc against the system ns-3 (Debian 12: apt-get install
# libns3-dev g++ pkg-config; this script installs nothing) and run every reference case of the
# cwndlab scenarios cubic-long-fat-path ("lfp") and cubic-bufferbloat.
#
# Usage: scripts/ns3/run.sh [OUT_DIR]      (default /tmp/ns3-out)
# Output: OUT_DIR/<scenario>-<algo>[-(no)hystart][-clampN].{cwnd.csv,queue.csv,summary.txt}
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/ns3-out}
mkdir -p "$out"

libs="-lns3-core -lns3-network -lns3-internet -lns3-point-to-point -lns3-applications -lns3-traffic-control"
g++ -O2 -std=c++17 "$here/cubic_reference.cc" -o "$out/cubic_reference" $libs

run() { "$out/cubic_reference" --outDir="$out" "$@" > /dev/null; }

for sc in lfp bufferbloat; do
  run --scenario=$sc --algo=cubic --hystart=0   # ns-3 TcpCubic defaults, HyStart off
  run --scenario=$sc --algo=cubic --hystart=1   # all ns-3 defaults
  run --scenario=$sc --algo=cubic --hystart=0 --cntClamp=255  # diagnostic: see ns3-results.md
  run --scenario=$sc --algo=newreno
done
cat "$out"/*.summary.txt
