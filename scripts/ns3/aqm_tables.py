#!/usr/bin/env python3
"""aqm_tables.py -- markdown tables of the queue-discipline comparison (README-aqm.md) from the
runs.csv files aqm_reference.cc and cwndlab_aqm.py write: one row per case and simulator, means
over the seeds (the seeds' range in brackets where there are several) of the total goodput, the
queueing delay (mean, p50, p99), the queue, early drops, overflow drops and CE marks.

Usage: aqm_tables.py RUNS.csv [RUNS.csv ...] [--csv SUMMARY.csv]"""
import csv
import sys
from collections import OrderedDict


def fmt(v, d=1):
    return f"{v:.{d}f}"


def main():
    args = sys.argv[1:]
    out_csv = None
    if "--csv" in args:
        i = args.index("--csv")
        out_csv = args[i + 1]
        del args[i:i + 2]
    runs = OrderedDict()  # (qdisc, algos, ecn) -> simulator -> seed -> [rows]
    for p in args:
        with open(p) as f:
            for r in csv.DictReader(f):
                key = (r["qdisc"], r["algos"], r["ecn"], r["recovery"])
                runs.setdefault(key, OrderedDict()).setdefault(r["simulator"], {}).setdefault(
                    r["seed"], []).append(r)
    order = ["droptail", "red", "codel", "fq_codel", "pie", "step"]
    keys = sorted(runs, key=lambda k: (k[3] != "classic", order.index(k[0]), k[1], k[2]))
    print("| discipline | flows | ECN | recovery | simulator | seeds | goodput, Mbit/s | qdelay mean / p50 / p99, ms "
          "| queue mean (p1–p99), pkts | early drops | overflow drops | CE marks | recoveries / RTOs per flow | per flow, Mbit/s (α) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    summary = []
    for k in keys:
        for sim, seeds in runs[k].items():
            firsts = [rows[0] for rows in seeds.values()]
            n = len(firsts)

            def mean(c):
                return sum(float(r[c]) for r in firsts) / n

            def rng(c, d=1):
                v = [float(r[c]) for r in firsts]
                m = sum(v) / n
                return fmt(m, d) if n == 1 else f"{fmt(m, d)} ({fmt(min(v), d)}–{fmt(max(v), d)})"

            nflows = len(k[1].split("+"))
            per = []
            for i in range(nflows):
                g = sum(float(rows[i]["goodput_bps"]) for rows in seeds.values()) / n / 1e6
                al = [float(rows[i]["dctcp_alpha_mean"]) for rows in seeds.values()
                      if rows[i]["dctcp_alpha_mean"]]
                a = f" (α {sum(al) / len(al):.3f})" if al else ""
                per.append(f"{firsts[0]['algo'] if nflows == 1 else next(iter(seeds.values()))[i]['algo']} {g:.2f}{a}")
            rec = []
            for i in range(nflows):
                fr = sum(float(rows[i]["fast_recoveries"]) for rows in seeds.values()) / n
                to = sum(float(rows[i]["timeouts"]) for rows in seeds.values()) / n
                rec.append(f"{fr:.1f} / {to:.1f}")
            print(f"| {k[0]} | {k[1].replace('+', ', ')} | {'on' if k[2] == '1' else 'off'} | {k[3]} | {sim} | {n} "
                  f"| {fmt(mean('total_goodput_bps') / 1e6, 2)} "
                  f"| {fmt(mean('qdelay_mean_ms'))} / {fmt(mean('qdelay_p50_ms'))} / {fmt(mean('qdelay_p99_ms'))} "
                  f"| {fmt(mean('queue_mean_pkts'))} ({fmt(mean('queue_p1_pkts'), 0)}–{fmt(mean('queue_p99_pkts'), 0)}) "
                  f"| {rng('early_drops', 0)} | {rng('overflow_drops', 0)} | {rng('ce_marks', 0)} "
                  f"| {'; '.join(rec)} | {'; '.join(per)} |")
            summary.append([k[0], k[1], k[2], k[3], sim, n] + [f"{mean(c):.6g}" for c in (
                "total_goodput_bps", "qdelay_mean_ms", "qdelay_p50_ms", "qdelay_p99_ms",
                "queue_mean_pkts", "early_drops", "overflow_drops", "ce_marks")])
    if out_csv:
        with open(out_csv, "w") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["qdisc", "algos", "ecn", "recovery", "simulator", "seeds", "goodput_bps",
                        "qdelay_mean_ms", "qdelay_p50_ms", "qdelay_p99_ms", "queue_mean_pkts",
                        "early_drops", "overflow_drops", "ce_marks"])
            w.writerows(summary)


if __name__ == "__main__":
    main()
