#!/usr/bin/env python3
"""red_compare.py -- ns-2.35's Queue/RED against cwndlab's RED on the same dumbbell
(README-red.md): N TCP/Sack1 flows in ns-2 (red-dumbbell.tcl), N NewReno flows with SACK
(RFC 6675's recovery, no RACK/TLP/early retransmit/D-SACK) in cwndlab, 10 Mbit/s, 48 ms
bottleneck, 100 Mbit/s 1 ms access links, 1 000-packet buffer, RED min_th 5, max_th 15,
max_p 0.1, w_q 0.002, gentle, packet mode, wait off.

Usage: red_compare.py [--flows 2] [--seeds 1,2,3,4,5] [--duration 60] [--warmup 10]
                      [--bin PATH] [--out DIR]
Writes DIR/red-runs.csv (one row per simulator and seed) and DIR/red-queue-s1-<sim>.csv (the
queue every 0.1 s of seed 1: waiting packets, not counting the one in transmission, and for
ns-2 RED's average ave_), and prints a markdown table.

Measured over [warmup, duration]: total goodput (ns-2: the ACKed segments × 1460 B; cwndlab:
bytes delivered), the waiting queue's time average (ns-2: its queue trace's enqueues and
dequeues; cwndlab: queue_bottleneck.csv less the packet in transmission), ns-2's ave_ time
average, and over the whole run each flow's timeouts (ns-2's nrexmit_), RED's drops (ns-2: the trace's drops, early and forced
together; cwndlab: aqm_drop rows) and overflow drops (cwndlab: queue_drop rows)."""
import argparse
import bisect
import csv
import json
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BIN = os.path.join(HERE, "..", "..", "engine", "target", "release", "cwndlab")


def time_avg(ts, vs, t0, t1):
    """Time average of the step function (ts, vs) over [t0, t1]."""
    tot = 0.0
    k = bisect.bisect_right(ts, t0) - 1
    v = vs[k] if k >= 0 else 0
    t = t0
    for i in range(k + 1, len(ts)):
        if ts[i] >= t1:
            break
        tot += v * (ts[i] - t)
        t, v = ts[i], vs[i]
    tot += v * (t1 - t)
    return tot / (t1 - t0)


def samples(ts, vs, t1, step=0.1):
    out, t = [], 0.0
    while t <= t1 + 1e-9:
        k = bisect.bisect_right(ts, t) - 1
        out.append((round(t, 3), vs[k] if k >= 0 else 0))
        t += step
    return out


def ns2(a, seed, d):
    pre = os.path.join(d, f"red{seed}")
    line = subprocess.run(["ns", os.path.join(HERE, "red-dumbbell.tcl"), str(a.flows),
                           str(a.duration), str(a.warmup), pre, str(seed)],
                          check=True, capture_output=True, text=True, cwd=d).stdout.split()
    good = [float(x) for x in line[4].split(",")]
    rtos = [int(x) for x in line[5].split(",")]
    qt, qv, q, drops = [], [], 0, 0
    with open(pre + ".queue.tr") as f:
        for ln in f:
            e = ln.split(" ", 2)
            if e[0] == "+":
                q += 1
            elif e[0] == "-":
                q -= 1
            elif e[0] == "d":
                drops += 1
                q -= 1  # ns-2 traces "+" before RED decides: a drop undoes it
            else:
                continue
            qt.append(float(e[1]))
            qv.append(q)
    at, av = [], []
    with open(pre + ".red.tr") as f:
        for ln in f:
            e = ln.split()
            if e[0] == "a":
                at.append(float(e[1]))
                av.append(float(e[2]))
    row = {"simulator": "ns-2.35", "seed": seed, "goodput_bps": sum(good),
           "per_flow_bps": ";".join(f"{g:.0f}" for g in good),
           "queue_mean_pkts": time_avg(qt, qv, a.warmup, a.duration),
           "avg_mean_pkts": time_avg(at, av, a.warmup, a.duration),
           "red_drops": drops, "overflow_drops": 0, "timeouts": ";".join(map(str, rtos))}
    traj = [(t, v, w) for (t, v), (_, w) in zip(samples(qt, qv, a.duration),
                                                samples(at, av, a.duration))]
    return row, traj


def cwndlab(a, seed, d):
    sack = {"enabled": True, "budget": "rfc6675", "rack": False, "tlp": False,
            "early_retransmit": False, "dsack": False}
    flow = {"algorithm": "newreno", "tcp": {"rwnd": 100_000_000, "initial_window": 10},
            "app": {"kind": "bulk"}, "sack": sack}
    scen = {"duration": a.duration, "seed": seed, "trace": {"throughput_bin": 0.1},
            "network": {"bottleneck": {
                "bandwidth": 10_000_000, "delay": 0.048, "queue_packets": 1000, "qdisc": "red",
                "red": {"min_th": 5, "max_th": 15, "max_p": 0.1, "w_q": 0.002, "gentle": True,
                        "bytes": False, "packet_size": 500},
                "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}},
            "flows": [flow] * a.flows}
    sj = os.path.join(d, "s.json")
    with open(sj, "w") as f:
        json.dump(scen, f)
    t = os.path.join(d, f"t{seed}")
    summ = json.loads(subprocess.run([a.bin, "run", sj, "-q", "--out", t], check=True,
                                     capture_output=True, text=True).stdout)
    qt, qv = [], []
    with open(os.path.join(t, "queue_bottleneck.csv")) as f:
        for r in csv.DictReader(f):
            qt.append(float(r["time_s"]))
            qv.append(max(0, int(r["packets"]) - 1))  # less the packet in transmission
    good = [0] * a.flows
    with open(os.path.join(t, "throughput.csv")) as f:
        for r in csv.DictReader(f):
            if r["class"].startswith("flow ") and float(r["bin_start_s"]) >= a.warmup - 1e-9:
                good[int(r["class"][5:])] += int(r["delivered_bytes"]) * 8 / (a.duration - a.warmup)
    red = over = 0
    with open(os.path.join(t, "events.csv")) as f:
        for r in csv.DictReader(f):
            red += r["kind"] == "aqm_drop"
            over += r["kind"] == "queue_drop"
    row = {"simulator": "cwndlab", "seed": seed, "goodput_bps": sum(good),
           "per_flow_bps": ";".join(f"{g:.0f}" for g in good),
           "queue_mean_pkts": time_avg(qt, qv, a.warmup, a.duration), "avg_mean_pkts": "",
           "red_drops": red, "overflow_drops": over,
           "timeouts": ";".join(str(f["timeouts"]) for f in summ["flows"])}
    return row, [(t, v, "") for t, v in samples(qt, qv, a.duration)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flows", type=int, default=2)
    ap.add_argument("--seeds", default="1,2,3,4,5")
    ap.add_argument("--duration", type=float, default=60)
    ap.add_argument("--warmup", type=float, default=10)
    ap.add_argument("--bin", default=DEFAULT_BIN)
    ap.add_argument("--out", default=".")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for seed in [int(s) for s in a.seeds.split(",")]:
            for side in (ns2, cwndlab):
                row, traj = side(a, seed, d)
                rows.append(row)
                if seed == 1:
                    name = "ns2" if side is ns2 else "cwndlab"
                    with open(os.path.join(a.out, f"red-queue-s1-{name}.csv"), "w") as f:
                        f.write("time_s,waiting_pkts,ns2_avg_pkts\n")
                        for t, v, w in traj:
                            f.write(f"{t},{v},{w if w == '' else round(w, 3)}\n")
    keys = list(rows[0])
    with open(os.path.join(a.out, "red-runs.csv"), "w") as f:
        w = csv.DictWriter(f, keys, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})
    print("| simulator | seed | goodput, Mbit/s (per flow) | waiting queue, pkts | ns-2 ave_, pkts "
          "| RED drops | overflow drops | timeouts per flow |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        per = ", ".join(f"{int(x) / 1e6:.2f}" for x in r["per_flow_bps"].split(";"))
        avg = f"{r['avg_mean_pkts']:.2f}" if r["avg_mean_pkts"] != "" else "–"
        print(f"| {r['simulator']} | {r['seed']} | {r['goodput_bps'] / 1e6:.2f} ({per}) "
              f"| {r['queue_mean_pkts']:.2f} | {avg} | {r['red_drops']} | {r['overflow_drops']} "
              f"| {r['timeouts'].replace(';', ', ')} |")


if __name__ == "__main__":
    main()
