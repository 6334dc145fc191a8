#!/usr/bin/env python3
"""cwndlab_sharing.py -- cwndlab's side of the sharing comparison with ns-3 (README-sharing.md):
runs the built CLI on the three sharing cases, each with several recovery settings, and prints
markdown tables (means over the seeds, and one row per seed) and, with --csv, one CSV row per
run and flow.

Usage: cwndlab_sharing.py [--bin PATH] [--seeds 1,2,3] [--variants a,b] [--csv FILE]

Cases (as run_sharing.sh's pairs): cubic-newreno-share; cubic-two-rtts; cubic-two-rtts with
both flows NewReno. Variants (--set on every flow, after the preset's own settings):
  nosack    the presets as they are (no SACK)
  sack_prr  SACK + PRR as close to ns-3 3.37 (--sack=1 --recovery=prr) as the settings go:
            PRR with the slow-start bound, no RACK, no tail loss probe, no early retransmit
            (ns-3 3.37 has none of them), no D-SACK (its receiver sends none), 4 SACK blocks
            (ns-3 fills the 40 option bytes: 4 blocks without timestamps)
  sack_prr_linuxcubic  sack_prr, and the CUBIC flows run cubic_linux (tcp_cubic.c's rules, as
            ns-3's TcpCubic) without the Reno-friendly region (ns-3 3.37's TcpCubic has none)
  sack_6675 sack_prr with RFC 6675's window instead of PRR (cwnd = ssthresh through the
            recovery): the counterpart of ns-3's --sack=1 runs with TcpClassicRecovery
  sack_prr_crb  sack_prr with PRR's conservative bound (prr_crb)
  rack_tlp  SACK + PRR + RACK-TLP, the column validation.md's generated table has
            (engine/core/examples/validate.rs: enabled, prr_ssrb, rack, tlp; blocks and D-SACK
            as the defaults, 3 and on)
Goodput = bytes delivered over the run / duration (the CLI's goodput_bps); ratio = flow 0 /
flow 1 per seed, and the mean row gives the mean of the per-seed ratios."""

import argparse
import csv
import io
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BIN = os.path.join(HERE, "..", "..", "engine", "target", "release", "cwndlab")

CASES = [
    ("cubic-newreno-share", "cubic-newreno-share", []),
    ("cubic-two-rtts", "cubic-two-rtts", []),
    ("newreno-two-rtts", "cubic-two-rtts", ["flows[].algorithm=newreno"]),
]

SACK_PRR = [
    "flows[].sack.enabled=true",
    "flows[].sack.budget=prr_ssrb",
    "flows[].sack.rack=false",
    "flows[].sack.tlp=false",
    "flows[].sack.early_retransmit=false",
    "flows[].sack.dsack=false",
    "flows[].sack.blocks=4",
]
VARIANTS = {
    "nosack": lambda case: [],
    "sack_prr": lambda case: SACK_PRR,
    # flows that run CUBIC switch to cubic_linux first (the entry resets the axes it names),
    # then SACK's settings; the NewReno pair is left as sack_prr
    "sack_prr_linuxcubic": lambda case: {
        "cubic-newreno-share": ["flows[0].algorithm=cubic_linux",
                                "flows[0].cc.cubic_reno_friendly=false"],
        "cubic-two-rtts": ["flows[].algorithm=cubic_linux", "flows[].cc.cubic_reno_friendly=false"],
    }.get(case, []) + SACK_PRR,
    # as sack_prr with RFC 6675's own window (cwnd = ssthresh for the whole recovery): the
    # counterpart of ns-3's --sack=1 with TcpClassicRecovery (the "diag" runs)
    "sack_6675": lambda case: [s.replace("prr_ssrb", "rfc6675") for s in SACK_PRR],
    # as sack_prr with PRR's conservative bound
    "sack_prr_crb": lambda case: [s.replace("prr_ssrb", "prr_crb") for s in SACK_PRR],
    "rack_tlp": lambda case: [
        "flows[].sack.enabled=true",
        "flows[].sack.budget=prr_ssrb",
        "flows[].sack.rack=true",
        "flows[].sack.tlp=true",
    ],
}


def run(binary, preset, sets, seed):
    cmd = [binary, "run", "--preset", preset, "--seed", str(seed), "--format", "csv", "-q"]
    for s in sets:
        cmd += ["--set", s]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return cmd, list(csv.DictReader(io.StringIO(out)))


def mean(xs):
    return sum(xs) / len(xs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bin", default=DEFAULT_BIN)
    ap.add_argument("--seeds", default="1,2,3,4,5")
    ap.add_argument("--variants", default="nosack,sack_prr,sack_prr_linuxcubic,sack_6675,sack_prr_crb,rack_tlp")
    ap.add_argument("--csv", help="write one row per run and flow here")
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",")]
    variants = a.variants.split(",")
    rows = []
    print(f"cwndlab: {a.bin}; seeds {a.seeds}\n")
    summary = [
        "| case | variant | goodput flow 0 / flow 1, Mbit/s (mean) | ratio per seed: range (mean) "
        "| sum | retransmits 0 / 1 | timeouts 0 / 1 | fast retransmits 0 / 1 | queue drops 0 / 1 |",
        "|" + "---|" * 9,
    ]
    detail = []
    for name, preset, base in CASES:
        for v in variants:
            sets = base + VARIANTS[v](name)
            detail += [f"### {name}, {v}", "", "`cwndlab run --preset " + preset + " --seed N "
                       + " ".join(f"--set '{s}'" for s in sets) + "`", "",
                       "| seed | algorithms | goodput 0 / 1 | ratio | retransmits | timeouts "
                       "| fast retransmits | queue drops |", "|" + "---|" * 8]
            acc = {k: [] for k in ("g0", "g1", "r", "rt0", "rt1", "to0", "to1", "fr0", "fr1",
                                   "qd0", "qd1")}
            for seed in seeds:
                _, fl = run(a.bin, preset, sets, seed)
                f0, f1 = fl
                g0, g1 = float(f0["goodput_bps"]) / 1e6, float(f1["goodput_bps"]) / 1e6
                acc["g0"].append(g0)
                acc["g1"].append(g1)
                acc["r"].append(g0 / g1)
                for i, f in enumerate(fl):
                    acc[f"rt{i}"].append(int(f["retransmits"]))
                    acc[f"to{i}"].append(int(f["timeouts"]))
                    acc[f"fr{i}"].append(int(f["fast_retransmits"]))
                    acc[f"qd{i}"].append(int(f["queue_drops"]))
                    rows.append({"case": name, "setting": v, "seed": seed, **f})
                detail.append(
                    f"| {seed} | {f0['algorithm']} / {f1['algorithm']} | {g0:.2f} / {g1:.2f} "
                    f"| {g0 / g1:.2f} | {f0['retransmits']} / {f1['retransmits']} "
                    f"| {f0['timeouts']} / {f1['timeouts']} "
                    f"| {f0['fast_retransmits']} / {f1['fast_retransmits']} "
                    f"| {f0['queue_drops']} / {f1['queue_drops']} |")
            m = {k: mean(x) for k, x in acc.items()}
            detail.append(
                f"| mean | | {m['g0']:.2f} / {m['g1']:.2f} | {m['r']:.2f} | {m['rt0']:.0f} / "
                f"{m['rt1']:.0f} | {m['to0']:.1f} / {m['to1']:.1f} | {m['fr0']:.1f} / "
                f"{m['fr1']:.1f} | {m['qd0']:.0f} / {m['qd1']:.0f} |")
            detail.append("")
            summary.append(
                f"| {name} | {v} | {m['g0']:.1f} / {m['g1']:.1f} "
                f"| {min(acc['r']):.2f}–{max(acc['r']):.2f} ({m['r']:.2f}) "
                f"| {m['g0'] + m['g1']:.1f} | {m['rt0']:.0f} / {m['rt1']:.0f} "
                f"| {m['to0']:.1f} / {m['to1']:.1f} | {m['fr0']:.1f} / {m['fr1']:.1f} "
                f"| {m['qd0']:.0f} / {m['qd1']:.0f} |")
    print("## Means over the seeds\n")
    print("\n".join(summary))
    print("\n## Per case, variant and seed\n")
    print("\n".join(detail).rstrip())
    if a.csv:
        with open(a.csv, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
