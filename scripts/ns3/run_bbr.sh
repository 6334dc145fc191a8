#!/usr/bin/env bash
# run_bbr.sh -- build bbr_reference.cc against the system ns-3 (Debian 12: apt-get install
# libns3-dev g++ pkg-config python3; this script installs nothing) and run every BBR reference
# case (README-bbr.md says what each is). About 2 minutes on 2 cores; the 3.44 cross-check
# adds 5 to 15 (that library is a debug build).
#
# Usage: scripts/ns3/run_bbr.sh [OUT_DIR]      (default /tmp/ns3-bbr-out)
#   NS3_344=DIR scripts/ns3/run_bbr.sh [OUT_DIR]   also builds against ns-3 3.44 and runs a
#     cross-check there (SACK on; and SACK off with Limited Transmit on: that build is a debug
#     one, and aborts with both off). DIR = the ns3 folder of the PyPI
#     wheel, e.g. python3 -m venv /tmp/v && /tmp/v/bin/pip install ns3==3.44.post0, then
#     NS3_344=$(echo /tmp/v/lib/python3*/site-packages/ns3)
# Output: OUT_DIR/{main,diag,ns3.44}/<tag>.* (see bbr_reference.cc) and OUT_DIR/tables.md
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/ns3-bbr-out}
mkdir -p "$out/main" "$out/diag"

libs="-lns3-core -lns3-network -lns3-internet -lns3-point-to-point -lns3-applications -lns3-traffic-control"
g++ -O2 -std=c++17 "$here/bbr_reference.cc" -o "$out/bbr_reference" $libs

run() { local dir=$1; shift; "$out/bbr_reference" --outDir="$out/$dir" "$@" > /dev/null; }

for s in 1 2 3; do # RngRun: TcpBbr draws its first ProbeBW gain-cycle phase at random
  # 1. BBR alone on the presets' paths, 30 s
  run main --scenario=bufferbloat --algos=bbr --RngRun=$s
  run main --scenario=lfp --algos=bbr --RngRun=$s
  # 2. BBR and CUBIC (HyStart off, unpaced) from t = 0 on the 10 Mbit/s, 40 ms path, 60 s:
  #    shallow buffer 17 packets (0.5 BDP), deep buffer 1000 packets
  run main --scenario=bufferbloat --algos=bbr,cubic --bufferPkts=17 --duration=60 --RngRun=$s
  run main --scenario=bufferbloat --algos=bbr,cubic --bufferPkts=1000 --duration=60 --RngRun=$s
  # diagnostics: lfp without the sender-queue overflow; the same cases with SACK on
  run diag --scenario=lfp --algos=bbr --accessPkts=10000 --RngRun=$s
  run diag --scenario=lfp --algos=bbr --sack=1 --RngRun=$s
  run diag --scenario=bufferbloat --algos=bbr,cubic --bufferPkts=17 --duration=60 --sack=1 --RngRun=$s
  run diag --scenario=bufferbloat --algos=bbr,cubic --bufferPkts=1000 --duration=60 --sack=1 --RngRun=$s
  # ... and with Limited Transmit on (SACK off), to compare with 3.44 below
  for q in 17 1000; do
    run diag --scenario=bufferbloat --algos=bbr,cubic --bufferPkts=$q --duration=60 --limitedTransmit=1 --RngRun=$s
  done
done
# check: one CUBIC flow is cubic_reference.cc's bufferbloat run (same path and settings)
run diag --scenario=bufferbloat --algos=cubic

dirs=("$out/main" "$out/diag")
if [ -n "${NS3_344:-}" ]; then
  mkdir -p "$out/ns3.44"
  l344=$(echo "$libs" | sed 's/-lns3-/-lns3.44-/g')
  g++ -O2 -std=c++20 -DNS3_LABEL='"3.44"' -I"$NS3_344/include" "$here/bbr_reference.cc" \
      -o "$out/bbr_reference344" -L"$NS3_344/lib64" -Wl,-rpath,"$NS3_344/lib64" $l344
  for s in 1 2 3; do
    "$out/bbr_reference344" --outDir="$out/ns3.44" --sack=1 --scenario=bufferbloat --algos=bbr --RngRun=$s > /dev/null
    "$out/bbr_reference344" --outDir="$out/ns3.44" --sack=1 --scenario=lfp --algos=bbr --RngRun=$s > /dev/null
    for q in 17 1000; do
      "$out/bbr_reference344" --outDir="$out/ns3.44" --sack=1 --scenario=bufferbloat \
          --algos=bbr,cubic --bufferPkts=$q --duration=60 --RngRun=$s > /dev/null
      # SACK off needs Limited Transmit on there: with both off, a debug build's NS_ASSERT in
      # SendPendingData aborts once data is sent in CA_DISORDER (Debian's release build has no
      # asserts, so the 3.37 runs above go on)
      "$out/bbr_reference344" --outDir="$out/ns3.44" --limitedTransmit=1 --scenario=bufferbloat \
          --algos=bbr,cubic --bufferPkts=$q --duration=60 --RngRun=$s > /dev/null
    done
  done
  dirs+=("$out/ns3.44")
fi
{ echo "## All cases, means over the seeds"; echo
  python3 "$here/bbr_tables.py" --compact "${dirs[@]}"; echo
  echo "## Per case and seed"; echo
  python3 "$here/bbr_tables.py" "${dirs[@]}"; } > "$out/tables.md"
cat "$out/tables.md"
