#!/usr/bin/env python3
"""bbr_tables.py -- markdown tables from bbr_reference's <tag>.flows.csv files.

Usage: bbr_tables.py [--compact] DIR [DIR ...]   (prints markdown on stdout)

One table per case (the tag without its seed, and the ns-3 version), one row per seed, and a
mean row; with --compact, one table with one row per case (means over the seeds, ranges
where noted). Times are aligned: seconds after the first data segment. "ProbeRTT (exact)" is from
TcpBbr's own mode (TcpBbrTraced), "cwnd dips" from the cwnd trace alone (cwnd <= 4*MSS)."""

import csv
import glob
import os
import re
import sys
from collections import OrderedDict


def load(dirs):
    rows = []
    for d in dirs:
        for p in sorted(glob.glob(os.path.join(d, "*.flows.csv"))):
            with open(p, newline="") as f:
                rows.extend(csv.DictReader(f))
    return rows


def case_key(r):
    return (r["ns3"], re.sub(r"-s\d+$", "", r["tag"]))


ACCESS_MS = 1500 * 8 / 100e6 * 1e3  # one packet on a 100 Mbit/s access link, ms


def ms(pkts, ms_per_pkt):
    return float(pkts) * float(ms_per_pkt)


def dips_cell(r):
    """ProbeRTT as seen in the cwnd trace, compared with the exact mode log."""
    exact = r["probertt_exact"].split(": ", 1)
    dips = r["probertt_cwnd_dips"].split(": ", 1)
    n = int(dips[0]) if dips[0] else 0
    dlist = dips[1].split() if len(dips) > 1 else []
    elist = exact[1].split() if len(exact) > 1 else []
    if dlist == elist:
        return "same as exact" if n else "none"
    in_open = [d for d in dlist if "[ca" not in d]
    s = f"{n} ({len(in_open)} in CA_OPEN)"
    if n <= 4:
        s += ": " + " ".join(dlist)
    elif in_open and len(in_open) <= 4:
        s += "; in CA_OPEN: " + " ".join(in_open)
    return s


def exact_cell(r):
    e = r["probertt_exact"].split(": ", 1)
    if not e[0]:
        return ""
    return e[1] if len(e) > 1 and e[1] else "none"


def bw_cell(r):
    if not r["max_btlbw_mbps"]:
        return ""
    return f"{r['min_btlbw_mbps']}–{r['max_btlbw_mbps']}"


def single_table(rows):
    r0 = rows[0]
    mpp = float(r0["ms_per_pkt"])
    out = []
    out.append(
        "| seed | goodput, Mbit/s (2nd half) | bottleneck queue mean / max, pkts (ms) "
        "| sender access queue mean / max, pkts (ms) | retransmits | fast recoveries / RTOs "
        "| access drops | STARTUP→DRAIN, s | DRAIN→PROBE_BW, s (first gain) "
        "| ProbeRTT (exact): start+duration | cwnd dips ≤ 4 MSS | BtlBw estimate min–max, Mbit/s |"
    )
    out.append("|" + "---|" * 12)
    for r in rows:
        out.append(
            f"| {r['seed']} | {r['goodput_mbps']} ({r['goodput_2nd_half_mbps']}) "
            f"| {r['queue_mean_pkts']} / {r['queue_max_pkts']} "
            f"({ms(r['queue_mean_pkts'], mpp):.1f} / {ms(r['queue_max_pkts'], mpp):.1f}) "
            f"| {r['nic_queue_mean_pkts']} / {r['nic_queue_max_pkts']} "
            f"({ms(r['nic_queue_mean_pkts'], ACCESS_MS):.1f} / "
            f"{ms(r['nic_queue_max_pkts'], ACCESS_MS):.1f}) | {r['retransmits']} "
            f"| {r['fast_recoveries']} / {r['rtos']} | {r['nic_drops']} | {r['startup_exit_s']} "
            f"| {r['drain_exit_s']}"
            f"{' (' + r['first_probebw_gain'] + ')' if r['first_probebw_gain'] else ''} "
            f"| {exact_cell(r)} "
            f"| {dips_cell(r)} | {bw_cell(r)} |"
        )
    n = len(rows)
    mean = lambda k: sum(float(r[k]) for r in rows) / n
    out.append(
        f"| mean | {mean('goodput_mbps'):.3f} ({mean('goodput_2nd_half_mbps'):.3f}) "
        f"| {mean('queue_mean_pkts'):.2f} / {mean('queue_max_pkts'):.1f} "
        f"({mean('queue_mean_pkts') * mpp:.1f} / {mean('queue_max_pkts') * mpp:.1f}) "
        f"| {mean('nic_queue_mean_pkts'):.2f} / {mean('nic_queue_max_pkts'):.0f} "
        f"({mean('nic_queue_mean_pkts') * ACCESS_MS:.1f} / "
        f"{mean('nic_queue_max_pkts') * ACCESS_MS:.1f}) "
        f"| {mean('retransmits'):.0f} | | | | | | | |"
    )
    return out


def pair_table(runs):
    """runs: list of (seed, [flow rows]) with two flows each."""
    r0 = runs[0][1][0]
    mpp = float(r0["ms_per_pkt"])
    a, b = runs[0][1][0]["algo"].upper(), runs[0][1][1]["algo"].upper()
    out = []
    out.append(
        f"| seed | {a}, Mbit/s (2nd half) | {b}, Mbit/s (2nd half) | Jain (2nd half) "
        "| queue mean / max, pkts (ms) | queue mean, 2nd half, pkts (ms) "
        f"| retransmits {a} / {b} | fast rec. {a} / {b} | RTOs {a} / {b} "
        f"| bottleneck drops {a} / {b} | {a} STARTUP→DRAIN, s | {a} ProbeRTT (exact) "
        f"| {a} cwnd dips ≤ 4 MSS | {a} BtlBw min–max, Mbit/s |"
    )
    out.append("|" + "---|" * 14)
    for seed, (x, y) in runs:
        bbr = x if x["algo"] == "bbr" else y
        out.append(
            f"| {seed} | {x['goodput_mbps']} ({x['goodput_2nd_half_mbps']}) "
            f"| {y['goodput_mbps']} ({y['goodput_2nd_half_mbps']}) | {x['jain_2nd_half']} "
            f"| {x['queue_mean_pkts']} / {x['queue_max_pkts']} "
            f"({ms(x['queue_mean_pkts'], mpp):.1f} / {ms(x['queue_max_pkts'], mpp):.1f}) "
            f"| {x['queue_mean_2nd_pkts']} ({ms(x['queue_mean_2nd_pkts'], mpp):.1f}) "
            f"| {x['retransmits']} / {y['retransmits']} "
            f"| {x['fast_recoveries']} / {y['fast_recoveries']} | {x['rtos']} / {y['rtos']} "
            f"| {x['bottleneck_drops']} / {y['bottleneck_drops']} | {bbr['startup_exit_s']} "
            f"| {exact_cell(bbr)} | {dips_cell(bbr)} | {bw_cell(bbr)} |"
        )
    n = len(runs)
    m = lambda i, k: sum(float(fl[i][k]) for _, fl in runs) / n
    out.append(
        f"| mean | {m(0, 'goodput_mbps'):.3f} ({m(0, 'goodput_2nd_half_mbps'):.3f}) "
        f"| {m(1, 'goodput_mbps'):.3f} ({m(1, 'goodput_2nd_half_mbps'):.3f}) "
        f"| {m(0, 'jain_2nd_half'):.4f} "
        f"| {m(0, 'queue_mean_pkts'):.2f} / {m(0, 'queue_max_pkts'):.1f} "
        f"({m(0, 'queue_mean_pkts') * mpp:.1f} / {m(0, 'queue_max_pkts') * mpp:.1f}) "
        f"| {m(0, 'queue_mean_2nd_pkts'):.2f} ({m(0, 'queue_mean_2nd_pkts') * mpp:.1f}) "
        f"| {m(0, 'retransmits'):.0f} / {m(1, 'retransmits'):.0f} | | "
        f"| {m(0, 'bottleneck_drops'):.0f} / {m(1, 'bottleneck_drops'):.0f} | | | | |"
    )
    return out


def variant(r):
    v = []
    if r["sack"] == "1":
        v.append("SACK on")
    if "-lt" in r["tag"]:
        v.append("Limited Transmit on")
    if r["access_pkts"] != "1000":
        v.append(f"access queue {r['access_pkts']}")
    return ", ".join(v) if v else "as cwndlab"


def compact(cases):
    print("| case | ns-3 | variant | seeds | goodput per flow, Mbit/s: window (2nd half) "
          "| queue mean, pkts: bottleneck / each sender's access link | retransmits per flow | RTOs per flow "
          "| BBR BtlBw estimate, min–max over seeds, Mbit/s |")
    print("|" + "---|" * 9)
    for (ver, key), seeds in cases.items():
        runs = [sorted(fl, key=lambda r: int(r["flow"])) for _, fl in sorted(seeds.items())]
        n = len(runs)
        nf = len(runs[0])
        m = lambda i, k: sum(float(fl[i][k]) for fl in runs) / n
        gp = "; ".join(f"{runs[0][i]['algo']} {m(i, 'goodput_mbps'):.2f} "
                       f"({m(i, 'goodput_2nd_half_mbps'):.2f})" for i in range(nf))
        rtx = " / ".join(f"{m(i, 'retransmits'):.0f}" for i in range(nf))
        rto = " / ".join(f"{m(i, 'rtos'):.1f}" for i in range(nf))
        acc = " / ".join(f"{m(i, 'nic_queue_mean_pkts'):.1f}" for i in range(nf))
        bw = ""
        for i in range(nf):
            if runs[0][i]["algo"] == "bbr" and runs[0][i]["max_btlbw_mbps"]:
                lo = min(float(fl[i]["min_btlbw_mbps"] or 0) for fl in runs)
                hi = max(float(fl[i]["max_btlbw_mbps"]) for fl in runs)
                link = 1500 * 8 / float(runs[0][i]["ms_per_pkt"]) / 1e3 * 1460 / 1500
                bw = f"{lo:.3f}–{hi:.1f} (link {link:.2f})"
        print(f"| {key} | {ver} | {variant(runs[0][0])} | {n} | {gp} "
              f"| {m(0, 'queue_mean_pkts'):.1f} / {acc} | {rtx} | {rto} | {bw} |")


def main():
    args = sys.argv[1:]
    compact_mode = "--compact" in args
    args = [a for a in args if a != "--compact"]
    rows = load(args)
    rows.sort(key=lambda r: (r["ns3"], r["sack"], "-lt" in r["tag"], int(r["access_pkts"]),
                             "+" in r["tag"], r["scenario"], int(r["buffer_pkts"]), r["tag"],
                             int(r["flow"])))
    cases = OrderedDict()
    for r in rows:
        cases.setdefault(case_key(r), {}).setdefault(int(r["seed"]), []).append(r)
    if compact_mode:
        compact(cases)
        return
    for (ver, key), seeds in cases.items():
        runs = [(s, sorted(fl, key=lambda r: int(r["flow"]))) for s, fl in sorted(seeds.items())]
        r0 = runs[0][1][0]
        print(f"### {key} (ns-3 {ver}{', SACK on' if r0['sack'] == '1' else ''}, "
              f"{r0['duration_s']} s, buffer {r0['buffer_pkts']} pkts = "
              f"{float(r0['buffer_pkts']) * float(r0['ms_per_pkt']):.1f} ms)\n")
        if len(runs[0][1]) == 1:
            lines = single_table([fl[0] for _, fl in runs])
        elif len(runs[0][1]) == 2:
            lines = pair_table(runs)
        else:
            lines = ["(more than two flows: see the summaries)"]
        print("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
