#!/usr/bin/env bash
# Whole-process benchmark of the command line, next to ns-2 run the same way, and the
# numbers docs/performance.md quotes: wall time of a 200 s NetSim run (summary only, and
# with the whole trace written), peak memory of 10 000 s runs, and sweep throughput.
#
#   engine/bench/cli_vs_ns2.sh            # RUNS=20 by default
#
# Needs Debian's hyperfine and ns2 packages (apt-get install hyperfine ns2) and a Rust
# toolchain; it builds the CLI in release mode first, and also profile-guided
# (build_pgo.sh, about three minutes; PGO=0 skips it) and, on an x86_64 glibc host,
# statically linked (about five minutes the first time, in target/static; STATIC=0 skips
# it: such a binary starts as fast as /bin/true, docs/performance.md "Fourth round") to
# time every build next to ns-2.
# Timings depend on the machine and its load: run it on an otherwise idle machine and
# quote its output, not old numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in hyperfine ns; do
  command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install hyperfine ns2" >&2; exit 1; }
done
cargo build --release -q -p cwndlab-cli
C="$PWD/target/release/cwndlab"
if [ "${PGO:-1}" != 0 ]; then
  P="$(bench/build_pgo.sh)"
else
  P=""
fi
S=""
host="$(rustc -vV | sed -n 's/^host: //p')"
if [ "${STATIC:-1}" != 0 ] && [ "$host" = x86_64-unknown-linux-gnu ]; then
  # crt-static needs an explicit --target (proc-macro crates cannot be linked statically).
  RUSTFLAGS="-C target-feature=+crt-static" CARGO_TARGET_DIR="$PWD/target/static" \
    cargo build --release -q -p cwndlab-cli --target "$host"
  S="$PWD/target/static/$host/release/cwndlab"
fi
NS2="$PWD/bench/ns2/netsim.tcl"
RUNS="${RUNS:-20}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "== 200 s NetSim run, summary only (whole process): release build, with the trace digest"
echo "   (--digest), profile-guided build (if built), statically linked build (if built), ns-2"
hyperfine -N --warmup 3 --runs "$RUNS" \
  "$C run --preset netsim-newreno --duration 200 --format json" \
  "$C run --preset netsim-newreno --duration 200 --format json --digest" \
  ${P:+"$P run --preset netsim-newreno --duration 200 --format json"} \
  ${P:+"$P run --preset netsim-newreno --duration 200 --format json --digest"} \
  ${S:+"$S run --preset netsim-newreno --duration 200 --format json"} \
  "ns $NS2 200"

if command -v valgrind >/dev/null; then
  echo
  echo "== the same run's instruction count (callgrind; independent of the machine's load)"
  for flags in "" "--digest"; do
    n="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      "$C" run --preset netsim-newreno --duration 200 --format json $flags 2>&1 >/dev/null |
      sed -n 's/.*Collected : //p')"
    echo "release build ${flags:-(without digest)}: $n instructions"
  done
fi

echo
echo "== 200 s NetSim run, every packet event written to disk"
hyperfine --warmup 1 --runs "$((RUNS / 4 + 1))" \
  --prepare "rm -rf $tmp/cw $tmp/ns.tr" \
  "$C run --preset netsim-newreno --duration 200 --format json --out $tmp/cw" \
  "ns $NS2 200 $tmp/ns.tr"
du -sh "$tmp/cw" "$tmp/ns.tr" 2>/dev/null || true

echo
echo "== peak memory, 10 000 s NetSim run"
/usr/bin/time -f "cwndlab, summary only:     %e s, peak RSS %M KB" \
  "$C" run --preset netsim-newreno --duration 10000 --format json >/dev/null
/usr/bin/time -f "cwndlab, trace to --out:   %e s, peak RSS %M KB" \
  "$C" run --preset netsim-newreno --duration 10000 --format json --out "$tmp/out10k" >/dev/null
du -sh "$tmp/out10k"
rm -rf "$tmp/out10k"
/usr/bin/time -f "ns-2, no trace:            %e s, peak RSS %M KB" ns "$NS2" 10000 >/dev/null

echo
echo "== sweep throughput: 8 BER values x 2 algorithms x 5 seeds = 80 runs of 200 s"
SWEEP=(sweep --preset netsim-newreno --duration 200 --param network.bottleneck.loss.ber
  --range 1e-7:1e-5:8:log --algorithms reno,newreno --seeds 5 --quiet
  --metrics data_packets_sent,acks_sent)
for jobs in 1 "$(nproc)"; do
  start=$(date +%s.%N)
  "$C" "${SWEEP[@]}" --jobs "$jobs" >"$tmp/sweep$jobs.csv"
  end=$(date +%s.%N)
  awk -F, -v t="$(echo "$end - $start" | bc -l)" -v j="$jobs" '
    $1 == "run" { runs++; packets += $8 + $12 }
    END { printf "--jobs %s: %d runs in %.2f s = %.1f runs/s, %.2f M packets/s\n", j, runs, t, runs / t, packets / t / 1e6 }
  ' "$tmp/sweep$jobs.csv"
done
cmp -s "$tmp/sweep1.csv" "$tmp/sweep$(nproc).csv" && echo "outputs of --jobs 1 and --jobs $(nproc) are byte-identical"
