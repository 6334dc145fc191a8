// bbr_reference.cc -- ns-3 (3.37, Debian 12 libns3-dev) reference runs of TcpBbr (BBR v1), alone
// and sharing the bottleneck with CUBIC, on the paths of the cwndlab "internet" presets:
//   lfp         = 100 Mbit/s / 100 ms one-way bottleneck (200 ms RTT), 2000-pkt drop-tail queue
//   bufferbloat = 10 Mbit/s / 20 ms one-way bottleneck (40 ms RTT), 1000-pkt drop-tail queue
// and of the presets where two loss-based flows share a bottleneck (README-sharing.md):
//   share100    = 100 Mbit/s / 18 ms one-way bottleneck, 400-pkt drop-tail queue, 1 Gbit/s access
//                 links (sender access delay per flow: --accessDelays), and 2 Mbit/s of Poisson
//                 UDP cross traffic in 64-byte packets over the bottleneck's forward direction
//                 (cubic-newreno-share: --algos=cubic,newreno; cubic-two-rtts: --algos=cubic,cubic
//                 --accessDelays=0.001,0.041)
// The topology is cubic_reference.cc's, with one sender node (and one access link) per flow:
//   sender_i -(100M,1ms)- A -(bottleneck)- B -(100M,1ms)- receiver_i
// (as in cwndlab, where every flow has its own sender and receiver access links: 100 Mbit/s,
// 1 ms, 1000-packet drop-tail queues by default; --accessPkts changes the queue, diagnostic;
// share100: 1 Gbit/s, and the sender access delay of flow i is the i-th of --accessDelays).
// Cross traffic (share100, --crossRate): PoissonUdpSource below, an application on router A
// that sends UDP packets of --crossSize bytes (IP header included) to a UDP sink on router B,
// so that they enter the bottleneck at its first router and leave it at the second, as
// cwndlab's cross traffic does; exponential gaps from their own random stream, so that RngRun
// changes them (and nothing else in loss-based runs: CUBIC and NewReno draw no random numbers).
// With one flow it is the same network as cubic_reference.cc (checked: `--algos=cubic` gives the
// same numbers as `cubic_reference --algo=cubic --hystart=0`, see README-bbr.md).
// No queue discs (traffic-control root qdiscs are uninstalled): each PointToPointNetDevice's own
// DropTailQueue is the only buffer. MSS 1460, IW 10, no delayed ACK, no SACK, no timestamps,
// classic (NewReno-style, non-PRR) recovery, Limited Transmit off, RTO min/initial 1 s, as in
// cubic_reference.cc. --sack=1 turns SACK on; --recovery=prr picks ns3::TcpPrrRecovery (ns-3's
// own default recovery) instead of TcpClassicRecovery, with --prrBound=SSRB (its default) or CRB.
//
// BBR flows: ns3::TcpBbr with pacing on (TcpBbr forces it on anyway) and the initial window paced
// (--paceIW, Linux paces it too). CUBIC/NewReno flows are not paced (--cubicPacing=1 to pace
// them with ns-3's cwnd/RTT pacing), as Linux CUBIC without the fq qdisc.
//
// TcpBbr in 3.37 has no trace source (3.43 added MinRtt, PacingGain and CwndGain; there is still
// none for the mode). To log the mode exactly, each BBR flow uses TcpBbrTraced below: a subclass
// that only calls TcpBbr's own methods and reads the protected GetBbrState()/GetPacingGain()/
// GetCwndGain() after each of them (no behaviour change: --traceModes=0 gives the same run).
// ProbeRTT is also detected from the public cwnd trace alone (cwnd falling to <= 4*MSS from
// above) so that the two can be compared.
//
// Build / run: see run_bbr.sh next to this file, or
//   g++ -O2 -std=c++17 bbr_reference.cc -o bbr_reference -lns3-core -lns3-network
//       -lns3-internet -lns3-point-to-point -lns3-applications -lns3-traffic-control
//   ./bbr_reference --scenario=bufferbloat --algos=bbr,cubic --bufferPkts=17 --duration=60
//       --RngRun=2 --outDir=out
// (./bbr_reference --PrintHelp lists every option.)
// Outputs (tag = <scenario>-<algos joined by +>-q<bufferPkts>[-ss<N>][-drop<N>][-sack]
// [-prr: TcpPrrRecovery, SSRB | -prrcrb: TcpPrrRecovery, CRB | -prr64: TcpPrrRecovery64][-lt]
// [-acc<N>][-d<ms>_<ms>...: sender access delays, when not all 1 ms][-nox: no cross traffic
// where the scenario has it | -x<kbit/s>: cross traffic at another rate]-s<RngRun>):
//   <tag>.summary.txt          human-readable summary (also printed on stdout)
//   <tag>.flows.csv            one row per flow (machine-readable, for bbr_tables.py)
//   <tag>.queue.csv            bottleneck queue every 10 ms (time_s,packets_in_queue)
//   <tag>.f<i>-<algo>.cwnd.csv     cwnd/ssthresh/state at every instant they change (the value
//                                  it settles on: time_s,cwnd_bytes,ssthresh_bytes,ca_state)
//   <tag>.f<i>-<algo>.pacing.csv   every pacing-rate change (time_s,pacing_bps)
//   <tag>.f<i>-<algo>.drops.csv    every bottleneck drop of the flow's packets (time_s,seq,
//                                  retransmission: 1 if that sequence number was sent before)
//   <tag>.f<i>-<algo>.samples.csv  every 10 ms: cwnd, pacing rate, srtt, bytes in flight, mode
//   <tag>.f<i>-bbr.modes.csv       BBR only: every mode or pacing-gain change
// (--eventLogs=0 leaves out cwnd.csv, pacing.csv and drops.csv, the files written at every
// change: at 100 Mbit/s NewReno's cwnd changes with every ACK, about a million rows a minute.)
// Their times are the simulator's own (t0 = the first data segment is not subtracted).
// Times in the summaries are "aligned": relative to t0 = the first data segment sent (ns-3 does
// a SYN handshake first; cwndlab starts sending data at t = 0 without one). The measurement
// window is [t0, t0 + duration]; the run stops at its end.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/ppp-header.h"
#include "ns3/tcp-bbr.h"
#include "ns3/traffic-control-module.h"

#ifndef NS3_LABEL // the ns-3 version built against (run_bbr.sh passes it for the 3.44 cross-check)
#if __has_include("ns3/version-defines.h")
#include "ns3/version-defines.h"
#define NS3_STR2(x) #x
#define NS3_STR(x) NS3_STR2(x)
#define NS3_LABEL NS3_STR(NS3_VERSION_MAJOR) "." NS3_STR(NS3_VERSION_MINOR)
#else
#define NS3_LABEL "unknown"
#endif
#endif

#include <cmath>
#include <fstream>
#include <functional>
#include <iomanip>
#include <sstream>
#include <unordered_set>

using namespace ns3;

// ---- TcpBbr with its mode made observable -----------------------------------------------------
class TcpBbrTraced : public TcpBbr
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("TcpBbrTraced")
                                .SetParent<TcpBbr>()
                                .AddConstructor<TcpBbrTraced>();
        return tid;
    }

    TcpBbrTraced() = default;

    TcpBbrTraced(const TcpBbrTraced& o)
        : TcpBbr(o),
          m_report(o.m_report)
    {
    }

    // called with (mode, pacing gain, cwnd gain) whenever the mode or the pacing gain changes
    std::function<void(uint32_t, double, double)> m_report;

    void CongControl(Ptr<TcpSocketState> tcb,
                     const TcpRateOps::TcpRateConnection& rc,
                     const TcpRateOps::TcpRateSample& rs) override
    {
        TcpBbr::CongControl(tcb, rc, rs);
        Check();
    }

    void CongestionStateSet(Ptr<TcpSocketState> tcb,
                            const TcpSocketState::TcpCongState_t newState) override
    {
        TcpBbr::CongestionStateSet(tcb, newState);
        Check();
    }

    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override
    {
        TcpBbr::CwndEvent(tcb, event);
        Check();
    }

    Ptr<TcpCongestionOps> Fork() override
    {
        return CopyObject<TcpBbrTraced>(this);
    }

    uint32_t Mode()
    {
        return GetBbrState();
    }

    double PacingGain()
    {
        return GetPacingGain();
    }

  private:
    void Check()
    {
        uint32_t s = GetBbrState();
        double g = GetPacingGain();
        if (s != m_lastState || g != m_lastGain)
        {
            m_lastState = s;
            m_lastGain = g;
            if (m_report)
                m_report(s, g, GetCwndGain());
        }
    }

    uint32_t m_lastState = 99;
    double m_lastGain = -1;
};

NS_OBJECT_ENSURE_REGISTERED(TcpBbrTraced);

static const char* const kModeName[] = {"STARTUP", "DRAIN", "PROBE_BW", "PROBE_RTT"};

// Drops the first arrival of flow 0's data segment with a given TCP sequence number (as in
// cubic_reference.cc; only used with --dropSeg). Receive error model of router B's bottleneck
// device: the packet still has its PPP header there.
class DropSegmentErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("DropSegmentErrorModelBbr").SetParent<ErrorModel>();
        return tid;
    }

    uint32_t m_seq = 0;
    Ipv4Address m_src;
    bool m_done = false;
    double m_when = -1;

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (m_done)
            return false;
        Ptr<Packet> c = p->Copy();
        PppHeader ppp;
        Ipv4Header ip;
        TcpHeader tcp;
        c->RemoveHeader(ppp);
        c->RemoveHeader(ip);
        if (ip.GetProtocol() != 6 || ip.GetSource() != m_src)
            return false;
        c->RemoveHeader(tcp);
        if (c->GetSize() > 0 && tcp.GetSequenceNumber().GetValue() == m_seq)
        {
            m_done = true;
            m_when = Simulator::Now().GetSeconds();
            return true;
        }
        return false;
    }

    void DoReset() override
    {
    }
};

// ---- Poisson cross traffic ----------------------------------------------------------------------
// Sends UDP packets of sizeOnWire bytes (IP + UDP headers included) to m_peer with
// exponentially distributed gaps of mean sizeOnWire * 8 / rate; the first one gap after the start
// (as cwndlab's Poisson source). ns-3 has no such application (OnOff's on/off periods are not it).
class PoissonUdpSource : public Application
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("PoissonUdpSource")
                                .SetParent<Application>()
                                .AddConstructor<PoissonUdpSource>();
        return tid;
    }

    void Setup(Address peer, uint32_t sizeOnWire, double rateBps, int64_t stream)
    {
        NS_ABORT_MSG_IF(sizeOnWire < 28, "cross packets hold at least the IP and UDP headers");
        m_peer = peer;
        m_payload = sizeOnWire - 28;
        m_gap = CreateObject<ExponentialRandomVariable>();
        m_gap->SetAttribute("Mean", DoubleValue(sizeOnWire * 8.0 / rateBps));
        m_gap->SetStream(stream);
    }

    uint64_t m_sent = 0;

  private:
    void StartApplication() override
    {
        m_sock = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        m_sock->Bind();
        m_sock->Connect(m_peer);
        ScheduleNext();
    }

    void StopApplication() override
    {
        Simulator::Cancel(m_ev);
        if (m_sock)
            m_sock->Close();
    }

    void ScheduleNext()
    {
        // whole nanoseconds, at least one, as cwndlab rounds its gaps
        int64_t ns = std::max<int64_t>(1, std::llround(m_gap->GetValue() * 1e9));
        m_ev = Simulator::Schedule(NanoSeconds(ns), &PoissonUdpSource::Send, this);
    }

    void Send()
    {
        m_sock->Send(Create<Packet>(m_payload));
        m_sent++;
        ScheduleNext();
    }

    Address m_peer;
    uint32_t m_payload = 36;
    Ptr<ExponentialRandomVariable> m_gap;
    Ptr<Socket> m_sock;
    EventId m_ev;
};

NS_OBJECT_ENSURE_REGISTERED(PoissonUdpSource);

// ---- measurement state ------------------------------------------------------------------------
static const uint32_t kMss = 1460;
static double g_t0 = -1, g_mid = 0, g_end = 0, g_duration = 30;
static double g_linkPayloadBps = 0; // bottleneck rate in TCP payload: bw * 1460 / 1500

struct Dip
{
    double start, end; // absolute times; end < 0 while open
    uint32_t caState;  // congestion state when it began (0 = open)
};

struct ModeChange
{
    double t;
    uint32_t mode;
    double pacingGain, cwndGain;
};

struct Flow
{
    uint32_t id = 0;
    std::string algo;
    Ipv4Address addr;
    Ptr<BulkSendApplication> app;
    Ptr<TcpSocketBase> sock;
    Ptr<TcpBbrTraced> bbr;
    std::ofstream cwndCsv, pacingCsv, samplesCsv, modesCsv, dropsCsv;
    std::unordered_set<uint32_t> retxSeqs; // sequence numbers sent again (drops.csv only)
    // live values
    uint32_t cwnd = 10 * kMss, ssth = UINT32_MAX, caState = 0, inflight = 0;
    double pendT = -1;                  // instant whose cwnd row is not written yet
    uint32_t settledCwnd = 10 * kMss;   // cwnd at the end of the previous instant
    uint64_t pacingBps = 0;
    double srtt = 0, minSrtt = 1e9;
    // counters
    double t0 = -1;
    uint32_t maxSeqEnd = 0, retx = 0, dataTx = 0, recoveries = 0, timeouts = 0;
    uint32_t sentInDisorder = 0; // data segments sent in CA_DISORDER (see the summary)
    uint32_t retxOpen = 0;       // retransmissions sent in CA_OPEN or CA_DISORDER (not in a
                                 // fast recovery or after an RTO)
    uint32_t bottleneckDrops = 0, nicDrops = 0, maxCwnd = 0;
    uint32_t nicQ = 0, nicQMax = 0; // sender access-link queue (packets)
    double nicQArea = 0, nicQLastT = 0;
    // BBR's BtlBw estimate = pacing rate / pacing gain once the pipe is filled (after STARTUP)
    double bwMax = 0, bwMin = 1e18;
    uint32_t bwAboveLink = 0, bwUpdates = 0;
    double cwndArea = 0, cwndLastT = -1;
    uint64_t rxTotal = 0, rxMid = 0, rxEnd = 0;
    double ssthFirstChangeT = -1;
    // ProbeRTT from the cwnd trace
    std::vector<Dip> dips;
    // exact BBR modes
    std::vector<ModeChange> modes;
};

static std::vector<Flow*> g_flows;
static uint32_t g_q = 0, g_qMax = 0, g_qMax2 = 0, g_qDrops = 0, g_qDropsOther = 0;
static Ipv4Address g_crossAddr("255.255.255.255"); // the cross traffic's source (router A)
static uint64_t g_crossDrops = 0, g_crossRx = 0, g_crossRxBytes = 0;
static double g_qArea = 0, g_qArea2 = 0, g_qLastT = 0;

static double
SimNow()
{
    return Simulator::Now().GetSeconds();
}

// The cwnd/ssthresh/state traces fire on every assignment, and TcpBbr assigns cwnd several
// times while handling one ACK (e.g. in ProbeRTT: cwnd + acked, then min(cwnd, 4*MSS)), which
// would show as zero-length spikes. Rows are therefore written, and ProbeRTT dips detected, on the
// value each instant settles on: a change at a new time first commits the previous instant.
static void
Commit(Flow* f)
{
    if (f->pendT < 0)
        return;
    f->cwndCsv << f->pendT << "," << f->cwnd << "," << f->ssth << "," << f->caState << "\n";
    if (f->pendT <= g_end || g_t0 < 0)
        f->maxCwnd = std::max(f->maxCwnd, f->cwnd);
    const uint32_t floor = 4 * kMss;
    bool open = !f->dips.empty() && f->dips.back().end < 0;
    if (f->cwnd <= floor && f->settledCwnd > floor && !open)
        f->dips.push_back({f->pendT, -1, f->caState});
    else if (f->cwnd > floor && open)
        f->dips.back().end = f->pendT;
    f->settledCwnd = f->cwnd;
    f->pendT = -1;
}

static void
Touch(Flow* f)
{
    if (f->pendT >= 0 && SimNow() != f->pendT)
        Commit(f);
    f->pendT = SimNow();
}

static void
AccumulateCwnd(Flow* f)
{
    double now = std::min(SimNow(), g_end);
    if (g_t0 >= 0 && f->cwndLastT >= 0 && now > f->cwndLastT)
        f->cwndArea += double(f->cwnd) * (now - f->cwndLastT);
    if (g_t0 >= 0)
        f->cwndLastT = std::max(now, g_t0);
}

static void
CwndChange(Flow* f, uint32_t, uint32_t v)
{
    Touch(f);
    AccumulateCwnd(f);
    f->cwnd = v;
}

static void
SsthChange(Flow* f, uint32_t, uint32_t v)
{
    Touch(f);
    if (f->ssthFirstChangeT < 0 && v != f->ssth && f->t0 >= 0)
        f->ssthFirstChangeT = SimNow();
    f->ssth = v;
}

static void
CongStateChange(Flow* f, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t s)
{
    Touch(f);
    f->caState = s;
    if (s == TcpSocketState::CA_RECOVERY)
        f->recoveries++;
    if (s == TcpSocketState::CA_LOSS)
        f->timeouts++;
}

static void
PacingChange(Flow* f, DataRate, DataRate v)
{
    f->pacingBps = v.GetBitRate();
    f->pacingCsv << SimNow() << "," << f->pacingBps << "\n";
    // TcpBbr sets the pacing rate after updating its mode and gain in the same call, so the
    // live gain is the one this rate was computed with; after STARTUP it is gain * BtlBw exactly.
    if (f->bbr && f->bbr->Mode() != TcpBbr::BBR_STARTUP && f->bbr->PacingGain() > 0 &&
        g_t0 >= 0 && SimNow() <= g_end)
    {
        double bw = f->pacingBps / f->bbr->PacingGain();
        f->bwMax = std::max(f->bwMax, bw);
        f->bwMin = std::min(f->bwMin, bw);
        f->bwUpdates++;
        if (bw > g_linkPayloadBps * 1.05)
            f->bwAboveLink++;
    }
}

static void
RttChange(Flow* f, Time, Time v)
{
    f->srtt = v.GetSeconds();
    if (f->t0 >= 0)
        f->minSrtt = std::min(f->minSrtt, f->srtt);
}

static void
InflightChange(Flow* f, uint32_t, uint32_t v)
{
    f->inflight = v;
}

static void
TxTrace(Flow* f, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (p->GetSize() == 0)
        return;
    if (f->t0 < 0)
        f->t0 = SimNow();
    if (g_t0 < 0)
    {
        g_t0 = SimNow();
        g_mid = g_t0 + g_duration / 2;
        g_end = g_t0 + g_duration;
        g_qLastT = g_t0;
        for (Flow* g : g_flows)
            g->cwndLastT = g_t0;
        Simulator::Stop(Seconds(g_duration)); // the run ends with its measurement window
    }
    uint32_t end = h.GetSequenceNumber().GetValue() + p->GetSize();
    if (f->caState == TcpSocketState::CA_DISORDER)
        f->sentInDisorder++;
    if (end <= f->maxSeqEnd)
    {
        f->retx++;
        if (f->dropsCsv.is_open())
            f->retxSeqs.insert(h.GetSequenceNumber().GetValue());
        if (f->caState == TcpSocketState::CA_OPEN || f->caState == TcpSocketState::CA_DISORDER)
            f->retxOpen++;
    }
    else
        f->dataTx++;
    f->maxSeqEnd = std::max(f->maxSeqEnd, end);
}

static void
ModeReport(Flow* f, uint32_t mode, double pg, double cg)
{
    f->modes.push_back({SimNow(), mode, pg, cg});
    f->modesCsv << SimNow() << "," << kModeName[mode] << "," << pg << "," << cg << "," << f->cwnd
                << "," << f->pacingBps << "\n";
}

static void
SinkRx(Flow* f, Ptr<const Packet> p, const Address&)
{
    double now = SimNow();
    f->rxTotal += p->GetSize();
    if (g_t0 >= 0 && now <= g_mid)
        f->rxMid = f->rxTotal;
    if (g_t0 >= 0 && now <= g_end)
        f->rxEnd = f->rxTotal;
}

static void
AccumulateQueue(double now)
{
    if (g_t0 >= 0)
    {
        double a = std::max(g_qLastT, g_t0), b = std::min(now, g_end);
        if (b > a)
            g_qArea += g_q * (b - a);
        a = std::max(g_qLastT, g_mid);
        if (b > a)
            g_qArea2 += g_q * (b - a);
    }
    g_qLastT = now;
}

static void
QueueChange(uint32_t, uint32_t v)
{
    double now = SimNow();
    AccumulateQueue(now);
    if (g_t0 >= 0 && now <= g_end)
    {
        g_qMax = std::max(g_qMax, v);
        if (now >= g_mid)
            g_qMax2 = std::max(g_qMax2, v);
    }
    g_q = v;
}

// attribute a dropped data packet to its flow by the IPv4 source address
static void
CountDrop(Ptr<const Packet> p, bool hasPpp)
{
    g_qDrops++;
    Ptr<Packet> c = p->Copy();
    if (hasPpp)
    {
        PppHeader ppp;
        c->RemoveHeader(ppp);
    }
    Ipv4Header ip;
    c->RemoveHeader(ip);
    for (Flow* f : g_flows)
        if (ip.GetSource() == f->addr)
        {
            f->bottleneckDrops++;
            if (f->dropsCsv.is_open())
            {
                TcpHeader h;
                c->PeekHeader(h);
                uint32_t seq = h.GetSequenceNumber().GetValue();
                f->dropsCsv << SimNow() << "," << seq << "," << f->retxSeqs.count(seq) << "\n";
            }
            return;
        }
    if (ip.GetSource() == g_crossAddr)
        g_crossDrops++;
    else
        g_qDropsOther++;
}

static void
TcDrop(Ptr<const Packet> p)
{
    CountDrop(p, false);
}

static void
DevQueueDrop(Ptr<const Packet> p)
{
    CountDrop(p, true);
}

static void
CrossRx(Ptr<const Packet> p, const Address&)
{
    g_crossRx++;
    g_crossRxBytes += p->GetSize() + 28; // on the wire, as the source's rate counts them
}

static void
NicQueueChange(Flow* f, uint32_t, uint32_t v)
{
    double now = SimNow();
    if (g_t0 >= 0)
    {
        double a = std::max(f->nicQLastT, g_t0), b = std::min(now, g_end);
        if (b > a)
            f->nicQArea += f->nicQ * (b - a);
        if (now <= g_end)
            f->nicQMax = std::max(f->nicQMax, v);
    }
    f->nicQLastT = now;
    f->nicQ = v;
}

static void
NicDrop(Flow* f, Ptr<const Packet>)
{
    f->nicDrops++;
}

static void
Sample(std::ofstream* qCsv)
{
    *qCsv << SimNow() << "," << g_q << "\n";
    for (Flow* f : g_flows)
    {
        f->samplesCsv << SimNow() << "," << f->cwnd << "," << f->pacingBps << ","
                      << f->srtt * 1e3 << "," << f->inflight << ","
                      << (f->bbr && !f->modes.empty() ? kModeName[f->modes.back().mode] : "-")
                      << "," << (f->bbr && !f->modes.empty() ? f->modes.back().pacingGain : 0)
                      << "\n";
    }
    Simulator::Schedule(MilliSeconds(10), &Sample, qCsv);
}

static bool g_traceModes = true;

static void
SetUpSocket(Flow* f, uint32_t bbrIndex, bool paceIW, bool cubicPacing)
{
    Ptr<Socket> s = f->app->GetSocket();
    f->sock = DynamicCast<TcpSocketBase>(s);
    NS_ABORT_MSG_UNLESS(f->sock, "no TCP socket");
    if (f->algo == "bbr" && g_traceModes)
    {
        // The socket was created at t = 0 with a TcpBbr (the node's SocketType) and has sent
        // only its SYN: TcpBbr is first used when the handshake completes (CongestionStateSet
        // CA_OPEN), so installing the traced instance now is the same as creating it here.
        f->bbr = CreateObject<TcpBbrTraced>();
        // TcpBbr's only random draw (the first ProbeBW phase) uses stream 4 in every instance;
        // give a second BBR flow another stream so that the two do not draw the same phase.
        f->bbr->SetAttribute("Stream", UintegerValue(4 + bbrIndex));
        f->bbr->m_report = [f](uint32_t m, double pg, double cg) { ModeReport(f, m, pg, cg); };
        f->sock->SetCongestionControlAlgorithm(f->bbr);
        f->sock->SetPacingStatus(true);
        f->sock->SetPaceInitialWindow(paceIW);
    }
    else if (f->algo == "bbr")
    {
        f->sock->SetPacingStatus(true);
        f->sock->SetPaceInitialWindow(paceIW);
    }
    else
    {
        f->sock->SetPacingStatus(cubicPacing);
    }
    s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&CwndChange, f));
    s->TraceConnectWithoutContext("SlowStartThreshold", MakeBoundCallback(&SsthChange, f));
    s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&CongStateChange, f));
    s->TraceConnectWithoutContext("PacingRate", MakeBoundCallback(&PacingChange, f));
    s->TraceConnectWithoutContext("RTT", MakeBoundCallback(&RttChange, f));
    s->TraceConnectWithoutContext("BytesInFlight", MakeBoundCallback(&InflightChange, f));
    s->TraceConnectWithoutContext("Tx", MakeBoundCallback(&TxTrace, f));
}

static std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, sep))
        if (!item.empty())
            out.push_back(item);
    return out;
}

static std::string
Fmt(double v, int prec = 3)
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(prec) << v;
    return o.str();
}

// "-d1_41": the sender access delays in ms, when they are not all 1 ms
static std::string
DelaysTag(const std::vector<double>& d)
{
    bool all1 = true;
    std::string t = "-d";
    for (size_t i = 0; i < d.size(); i++)
    {
        all1 = all1 && std::abs(d[i] - 0.001) < 1e-12;
        std::string v = Fmt(d[i] * 1e3, 3);
        v.erase(v.find_last_not_of('0') + 1); // 41.000 -> 41., 0.500 -> 0.5
        if (v.back() == '.')
            v.pop_back();
        t += (i ? "_" : "") + v;
    }
    return all1 ? "" : t;
}

// --recovery=prr64 (diagnostic): PRR with the rules of ns-3 3.37's TcpPrrRecovery and its
// default bound, computed in 64-bit integers. In 3.37, prr_delivered * ssthresh is a product of
// two 32-bit unsigned values and wraps once it passes 2^32 (ssthresh 667 000 B: after 6.4 kB
// delivered), so while pipe > ssthresh the sender sends next to nothing (fixed in ns-3 in 2026,
// issue #1282). This class writes the same rules without the wrap, to show what the wrap does:
//   entry: prr_delivered = prr_out = 0, RecoverFS = snd.max - snd.una (ns-3's UnAckDataCount)
//   per call: prr_delivered += delivered;
//     pipe > ssthresh: sndcnt = ceil(prr_delivered * ssthresh / RecoverFS) - prr_out
//     else: limit = max(prr_delivered - prr_out, delivered) + SMSS if the ACK cumulatively
//           acknowledged retransmitted data (m_isRetransDataAcked), else delivered (3.37's
//           "SSRB"); sndcnt = min(limit, ssthresh - pipe)
//     sndcnt = max(sndcnt, SMSS if nothing was sent in this recovery yet, else 0)
//     cwnd = pipe + sndcnt
class TcpPrrRecovery64 : public TcpClassicRecovery
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("TcpPrrRecovery64Diag")
                                .SetParent<TcpClassicRecovery>()
                                .AddConstructor<TcpPrrRecovery64>();
        return tid;
    }

    std::string GetName() const override
    {
        return "TcpPrrRecovery64";
    }

    void EnterRecovery(Ptr<TcpSocketState> tcb, uint32_t, uint32_t unAckDataCount,
                       uint32_t deliveredBytes) override
    {
        m_delivered = 0;
        m_out = 0;
        m_recoverFs = std::max<uint64_t>(unAckDataCount, 1);
        DoRecovery(tcb, deliveredBytes);
    }

    void DoRecovery(Ptr<TcpSocketState> tcb, uint32_t deliveredBytes) override
    {
        m_delivered += deliveredBytes;
        const int64_t pipe = tcb->m_bytesInFlight.Get(), ssth = tcb->m_ssThresh.Get();
        const int64_t mss = tcb->m_segmentSize;
        int64_t sndcnt;
        if (pipe > ssth)
        {
            const uint64_t num = m_delivered * uint64_t(ssth);
            sndcnt = int64_t((num + m_recoverFs - 1) / m_recoverFs) - int64_t(m_out);
        }
        else
        {
            int64_t limit = deliveredBytes;
            if (tcb->m_isRetransDataAcked)
                limit = std::max<int64_t>(int64_t(m_delivered) - int64_t(m_out), deliveredBytes) +
                        mss;
            sndcnt = std::min(limit, ssth - pipe);
        }
        sndcnt = std::max<int64_t>(sndcnt, m_out > 0 ? 0 : mss);
        tcb->m_cWnd = uint32_t(pipe + sndcnt);
        tcb->m_cWndInfl = tcb->m_cWnd;
    }

    void ExitRecovery(Ptr<TcpSocketState> tcb) override
    {
        tcb->m_cWndInfl = tcb->m_cWnd;
    }

    void UpdateBytesSent(uint32_t bytesSent) override
    {
        m_out += bytesSent;
    }

    Ptr<TcpRecoveryOps> Fork() override
    {
        return CopyObject<TcpPrrRecovery64>(this);
    }

  private:
    uint64_t m_delivered = 0, m_out = 0, m_recoverFs = 1;
};

// the cross traffic's random stream (TcpBbr uses 4, 5, ...: see SetUpSocket)
static const int64_t kCrossStream = 100;

int
main(int argc, char* argv[])
{
    std::string scenario = "bufferbloat", algosArg = "bbr", outDir = ".";
    int bufferPkts = -1;
    double duration = 30;
    bool hystart = false, paceIW = true, cubicPacing = false, sack = false, traceModes = true;
    bool limitedTransmit = false, eventLogs = true;
    uint32_t dropSeg = 0, initSsthresh = 0, accessPkts = 1000, crossSize = 64;
    double accessRate = -1, crossRate = -1, bottleneckRate = -1, bottleneckDelay = -1;
    std::string accessDelaysArg, recovery = "classic", prrBound = "SSRB";
    CommandLine cmd(__FILE__);
    cmd.AddValue("scenario", "lfp | bufferbloat | share100 (path of the cwndlab preset)",
                 scenario);
    cmd.AddValue("algos", "comma-separated flows, each bbr | cubic | newreno", algosArg);
    cmd.AddValue("bufferPkts", "bottleneck buffer in packets (default: the preset's)", bufferPkts);
    cmd.AddValue("duration", "measurement window after the first data segment, s", duration);
    cmd.AddValue("hystart", "TcpCubic::HyStart for cubic flows (cwndlab default: off)", hystart);
    cmd.AddValue("paceIW", "BBR flows: pace the initial window too (Linux does)", paceIW);
    cmd.AddValue("cubicPacing", "pace cubic/newreno flows (ns-3 cwnd/RTT pacing)", cubicPacing);
    cmd.AddValue("dropSeg", "flow 0's data segment number (1-based) dropped once, 0 = none", dropSeg);
    cmd.AddValue("traceModes", "BBR flows use TcpBbrTraced (0: plain TcpBbr, no mode log; "
                 "for checking that the subclass changes nothing)", traceModes);
    cmd.AddValue("sack", "SACK on (off in the reference cases made before cwndlab had SACK)", sack);
    cmd.AddValue("recovery", "classic (TcpClassicRecovery, the default here) | prr "
                 "(TcpPrrRecovery, ns-3's own default) | prr64 (diagnostic: TcpPrrRecovery's "
                 "rules in 64-bit arithmetic, see TcpPrrRecovery64)", recovery);
    cmd.AddValue("prrBound", "--recovery=prr: TcpPrrRecovery::ReductionBound, SSRB (ns-3's "
                 "default) | CRB", prrBound);
    cmd.AddValue("accessPkts", "access links' drop-tail queues, packets (cwndlab default 1000)",
                 accessPkts);
    cmd.AddValue("limitedTransmit", "diagnostic: RFC 3042 Limited Transmit on (off in every "
                 "reference case; with it and SACK off, ns-3's debug builds abort once data is "
                 "sent in CA_DISORDER, release builds such as Debian's do not check)",
                 limitedTransmit);
    cmd.AddValue("initSsthresh", "initial ssthresh, bytes (0 = ns-3's default, unlimited; the "
                 "lfp preset uses 2190000)", initSsthresh);
    cmd.AddValue("bottleneckRate", "bottleneck rate, bit/s (default: the scenario's)",
                 bottleneckRate);
    cmd.AddValue("bottleneckDelay", "bottleneck one-way delay, s (default: the scenario's)",
                 bottleneckDelay);
    cmd.AddValue("accessRate", "rate of every access link, bit/s (default: 100 Mbit/s; "
                 "share100: 1 Gbit/s)", accessRate);
    cmd.AddValue("accessDelays", "comma-separated one-way delays of the flows' sender access "
                 "links, s (default 0.001 each; receiver access links are 1 ms)", accessDelaysArg);
    cmd.AddValue("crossRate", "Poisson UDP cross traffic over the bottleneck, mean bit/s on the "
                 "wire (default: the scenario's: share100 2 Mbit/s, others none; 0 = none)",
                 crossRate);
    cmd.AddValue("crossSize", "cross-traffic packet size on the wire (IP header included), B",
                 crossSize);
    cmd.AddValue("eventLogs", "write the per-change cwnd.csv and pacing.csv files", eventLogs);
    cmd.AddValue("outDir", "output directory", outDir);
    cmd.Parse(argc, argv);

    NS_ABORT_MSG_UNLESS(scenario == "lfp" || scenario == "bufferbloat" || scenario == "share100",
                        "unknown scenario");
    NS_ABORT_MSG_UNLESS(recovery == "classic" || recovery == "prr" || recovery == "prr64",
                        "unknown recovery " << recovery);
    NS_ABORT_MSG_UNLESS(prrBound == "SSRB" || prrBound == "CRB", "unknown prrBound " << prrBound);
    const bool prr = recovery == "prr", prr64 = recovery == "prr64";
    const bool lfp = scenario == "lfp", share = scenario == "share100";
    const double bwBps = bottleneckRate > 0 ? bottleneckRate : lfp || share ? 100e6 : 10e6;
    const double delay = bottleneckDelay >= 0 ? bottleneckDelay : lfp ? 0.1 : share ? 0.018 : 0.02;
    const uint32_t qPkts =
        bufferPkts > 0 ? uint32_t(bufferPkts) : (lfp ? 2000 : share ? 400 : 1000);
    const double accessBps = accessRate > 0 ? accessRate : share ? 1e9 : 100e6;
    const double crossDefault = share ? 2e6 : 0;
    const double crossBps = crossRate >= 0 ? crossRate : crossDefault;
    const double msPerPkt = 1500 * 8 / bwBps * 1e3; // one 1500-byte packet's transmission time
    g_duration = duration;
    g_linkPayloadBps = bwBps * kMss / 1500;
    g_traceModes = traceModes;
    std::vector<std::string> algos = Split(algosArg, ',');
    NS_ABORT_MSG_IF(algos.empty(), "no flows");
    for (auto& a : algos)
        NS_ABORT_MSG_UNLESS(a == "bbr" || a == "cubic" || a == "newreno", "unknown algo " << a);
    std::vector<double> accessDelays(algos.size(), 0.001);
    {
        auto d = Split(accessDelaysArg, ',');
        NS_ABORT_MSG_UNLESS(d.empty() || d.size() == algos.size(),
                            "--accessDelays needs one delay per flow");
        for (size_t i = 0; i < d.size(); i++)
            accessDelays[i] = std::stod(d[i]);
    }

    // ---- TCP configuration (as cubic_reference.cc) -------------------------------------------
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(prr     ? TcpPrrRecovery::GetTypeId()
                                   : prr64 ? TcpPrrRecovery64::GetTypeId()
                                           : TcpClassicRecovery::GetTypeId()));
    if (prr)
        Config::SetDefault("ns3::TcpPrrRecovery::ReductionBound", StringValue(prrBound));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(kMss));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    if (initSsthresh > 0)
        Config::SetDefault("ns3::TcpSocket::InitialSlowStartThreshold",
                           UintegerValue(initSsthresh));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(100000000));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(100000000));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(limitedTransmit));
    Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(hystart));
    // pacing is switched on per socket (BBR flows); ns-3's defaults otherwise:
    // MaxPacingRate 4 Gb/s, PacingSsRatio 200, PacingCaRatio 120.
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(false));

    // ---- topology ------------------------------------------------------------------------------
    const uint32_t n = algos.size();
    NodeContainer senders, routers, receivers;
    senders.Create(n);
    routers.Create(2); // A, B
    receivers.Create(n);
    const double ppp = 1502.0 / 1500.0; // PPP header: a 1500-byte IP packet takes 1500*8/bw
    PointToPointHelper access, bottle;
    access.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(accessBps * ppp))));
    access.SetChannelAttribute("Delay", TimeValue(Seconds(0.001)));
    access.SetQueue("ns3::DropTailQueue",
                    "MaxSize",
                    QueueSizeValue(QueueSize(std::to_string(accessPkts) + "p")));
    bottle.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(bwBps * ppp))));
    bottle.SetChannelAttribute("Delay", TimeValue(Seconds(delay)));
    bottle.SetQueue("ns3::DropTailQueue",
                    "MaxSize",
                    QueueSizeValue(QueueSize(std::to_string(qPkts) + "p")));
    std::vector<NetDeviceContainer> dAccess;
    for (uint32_t i = 0; i < n; i++)
    {
        access.SetChannelAttribute("Delay", TimeValue(Seconds(accessDelays[i])));
        dAccess.push_back(access.Install(senders.Get(i), routers.Get(0)));
    }
    access.SetChannelAttribute("Delay", TimeValue(Seconds(0.001))); // receiver access links
    NetDeviceContainer dBottle = bottle.Install(routers.Get(0), routers.Get(1));
    std::vector<NetDeviceContainer> dRecv;
    for (uint32_t i = 0; i < n; i++)
        dRecv.push_back(access.Install(routers.Get(1), receivers.Get(i)));

    InternetStackHelper stack;
    stack.InstallAll();
    Ipv4AddressHelper addr;
    std::vector<Flow*> flows;
    for (uint32_t i = 0; i < n; i++)
    {
        auto* f = new Flow;
        f->id = i;
        f->algo = algos[i];
        f->ssth = initSsthresh > 0 ? initSsthresh : UINT32_MAX;
        addr.SetBase(("10.0." + std::to_string(i == 0 ? 1 : 100 + i) + ".0").c_str(),
                     "255.255.255.0");
        f->addr = addr.Assign(dAccess[i]).GetAddress(0);
        flows.push_back(f);
        // the node's TCP creates this flow's sockets with its algorithm
        TypeId tid = f->algo == "bbr"     ? TcpBbr::GetTypeId()
                     : f->algo == "cubic" ? TcpCubic::GetTypeId()
                                          : TcpNewReno::GetTypeId();
        senders.Get(i)->GetObject<TcpL4Protocol>()->SetAttribute("SocketType", TypeIdValue(tid));
    }
    g_flows = flows;
    addr.SetBase("10.0.2.0", "255.255.255.0");
    Ipv4InterfaceContainer ifBottle = addr.Assign(dBottle);
    addr.SetBase("10.0.3.0", "255.255.255.0");
    std::vector<Ipv4Address> recvAddr;
    for (uint32_t i = 0; i < n; i++)
    {
        addr.SetBase(("10.0." + std::to_string(i == 0 ? 3 : 200 + i) + ".0").c_str(),
                     "255.255.255.0");
        recvAddr.push_back(addr.Assign(dRecv[i]).GetAddress(1));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    TrafficControlHelper tch;
    for (auto& c : dAccess)
        tch.Uninstall(c);
    tch.Uninstall(dBottle);
    for (auto& c : dRecv)
        tch.Uninstall(c);

    Ptr<DropSegmentErrorModel> em;
    if (dropSeg > 0)
    {
        em = CreateObject<DropSegmentErrorModel>();
        em->m_seq = 1 + (dropSeg - 1) * kMss;
        em->m_src = flows[0]->addr;
        dBottle.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }

    // ---- output files ------------------------------------------------------------------------
    std::string algosTag;
    for (auto& a : algos)
        algosTag += (algosTag.empty() ? "" : "+") + a;
    uint32_t run = RngSeedManager::GetRun();
    std::string tag = scenario + "-" + algosTag + "-q" + std::to_string(qPkts) +
                      (initSsthresh ? "-ss" + std::to_string(initSsthresh) : "") +
                      (dropSeg ? "-drop" + std::to_string(dropSeg) : "") + (sack ? "-sack" : "") +
                      (prr64 ? "-prr64" : !prr ? "" : prrBound == "SSRB" ? "-prr" : "-prrcrb") +
                      (limitedTransmit ? "-lt" : "") +
                      (accessPkts != 1000 ? "-acc" + std::to_string(accessPkts) : "") +
                      DelaysTag(accessDelays) +
                      (crossBps == crossDefault ? ""
                       : crossBps == 0          ? "-nox"
                                                : "-x" + Fmt(crossBps / 1e3, 0)) +
                      "-s" + std::to_string(run);
    for (Flow* f : flows)
    {
        std::string base = outDir + "/" + tag + ".f" + std::to_string(f->id) + "-" + f->algo;
        if (eventLogs)
        {
            f->cwndCsv.open(base + ".cwnd.csv");
            f->dropsCsv.open(base + ".drops.csv");
            f->dropsCsv << "time_s,seq,retransmission\n";
            f->dropsCsv.precision(9);
            f->cwndCsv << "time_s,cwnd_bytes,ssthresh_bytes,ca_state\n";
            f->cwndCsv.precision(9);
            f->pacingCsv.open(base + ".pacing.csv");
            f->pacingCsv << "time_s,pacing_bps\n";
            f->pacingCsv.precision(9);
        }
        f->samplesCsv.open(base + ".samples.csv");
        f->samplesCsv << "time_s,cwnd_bytes,pacing_bps,srtt_ms,bytes_in_flight,bbr_mode,"
                         "pacing_gain\n";
        if (f->algo == "bbr")
        {
            f->modesCsv.open(base + ".modes.csv");
            f->modesCsv << "time_s,mode,pacing_gain,cwnd_gain,cwnd_bytes,pacing_bps\n";
            f->modesCsv.precision(9);
        }
    }
    std::ofstream qCsv(outDir + "/" + tag + ".queue.csv");
    qCsv << "time_s,packets_in_queue\n";

    // ---- applications ------------------------------------------------------------------------
    uint32_t bbrIndex = 0;
    for (Flow* f : flows)
    {
        uint16_t port = 5000 + f->id;
        PacketSinkHelper sinkH("ns3::TcpSocketFactory",
                               InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinkApp = sinkH.Install(receivers.Get(f->id));
        sinkApp.Start(Seconds(0));
        sinkApp.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&SinkRx, f));
        BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(recvAddr[f->id], port));
        src.SetAttribute("MaxBytes", UintegerValue(0));
        src.SetAttribute("SendSize", UintegerValue(kMss * 100));
        ApplicationContainer srcApp = src.Install(senders.Get(f->id));
        srcApp.Start(Seconds(0));
        f->app = DynamicCast<BulkSendApplication>(srcApp.Get(0));
        // the socket exists once the application has started (t = 0)
        Simulator::Schedule(NanoSeconds(1),
                            &SetUpSocket,
                            f,
                            f->algo == "bbr" ? bbrIndex++ : 0,
                            paceIW,
                            cubicPacing);
        Ptr<Queue<Packet>> nic =
            DynamicCast<PointToPointNetDevice>(dAccess[f->id].Get(0))->GetQueue();
        nic->TraceConnectWithoutContext("Drop", MakeBoundCallback(&NicDrop, f));
        nic->TraceConnectWithoutContext("PacketsInQueue", MakeBoundCallback(&NicQueueChange, f));
        senders.Get(f->id)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
            "TcDrop",
            MakeBoundCallback(&NicDrop, f));
    }
    Ptr<Queue<Packet>> q = DynamicCast<PointToPointNetDevice>(dBottle.Get(0))->GetQueue();
    q->TraceConnectWithoutContext("PacketsInQueue", MakeCallback(&QueueChange));
    q->TraceConnectWithoutContext("Drop", MakeCallback(&DevQueueDrop));
    // Without a queue disc a full device queue is "stopped" and the packet is dropped one layer
    // up, by router A's TrafficControlLayer (it only ever drops on the bottleneck device).
    routers.Get(0)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
        "TcDrop",
        MakeCallback(&TcDrop));
    Simulator::Schedule(Seconds(0), &Sample, &qCsv);

    // cross traffic: router A -> router B over the bottleneck only
    Ptr<PoissonUdpSource> cross;
    if (crossBps > 0)
    {
        const uint16_t crossPort = 9000;
        g_crossAddr = ifBottle.GetAddress(0);
        PacketSinkHelper crossSinkH("ns3::UdpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), crossPort));
        ApplicationContainer crossSink = crossSinkH.Install(routers.Get(1));
        crossSink.Start(Seconds(0));
        crossSink.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&CrossRx));
        cross = CreateObject<PoissonUdpSource>();
        cross->Setup(InetSocketAddress(ifBottle.GetAddress(1), crossPort), crossSize, crossBps,
                     kCrossStream);
        routers.Get(0)->AddApplication(cross);
        cross->SetStartTime(Seconds(0));
    }

    Simulator::Stop(Seconds(duration + 2)); // fallback; TxTrace stops the run at t0 + duration
    Simulator::Run();
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it) // check: no queue disc came back
    {
        Ptr<Node> node = *it;
        Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
        for (uint32_t k = 0; k < node->GetNDevices(); k++)
            NS_ABORT_MSG_IF(tc->GetRootQueueDiscOnDevice(node->GetDevice(k)),
                            "queue disc still installed");
    }
    NS_ABORT_MSG_IF(g_t0 < 0 || SimNow() + 1e-9 < g_end, "run shorter than its window");
    AccumulateQueue(SimNow());
    for (Flow* f : flows)
    {
        AccumulateCwnd(f);
        Commit(f);
        NicQueueChange(f, 0, f->nicQ);
    }

    // ---- summary -------------------------------------------------------------------------------
    const double half = duration / 2;
    std::ostringstream o;
    o << "run " << tag << " (ns-3 " << NS3_LABEL << "; RngRun " << run << ")\n"
      << "path: " << bwBps / 1e6 << " Mbit/s, " << delay * 1e3 << " ms one way, "
      << qPkts << "-packet drop-tail buffer (" << Fmt(qPkts * msPerPkt, 1) << " ms); access links "
      << accessBps / 1e6 << " Mbit/s, sender access delay(s)";
    for (double d : accessDelays)
        o << " " << d * 1e3;
    o << " ms, receiver access 1 ms (base RTTs";
    for (double d : accessDelays)
        o << " " << Fmt(2 * (delay + d + 0.001) * 1e3, 1);
    o << " ms)\n"
      << "cross traffic: "
      << (cross ? "Poisson UDP " + Fmt(crossBps / 1e6, 3) + " Mbit/s mean in " +
                      std::to_string(crossSize) + "-byte packets, sent " +
                      std::to_string(cross->m_sent) + ", delivered " + std::to_string(g_crossRx) +
                      " (" + Fmt(g_crossRxBytes * 8.0 / SimNow() / 1e6, 3) +
                      " Mbit/s over the whole run), dropped at the bottleneck " +
                      std::to_string(g_crossDrops)
                : std::string("none"))
      << "\n"
      << (prr ? "recovery: TcpPrrRecovery, ReductionBound " + prrBound + "\n"
          : prr64 ? "recovery: TcpPrrRecovery64 (3.37's PRR rules in 64-bit arithmetic)\n"
                  : "")
      << "t0 (first data segment sent) = " << Fmt(g_t0, 6) << " s; window [t0, t0+" << duration
      << " s]; second half [t0+" << half << ", t0+" << duration << "]\n"
      << "bottleneck queue: mean " << Fmt(g_qArea / duration, 2) << " pkts ("
      << Fmt(g_qArea / duration * msPerPkt, 2) << " ms), max " << g_qMax << " pkts ("
      << Fmt(g_qMax * msPerPkt, 1) << " ms); second half: mean " << Fmt(g_qArea2 / half, 2)
      << " pkts (" << Fmt(g_qArea2 / half * msPerPkt, 2) << " ms), max " << g_qMax2 << " pkts\n"
      << "bottleneck drops (over the window) = " << g_qDrops
      << (g_crossDrops ? " (" + std::to_string(g_crossDrops) + " cross traffic)" : "")
      << (g_qDropsOther ? " (" + std::to_string(g_qDropsOther) + " not from a sender)" : "")
      << "\n";
    if (em)
        o << "scripted drop of flow 0 segment " << dropSeg << ": "
          << (em->m_when >= 0 ? "at " + Fmt(em->m_when - g_t0) + " s (aligned)" : "never") << "\n";
    double sum2 = 0, sumsq2 = 0;
    for (Flow* f : flows)
    {
        double gp2 = (f->rxEnd - f->rxMid) * 8 / half / 1e6;
        sum2 += gp2;
        sumsq2 += gp2 * gp2;
    }
    const double jain = sumsq2 > 0 ? sum2 * sum2 / (n * sumsq2) : 0;
    std::ofstream fcsv(outDir + "/" + tag + ".flows.csv");
    fcsv << "tag,scenario,buffer_pkts,seed,duration_s,flow,algo,goodput_mbps,goodput_2nd_half_mbps,"
            "data_segments,retransmits,fast_recoveries,rtos,bottleneck_drops,nic_drops,"
            "mean_cwnd_segs,max_cwnd_segs,min_srtt_ms,startup_exit_s,drain_exit_s,"
            "ssthresh_first_change_s,first_probebw_gain,probertt_exact,probertt_cwnd_dips,"
            "queue_mean_pkts,queue_max_pkts,queue_mean_2nd_pkts,queue_max_2nd_pkts,ms_per_pkt,"
            "t0_s,nic_queue_mean_pkts,nic_queue_max_pkts,final_btlbw_mbps,min_btlbw_mbps,"
            "max_btlbw_mbps,btlbw_updates,btlbw_updates_above_link,ns3,sack,access_pkts,"
            "jain_2nd_half,sent_in_disorder,access_delay_ms,bottleneck_mbps,access_mbps,"
            "cross_mbps,cross_sent,cross_delivered,cross_drops,bottleneck_drops_total,"
            "retransmits_open,recovery\n";
    for (Flow* f : flows)
    {
        double gp = f->rxEnd * 8 / duration / 1e6;
        double gp2 = (f->rxEnd - f->rxMid) * 8 / half / 1e6;
        o << "\nflow " << f->id << " (" << f->algo << (f->bbr ? ", paced" : "") << ", from "
          << f->addr << ", first data at " << Fmt(f->t0, 6) << " s)\n"
          << "  goodput over the window = " << Fmt(gp) << " Mbit/s; second half = " << Fmt(gp2)
          << " Mbit/s\n"
          << "  data segments sent = " << f->dataTx << ", retransmitted = " << f->retx
          << " (" << f->retxOpen << " of them in CA_OPEN or CA_DISORDER)"
          << ", fast-recovery entries = " << f->recoveries << ", RTOs = " << f->timeouts << "\n"
          << "  data segments sent in CA_DISORDER = " << f->sentInDisorder
          << (f->sentInDisorder && !sack && !limitedTransmit
                  ? " (ns-3's debug builds abort on this with SACK and Limited Transmit off)"
                  : "")
          << "\n"
          << "  bottleneck drops of its packets = " << f->bottleneckDrops
          << "; own access-link queue: drops = " << f->nicDrops << ", mean "
          << Fmt(f->nicQArea / duration, 2) << " pkts, max " << f->nicQMax << " pkts\n"
          << "  mean cwnd = " << Fmt(f->cwndArea / duration / kMss, 1)
          << " segments, max = " << Fmt(double(f->maxCwnd) / kMss, 1)
          << ", final = " << Fmt(double(f->cwnd) / kMss, 1) << "; min SRTT = "
          << Fmt(f->minSrtt * 1e3, 2) << " ms; final pacing rate = "
          << (f->pacingBps ? Fmt(f->pacingBps / 1e6) + " Mbit/s" : std::string("- (unpaced)"))
          << "\n";
        std::string startupExit = "", drainExit = "", firstGain = "", exact = "", dips = "";
        double finalBw = 0;
        if (f->bbr)
        {
            // exact modes
            std::ostringstream pr;
            double probeRttStart = -1;
            uint32_t nProbeRtt = 0;
            bool inProbeBw = false;
            std::map<uint32_t, double> timeIn;
            for (size_t k = 0; k < f->modes.size(); k++)
            {
                const ModeChange& m = f->modes[k];
                double next = k + 1 < f->modes.size() ? f->modes[k + 1].t : SimNow();
                timeIn[m.mode] += std::min(next, g_end) - std::max(m.t, g_t0) > 0
                                      ? std::min(next, g_end) - std::max(m.t, g_t0)
                                      : 0;
                uint32_t prevMode = k ? f->modes[k - 1].mode : 99;
                if (m.mode == prevMode)
                    continue; // a gain change within the mode
                if (m.mode == TcpBbr::BBR_DRAIN && startupExit.empty())
                    startupExit = Fmt(m.t - g_t0);
                if (m.mode == TcpBbr::BBR_PROBE_BW && !inProbeBw && drainExit.empty())
                {
                    drainExit = Fmt(m.t - g_t0);
                    firstGain = Fmt(m.pacingGain, 2);
                }
                inProbeBw = m.mode == TcpBbr::BBR_PROBE_BW;
                if (m.mode == TcpBbr::BBR_PROBE_RTT)
                {
                    probeRttStart = m.t;
                    nProbeRtt++;
                }
                if (prevMode == TcpBbr::BBR_PROBE_RTT && probeRttStart >= 0)
                {
                    pr << (nProbeRtt > 1 ? " " : "") << Fmt(probeRttStart - g_t0) << "+"
                       << Fmt((m.t - probeRttStart) * 1e3, 0) << "ms";
                    probeRttStart = -1;
                }
            }
            if (probeRttStart >= 0)
                pr << (nProbeRtt > 1 ? " " : "") << Fmt(probeRttStart - g_t0) << "+(open)";
            exact = pr.str();
            std::ostringstream dp;
            for (auto& d : f->dips)
                dp << (dp.tellp() ? " " : "") << Fmt(d.start - g_t0) << "+"
                   << (d.end < 0 ? std::string("(open)") : Fmt((d.end - d.start) * 1e3, 0) + "ms")
                   << (d.caState ? "[ca" + std::to_string(d.caState) + "]" : "");
            dips = dp.str();
            o << "  BBR modes (exact, TcpBbrTraced): STARTUP -> DRAIN at "
              << (startupExit.empty() ? "never" : startupExit) << " s, DRAIN -> PROBE_BW at "
              << (drainExit.empty() ? "never" : drainExit)
              << " s (first ProbeBW pacing gain " << (firstGain.empty() ? "-" : firstGain)
              << ")\n"
              << "  ssthresh first changed (public trace; TcpBbr sets it on entering DRAIN) at "
              << (f->ssthFirstChangeT < 0 ? "never" : Fmt(f->ssthFirstChangeT - g_t0)) << " s\n"
              << "  time in modes over the window:";
            for (auto& [m, t] : timeIn)
                o << " " << kModeName[m] << " " << Fmt(t, 2) << " s";
            o << "\n  ProbeRTT entries (exact, start+duration, aligned s): " << nProbeRtt << ": "
              << (exact.empty() ? "none" : exact) << "\n"
              << "  cwnd dips to <= 4*MSS from above (cwnd trace; [caN] = began in congestion "
                 "state N, not CA_OPEN): "
              << f->dips.size() << ": " << (dips.empty() ? "none" : dips) << "\n";
            if (f->modes.size() > 0 && f->modes.back().pacingGain > 0)
                finalBw = f->pacingBps / f->modes.back().pacingGain / 1e6;
            o << "  BtlBw estimate (pacing rate / pacing gain, after STARTUP): final " << Fmt(finalBw)
              << " Mbit/s, min " << Fmt(f->bwUpdates ? f->bwMin / 1e6 : 0) << ", max "
              << Fmt(f->bwMax / 1e6) << " (link payload rate " << Fmt(g_linkPayloadBps / 1e6)
              << "); " << f->bwAboveLink << " of " << f->bwUpdates
              << " updates above 1.05 x the link rate\n";
        }
        uint32_t nExact = 0;
        for (size_t k = 0; k < f->modes.size(); k++)
            if (f->modes[k].mode == TcpBbr::BBR_PROBE_RTT &&
                (k == 0 || f->modes[k - 1].mode != TcpBbr::BBR_PROBE_RTT))
                nExact++;
        fcsv << tag << "," << scenario << "," << qPkts << "," << run << "," << duration << ","
             << f->id << "," << f->algo << "," << Fmt(gp) << "," << Fmt(gp2) << "," << f->dataTx
             << "," << f->retx << "," << f->recoveries << "," << f->timeouts << ","
             << f->bottleneckDrops << "," << f->nicDrops << ","
             << Fmt(f->cwndArea / duration / kMss, 1) << "," << Fmt(double(f->maxCwnd) / kMss, 1)
             << "," << Fmt(f->minSrtt * 1e3, 2) << "," << startupExit << "," << drainExit << ","
             << (f->ssthFirstChangeT < 0 ? "" : Fmt(f->ssthFirstChangeT - g_t0)) << ","
             << firstGain << "," << (f->bbr ? std::to_string(nExact) + ": " + exact : "") << ","
             << (f->bbr ? std::to_string(f->dips.size()) + ": " + dips : "") << ","
             << Fmt(g_qArea / duration, 2) << "," << g_qMax << "," << Fmt(g_qArea2 / half, 2)
             << "," << g_qMax2 << "," << msPerPkt << "," << Fmt(g_t0, 6) << ","
             << Fmt(f->nicQArea / duration, 2) << "," << f->nicQMax << ","
             << (f->bbr ? Fmt(finalBw) : "") << ","
             << (f->bbr && f->bwUpdates ? Fmt(f->bwMin / 1e6) : "") << ","
             << (f->bbr ? Fmt(f->bwMax / 1e6) : "") << "," << (f->bbr ? f->bwUpdates : 0) << ","
             << (f->bbr ? f->bwAboveLink : 0) << "," << NS3_LABEL << "," << sack << ","
             << accessPkts << "," << Fmt(jain, 4) << "," << f->sentInDisorder << ","
             << Fmt(accessDelays[f->id] * 1e3, 3) << "," << bwBps / 1e6 << "," << accessBps / 1e6
             << "," << crossBps / 1e6 << "," << (cross ? cross->m_sent : 0) << "," << g_crossRx
             << "," << g_crossDrops << "," << g_qDrops << "," << f->retxOpen << ","
             << (prr ? "prr-" + prrBound : prr64 ? "prr64" : std::string("classic")) << "\n";
    }
    if (n > 1)
        o << "\nJain fairness index of the second-half goodputs = " << Fmt(jain, 4) << "\n";
    std::ofstream sum(outDir + "/" + tag + ".summary.txt");
    sum << o.str();
    std::cout << o.str();
    Simulator::Destroy();
    for (Flow* f : flows)
        delete f;
    return 0;
}
