#!/usr/bin/env python3
"""sack_compare_tables.py -- the two tables of docs/validation.md §3e "With SACK on both sides"
from the stored summaries in docs/data/ns3/ (README.md there says how each was made).

Usage: sack_compare_tables.py [DATA_DIR]   (default: docs/data/ns3 next to this checkout)

Means over the seeds (all with cross traffic). First table: goodput flow 0 / flow 1, Mbit/s
(the mean of the per-seed ratios flow 0 / flow 1; their range). Second table: the sum of the
two goodputs, Mbit/s; retransmissions, RTOs (timeouts) and fast recoveries of flow 0 / flow 1."""

import csv
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "docs", "data", "ns3")

CASES = [
    ("cubic-newreno-share", "share100-cubic+newreno", "CUBIC / NewReno, 40 ms"),
    ("cubic-two-rtts", "share100-cubic+cubic", "CUBIC 40 / 120 ms"),
    ("newreno-two-rtts", "share100-newreno+newreno", "NewReno 40 / 120 ms"),
]
NS3 = [  # (file, column label)
    ("sharing-sack-prr-ns3.37.csv", "ns-3 3.37, SACK + `TcpPrrRecovery`"),
    ("sharing-sack-prr64-ns3.37.csv", "ns-3 3.37, SACK + PRR without the wrap (`prr64`)"),
    ("sharing-sack-classic-ns3.37.csv", "ns-3 3.37, SACK + `TcpClassicRecovery`"),
]
OURS = [  # (variant, column label)
    ("sack_prr", "cwndlab, SACK + PRR (as ns-3)"),
    ("sack_prr_linuxcubic", "cwndlab, the same with `cubic_linux`, no Reno-friendly region"),
    ("sack_prr_crb", "cwndlab, SACK + PRR-CRB"),
    ("sack_6675", "cwndlab, SACK + RFC 6675's window"),
    ("rack_tlp", "cwndlab, SACK + PRR + RACK-TLP"),
]


def mean(xs):
    return sum(xs) / len(xs)


def stats(runs):
    """runs: {seed: {flow: (goodput, retx, rtos, recoveries)}} -> dict of means"""
    g0 = [r[0][0] for r in runs.values()]
    g1 = [r[1][0] for r in runs.values()]
    ratio = [a / b for a, b in zip(g0, g1)]
    out = {"n": len(runs), "g0": mean(g0), "g1": mean(g1), "r": mean(ratio), "rmin": min(ratio),
           "rmax": max(ratio), "sum": mean([a + b for a, b in zip(g0, g1)])}
    for i in (0, 1):
        for k, j in (("rt", 1), ("to", 2), ("fr", 3)):
            out[f"{k}{i}"] = mean([r[i][j] for r in runs.values()])
    return out


def load_ns3(path):
    out = defaultdict(dict)  # case prefix -> seed -> flow -> tuple
    with open(path, newline="") as fh:
        for r in csv.DictReader(fh):
            if float(r["cross_mbps"]) == 0:
                continue
            prefix = re.match(r"(share100-[a-z]+\+[a-z]+)-", r["tag"]).group(1)
            out[prefix].setdefault(int(r["seed"]), {})[int(r["flow"])] = (
                float(r["goodput_mbps"]), int(r["retransmits"]), int(r["rtos"]),
                int(r["fast_recoveries"]))
    return out


def load_ours(path):
    out = defaultdict(dict)  # (case, variant) -> seed -> flow -> tuple
    with open(path, newline="") as fh:
        for r in csv.DictReader(fh):
            out[(r["case"], r["setting"])].setdefault(int(r["seed"]), {})[int(r["flow"])] = (
                float(r["goodput_bps"]) / 1e6, int(r["retransmits"]), int(r["timeouts"]),
                int(r["fast_retransmits"]))
    return out


def main():
    ours = load_ours(os.path.join(DATA, "sharing-sack-cwndlab.csv"))
    ns3 = {f: load_ns3(os.path.join(DATA, f)) for f, _ in NS3 if os.path.exists(os.path.join(DATA, f))}
    cols = [(lab, ("ns3", f)) for f, lab in NS3 if f in ns3] + [(lab, ("ours", v)) for v, lab in OURS]

    def get(case, src):
        kind, key = src
        if kind == "ns3":
            prefix = next(p for c, p, _ in CASES if c == case)
            return stats(ns3[key][prefix])
        return stats(ours[(case, key)])

    # goodput flow 0 / flow 1 (mean ratio; per-seed range), one row per run, one column per case
    print("| run | " + " | ".join(label for _, _, label in CASES) + " |")
    print("|---|" + "---|" * len(CASES))
    for lab, src in cols:
        cells = []
        for case, _, _ in CASES:
            s = get(case, src)
            cells.append(f"{s['g0']:.1f} / {s['g1']:.1f} ({s['r']:.2f}; {s['rmin']:.2f}–{s['rmax']:.2f})")
        print(f"| {lab} | " + " | ".join(cells) + " |")
    print()
    # per case: sum of goodputs; retransmissions, RTOs and fast recoveries of flow 0 / flow 1
    print("| run | " + " | ".join(label for _, _, label in CASES) + " |")
    print("|---|" + "---|" * len(CASES))
    for lab, src in cols:
        cells = []
        for case, _, _ in CASES:
            s = get(case, src)
            cells.append(f"{s['sum']:.1f}; {s['rt0']:.0f} / {s['rt1']:.0f}; {s['to0']:.1f} / "
                         f"{s['to1']:.1f}; {s['fr0']:.1f} / {s['fr1']:.1f}")
        print(f"| {lab} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
