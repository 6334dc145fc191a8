#!/usr/bin/env bash
# run_aqm.sh -- the queue-discipline, ECN and DCTCP comparison (README-aqm.md): builds
# aqm_reference.cc against the system ns-3 (Debian 12: apt-get install libns3-dev g++; this
# script installs nothing), runs every case in ns-3 3.37 and in cwndlab (cwndlab_aqm.py; needs
# engine/target/release/cwndlab), and writes OUT_DIR/{ns3,cwndlab}/runs.csv (one row per run
# and flow) and OUT_DIR/tables.md (aqm_tables.py).
# Recovery: the main runs pair ns-3's TcpClassicRecovery (with SACK: RFC 6675's pipe, cwnd =
# ssthresh) with cwndlab's sack.budget = rfc6675 ("classic"); the "prr" runs pair ns-3's default
# TcpPrrRecovery with cwndlab's prr_ssrb, seed 1 only (README-aqm.md: 3.37's PRR wraps).
# About 5-10 s of CPU per 60 s ns-3 run, 1 s per cwndlab run: about 15 min on 2 busy cores.
#
# Usage: [JOBS=2] [SEEDS="1 2 3 4 5"] [DURATION=60] [WARMUP=10] scripts/ns3/run_aqm.sh [OUT_DIR]
#        (default /tmp/ns3-aqm-out)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/ns3-aqm-out}
jobs=${JOBS:-2}
seeds=${SEEDS:-1 2 3 4 5}
dur=${DURATION:-60}
warm=${WARMUP:-10}
mkdir -p "$out/ns3" "$out/cwndlab"
rm -f "$out/ns3/runs.csv" "$out/cwndlab/runs.csv"
libs="-lns3-core -lns3-network -lns3-internet -lns3-point-to-point -lns3-applications -lns3-traffic-control"
g++ -O2 -std=c++17 "$here/aqm_reference.cc" -o "$out/aqm_reference" $libs

# case = "qdisc algos ecn seed recovery": RED and PIE draw random numbers (seeds 1-5); CoDel,
# FQ-CoDel, drop-tail and the step queue do not (one run)
cases() {
  for rec in classic prr; do
    for alg in cubic,cubic newreno,newreno; do
      echo "droptail $alg 0 1 $rec"
      for ecn in 0 1; do
        for s in $seeds; do
          [ "$rec" = prr ] && [ "$s" != 1 ] && continue
          echo "red $alg $ecn $s $rec"
          echo "pie $alg $ecn $s $rec"
        done
        echo "codel $alg $ecn 1 $rec"
        echo "fq_codel $alg $ecn 1 $rec"
      done
    done
    # DCTCP on the step queue (K = 20 in cwndlab's terms, see README-aqm.md), CUBIC with ECN
    # on the same queue, and the two together
    echo "step dctcp,dctcp 0 1 $rec"
    echo "step cubic,cubic 1 1 $rec"
    echo "step dctcp,cubic 1 1 $rec"
  done
}
# ns-3's step queue marks when the discipline holds >= K packets at an arrival, not counting the
# packet in transmission and the one in the device queue: K_ns3 = 19 marks at the same total as
# cwndlab's K = 20 ("more than K, waiting plus in service")
cases | while read -r q alg ecn s rec; do
  echo "nice $out/aqm_reference --qdisc=$q --algos=$alg --ecn=$ecn --RngRun=$s --recovery=$rec --duration=$dur --warmup=$warm --stepK=19 --outDir=$out/ns3"
done | xargs -P "$jobs" -I{} sh -c '{} > /dev/null || echo "failed: {}" >&2'
# cwndlab (one at a time: runs.csv is appended to)
cases | while read -r q alg ecn s rec; do
  e=""; [ "$ecn" = 1 ] && e="--ecn"
  b=prr_ssrb; [ "$rec" = classic ] && b=rfc6675
  nice python3 "$here/cwndlab_aqm.py" --qdisc "$q" --algos "$alg" $e --seed "$s" --budget "$b" \
    --duration "$dur" --warmup "$warm" --step-k 20 --out "$out/cwndlab" > /dev/null
done
python3 "$here/aqm_tables.py" --csv "$out/summary.csv" "$out/ns3/runs.csv" "$out/cwndlab/runs.csv" > "$out/tables.md"
cat "$out/tables.md"
