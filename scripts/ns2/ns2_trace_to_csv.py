#!/usr/bin/env python3
"""Turn the interleaved trace written by fall-floyd-sack.tcl into a per-packet CSV and a
short summary of the loss recovery.

usage: ns2_trace_to_csv.py <run.tr> <out.csv> [label]

CSV columns: event (send | ack | drop), time_s (ns-2 prints packet times rounded to the
microsecond), seq (segment number sent, ACK number received, or segment dropped), retx
(1 when a send repeats a segment already sent), cause (for a retransmission: "ack" when an
ACK arrived at the same instant, "timer" otherwise), sack_blocks (SACK blocks on the ACK),
cwnd and ssthresh in packets after the sender handled the event (ns-2's own values).
Nodes: 0 = sender s1, 2 = router r1, 3 = receiver k1.
"""
import csv
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    label = sys.argv[3] if len(sys.argv) > 3 else src
    var = {"cwnd_": None, "ssthresh_": None}
    rows = []
    pending = None  # the last ACK row: its cwnd/ssthresh are those after it was handled
    max_sent = 0
    ack_times = set()
    last_ack_no = -1

    def close_pending():
        nonlocal pending
        if pending is not None:
            pending["cwnd"], pending["ssthresh"] = var["cwnd_"], var["ssthresh_"]
            pending = None

    with open(src) as f:
        for line in f:
            tok = line.split()
            if not tok:
                continue
            if tok[0][0].isdigit():  # agent variable: time saddr sport daddr dport name value
                var[tok[5]] = tok[6]
                continue
            ev, t, frm, to, ptype = tok[0], tok[1], tok[2], tok[3], tok[4]
            seq, sa_len = int(tok[10]), int(tok[15]) if len(tok) > 15 else 0
            if ev == "+" and frm == "0" and to == "2" and ptype == "tcp":
                if pending is not None and pending["time_s"] != t:
                    close_pending()
                retx = 1 if seq != 0 and seq <= max_sent else 0
                max_sent = max(max_sent, seq)
                cause = ("ack" if t in ack_times else "timer") if retx else ""
                rows.append({"event": "send", "time_s": t, "seq": seq, "retx": retx,
                             "cause": cause, "sack_blocks": "", "cwnd": var["cwnd_"],
                             "ssthresh": var["ssthresh_"]})
            elif ev == "r" and frm == "2" and to == "0" and ptype == "ack":
                close_pending()
                ack_times.add(t)
                pending = {"event": "ack", "time_s": t, "seq": seq, "retx": "",
                           "cause": "dup" if seq == last_ack_no else "new",
                           "sack_blocks": sa_len, "cwnd": None, "ssthresh": None}
                last_ack_no = max(last_ack_no, seq)
                rows.append(pending)
            elif ev == "d":
                close_pending()
                rows.append({"event": "drop", "time_s": t, "seq": seq, "retx": "",
                             "cause": f"link {frm}-{to}", "sack_blocks": "",
                             "cwnd": var["cwnd_"], "ssthresh": var["ssthresh_"]})
    close_pending()
    # The sends an ACK triggered carry the cwnd in force when they left; the ACK row
    # carries the values after the whole ACK was handled.
    cols = ["event", "time_s", "seq", "retx", "cause", "sack_blocks", "cwnd", "ssthresh"]
    with open(dst, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
    summarise(rows, label)


def summarise(rows, label):
    retx = [r for r in rows if r["event"] == "send" and r["retx"]]
    drops = [r for r in rows if r["event"] == "drop"]
    acks = [r for r in rows if r["event"] == "ack"]
    print(f"== {label}")
    print("  drops: " + ", ".join(f"{r['seq']}@{r['time_s']}" for r in drops))
    if not retx:
        return
    first = retx[0]
    # The recovery point: the highest segment sent before the first retransmission.
    high = max(r["seq"] for r in rows if r["event"] == "send"
               and float(r["time_s"]) <= float(first["time_s"]) and not r["retx"])
    after = next(a for a in acks if a["time_s"] == first["time_s"]) if first["cause"] == "ack" else None
    for r in retx:
        print(f"  retransmit seg {r['seq']:>3} at {float(r['time_s']):.6f} s ({r['cause']}), "
              f"cwnd {r['cwnd']} ssthresh {r['ssthresh']}")
    if after:
        print(f"  after the ACK that triggered the first retransmission: cwnd {after['cwnd']} ssthresh {after['ssthresh']}")
    end = next((a for a in acks if a["seq"] >= high), None)
    if end:
        print(f"  ACK covering seg {high} (all sent before the first retransmission): "
              f"{float(end['time_s']):.6f} s, cwnd {end['cwnd']} ssthresh {end['ssthresh']}")
    timers = [r for r in retx if r["cause"] == "timer"]
    print(f"  timeouts: {len(set(r['time_s'] for r in timers))}"
          + (" at " + ", ".join(sorted(set(r['time_s'] for r in timers))) if timers else ""))
    for n in (60, 100):
        a = next((a for a in acks if a["seq"] >= n), None)
        print(f"  ACK {n} at: {float(a['time_s']):.6f} s" if a else f"  ACK {n}: not reached")
    print(f"  highest ACK by the end: {max(a['seq'] for a in acks)}")


if __name__ == "__main__":
    main()
