// aqm_reference.cc -- ns-3 (3.37, Debian 12 libns3-dev) reference runs of the queue disciplines
// (RedQueueDisc, CoDelQueueDisc, FqCoDelQueueDisc, PieQueueDisc, and RedQueueDisc configured as
// DCTCP's step-marking queue), with and without ECN, and of TcpDctcp, on the path of
// scripts/ns3/cwndlab_aqm.py (README-aqm.md):
//   sender_i -(100 Mbit/s, 1 ms)- A -(10 Mbit/s, 48 ms)- B -(100 Mbit/s, 1 ms)- receiver_i
// (base RTT 100 ms plus serialisation), the discipline on A's bottleneck device, 1 000 packets
// of buffer (the discipline's MaxSize; FqCoDel's too). The bottleneck device's own queue holds
// 1 packet (ns-3's flow control stops the discipline while it is full), so the discipline holds
// every packet but the one in transmission and the one waiting in the device. The ACK direction
// (B -> A) and the access links have no discipline (uninstalled) and 1 000-packet drop-tail
// device queues, as cwndlab's.
//
// TCP as bbr_reference.cc: MSS 1460, IW 10, no delayed ACK, 100 MB buffers, timestamps off,
// Limited Transmit off, RTO min/initial 1 s, unpaced; SACK on (--sack=0 turns it off) and ns-3's
// default TcpPrrRecovery (--recovery=classic: TcpClassicRecovery); CUBIC with HyStart off. --ecn=1: TcpSocketBase::UseEcn "On" (RFC 3168)
// and every discipline's UseEcn true; DCTCP flows (TcpDctcp) always use ECN (ECT(0)).
//
// Measured over [warmup, duration] (simulator time; the first data segment leaves at about
// 0.1 s, after the handshake): each flow's goodput (bytes delivered to its sink), the queueing
// delay of every packet that left the discipline (from its entry into the discipline to the
// start of its transmission on the bottleneck: the PhyTxBegin trace), its mean, p50, p99; the
// queue (discipline + device queue, packets) every 1 ms: mean, p1, p99; and over the whole run
// the discipline's drops (early / overflow) and CE marks, and DCTCP's alpha (mean of the values
// TcpDctcp::CongestionEstimate reports after warmup), and each flow's entries into fast
// recovery (CA_RECOVERY) and into CA_LOSS (retransmission timeouts) over the whole run.
//
// Build / run: see run_aqm.sh, or
//   g++ -O2 -std=c++17 aqm_reference.cc -o aqm_reference -lns3-core -lns3-network
//       -lns3-internet -lns3-point-to-point -lns3-applications -lns3-traffic-control
//   ./aqm_reference --qdisc=codel --algos=cubic,cubic --ecn=1 --RngRun=1 --outDir=out
// Output: one CSV row appended to <outDir>/runs.csv (header written when the file is new), and
// <outDir>/<tag>.queue.csv (the queue every 10 ms) with --queueLog=1.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/tcp-dctcp.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unordered_map>

using namespace ns3;

static const uint32_t kMss = 1460;

static std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> v;
    std::stringstream ss(s);
    std::string x;
    while (std::getline(ss, x, sep))
        if (!x.empty())
            v.push_back(x);
    return v;
}

// ---- measurement state -------------------------------------------------------------------------
static double g_warmup = 5, g_duration = 60;
static std::unordered_map<uint64_t, Time> g_enq; // packet uid -> entry into the discipline
static std::vector<double> g_delays;             // queueing delays (s) after warmup
static std::vector<uint32_t> g_queue;            // queue samples (packets) after warmup
static std::vector<uint64_t> g_rx;               // bytes delivered per flow after warmup
static std::vector<double> g_alphaSum;
static std::vector<uint32_t> g_cwnd;      // each flow's latest cwnd, bytes
static std::vector<uint32_t> g_recoveries, g_rtos; // entries into CA_RECOVERY and CA_LOSS
static std::vector<uint64_t> g_alphaN;
static Ptr<QueueDisc> g_qdisc;
static Ptr<Queue<Packet>> g_devQueue;
static Ptr<PointToPointNetDevice> g_dev;
static std::ofstream g_queueLog;
static uint64_t g_tcDrops = 0; // drop-tail: arrivals refused while the device queue is full
static bool g_busy = false; // the bottleneck device is transmitting

static void
OnEnqueue(Ptr<const QueueDiscItem> item)
{
    g_enq[item->GetPacket()->GetUid()] = Simulator::Now();
}

static void
OnQdiscDrop(Ptr<const QueueDiscItem> item)
{
    g_enq.erase(item->GetPacket()->GetUid());
}

static void
OnTxEnd(Ptr<const Packet>)
{
    g_busy = false;
}

static void
OnTxBegin(Ptr<const Packet> p)
{
    g_busy = true;
    auto it = g_enq.find(p->GetUid());
    if (it == g_enq.end())
        return;
    if (Simulator::Now().GetSeconds() >= g_warmup)
        g_delays.push_back((Simulator::Now() - it->second).GetSeconds());
    g_enq.erase(it);
}

static uint32_t
QueueNow()
{
    // waiting in the discipline and in the device queue, plus the packet in transmission
    return g_devQueue->GetNPackets() + (g_qdisc ? g_qdisc->GetNPackets() : 0) + (g_busy ? 1 : 0);
}

static void
SampleQueue(uint32_t everyMs)
{
    double t = Simulator::Now().GetSeconds();
    uint32_t q = QueueNow();
    if (t >= g_warmup)
        g_queue.push_back(q);
    if (g_queueLog.is_open() && (uint64_t)std::llround(t * 1000) % 10 == 0)
    {
        g_queueLog << t << "," << q;
        for (uint32_t c : g_cwnd)
            g_queueLog << "," << c / kMss;
        g_queueLog << "\n";
    }
    if (t + everyMs / 1000.0 <= g_duration + 1e-9)
        Simulator::Schedule(MilliSeconds(everyMs), &SampleQueue, everyMs);
}

static void
OnRx(uint32_t i, Ptr<const Packet> p, const Address&)
{
    if (Simulator::Now().GetSeconds() >= g_warmup)
        g_rx[i] += p->GetSize();
}

static void
OnAlpha(uint32_t i, uint32_t, uint32_t, double alpha)
{
    if (Simulator::Now().GetSeconds() >= g_warmup)
    {
        g_alphaSum[i] += alpha;
        g_alphaN[i]++;
    }
}

static void
OnCwnd(uint32_t i, uint32_t, uint32_t cwnd)
{
    g_cwnd[i] = cwnd;
}

static void
OnCongState(uint32_t i, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    if (now == TcpSocketState::CA_RECOVERY)
        g_recoveries[i]++;
    else if (now == TcpSocketState::CA_LOSS)
        g_rtos[i]++;
}

static double
Pct(std::vector<double> v, double p)
{
    if (v.empty())
        return NAN;
    std::sort(v.begin(), v.end());
    size_t k = std::min(v.size() - 1, (size_t)std::floor(p / 100.0 * (v.size() - 1) + 0.5));
    return v[k];
}

int
main(int argc, char* argv[])
{
    std::string qdisc = "codel", algosArg = "cubic", outDir = ".", recovery = "prr";
    bool ecn = false, sack = true, queueLog = false;
    double bw = 10e6, delay = 0.048;
    uint32_t bufferPkts = 1000, stepK = 19;
    double redMinTh = 5, redMaxTh = 15, redMaxP = 0.02, redQw = 0.002;
    bool redGentle = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("qdisc", "droptail | red | codel | fq_codel | pie | step", qdisc);
    cmd.AddValue("algos", "one algorithm per flow: cubic | newreno | dctcp (comma-separated)",
                 algosArg);
    cmd.AddValue("ecn", "RFC 3168 ECN on the loss-based flows and the discipline", ecn);
    cmd.AddValue("sack", "SACK", sack);
    cmd.AddValue("recovery", "prr (TcpPrrRecovery, ns-3's default) | classic (TcpClassicRecovery)",
                 recovery);
    cmd.AddValue("duration", "simulated seconds", g_duration);
    cmd.AddValue("warmup", "measurements start here (s)", g_warmup);
    cmd.AddValue("bw", "bottleneck rate, bit/s of IP packets", bw);
    cmd.AddValue("delay", "bottleneck one-way delay, s", delay);
    cmd.AddValue("bufferPkts", "buffer, packets", bufferPkts);
    cmd.AddValue("stepK", "step queue: RedQueueDisc MinTh = MaxTh = stepK, QW 1", stepK);
    cmd.AddValue("redMinTh", "RED MinTh", redMinTh);
    cmd.AddValue("redMaxTh", "RED MaxTh", redMaxTh);
    cmd.AddValue("redMaxP", "RED max_p (LInterm = 1/max_p)", redMaxP);
    cmd.AddValue("redQw", "RED QW", redQw);
    cmd.AddValue("redGentle", "RED Gentle", redGentle);
    cmd.AddValue("queueLog", "write <tag>.queue.csv", queueLog);
    cmd.AddValue("outDir", "output directory", outDir);
    cmd.Parse(argc, argv);
    std::vector<std::string> algos = Split(algosArg, ',');
    for (auto& a : algos)
        NS_ABORT_MSG_UNLESS(a == "cubic" || a == "newreno" || a == "dctcp", "unknown algo " << a);
    NS_ABORT_MSG_UNLESS(qdisc == "droptail" || qdisc == "red" || qdisc == "codel" ||
                            qdisc == "fq_codel" || qdisc == "pie" || qdisc == "step",
                        "unknown qdisc " << qdisc);

    NS_ABORT_MSG_UNLESS(recovery == "prr" || recovery == "classic", "unknown recovery " << recovery);
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(recovery == "prr" ? TcpPrrRecovery::GetTypeId()
                                                     : TcpClassicRecovery::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(kMss));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(100000000));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(100000000));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue(ecn ? "On" : "Off"));
    Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(false));

    const uint32_t n = algos.size();
    NodeContainer senders, routers, receivers;
    senders.Create(n);
    routers.Create(2);
    receivers.Create(n);
    const double ppp = 1502.0 / 1500.0; // a 1500-byte IP packet takes 1500*8/bw
    PointToPointHelper access, bottle;
    access.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(100e6 * ppp))));
    access.SetChannelAttribute("Delay", TimeValue(Seconds(0.001)));
    access.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1000p")));
    bottle.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(bw * ppp))));
    bottle.SetChannelAttribute("Delay", TimeValue(Seconds(delay)));
    const bool withQdisc = qdisc != "droptail";
    bottle.SetQueue("ns3::DropTailQueue",
                    "MaxSize",
                    QueueSizeValue(QueueSize(withQdisc ? "1p" : std::to_string(bufferPkts) + "p")));
    std::vector<NetDeviceContainer> dAccess, dRecv;
    for (uint32_t i = 0; i < n; i++)
        dAccess.push_back(access.Install(senders.Get(i), routers.Get(0)));
    NetDeviceContainer dBottle = bottle.Install(routers.Get(0), routers.Get(1));
    for (uint32_t i = 0; i < n; i++)
        dRecv.push_back(access.Install(routers.Get(1), receivers.Get(i)));
    // the ACK direction: a 1 000-packet drop-tail device queue
    DynamicCast<PointToPointNetDevice>(dBottle.Get(1))
        ->GetQueue()
        ->SetMaxSize(QueueSize(std::to_string(bufferPkts) + "p"));

    InternetStackHelper stack;
    stack.InstallAll();
    for (uint32_t i = 0; i < n; i++)
    {
        TypeId tid = algos[i] == "dctcp"   ? TcpDctcp::GetTypeId()
                     : algos[i] == "cubic" ? TcpCubic::GetTypeId()
                                           : TcpNewReno::GetTypeId();
        // the receiver's socket runs the same congestion ops (DCTCP's receiver echoes CE exactly)
        senders.Get(i)->GetObject<TcpL4Protocol>()->SetAttribute("SocketType", TypeIdValue(tid));
        receivers.Get(i)->GetObject<TcpL4Protocol>()->SetAttribute("SocketType",
                                                                   TypeIdValue(tid));
    }


    Ipv4AddressHelper addr;
    std::vector<Ipv4Address> recvAddr;
    for (uint32_t i = 0; i < n; i++)
    {
        addr.SetBase(("10.1." + std::to_string(i) + ".0").c_str(), "255.255.255.0");
        addr.Assign(dAccess[i]);
        addr.SetBase(("10.2." + std::to_string(i) + ".0").c_str(), "255.255.255.0");
        recvAddr.push_back(addr.Assign(dRecv[i]).GetAddress(1));
    }
    addr.SetBase("10.3.0.0", "255.255.255.0");
    addr.Assign(dBottle);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    // (the IPv4 interfaces install a default discipline: removed here, after they exist)
    TrafficControlHelper tch;
    for (auto& c : dAccess)
        tch.Uninstall(c);
    for (auto& c : dRecv)
        tch.Uninstall(c);
    tch.Uninstall(dBottle);
    const std::string maxSize = std::to_string(bufferPkts) + "p";
    if (withQdisc)
    {
        TrafficControlHelper q;
        if (qdisc == "red" || qdisc == "step")
        {
            const bool step = qdisc == "step";
            q.SetRootQueueDisc("ns3::RedQueueDisc",
                               "MaxSize", QueueSizeValue(QueueSize(maxSize)),
                               "MinTh", DoubleValue(step ? stepK : redMinTh),
                               "MaxTh", DoubleValue(step ? stepK : redMaxTh),
                               "LInterm", DoubleValue(1.0 / redMaxP),
                               "QW", DoubleValue(step ? 1.0 : redQw),
                               "Gentle", BooleanValue(step ? false : redGentle),
                               "Wait", BooleanValue(false),
                               "MeanPktSize", UintegerValue(step ? 1500 : 500),
                               "LinkBandwidth", DataRateValue(DataRate(uint64_t(bw))),
                               "LinkDelay", TimeValue(Seconds(delay)),
                               "UseEcn", BooleanValue(step || ecn),
                               "UseHardDrop", BooleanValue(!step));
        }
        else if (qdisc == "codel")
            q.SetRootQueueDisc("ns3::CoDelQueueDisc",
                               "MaxSize", QueueSizeValue(QueueSize(maxSize)),
                               "UseEcn", BooleanValue(ecn));
        else if (qdisc == "fq_codel")
            q.SetRootQueueDisc("ns3::FqCoDelQueueDisc",
                               "MaxSize", QueueSizeValue(QueueSize(maxSize)),
                               "UseEcn", BooleanValue(ecn));
        else if (qdisc == "pie")
            q.SetRootQueueDisc("ns3::PieQueueDisc",
                               "MaxSize", QueueSizeValue(QueueSize(maxSize)),
                               "MeanPktSize", UintegerValue(1500),
                               "UseEcn", BooleanValue(ecn));
        g_qdisc = q.Install(dBottle.Get(0)).Get(0);
        if (auto fq = DynamicCast<FqCoDelQueueDisc>(g_qdisc))
            fq->SetQuantum(1514); // Linux's (MTU + Ethernet header), as cwndlab's default; no attribute in 3.37
    }

    g_dev = DynamicCast<PointToPointNetDevice>(dBottle.Get(0));
    g_devQueue = g_dev->GetQueue();

    g_rx.assign(n, 0);
    g_alphaSum.assign(n, 0);
    g_alphaN.assign(n, 0);
    g_cwnd.assign(n, 0);
    g_recoveries.assign(n, 0);
    g_rtos.assign(n, 0);
    for (uint32_t i = 0; i < n; i++)
    {
        uint16_t port = 5000 + i;
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer s = sink.Install(receivers.Get(i));
        s.Start(Seconds(0));
        s.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, i));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(recvAddr[i], port));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.SetAttribute("SendSize", UintegerValue(kMss));
        ApplicationContainer b = bulk.Install(senders.Get(i));
        b.Start(Seconds(0));
        b.Stop(Seconds(g_duration));
        {
            std::string sock = "/NodeList/" + std::to_string(senders.Get(i)->GetId()) +
                               "/$ns3::TcpL4Protocol/SocketList/0/";
            Simulator::Schedule(Seconds(0.001), [sock, i]() {
                Config::ConnectWithoutContext(sock + "CongestionWindow",
                                              MakeBoundCallback(&OnCwnd, i));
                Config::ConnectWithoutContext(sock + "CongState",
                                              MakeBoundCallback(&OnCongState, i));
            });
        }
        if (algos[i] == "dctcp")
        {
            // the socket exists once the application has started
            std::string path = "/NodeList/" + std::to_string(senders.Get(i)->GetId()) +
                               "/$ns3::TcpL4Protocol/SocketList/0/CongestionOps/"
                               "$ns3::TcpDctcp/CongestionEstimate";
            Simulator::Schedule(Seconds(0.001), [path, i]() {
                Config::ConnectWithoutContext(path, MakeBoundCallback(&OnAlpha, i));
            });
        }
    }

    if (g_qdisc)
    {
        g_qdisc->TraceConnectWithoutContext("Enqueue", MakeCallback(&OnEnqueue));
        g_qdisc->TraceConnectWithoutContext("Drop", MakeCallback(&OnQdiscDrop));
    }
    else
    {
        // drop-tail: the device queue is the buffer; entry = its enqueue
        // (with flow control a full device queue stops its transmit queue, and the traffic
        // control layer, with no discipline, drops the arrival itself: its TcDrop trace)
        routers.Get(0)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
            "TcDrop", MakeCallback(+[](Ptr<const Packet>) { g_tcDrops++; }));
        g_devQueue->TraceConnectWithoutContext(
            "Enqueue", MakeCallback(+[](Ptr<const Packet> p) {
                g_enq[p->GetUid()] = Simulator::Now();
            }));
    }
    g_dev->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&OnTxBegin));
    g_dev->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&OnTxEnd));

    std::ostringstream tagS;
    tagS << qdisc << "-" << algosArg << (ecn ? "-ecn" : "") << (sack ? "" : "-nosack")
         << (recovery == "prr" ? "" : "-classic");
    if (qdisc == "step")
        tagS << "-k" << stepK;
    tagS << "-s" << RngSeedManager::GetRun();
    std::string tag = tagS.str();
    std::replace(tag.begin(), tag.end(), ',', '+');
    if (queueLog)
    {
        g_queueLog.open(outDir + "/" + tag + ".queue.csv");
        g_queueLog << "time_s,packets";
        for (uint32_t i = 0; i < n; i++)
            g_queueLog << ",cwnd" << i << "_segments";
        g_queueLog << "\n";
    }
    Simulator::Schedule(MilliSeconds(1), &SampleQueue, 1);
    Simulator::Stop(Seconds(g_duration));
    Simulator::Run();

    // ---- results ---------------------------------------------------------------------------
    uint64_t early = 0, overflow = 0, marks = 0;
    if (g_qdisc)
    {
        QueueDisc::Stats st = g_qdisc->GetStats();
        for (auto& [reason, k] : st.nDroppedPacketsBeforeEnqueue)
            (std::string(reason) == "Queue disc limit exceeded" ? overflow : early) += k;
        for (auto& [reason, k] : st.nDroppedPacketsAfterDequeue)
            early += k;
        marks = st.nTotalMarkedPackets;
        // FqCoDel's overflow drops (from the fattest queue) are "Overlimit drop"
        for (auto& [reason, k] : st.nDroppedPacketsBeforeEnqueue)
            if (std::string(reason) == "Overlimit drop")
            {
                early -= k;
                overflow += k;
            }
    }
    else
        overflow = g_devQueue->GetTotalDroppedPackets() + g_tcDrops;
    const double span = g_duration - g_warmup;
    std::vector<double> qd(g_queue.begin(), g_queue.end());
    double qmean = 0;
    for (double x : qd)
        qmean += x;
    qmean /= std::max<size_t>(1, qd.size());
    double dmean = 0;
    for (double x : g_delays)
        dmean += x;
    dmean /= std::max<size_t>(1, g_delays.size());
    std::string file = outDir + "/runs.csv";
    bool fresh = !std::ifstream(file).good();
    std::ofstream out(file, std::ios::app);
    if (fresh)
        out << "simulator,qdisc,algos,ecn,sack,recovery,seed,duration_s,warmup_s,flow,algo,goodput_bps,"
               "total_goodput_bps,qdelay_mean_ms,qdelay_p50_ms,qdelay_p99_ms,queue_mean_pkts,"
               "queue_p1_pkts,queue_p99_pkts,early_drops,overflow_drops,ce_marks,dctcp_alpha_mean,"
               "fast_recoveries,timeouts\n";
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += g_rx[i];
    for (uint32_t i = 0; i < n; i++)
    {
        out << "ns-3.37," << qdisc << "," << tag.substr(qdisc.size() + 1, algosArg.size()) << ","
            << ecn << "," << sack << "," << recovery << "," << RngSeedManager::GetRun() << "," << g_duration << ","
            << g_warmup << "," << i << "," << algos[i] << "," << g_rx[i] * 8 / span << ","
            << total * 8 / span << "," << dmean * 1e3 << "," << Pct(g_delays, 50) * 1e3 << ","
            << Pct(g_delays, 99) * 1e3 << "," << qmean << "," << Pct(qd, 1) << "," << Pct(qd, 99)
            << "," << early << "," << overflow << "," << marks << ",";
        if (g_alphaN[i])
            out << g_alphaSum[i] / g_alphaN[i];
        out << "," << g_recoveries[i] << "," << g_rtos[i] << "\n";
    }
    std::cout << tag << ": goodput " << total * 8 / span / 1e6 << " Mbit/s, qdelay mean "
              << dmean * 1e3 << " ms p99 " << Pct(g_delays, 99) * 1e3 << " ms, queue " << qmean
              << " pkts, early " << early << " overflow " << overflow << " marks " << marks;
    for (uint32_t i = 0; i < n; i++)
        std::cout << "; flow " << i << ": " << g_recoveries[i] << " recoveries, " << g_rtos[i]
                  << " RTOs";
    std::cout << "\n";
    Simulator::Destroy();
    return 0;
}
