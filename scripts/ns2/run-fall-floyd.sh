#!/bin/sh
# Runs ns-2.35 (Debian package ns2) on the Fall & Floyd scripted-drop cases for Sack1,
# Reno and NewReno (and Tahoe), and writes one CSV per run plus summary.txt.
# usage: scripts/ns2/run-fall-floyd.sh [outdir]   (default docs/data/ns2)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../docs/data/ns2}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$out/summary.txt"
for variant in Sack1 Reno Newreno Tahoe; do
    n=0
    for drops in "14" "14 28" "14 26 28" "14 24 26 28"; do
        n=$((n + 1))
        name=$(echo "$variant" | tr 'A-Z' 'a-z')-${n}drops
        (cd "$tmp" && ns "$here/fall-floyd-sack.tcl" "$variant" "$drops" "$tmp/$name")
        python3 "$here/ns2_trace_to_csv.py" "$tmp/$name.tr" "$out/$name.csv" \
            "$variant, drops {$drops}" >> "$out/summary.txt"
    done
done
cat "$out/summary.txt"
