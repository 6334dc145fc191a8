#!/usr/bin/env bash
# Profile-guided build of the command line (rustc's -Cprofile-generate / -Cprofile-use):
#
#   engine/bench/build_pgo.sh        # prints the path of the optimised binary
#
# 1. builds an instrumented CLI (target dir target/pgo-gen),
# 2. runs it on a training set that covers the engine, not one benchmark: every preset
#    summary-only for 5 simulated seconds (its whole run if it needs longer, as the
#    four-conversation preset does), so that no preset family dominates the profile (at
#    full length the three BR-TCP presets were 70 % of the training's events), three
#    presets with the whole trace written (--out), and a small sweep over algorithms and
#    a loss rate,
# 3. merges the profiles with llvm-profdata (rustup's llvm-tools component, added if missing),
# 4. builds the optimised CLI into target/pgo/release/cwndlab, statically linked.
#
# The result simulates exactly what the plain release build simulates (same digests: the
# script checks one); only the machine code's layout and inlining follow the profile.
# docs/performance.md quotes both builds.
set -euo pipefail
cd "$(dirname "$0")/.."
host="$(rustc -vV | sed -n 's/^host: //p')"
sysroot="$(rustc --print sysroot)"
profdata="$sysroot/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
  rustup component add llvm-tools >&2
fi
data="$PWD/target/pgo-data"
rm -rf "$data"
RUSTFLAGS="-Cprofile-generate=$data" CARGO_TARGET_DIR="$PWD/target/pgo-gen" \
  cargo build --release -q -p cwndlab-cli
gen="$PWD/target/pgo-gen/release/cwndlab"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for p in $("$gen" presets | cut -d' ' -f1); do
  "$gen" run --preset "$p" --format json --duration 5 >/dev/null 2>&1 ||
    "$gen" run --preset "$p" --format json >/dev/null
done
for p in netsim-newreno fall-floyd-reno-3drops thin-20b-10ms; do
  "$gen" run --preset "$p" --format json --out "$tmp/$p" >/dev/null
done
"$gen" sweep --preset netsim-newreno --duration 30 --param network.bottleneck.loss.ber \
  --values 1e-7,1e-6 --algorithms reno,newreno,tahoe --seeds 2 --quiet >/dev/null
"$profdata" merge -o "$data/merged.profdata" "$data"
# Linked statically (glibc's crt-static), for the final binary only (proc-macro crates cannot
# be built that way): the dynamic loader's work, about 0.6 ms of every process, goes.
RUSTFLAGS="-Cprofile-use=$data/merged.profdata" CARGO_TARGET_DIR="$PWD/target/pgo" \
  cargo rustc --release -q -p cwndlab-cli --bin cwndlab -- -C target-feature=+crt-static
out="$PWD/target/pgo/release/cwndlab"
# Same simulation: the digest of a run agrees with the plain build's.
cargo build --release -q -p cwndlab-cli
a="$("$out" run --preset netsim-newreno --duration 20 --format json --digest | grep '"digest"')"
b="$(target/release/cwndlab run --preset netsim-newreno --duration 20 --format json --digest | grep '"digest"')"
[ "$a" = "$b" ] || { echo "PGO build disagrees with the plain build: $a vs $b" >&2; exit 1; }
echo "$out"
