#!/usr/bin/env python3
"""ns-3 (3.44, PyPI wheel) version of cwndlab's `netsim-newreno` preset, for a speed comparison.

Measures simulated packets per wall-clock second, where "packets" means what cwndlab's
`packets` counter means: every TCP segment (data or ACK, plus ns-3's SYN/SYN-ACK/handshake
ACK) that one of the two TCP endpoints puts on its link.

Topology (same as cwndlab's NetSim dumbbell):

    sender --10 Mbit/s, 0.1 ms-- R1 --10 Mbit/s, 50 ms, BER 1e-7 R1->R2 only-- R2 --10 Mbit/s, 0.1 ms-- receiver

Only `Simulator.Run()` is timed (time.perf_counter); building the topology, routing tables,
the cppyy JIT and Simulator.Destroy() are excluded. Each repetition rebuilds the scenario from
scratch in the same process with the same seed, so every repetition simulates the same
packets (the script checks this and says so).

Packets are counted by C++ trace sinks compiled by cppyy (cppyy.cppdef), not by Python
callbacks, so nothing inside Simulator::Run() calls back into Python. A Python callback per
packet (`--count python`) costs a Python<->C++ round trip per packet; here that measured
between nothing and ~10 % more time. `--count none` connects no trace sink at all, to show
that the C++ counters cost nothing measurable.

Usage (see README.md next to this file for the venv):
    /tmp/ns3venv/bin/python netsim_ns3.py [--runs 10] [--no-error] [--app onoff|bulk]
        [--qdisc none|pfifo] [--count cxx|none|python] [--rng-run 1]
        [--scheduler map|heap|calendar|list] [--show-config] [--ber 1e-7] [--duration 20]

Prints one line per repetition to stderr and one result line to stdout, e.g.
    ns3 netsim-newreno: 19743 packets (9892 from sender + 9851 from receiver), error drops 8
    (0.081% of sent data), queue drops 0, goodput 5.752 Mbit/s, 227482 events; best 339.0 ms =
    0.058 M packets/s, median 388.5 ms = 0.051 M packets/s over 10 runs (identical results ...)
(wrapped here; it is one line).
"""

import argparse
import statistics
import sys
import time

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--runs", type=int, default=10, help="timed repetitions (default 10)")
ap.add_argument("--duration", type=float, default=20.0, help="simulated seconds (default 20)")
ap.add_argument("--no-error", action="store_true", help="disable the BER 1e-7 error model")
ap.add_argument("--ber", type=float, default=1e-7, help="bit error rate on R1->R2 (default 1e-7)")
ap.add_argument(
    "--app",
    choices=["onoff", "bulk"],
    default="onoff",
    help="onoff: 1460 B every 1.168 ms (cwndlab's CBR app, the default); bulk: BulkSendApplication",
)
ap.add_argument(
    "--qdisc",
    choices=["none", "pfifo"],
    default="none",
    help="none: remove ns-3's default FqCoDel queue disc, buffering = 1000p DropTail device queue "
    "(default); pfifo: 1000p pfifo_fast queue disc in front of a 1p device queue",
)
ap.add_argument(
    "--count",
    choices=["cxx", "none", "python"],
    default="cxx",
    help="cxx: count packets with C++ trace sinks (default); none: connect no trace at all; "
    "python: count in a Python callback per packet (only to show that this costs time)",
)
ap.add_argument("--rng-run", type=int, default=1, help="ns-3 RngRun (selects the loss pattern)")
ap.add_argument(
    "--scheduler",
    choices=["map", "heap", "calendar", "list"],
    default="map",
    help="ns-3 event scheduler (default map = ns-3's own default)",
)
ap.add_argument(
    "--show-config",
    action="store_true",
    help="after the first run, print the sender socket's TCP attributes (to check the defaults took)",
)
args = ap.parse_args()

from ns import ns  # noqa: E402  (slow: loads the ns-3 libraries through cppyy)
import cppyy  # noqa: E402

# --- C++ trace sinks ---------------------------------------------------------------------
# Compiled once by cling; called from inside Simulator::Run() with no Python involved.
cppyy.cppdef(
    r"""
#include "ns3/core-module.h"
#include "ns3/network-module.h"
namespace cwndlab_bench {
// [0] packets handed to the sender's device, [1] to the receiver's device,
// [2] packets corrupted by the error model (PhyRxDrop at R2), [3] queue drops (MacTxDrop, any device)
static uint64_t g_count[4] = {0, 0, 0, 0};
inline void Reset() { for (auto &c : g_count) c = 0; }
inline uint64_t Get(int i) { return g_count[i]; }
template <int I> void Inc(ns3::Ptr<const ns3::Packet>) { ++g_count[I]; }
// Only for --count python: forwards every packet to a Python callable (to show what that costs).
std::function<void(int)> g_py;
template <int I> void ToPy(ns3::Ptr<const ns3::Packet>) { g_py(I); }
inline void Connect(ns3::Ptr<ns3::NetDevice> dev, const std::string &source, int which) {
    bool ok = false;
    switch (which) {
    case 10: ok = dev->TraceConnectWithoutContext(source, ns3::MakeCallback(&ToPy<0>)); break;
    case 11: ok = dev->TraceConnectWithoutContext(source, ns3::MakeCallback(&ToPy<1>)); break;
    case 12: ok = dev->TraceConnectWithoutContext(source, ns3::MakeCallback(&ToPy<2>)); break;
    case 13: ok = dev->TraceConnectWithoutContext(source, ns3::MakeCallback(&ToPy<3>)); break;
    case 0: ok = dev->TraceConnectWithoutContext(source, ns3::MakeCallback(&Inc<0>)); break;
    case 1: ok = dev->TraceConnectWithoutContext(source, ns3::MakeCallback(&Inc<1>)); break;
    case 2: ok = dev->TraceConnectWithoutContext(source, ns3::MakeCallback(&Inc<2>)); break;
    case 3: ok = dev->TraceConnectWithoutContext(source, ns3::MakeCallback(&Inc<3>)); break;
    }
    if (!ok) throw std::runtime_error("trace source not found: " + source);
}
}
"""
)
cb = cppyy.gbl.cwndlab_bench
py_count = [0, 0, 0, 0]


def py_inc(i):
    py_count[i] += 1


if args.count == "python":
    cb.g_py = py_inc

S = ns.StringValue
MSS = 1460

# --- Defaults shared by every repetition ---------------------------------------------------
ns.RngSeedManager.SetSeed(1)
ns.RngSeedManager.SetRun(args.rng_run)
sched = {
    "map": "ns3::MapScheduler",
    "heap": "ns3::HeapScheduler",
    "calendar": "ns3::CalendarScheduler",
    "list": "ns3::ListScheduler",
}[args.scheduler]
ns.GlobalValue.Bind("SchedulerType", S(sched))

# TCP NewReno with classic (RFC 6582) fast recovery; ns-3's default recovery is PRR.
ns.Config.SetDefault("ns3::TcpL4Protocol::SocketType", S("ns3::TcpNewReno"))
ns.Config.SetDefault("ns3::TcpL4Protocol::RecoveryType", S("ns3::TcpClassicRecovery"))
ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(MSS))  # 1460 + 20 TCP + 20 IP = 1500
ns.Config.SetDefault("ns3::TcpSocket::InitialCwnd", ns.UintegerValue(1))  # segments
ns.Config.SetDefault("ns3::TcpSocket::DelAckCount", ns.UintegerValue(1))  # ACK every segment
ns.Config.SetDefault("ns3::TcpSocket::TcpNoDelay", ns.BooleanValue(True))  # no Nagle (cwndlab: nagle false)
# Receive buffer = cwndlab's rwnd (1 MiB; window scaling stays on so all of it is advertised).
ns.Config.SetDefault("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(1 << 20))
# Send buffer larger than everything the app writes in 20 s (25 MB), so no write ever fails.
ns.Config.SetDefault("ns3::TcpSocket::SndBufSize", ns.UintegerValue(64 << 20))
ns.Config.SetDefault("ns3::TcpSocketBase::MinRto", ns.TimeValue(ns.Seconds(1.0)))
ns.Config.SetDefault("ns3::TcpSocketBase::ClockGranularity", ns.TimeValue(ns.MilliSeconds(1)))
ns.Config.SetDefault("ns3::TcpSocketBase::Sack", ns.BooleanValue(False))
ns.Config.SetDefault("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(False))
# Limited transmit (RFC 3042) stays ON (ns-3's default) although cwndlab's preset has it off:
# with Sack=false and LimitedTransmit=false, ns-3 3.44 can still send a segment in the
# Disorder state and then aborts on its own assertion
#   NS_ASSERT(m_tcb->m_congState != TcpSocketState::CA_DISORDER)   (tcp-socket-base.cc:3532)
# (the PyPI wheel is built with asserts enabled; seen with --rng-run 5 and 6). It changes at
# most two segments per loss event, i.e. a few dozen of ~16 000 packets.
ns.Config.SetDefault("ns3::TcpSocketBase::LimitedTransmit", ns.BooleanValue(True))

# Buffering. ns-3 puts a traffic-control queue disc (FqCoDel by default) in front of every
# device; cwndlab has one FIFO per link. Default here: no queue disc, the device's own
# DropTail queue holds 1000 packets, exactly like cwndlab.
if args.qdisc == "none":
    ns.Config.SetDefault("ns3::DropTailQueue<Packet>::MaxSize", S("1000p"))
else:
    ns.Config.SetDefault("ns3::DropTailQueue<Packet>::MaxSize", S("1p"))


def build():
    """Builds the scenario for one repetition; returns (PacketSink app, sender app)."""
    nodes = ns.NodeContainer()
    nodes.Create(4)  # 0 sender, 1 R1, 2 R2, 3 receiver
    snd, r1, r2, rcv = (nodes.Get(i) for i in range(4))

    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", S("10Mbps"))
    p2p.SetChannelAttribute("Delay", S("0.1ms"))
    d_access = p2p.Install(snd, r1)
    d_recv = p2p.Install(r2, rcv)
    p2p.SetChannelAttribute("Delay", S("50ms"))
    d_bneck = p2p.Install(r1, r2)

    ns.InternetStackHelper().Install(nodes)
    addr = ns.Ipv4AddressHelper()
    ifaces = []
    for i, d in enumerate((d_access, d_bneck, d_recv)):
        addr.SetBase(ns.Ipv4Address(f"10.0.{i}.0"), ns.Ipv4Mask("255.255.255.0"))
        ifaces.append(addr.Assign(d))  # also installs ns-3's default FqCoDel queue disc
    tch = ns.TrafficControlHelper()
    for d in (d_access, d_bneck, d_recv):
        tch.Uninstall(d)  # drop the default queue disc
        if args.qdisc == "pfifo":
            tch2 = ns.TrafficControlHelper()
            tch2.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", S("1000p"))
            tch2.Install(d)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    # Bit errors on the data direction of the bottleneck only: the error model sits on the
    # receiving side of R2's device on the R1-R2 link (R1->R2 traffic); ACKs (R2->R1) are
    # received by R1's device, which has none.
    if not args.no_error:
        em = ns.CreateObject[ns.RateErrorModel]()
        em.SetUnit(ns.RateErrorModel.ERROR_UNIT_BIT)  # = attribute ErrorUnit
        em.SetRate(args.ber)  # = attribute ErrorRate
        em.AssignStreams(0)  # fixed stream: every repetition draws the same losses
        d_bneck.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(em))

    port = 5000
    dst = ns.InetSocketAddress(ifaces[2].GetAddress(1), port).ConvertTo()
    if args.app == "onoff":
        # cwndlab's app: 1460 B every 1168 us = 10.000 Mbit/s of payload, always on.
        app = ns.OnOffHelper("ns3::TcpSocketFactory", dst)
        app.SetAttribute("DataRate", S("10Mbps"))
        app.SetAttribute("PacketSize", ns.UintegerValue(MSS))
        app.SetAttribute("OnTime", S("ns3::ConstantRandomVariable[Constant=1000000]"))
        app.SetAttribute("OffTime", S("ns3::ConstantRandomVariable[Constant=0]"))
    else:
        app = ns.BulkSendHelper("ns3::TcpSocketFactory", dst)
        app.SetAttribute("MaxBytes", ns.UintegerValue(0))
        app.SetAttribute("SendSize", ns.UintegerValue(MSS))
    apps = app.Install(snd)
    apps.Start(ns.Seconds(0.0))
    apps.Stop(ns.Seconds(args.duration))

    sink_helper = ns.PacketSinkHelper(
        "ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo()
    )
    sinks = sink_helper.Install(rcv)
    sinks.Start(ns.Seconds(0.0))

    devs = [d.Get(j) for d in (d_access, d_bneck, d_recv) for j in range(2)]
    if args.count != "none":
        k = 10 if args.count == "python" else 0
        # MacTx fires once per packet handed to a PointToPointNetDevice for transmission.
        cb.Connect(d_access.Get(0), "MacTx", k + 0)  # sender: data segments (and SYN, handshake ACK)
        cb.Connect(d_recv.Get(1), "MacTx", k + 1)  # receiver: ACKs (and SYN-ACK)
        cb.Connect(d_bneck.Get(1), "PhyRxDrop", k + 2)  # corrupted by the error model
        for dv in devs:
            cb.Connect(dv, "MacTxDrop", k + 3)  # device (DropTail) queue overflow
    return sinks.Get(0), apps.Get(0)


def show_config(app):
    """Prints the sender's TCP socket attributes as ns-3 resolved them (checks the defaults took)."""
    kind = ns.OnOffApplication if args.app == "onoff" else ns.BulkSendApplication
    sock = ns.DynamicCast[kind](app).GetSocket()
    for n in (
        "SegmentSize", "InitialCwnd", "InitialSlowStartThreshold", "DelAckCount", "SndBufSize",
        "RcvBufSize", "TcpNoDelay", "MinRto", "ClockGranularity", "Sack", "Timestamp",
        "WindowScaling", "LimitedTransmit", "ReTxThreshold",
    ):
        v = ns.StringValue()
        if sock.GetAttributeFailSafe(n, v):
            print(f"  socket {n} = {v.Get()}", file=sys.stderr)
    v = ns.PointerValue()
    if sock.GetAttributeFailSafe("CongestionOps", v) and v.GetObject():
        print(f"  socket CongestionOps = {v.GetObject().GetInstanceTypeId().GetName()}", file=sys.stderr)
    t = ns.TypeIdValue()
    app.GetNode().GetObject[ns.TcpL4Protocol]().GetAttribute("RecoveryType", t)
    print(f"  TcpL4Protocol RecoveryType = {t.Get().GetName()}", file=sys.stderr)
    for i in range(ns.NodeList.GetNNodes()):  # buffering actually in place on every device
        node = ns.NodeList.GetNode(i)
        tc = node.GetObject[ns.TrafficControlLayer]()
        for j in range(node.GetNDevices()):
            dev = ns.DynamicCast[ns.PointToPointNetDevice](node.GetDevice(j))
            if not dev:
                continue  # the loopback device
            qd = tc.GetRootQueueDiscOnDevice(dev)
            em = ns.PointerValue()
            dev.GetAttribute("ReceiveErrorModel", em)
            qs = ns.QueueSizeValue()
            dev.GetQueue().GetAttribute("MaxSize", qs)
            print(
                f"  node {i} dev {j}: device queue {dev.GetQueue().GetInstanceTypeId().GetName()} "
                f"{qs.Get()}, queue disc {qd.GetInstanceTypeId().GetName() if qd else 'none'}, "
                f"rx error model {em.GetObject().GetInstanceTypeId().GetName() if em.GetObject() else 'none'}",
                file=sys.stderr,
            )


times, results = [], []
for rep in range(args.runs):
    cb.Reset()
    sink, sender_app = build()
    ns.Simulator.Stop(ns.Seconds(args.duration))
    t0 = time.perf_counter()
    ns.Simulator.Run()  # the only timed part
    dt = time.perf_counter() - t0
    events = ns.Simulator.GetEventCount()  # events executed by this run (for context)
    rx = ns.DynamicCast[ns.PacketSink](sink).GetTotalRx()
    if args.count == "python":
        r = (*py_count, rx, events)
        py_count[:] = [0, 0, 0, 0]
    else:
        r = (cb.Get(0), cb.Get(1), cb.Get(2), cb.Get(3), rx, events)
    if args.show_config and rep == 0:
        show_config(sender_app)
    ns.Simulator.Destroy()
    times.append(dt)
    results.append(r)
    pk = r[0] + r[1]
    print(
        f"  run {rep + 1}: {dt * 1e3:8.2f} ms  packets {pk}  error drops {r[2]}  queue drops {r[3]}  "
        f"goodput {rx * 8 / args.duration / 1e6:.3f} Mbit/s  events {events}",
        file=sys.stderr,
    )

same = all(r == results[0] for r in results)
snd_pk, rcv_pk, err, qdrop, rx, events = results[0]
pk = snd_pk + rcv_pk
best, med = min(times), statistics.median(times)
desc = "netsim-newreno" + (" (no error model)" if args.no_error else "")
extra = f"app {args.app}, qdisc {args.qdisc}, scheduler {args.scheduler}, rng-run {args.rng_run}"
if args.count == "none":
    # No counters connected: the packet count must come from a separate run with --count cxx.
    print(
        f"ns3 {desc}: best {best * 1e3:.1f} ms, median {med * 1e3:.1f} ms over {args.runs} runs, "
        f"goodput {rx * 8 / args.duration / 1e6:.3f} Mbit/s (no packet counters; {extra})"
    )
else:
    print(
        f"ns3 {desc}: {pk} packets ({snd_pk} from sender + {rcv_pk} from receiver), "
        f"error drops {err} ({100 * err / max(snd_pk, 1):.3f}% of sent data), queue drops {qdrop}, "
        f"goodput {rx * 8 / args.duration / 1e6:.3f} Mbit/s, {events} events; "
        f"best {best * 1e3:.1f} ms = {pk / best / 1e6:.3f} M packets/s, "
        f"median {med * 1e3:.1f} ms = {pk / med / 1e6:.3f} M packets/s over {args.runs} runs "
        f"({'identical' if same else 'DIFFERENT'} results every run; {extra})"
    )
