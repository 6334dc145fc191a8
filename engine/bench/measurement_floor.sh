#!/usr/bin/env bash
# What the NetSim run costs without the measurements its summary reports: the floor of the
# engine's per-packet work in this design (docs/performance.md, "Seventh round").
#
#   engine/bench/measurement_floor.sh
#
# Builds the CLI twice in release mode, as it is and with measurement-floor.patch applied
# (in a temporary git worktree): the thin-stream write log (sojourn, latency, ITT), the cwnd
# integrals, the bottleneck's queueing delay and throughput columns, the spurious-
# retransmission tracker and the RTT-sample histogram switched off. That build's summary is
# wrong on purpose (those figures read zero); what it simulates is the same, which the
# script checks (packets, data packets, retransmissions and final cwnd equal). Then counts
# each build's instructions under callgrind (the 200 s run and a 1 ms one for the set-up)
# and prints instructions per simulated packet. Needs valgrind and python3. The patch
# applies to the engine as of 9c10135; if a later change breaks it, refresh it by hand.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "missing valgrind: apt-get install valgrind" >&2; exit 1; }
root="$PWD"
tmp="$(mktemp -d)"
wt="$tmp/worktree"
cleanup() { git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
git worktree add --detach -q "$wt" HEAD
git -C "$wt" apply "$root/engine/bench/measurement-floor.patch"
(cd engine && cargo build --release -q -p cwndlab-cli)
(cd "$wt/engine" && RUSTFLAGS="-A warnings" CARGO_TARGET_DIR="$root/engine/target/floor" cargo build --release -q -p cwndlab-cli)
cp engine/target/release/cwndlab "$tmp/as-is"
cp engine/target/floor/release/cwndlab "$tmp/floor"
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'; }
model() { "$@" | python3 -c 'import json,sys; d=json.load(sys.stdin); f=d["flows"][0]; print(d["packets"], f["data_packets_sent"], f["retransmits"], f["final_cwnd_bytes"])'; }
run=(run --preset netsim-newreno --duration 200 -q --format json)
a="$(model "$tmp/as-is" "${run[@]}")"
b="$(model "$tmp/floor" "${run[@]}")"
[ "$a" = "$b" ] || { echo "the patched build simulates something else: $a against $b" >&2; exit 1; }
packets="${a%% *}"
echo "same model: packets, data packets, retransmissions, final cwnd = $a"
for build in as-is floor; do
  total="$(ir "$tmp/$build" "${run[@]}")"
  setup="$(ir "$tmp/$build" run --preset netsim-newreno --duration 0.001 -q --format json)"
  python3 -c "t,s,p=$total,$setup,$packets; print(f'$build: {t/1e6:.2f} M instructions, set-up {s/1e6:.2f} M, {(t-s)/p:.0f} a packet')"
done
