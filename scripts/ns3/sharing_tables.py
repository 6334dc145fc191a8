#!/usr/bin/env python3
"""sharing_tables.py -- markdown tables from bbr_reference's <tag>.flows.csv files for the
two-flow sharing cases (run_sharing.sh; README-sharing.md).

Usage: sharing_tables.py [--csv FILE] DIR [DIR ...]   (prints markdown on stdout; --csv also
       writes one row per run and flow with the columns the tables use, CSV_COLUMNS)

First one table with one row per case (means over the seeds, the per-seed ratio's range), then
one table per case (the tag without its seed, and the ns-3 version) with one row per seed and a
mean row. Goodput = bytes delivered to the flow's sink over [t0, t0 + duration] (t0 = the first
data segment), and over its second half; ratio = flow 0 / flow 1 (per seed; the mean row gives
the mean of the per-seed ratios)."""

import re
import sys
from collections import OrderedDict


from bbr_tables import load  # the runs' *.flows.csv rows, shared with the BBR tables


def cases(rows):
    """{(ns3, tag without seed): {seed: [flow 0 row, flow 1 row]}}"""
    out = OrderedDict()
    for r in sorted(rows, key=lambda r: (r["ns3"], r["tag"], int(r["seed"]), int(r["flow"]))):
        key = (r["ns3"], re.sub(r"-s\d+$", "", r["tag"]))
        out.setdefault(key, OrderedDict()).setdefault(int(r["seed"]), []).append(r)
    return out


def label(flow_rows):
    """'cubic 40 ms / newreno 40 ms' from the flows' algorithms and base RTTs."""
    parts = []
    for r in flow_rows:
        # base RTT: 2 x (bottleneck delay + sender access + 1 ms receiver access); the bottleneck
        # delay is not in flows.csv, but min SRTT is the base RTT plus serialisation (< 0.1 ms)
        parts.append(f"{r['algo']} {float(r['min_srtt_ms']):.0f} ms")
    return " / ".join(parts)


def open_retx(r):
    return r.get("retransmits_open") or "?"


def f(x, p=2):
    return f"{x:.{p}f}"


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def per_seed(key, seeds):
    ns3, tag = key
    first = next(iter(seeds.values()))
    dur = first[0]["duration_s"]
    mpp = float(first[0]["ms_per_pkt"])
    cross = float(first[0].get("cross_mbps") or 0)
    out = [
        f"### {tag} (ns-3 {ns3}, {float(dur):g} s; {label(first)}; cross traffic "
        + (f"{cross:g} Mbit/s Poisson" if cross else "none")
        + ")",
        "",
        "| seed | goodput flow 0 / flow 1, Mbit/s | ratio | sum | 2nd half: flow 0 / flow 1 (ratio) "
        "| retransmits 0 / 1 (of them in CA_OPEN/DISORDER) | fast recoveries 0 / 1 | RTOs 0 / 1 "
        "| bottleneck drops 0 / 1 / cross "
        "| bottleneck queue mean, pkts (ms) | cross delivered / sent |",
        "|" + "---|" * 11,
    ]
    acc = {k: [] for k in ("g0", "g1", "r", "sum", "h0", "h1", "hr", "q", "rt0", "rt1", "to0", "to1")}
    for seed, (a, b) in seeds.items():
        g0, g1 = float(a["goodput_mbps"]), float(b["goodput_mbps"])
        h0, h1 = float(a["goodput_2nd_half_mbps"]), float(b["goodput_2nd_half_mbps"])
        q = float(a["queue_mean_pkts"])
        acc["g0"].append(g0)
        acc["g1"].append(g1)
        acc["r"].append(g0 / g1 if g1 else float("inf"))
        acc["sum"].append(g0 + g1)
        acc["h0"].append(h0)
        acc["h1"].append(h1)
        acc["hr"].append(h0 / h1 if h1 else float("inf"))
        acc["q"].append(q)
        for i, r in enumerate((a, b)):
            acc[f"rt{i}"].append(int(r["retransmits"]))
            acc[f"to{i}"].append(int(r["rtos"]))
        out.append(
            f"| {seed} | {f(g0)} / {f(g1)} | {f(acc['r'][-1])} | {f(g0 + g1)} "
            f"| {f(h0)} / {f(h1)} ({f(acc['hr'][-1])}) "
            f"| {a['retransmits']} / {b['retransmits']} ({open_retx(a)} / {open_retx(b)}) "
            f"| {a['fast_recoveries']} / {b['fast_recoveries']} | {a['rtos']} / {b['rtos']} "
            f"| {a['bottleneck_drops']} / {b['bottleneck_drops']} / {a.get('cross_drops', '')} "
            f"| {f(q)} ({f(q * mpp)}) | {a.get('cross_delivered', '')} / {a.get('cross_sent', '')} |"
        )
    if len(seeds) > 1:
        out.append(
            f"| mean | {f(mean(acc['g0']))} / {f(mean(acc['g1']))} | {f(mean(acc['r']))} "
            f"| {f(mean(acc['sum']))} | {f(mean(acc['h0']))} / {f(mean(acc['h1']))} "
            f"({f(mean(acc['hr']))}) | {f(mean(acc['rt0']), 0)} / {f(mean(acc['rt1']), 0)} | "
            f"| {f(mean(acc['to0']), 1)} / {f(mean(acc['to1']), 1)} | | {f(mean(acc['q']))} "
            f"({f(mean(acc['q']) * mpp)}) | |"
        )
    return out, acc, label(first)


CSV_COLUMNS = [
    "tag", "ns3", "sack", "recovery", "seed", "duration_s", "flow", "algo", "access_delay_ms",
    "min_srtt_ms", "goodput_mbps", "goodput_2nd_half_mbps", "data_segments", "retransmits",
    "retransmits_open", "fast_recoveries", "rtos", "bottleneck_drops", "nic_drops",
    "mean_cwnd_segs", "queue_mean_pkts", "queue_max_pkts", "cross_mbps", "cross_drops",
]


def write_csv(path, rows):
    import csv

    rows = sorted(rows, key=lambda r: (r["ns3"], re.sub(r"-s\d+$", "", r["tag"]), int(r["seed"]),
                                       int(r["flow"])))
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(CSV_COLUMNS)
        for r in rows:
            # runs made before the recovery column existed used TcpClassicRecovery
            w.writerow([r.get(c) or ("classic" if c == "recovery" else "") for c in CSV_COLUMNS])


def main(argv):
    csv_path = None
    if argv[:1] == ["--csv"]:
        csv_path, argv = argv[1], argv[2:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    rows = load(argv)
    if csv_path:
        write_csv(csv_path, rows)
    cs = cases(rows)
    compact = [
        "| case | ns-3 | flows | seeds | goodput flow 0 / flow 1, Mbit/s (mean) "
        "| ratio per seed: range (mean) | 2nd half: flow 0 / flow 1 (mean ratio) "
        "| queue mean, pkts | retransmits 0 / 1 (mean) | RTOs 0 / 1 (mean) |",
        "|" + "---|" * 10,
    ]
    detail = []
    for key, seeds in cs.items():
        lines, acc, lab = per_seed(key, seeds)
        detail += lines + [""]
        compact.append(
            f"| {key[1]} | {key[0]} | {lab} | {len(seeds)} "
            f"| {f(mean(acc['g0']))} / {f(mean(acc['g1']))} "
            f"| {f(min(acc['r']))}–{f(max(acc['r']))} ({f(mean(acc['r']))}) "
            f"| {f(mean(acc['h0']))} / {f(mean(acc['h1']))} ({f(mean(acc['hr']))}) "
            f"| {f(mean(acc['q']), 1)} | {f(mean(acc['rt0']), 0)} / {f(mean(acc['rt1']), 0)} "
            f"| {f(mean(acc['to0']), 1)} / {f(mean(acc['to1']), 1)} |"
        )
    print("## All cases, means over the seeds\n")
    print("\n".join(compact))
    print("\n## Per case and seed\n")
    print("\n".join(detail).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
