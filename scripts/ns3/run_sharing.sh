#!/usr/bin/env bash
# run_sharing.sh -- build bbr_reference.cc against the system ns-3 (Debian 12: apt-get install
# libns3-dev g++ pkg-config python3; this script installs nothing) and run the reference cases
# of cwndlab's cubic-newreno-share and cubic-two-rtts presets (README-sharing.md says what each
# is): 100 Mbit/s, 18 ms one way, 400-packet drop-tail bottleneck, 1 Gbit/s access links,
# 2 Mbit/s of Poisson UDP cross traffic in 64-byte packets, 120 s.
# Runs go JOBS at a time (default 2); a 120 s run takes 1.5-2.5 min of CPU with SACK off (as
# cwndlab), 0.5 min with SACK on: about 20 min on 2 cores for main, nox and diag, about 5 more
# for prr, 25 with NS3_344.
#
# Usage: [JOBS=N] [SEEDS="1 2 3 4 5"] [SETS="main nox diag prr"] scripts/ns3/run_sharing.sh [OUT_DIR]
#        (default /tmp/ns3-sharing-out)
#   SETS picks the groups of runs (default all four): main = SACK off (the first reference,
#     as cwndlab was before it had SACK), nox = the same without cross traffic, diag = SACK on
#     with TcpClassicRecovery, prr = SACK on with TcpPrrRecovery (ns-3's default recovery,
#     ReductionBound SSRB), to compare with cwndlab's SACK + PRR (README-sharing.md). A SACK
#     run takes about 0.5 min of CPU: SETS=prr JOBS=1 SEEDS="1 2 3" takes about 5 min.
#     Not in the default: prr64 = SACK on with TcpPrrRecovery64, 3.37's PRR rules without the
#     32-bit wrap of its proportional step (a diagnostic, bbr_reference.cc).
#   NS3_344=DIR ... also builds against ns-3 3.44 (the PyPI wheel's ns3 folder, see run_bbr.sh)
#     and runs the three pairs there with SACK on, seeds 1-3 (its TcpCubic has the
#     Reno-friendly region that 3.37's lacks), and CUBIC+NewReno with SACK off, seed 1.
# Output: OUT_DIR/{main,nox,diag,prr,prr64,ns3.44}/<tag>.* (see bbr_reference.cc) and OUT_DIR/tables.md
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/ns3-sharing-out}
jobs=${JOBS:-2}
seeds=${SEEDS:-1 2 3 4 5}
sets=" ${SETS:-main nox diag prr} "
want() { [[ "$sets" == *" $1 "* ]]; }
for d in main nox diag prr prr64; do want $d && mkdir -p "$out/$d"; done

libs="-lns3-core -lns3-network -lns3-internet -lns3-point-to-point -lns3-applications -lns3-traffic-control"
g++ -O2 -std=c++17 "$here/bbr_reference.cc" -o "$out/bbr_reference" $libs

if [ -n "${NS3_344:-}" ]; then
  mkdir -p "$out/ns3.44"
  l344=$(echo "$libs" | sed 's/-lns3-/-lns3.44-/g')
  g++ -O2 -std=c++20 -DNS3_LABEL='"3.44"' -I"$NS3_344/include" "$here/bbr_reference.cc" \
      -o "$out/bbr_reference344" -L"$NS3_344/lib64" -Wl,-rpath,"$NS3_344/lib64" $l344
fi

two="--accessDelays=0.001,0.041" # flow 1's sender access 41 ms one way: RTT 120 ms (flow 0: 40 ms)
common="--scenario=share100 --duration=120 --eventLogs=0"
pairs=("--algos=cubic,newreno" "--algos=cubic,cubic $two" "--algos=newreno,newreno $two")
{ # the longest runs first
  if [ -n "${NS3_344:-}" ]; then
    # 3.44 with SACK off (a debug build: about 5 min), one seed
    echo "$out/bbr_reference344 $common --outDir=$out/ns3.44 ${pairs[0]} --RngRun=1"
  fi
  if want main; then
    for s in $seeds; do # RngRun changes only the Poisson cross traffic's arrivals
      for p in "${pairs[@]}"; do
        # SACK off (and timestamps off, classic recovery, Limited Transmit off)
        echo "$out/bbr_reference $common --outDir=$out/main $p --RngRun=$s"
      done
    done
  fi
  if want nox; then
    for p in "${pairs[@]}"; do
      # without cross traffic nothing is random: one run each
      echo "$out/bbr_reference $common --outDir=$out/nox --crossRate=0 $p"
    done
  fi
  if want diag; then
    for s in $seeds; do
      for p in "${pairs[@]}"; do
        # SACK on, classic recovery (ns-3 3.37's SACK-less recovery fails here, see README)
        echo "$out/bbr_reference $common --outDir=$out/diag --sack=1 $p --RngRun=$s"
      done
    done
    for p in "${pairs[@]}"; do
      echo "$out/bbr_reference $common --outDir=$out/diag --sack=1 --crossRate=0 $p"
    done
  fi
  if want prr; then
    for s in $seeds; do
      for p in "${pairs[@]}"; do
        # SACK on, TcpPrrRecovery (SSRB): what cwndlab's SACK + PRR runs compare with
        echo "$out/bbr_reference $common --outDir=$out/prr --sack=1 --recovery=prr $p --RngRun=$s"
      done
    done
  fi
  if want prr64; then
    for s in $seeds; do
      for p in "${pairs[@]}"; do
        echo "$out/bbr_reference $common --outDir=$out/prr64 --sack=1 --recovery=prr64 $p --RngRun=$s"
      done
    done
  fi
  if [ -n "${NS3_344:-}" ]; then
    # 3.44 (TcpCubic with the Reno-friendly region) with SACK on, seeds 1-3
    for s in 1 2 3; do
      for p in "${pairs[@]}"; do
        echo "$out/bbr_reference344 $common --outDir=$out/ns3.44 --sack=1 $p --RngRun=$s"
      done
    done
  fi
} | xargs -P "$jobs" -I{} sh -c '{} > /dev/null || echo "failed: {}" >&2'

dirs=()
for d in main nox diag prr prr64; do want $d && dirs+=("$out/$d"); done
[ -d "$out/ns3.44" ] && dirs+=("$out/ns3.44")
python3 "$here/sharing_tables.py" "${dirs[@]}" > "$out/tables.md"
cat "$out/tables.md"
