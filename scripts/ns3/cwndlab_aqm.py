#!/usr/bin/env python3
"""cwndlab_aqm.py -- cwndlab's side of the queue-discipline, ECN and DCTCP comparison with ns-3
(README-aqm.md): runs the built CLI on the path of aqm_reference.cc and appends one CSV row per
flow to OUT/runs.csv with the columns aqm_reference writes.

Usage: cwndlab_aqm.py --qdisc Q --algos a,b [--ecn] [--nosack] [--seed N] [--duration S]
                      [--budget prr_ssrb|rfc6675]
                      [--warmup S] [--step-k K] [--red a=b ...] [--bin PATH] [--out DIR]
       cwndlab_aqm.py --scenario-only ...   (print the scenario JSON and stop)

Path: every flow has its own 100 Mbit/s, 1 ms access links (cwndlab's defaults) and shares a
10 Mbit/s, 48 ms bottleneck (base RTT 100 ms) with a 1 000-packet buffer; MSS 1460, IW 10,
rwnd 100 MB, no delayed ACK (cwndlab's default); SACK with PRR (ns-3 3.37's default recovery,
TcpPrrRecovery, SSRB) or, with --budget rfc6675, RFC 6675's window (ns-3's TcpClassicRecovery
with SACK), and without RACK, TLP, early retransmit or D-SACK, which 3.37 lacks; 4 SACK
blocks. --ecn: flows[].ecn = rfc3168 for the loss-based flows; DCTCP flows always run
flows[].ecn = dctcp.

Measured over [warmup, duration], as aqm_reference.cc measures:
- goodput: bytes delivered in order (throughput.csv's delivered_bytes, bins from warmup on);
- queueing delay of every data packet: the run is made twice, with --pcap at the sender (each
  packet stamped when its transmission onto the access link starts) and at the bottleneck
  (when its transmission onto the bottleneck starts); the delay is the difference less the
  access link's 0.12 ms of serialisation and 1 ms of propagation, i.e. from the packet's entry
  into the bottleneck queue to the start of its transmission (the engine's own definition of
  qdelay). The j-th copy of a segment seen at the bottleneck is the j-th of its transmissions
  that the bottleneck did not drop (events.csv's queue_drop and aqm_drop rows name the
  transmission);
- the queue every 1 ms (queue_bottleneck.csv: waiting plus in transmission);
- early (discipline) drops = aqm_drop rows, overflow drops = the rest of the flows' queue drops,
  CE marks (summary), DCTCP's alpha (mean of the dctcp_alpha rows' values after warmup), and
  each flow's fast retransmits (entries into recovery) and timeouts over the whole run.
"""

import argparse
import bisect
import csv
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BIN = os.path.join(HERE, "..", "..", "engine", "target", "release", "cwndlab")
ACCESS_S = 1500 * 8 / 100e6 + 0.001  # access serialisation + propagation

SACK_PRR = {"enabled": True, "budget": "prr_ssrb", "rack": False, "tlp": False,
            "early_retransmit": False, "dsack": False, "blocks": 4}

COLUMNS = ("simulator,qdisc,algos,ecn,sack,recovery,seed,duration_s,warmup_s,flow,algo,goodput_bps,"
           "total_goodput_bps,qdelay_mean_ms,qdelay_p50_ms,qdelay_p99_ms,queue_mean_pkts,"
           "queue_p1_pkts,queue_p99_pkts,early_drops,overflow_drops,ce_marks,dctcp_alpha_mean,"
           "fast_recoveries,timeouts")


def scenario(a):
    bott = {"bandwidth": 10_000_000, "delay": 0.048, "queue_packets": 1000,
            "qdisc": "droptail" if a.qdisc == "droptail" else a.qdisc,
            "loss": {"model": "none"}, "reverse_loss": {"model": "none"}}
    if a.qdisc == "step":
        bott["step"] = {"k": a.step_k}
    if a.qdisc == "red":
        red = {"min_th": 5, "max_th": 15, "max_p": 0.02, "w_q": 0.002, "gentle": False,
               "bytes": False, "packet_size": 500}
        for kv in a.red:
            k, v = kv.split("=")
            red[k] = json.loads(v)
        bott["red"] = red
    flows = []
    for alg in a.algos.split(","):
        f = {"algorithm": alg, "tcp": {"rwnd": 100_000_000, "initial_window": 10},
             "app": {"kind": "bulk"}}
        if a.sack:
            f["sack"] = dict(SACK_PRR, budget=a.budget)
        if alg == "dctcp":
            f["ecn"] = "dctcp"
        elif a.ecn:
            f["ecn"] = "rfc3168"
        flows.append(f)
    return {"duration": a.duration, "seed": a.seed, "trace": {"throughput_bin": 0.1},
            "network": {"bottleneck": bott}, "flows": flows}


def read_pcap(path):
    """(time_s, sport, seq) of every data segment (payload > 0) in a raw-IPv4 pcap."""
    out = []
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    scale = 1e-9 if magic == 0xA1B23C4D else 1e-6
    i = 24
    while i + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack("<IIII", data[i:i + 16])
        p = data[i + 16:i + 16 + incl]
        i += 16 + incl
        if len(p) < 20 or p[9] != 6:
            continue
        ihl = (p[0] & 15) * 4
        total = struct.unpack(">H", p[2:4])[0]
        tcp = p[ihl:]
        if len(tcp) < 20:
            continue
        sport = struct.unpack(">H", tcp[0:2])[0]
        seq = struct.unpack(">I", tcp[4:8])[0]
        doff = (tcp[12] >> 4) * 4
        if total - ihl - doff > 0 and sport >= 40000:
            out.append((sec + frac * scale, sport, seq))
    return out


def pct(v, p):
    if not v:
        return float("nan")
    v = sorted(v)
    return v[min(len(v) - 1, int(math.floor(p / 100 * (len(v) - 1) + 0.5)))]


def run(a):
    scen = scenario(a)
    with tempfile.TemporaryDirectory() as d:
        sj = os.path.join(d, "s.json")
        with open(sj, "w") as f:
            json.dump(scen, f)
        base = [a.bin, "run", sj, "-q", "--format", "json"]
        summ = json.loads(subprocess.run(base + ["--out", os.path.join(d, "t"), "--pcap",
                                                 os.path.join(d, "s.pcap")],
                                         check=True, capture_output=True, text=True).stdout)
        subprocess.run(base + ["--pcap", os.path.join(d, "b.pcap"), "--pcap-point",
                               "bottleneck"], check=True, capture_output=True)
        # the events' drops at the bottleneck: (port, pcap seq, transmission number)
        dropped = set()
        early_rows = []
        alpha_rows = []
        with open(os.path.join(d, "t", "events.csv")) as f:
            for r in csv.DictReader(f):
                k = r["kind"]
                if k in ("aqm_drop", "queue_drop"):
                    dropped.add((40000 + int(r["flow"]), int(r["seq"]) + 1, int(r["tx"])))
                    if k == "aqm_drop":
                        early_rows.append(int(r["flow"]))
                elif k == "dctcp_alpha" and float(r["time_s"]) >= a.warmup:
                    alpha_rows.append((int(r["flow"]), int(r["seq"]) / 1024))
        sent = {}
        for t, port, seq in read_pcap(os.path.join(d, "s.pcap")):
            sent.setdefault((port, seq), []).append(t)
        # the copies of a segment that reached the bottleneck, in transmission order (each
        # flow's packets leave its queue in the order they came, under every discipline here)
        alive = {key: [t for k, t in enumerate(ts) if (key[0], key[1], k + 1) not in dropped]
                 for key, ts in sent.items()}
        seen = {}
        delays = []
        for t, port, seq in read_pcap(os.path.join(d, "b.pcap")):
            j = seen.get((port, seq), 0)
            seen[(port, seq)] = j + 1
            ts = alive.get((port, seq), [])
            if j < len(ts) and t >= a.warmup:
                delays.append(t - ts[j] - ACCESS_S)
        # queue every 1 ms
        qt, qp = [], []
        with open(os.path.join(d, "t", "queue_bottleneck.csv")) as f:
            for r in csv.DictReader(f):
                qt.append(float(r["time_s"]))
                qp.append(int(r["packets"]))
        q = []
        ms = int(round(a.warmup * 1000))
        while ms <= int(round(a.duration * 1000)):
            k = bisect.bisect_right(qt, ms / 1000) - 1
            q.append(qp[k] if k >= 0 else 0)
            ms += 1
        n = len(scen["flows"])
        good = [0] * n
        with open(os.path.join(d, "t", "throughput.csv")) as f:
            for r in csv.DictReader(f):
                if r["class"].startswith("flow ") and float(r["bin_start_s"]) >= a.warmup - 1e-9:
                    good[int(r["class"][5:])] += int(r["delivered_bytes"])
        early = [0] * n
        for i in early_rows:
            early[i] += 1
        alpha = [[] for _ in range(n)]
        for i, x in alpha_rows:
            alpha[i].append(x)
    span = a.duration - a.warmup
    fl = summ["flows"]
    e = sum(early)
    over = sum(x["drops"]["queue"] for x in fl) - e
    marks = sum(x["drops"]["ce_marks"] for x in fl)
    rows = []
    for i, alg in enumerate(a.algos.split(",")):
        rows.append(["cwndlab", a.qdisc, a.algos.replace(",", "+"), int(a.ecn), int(a.sack),
                     {"prr_ssrb": "prr", "rfc6675": "classic"}[a.budget], a.seed, a.duration, a.warmup, i, alg, good[i] * 8 / span,
                     sum(good) * 8 / span, 1e3 * sum(delays) / max(1, len(delays)),
                     1e3 * pct(delays, 50), 1e3 * pct(delays, 99), sum(q) / len(q),
                     pct(q, 1), pct(q, 99), e, over, marks,
                     sum(alpha[i]) / len(alpha[i]) if alpha[i] else "",
                     fl[i]["fast_retransmits"], fl[i]["timeouts"]])
    return scen, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qdisc", default="codel")
    ap.add_argument("--algos", default="cubic,cubic")
    ap.add_argument("--ecn", action="store_true")
    ap.add_argument("--nosack", dest="sack", action="store_false")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", default="prr_ssrb", choices=["prr_ssrb", "rfc6675"],
                    help="flows[].sack.budget: prr_ssrb (as ns-3's TcpPrrRecovery, the "
                         "recovery column's prr) or rfc6675 (cwnd = ssthresh through the "
                         "recovery, as ns-3's TcpClassicRecovery with SACK: classic)")
    ap.add_argument("--duration", type=float, default=60)
    ap.add_argument("--warmup", type=float, default=10)
    ap.add_argument("--step-k", type=int, default=20)
    ap.add_argument("--red", nargs="*", default=[])
    ap.add_argument("--bin", default=DEFAULT_BIN)
    ap.add_argument("--out", default=".")
    ap.add_argument("--scenario-only", action="store_true")
    a = ap.parse_args()
    if a.scenario_only:
        json.dump(scenario(a), sys.stdout, indent=1)
        print()
        return
    _, rows = run(a)
    path = os.path.join(a.out, "runs.csv")
    fresh = not os.path.exists(path)
    with open(path, "a") as f:
        if fresh:
            f.write(COLUMNS + "\n")
        w = csv.writer(f, lineterminator="\n")
        for r in rows:
            w.writerow([f"{x:.6g}" if isinstance(x, float) else x for x in r])
    r = rows[0]
    c = dict(zip(COLUMNS.split(","), r))
    print(f"cwndlab {a.qdisc} {a.algos} ecn={int(a.ecn)} {a.budget} s{a.seed}: goodput "
          f"{c['total_goodput_bps'] / 1e6:.3f} Mbit/s, qdelay mean {c['qdelay_mean_ms']:.2f} "
          f"p99 {c['qdelay_p99_ms']:.2f} ms, queue {c['queue_mean_pkts']:.1f}, early "
          f"{c['early_drops']} overflow {c['overflow_drops']} marks {c['ce_marks']}")


if __name__ == "__main__":
    main()
