// cubic_reference.cc -- independent ns-3 (3.37, Debian 12 libns3-dev) reference runs for two
// cwndlab scenarios:
//   lfp         = cubic-long-fat-path: 100 Mbit/s / 100 ms bottleneck, 2000-pkt drop-tail queue,
//                 initial ssthresh 2 190 000 B, the 40 000th data segment dropped once.
//   bufferbloat = cubic-bufferbloat: 10 Mbit/s / 20 ms bottleneck, 1000-pkt drop-tail queue.
// Topology: sender -(100M,1ms)- A -(bottleneck)- B -(100M,1ms)- receiver, one bulk TCP flow.
// No queue discs (traffic-control root qdiscs are uninstalled): each PointToPointNetDevice's own
// DropTailQueue is the only buffer, sized in packets as in cwndlab.
//
// Build / run: see run.sh next to this file, or
//   g++ -O2 -std=c++17 cubic_reference.cc -o cubic_reference -lns3-core -lns3-network \
//       -lns3-internet -lns3-point-to-point -lns3-applications -lns3-traffic-control
//   ./cubic_reference --scenario=lfp --algo=cubic --hystart=0 --outDir=out
// Writes <outDir>/<tag>.cwnd.csv (time_s,cwnd_bytes,ssthresh_bytes,inflated_bytes,state),
// <tag>.queue.csv (bottleneck queue sampled every 10 ms) and <tag>.summary.txt.
// All "aligned" times are relative to t0 = first data segment sent (ns-3 does a SYN handshake
// first; cwndlab starts sending data at t = 0 without one).

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/ppp-header.h"
#include "ns3/traffic-control-module.h"

#include <fstream>
#include <sstream>

using namespace ns3;

// Note on queues: no queue discs (they are uninstalled), so each PointToPointNetDevice's
// DropTailQueue holds at most N packets and the overflow is dropped by the TrafficControlLayer.

// Drops the first arrival of the data segment with a given TCP sequence number (ns-3's ISN is 0
// and the SYN takes one, so segment n starts at 1 + (n-1)*MSS). Used as the receive error model of
// router B's bottleneck device; the packet still has its PPP header there.
class DropSegmentErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("DropSegmentErrorModel").SetParent<ErrorModel>();
        return tid;
    }
    uint32_t m_seq = 0;
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
        if (ip.GetProtocol() != 6)
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
    void DoReset() override {}
};

// ---- global measurement state -------------------------------------------------------------------
static std::ofstream g_cwndCsv;
static uint32_t g_cwnd = 0, g_ssth = 0, g_infl = 0, g_state = 0;
static double g_t0 = -1, g_end = 0;        // first data send time, end of the aligned window
static double g_cwndArea = 0, g_cwndLastT = -1;
static uint32_t g_maxSeqEnd = 0, g_retx = 0, g_dataTx = 0, g_timeouts = 0, g_recoveries = 0;
static uint32_t g_preLossMax = 0, g_maxSinceStart = 0;
static double g_firstLossT = -1, g_regainT = -1;
static std::ostringstream g_reductions;
static uint32_t g_q = 0, g_qMax = 0, g_qDrops = 0;
static double g_qArea = 0, g_qLastT = 0;
static uint64_t g_rx30 = 0, g_rxAligned = 0, g_rxTotal = 0;
static double g_duration = 30;

static void
WriteRow()
{
    double now = Simulator::Now().GetSeconds();
    g_cwndCsv << now << "," << g_cwnd << "," << g_ssth << "," << g_infl << "," << g_state << "\n";
}

static void
AccumulateCwnd()
{
    double now = std::min(Simulator::Now().GetSeconds(), g_end);
    if (g_t0 >= 0 && g_cwndLastT >= 0 && now > g_cwndLastT)
        g_cwndArea += g_cwnd * (now - g_cwndLastT);
    if (g_t0 >= 0)
        g_cwndLastT = now;
}

static void
CwndChange(uint32_t, uint32_t v)
{
    AccumulateCwnd();
    g_cwnd = v;
    g_maxSinceStart = std::max(g_maxSinceStart, v);
    if (g_firstLossT >= 0 && g_regainT < 0 && v >= g_preLossMax)
        g_regainT = Simulator::Now().GetSeconds();
    WriteRow();
}

static void
SsthChange(uint32_t, uint32_t v)
{
    g_ssth = v;
    WriteRow();
}

static void
InflChange(uint32_t, uint32_t v)
{
    g_infl = v;
}

static void
ReportReduction(std::string kind, uint32_t before)
{
    g_reductions << "  " << kind << " at t=" << Simulator::Now().GetSeconds()
                 << " s (aligned " << Simulator::Now().GetSeconds() - g_t0 << " s): cwnd before "
                 << before << " B, after " << g_cwnd << " B, ssthresh " << g_ssth << " B\n";
}

static void
CongStateChange(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t s)
{
    g_state = s;
    if (s == TcpSocketState::CA_RECOVERY || s == TcpSocketState::CA_LOSS)
    {
        (s == TcpSocketState::CA_LOSS ? g_timeouts : g_recoveries)++;
        if (g_firstLossT < 0)
        {
            g_firstLossT = Simulator::Now().GetSeconds();
            g_preLossMax = g_cwnd;
        }
        // ssthresh/cwnd are updated right after the state change: read them once it is done
        Simulator::ScheduleNow(&ReportReduction,
                               std::string(s == TcpSocketState::CA_LOSS ? "RTO" : "fast-retransmit"),
                               g_cwnd);
    }
    WriteRow();
}

static void
TxTrace(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (p->GetSize() == 0)
        return;
    if (g_t0 < 0)
    {
        g_t0 = Simulator::Now().GetSeconds();
        g_end = g_t0 + g_duration;
        g_cwndLastT = g_t0;
    }
    uint32_t end = h.GetSequenceNumber().GetValue() + p->GetSize();
    if (end <= g_maxSeqEnd)
        g_retx++;
    else
        g_dataTx++;
    g_maxSeqEnd = std::max(g_maxSeqEnd, end);
}

static void
AccumulateQueue(double now)
{
    double a = std::max(g_qLastT, g_t0), b = std::min(now, g_end);
    if (g_t0 >= 0 && b > a)
        g_qArea += g_q * (b - a);
    g_qLastT = now;
}

static void
QueueChange(uint32_t, uint32_t v)
{
    double now = Simulator::Now().GetSeconds();
    AccumulateQueue(now);
    if (g_t0 >= 0 && now <= g_end)
        g_qMax = std::max(g_qMax, v);
    g_q = v;
}

static void
QueueDrop(Ptr<const Packet>)
{
    g_qDrops++;
}

// sender's access-link (NIC) queue: same rate as the bottleneck in lfp, so it can fill first
static uint32_t g_nicMax = 0, g_nicDrops = 0;
static void
NicQueueChange(uint32_t, uint32_t v)
{
    g_nicMax = std::max(g_nicMax, v);
}

static void
NicDrop(Ptr<const Packet>)
{
    g_nicDrops++;
}

static void
SinkRx(Ptr<const Packet> p, const Address&)
{
    double now = Simulator::Now().GetSeconds();
    g_rxTotal += p->GetSize();
    if (now <= g_duration)
        g_rx30 = g_rxTotal;
    if (g_t0 >= 0 && now <= g_end)
        g_rxAligned = g_rxTotal;
}

static void
SampleQueue(std::ofstream* f)
{
    *f << Simulator::Now().GetSeconds() << "," << g_q << "\n";
    Simulator::Schedule(MilliSeconds(10), &SampleQueue, f);
}

static void
ConnectSocketTraces(Ptr<BulkSendApplication> app)
{
    Ptr<Socket> s = app->GetSocket();
    s->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&CwndChange));
    s->TraceConnectWithoutContext("CongestionWindowInflated", MakeCallback(&InflChange));
    s->TraceConnectWithoutContext("SlowStartThreshold", MakeCallback(&SsthChange));
    s->TraceConnectWithoutContext("CongState", MakeCallback(&CongStateChange));
    s->TraceConnectWithoutContext("Tx", MakeCallback(&TxTrace));
}

int
main(int argc, char* argv[])
{
    std::string scenario = "lfp", algo = "cubic", outDir = ".";
    bool hystart = false;
    uint32_t cntClamp = 20; // ns-3 default; see results notes
    uint32_t dropSeg = 40000; // only used in lfp; 0 disables
    CommandLine cmd(__FILE__);
    cmd.AddValue("scenario", "lfp | bufferbloat", scenario);
    cmd.AddValue("algo", "cubic | newreno", algo);
    cmd.AddValue("hystart", "TcpCubic::HyStart", hystart);
    cmd.AddValue("cntClamp", "TcpCubic::CntClamp (cnt cap while no loss seen yet, max 255)", cntClamp);
    cmd.AddValue("dropSeg", "data segment number (1-based) dropped once (lfp only, 0 = none)", dropSeg);
    cmd.AddValue("outDir", "output directory", outDir);
    cmd.Parse(argc, argv);

    const bool lfp = scenario == "lfp";
    double bwBps = lfp ? 100e6 : 10e6;
    double delay = lfp ? 0.1 : 0.02;
    uint32_t qPkts = lfp ? 2000 : 1000;
    const uint32_t mss = 1460;

    // ---- TCP configuration -----------------------------------------------------------------
    Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                       TypeIdValue(algo == "cubic" ? TcpCubic::GetTypeId()
                                                   : TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    if (lfp)
        Config::SetDefault("ns3::TcpSocket::InitialSlowStartThreshold", UintegerValue(2190000));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(100000000));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(100000000));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(false));
    Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(hystart));
    Config::SetDefault("ns3::TcpCubic::CntClamp", UintegerValue(cntClamp));

    // ---- topology ----------------------------------------------------------------------------
    NodeContainer n;
    n.Create(4); // 0 sender, 1 router A, 2 router B, 3 receiver
    // PPP adds a 2-byte header; scale the rates so a 1500-byte IP packet takes 1500*8/bw exactly.
    const double ppp = 1502.0 / 1500.0;
    PointToPointHelper access, bottle;
    access.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(100e6 * ppp))));
    access.SetChannelAttribute("Delay", TimeValue(Seconds(0.001)));
    access.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1000p")));
    bottle.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(bwBps * ppp))));
    bottle.SetChannelAttribute("Delay", TimeValue(Seconds(delay)));
    bottle.SetQueue("ns3::DropTailQueue",
                    "MaxSize",
                    QueueSizeValue(QueueSize(std::to_string(qPkts) + "p")));
    NetDeviceContainer d01 = access.Install(n.Get(0), n.Get(1));
    NetDeviceContainer d12 = bottle.Install(n.Get(1), n.Get(2));
    NetDeviceContainer d23 = access.Install(n.Get(2), n.Get(3));

    InternetStackHelper stack;
    stack.Install(n);
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.1.0", "255.255.255.0");
    addr.Assign(d01);
    addr.SetBase("10.0.2.0", "255.255.255.0");
    addr.Assign(d12);
    addr.SetBase("10.0.3.0", "255.255.255.0");
    Ipv4InterfaceContainer i23 = addr.Assign(d23);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    // Ipv4AddressHelper::Assign installed pfifo_fast root queue discs: remove them all so that
    // the devices' drop-tail queues are the only buffers (pure FIFO, no AQM, no flow control).
    TrafficControlHelper tch;
    for (auto* c : {&d01, &d12, &d23})
        tch.Uninstall(*c);

    Ptr<DropSegmentErrorModel> em;
    if (lfp && dropSeg > 0)
    {
        em = CreateObject<DropSegmentErrorModel>();
        em->m_seq = 1 + (dropSeg - 1) * mss;
        d12.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }

    // ---- applications ------------------------------------------------------------------------
    uint16_t port = 5000;
    PacketSinkHelper sinkH("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sinkH.Install(n.Get(3));
    sinkApp.Start(Seconds(0));
    BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(i23.GetAddress(1), port));
    src.SetAttribute("MaxBytes", UintegerValue(0));
    src.SetAttribute("SendSize", UintegerValue(mss * 100));
    ApplicationContainer srcApp = src.Install(n.Get(0));
    srcApp.Start(Seconds(0));

    std::string tag = scenario + "-" + algo + (algo == "cubic" ? (hystart ? "-hystart" : "-nohystart") : "") +
                      (algo == "cubic" && cntClamp != 20 ? "-clamp" + std::to_string(cntClamp) : "");
    g_cwndCsv.open(outDir + "/" + tag + ".cwnd.csv");
    g_cwndCsv << "time_s,cwnd_bytes,ssthresh_bytes,inflated_bytes,ca_state\n";
    g_cwndCsv.precision(9);
    std::ofstream qCsv(outDir + "/" + tag + ".queue.csv");
    qCsv << "time_s,packets_in_queue\n";
    g_cwnd = g_infl = 10 * mss;
    g_ssth = lfp ? 2190000 : UINT32_MAX;

    // the socket exists once the application has started (t = 0)
    Simulator::Schedule(NanoSeconds(1),
                        &ConnectSocketTraces,
                        DynamicCast<BulkSendApplication>(srcApp.Get(0)));
    sinkApp.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&SinkRx));
    Ptr<Queue<Packet>> q = DynamicCast<PointToPointNetDevice>(d12.Get(0))->GetQueue();
    q->TraceConnectWithoutContext("PacketsInQueue", MakeCallback(&QueueChange));
    q->TraceConnectWithoutContext("Drop", MakeCallback(&QueueDrop));
    Ptr<Queue<Packet>> nic = DynamicCast<PointToPointNetDevice>(d01.Get(0))->GetQueue();
    nic->TraceConnectWithoutContext("PacketsInQueue", MakeCallback(&NicQueueChange));
    nic->TraceConnectWithoutContext("Drop", MakeCallback(&NicDrop));
    // Without a queue disc, a full device queue is "stopped" (flow control) and the packet is
    // dropped one layer up, by the node's TrafficControlLayer ("TcDrop"), not by the queue.
    // Router A only drops on its bottleneck device (forward data), the sender on its NIC.
    n.Get(1)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
        "TcDrop", MakeCallback(&QueueDrop));
    n.Get(0)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
        "TcDrop", MakeCallback(&NicDrop));
    Simulator::Schedule(Seconds(0), &SampleQueue, &qCsv);

    g_duration = 30;
    Simulator::Stop(Seconds(g_duration + 1)); // +1 s covers the handshake offset t0
    Simulator::Run();
    for (auto* c : {&d01, &d12, &d23}) // check: no queue disc came back
        for (uint32_t k = 0; k < c->GetN(); k++)
        {
            Ptr<TrafficControlLayer> tc = c->Get(k)->GetNode()->GetObject<TrafficControlLayer>();
            NS_ABORT_MSG_IF(tc->GetRootQueueDiscOnDevice(c->Get(k)), "queue disc still installed");
        }

    // close the time-weighted averages at the end of the aligned window
    AccumulateCwnd();
    AccumulateQueue(Simulator::Now().GetSeconds());

    std::ofstream sum(outDir + "/" + tag + ".summary.txt");
    std::ostringstream o;
    o << "run " << tag << " (ns-3 " << "3.37" << ")\n"
      << "t0 (first data segment sent) = " << g_t0 << " s\n"
      << "goodput, bytes rx in [0,30 s] = " << g_rx30 << " B -> " << g_rx30 * 8 / 30.0 / 1e6
      << " Mbit/s\n"
      << "goodput, bytes rx in [t0,t0+30 s] (aligned) = " << g_rxAligned << " B -> "
      << g_rxAligned * 8 / 30.0 / 1e6 << " Mbit/s\n"
      << "data segments sent (new) = " << g_dataTx << ", retransmitted segments = " << g_retx
      << "\n"
      << "fast-recovery entries = " << g_recoveries << ", RTO timeouts = " << g_timeouts << "\n"
      << "bottleneck queue drops (whole run) = " << g_qDrops << "\n"
      << "sender access-link queue: drops = " << g_nicDrops << ", max = " << g_nicMax << " pkts\n"
      << "mean cwnd over [t0,t0+30] = " << g_cwndArea / g_duration / mss << " segments\n"
      << "max cwnd = " << g_maxSinceStart << " B; final cwnd = " << g_cwnd
      << " B; final ssthresh = " << g_ssth << " B\n"
      << "bottleneck queue over [t0,t0+30]: mean = " << g_qArea / g_duration
      << " pkts, max = " << g_qMax << " pkts\n"
      << "first reduction at " << g_firstLossT << " s (aligned " << g_firstLossT - g_t0
      << " s), pre-loss cwnd = " << g_preLossMax << " B\n"
      << "cwnd regains pre-loss value at "
      << (g_regainT < 0 ? std::string("never") : std::to_string(g_regainT)) << " s (aligned "
      << (g_regainT < 0 ? std::string("never") : std::to_string(g_regainT - g_t0)) << " s)\n"
      << "scripted drop: " << (em ? std::to_string(em->m_when) + " s (seq " + std::to_string(em->m_seq) + ")" : "none") << "\n"
      << "reductions:\n"
      << g_reductions.str();
    sum << o.str();
    std::cout << o.str();
    Simulator::Destroy();
    return 0;
}
