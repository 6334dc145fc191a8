# RED on ns-2.35 (Debian package ns2) against cwndlab's RED (scripts/ns2/README-red.md):
# N TCP/Sack1 flows over a dumbbell, the path of scripts/ns3/aqm_reference.cc:
#   s_i -(100 Mb, 1 ms)- r1 -(10 Mb, 48 ms, Queue/RED)- r2 -(100 Mb, 1 ms)- k_i
# (base RTT 100 ms), 1000-packet buffer, RED's parameters set explicitly (ns-2's defaults
# where cwndlab has the same setting; wait_ false, packet mode: see README-red.md).
#
# usage: ns red-dumbbell.tcl <flows> <duration s> <warmup s> <outprefix> [seed]
# writes <outprefix>.red.tr (RED's ave_ and curq_ at every change: "a time avg", "Q time q"),
# <outprefix>.queue.tr (the r1->r2 link's enqueue/dequeue/drop events) and prints one line:
#   flows duration warmup seed goodput_bps(per flow, comma-separated) timeouts(per flow: nrexmit_)
if {$argc < 4} {
    puts stderr "usage: ns red-dumbbell.tcl <flows> <duration> <warmup> <outprefix> \[seed\]"
    exit 2
}
set nflows [lindex $argv 0]
set dur    [lindex $argv 1]
set warm   [lindex $argv 2]
set out    [lindex $argv 3]
set seed   [expr {$argc > 4 ? [lindex $argv 4] : 1}]

remove-all-packet-headers
add-packet-header Flags IP TCP

# ns-2's RNG: the seed picks RED's draws (nothing else here is random)
global defaultRNG
$defaultRNG seed $seed

# TCP as cwndlab's flows on this path: 1460-byte segments (1500-byte packets with ns-2's
# 40-byte header), IW 10, an unlimited window, RTO min 1 s (RFC 6298), no SYN
Agent/TCP set packetSize_ 1460
Agent/TCP set window_ 100000
Agent/TCP set windowInit_ 10
Agent/TCP set minrto_ 1
Agent/TCP set rtxcur_init_ 1.0
Agent/TCP set tcpTick_ 0.001

# RED: every parameter set explicitly
Queue/RED set bytes_ false           ;# packet mode (ns-2 default: true)
Queue/RED set queue_in_bytes_ false  ;# (ns-2 default: true)
Queue/RED set thresh_ 5              ;# min_th (ns-2 default 0: automatic)
Queue/RED set maxthresh_ 15          ;# max_th (ns-2 default 0: automatic)
Queue/RED set q_weight_ 0.002        ;# w_q (ns-2 default -1: automatic)
Queue/RED set linterm_ 10            ;# max_p = 1/10 (ns-2 default)
Queue/RED set mark_p_ 0.1            ;# gentle's start (ns-2 default; = 1/linterm_)
Queue/RED set use_mark_p_ true       ;# (ns-2 default)
Queue/RED set gentle_ true           ;# (ns-2 default)
Queue/RED set wait_ false            ;# (ns-2 default true; cwndlab has no wait)
Queue/RED set mean_pktsize_ 500      ;# idle decay reference (ns-2 default)
Queue/RED set setbit_ false          ;# drop, no ECN (ns-2 default)
Queue/RED set drop_tail_ true        ;# a full buffer drops the arrival (ns-2 default)
Queue/RED set adaptive_ 0
Queue/RED set cautious_ 0
Queue/RED set ns1_compat_ false

set ns [new Simulator]
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 10Mb 48ms RED
$ns queue-limit $r1 $r2 1000
$ns queue-limit $r2 $r1 1000
set qt [open $out.queue.tr w]
$ns trace-queue $r1 $r2 $qt
set red [[$ns link $r1 $r2] queue]
set rt [open $out.red.tr w]
$red trace ave_
$red trace curq_
$red attach $rt

set tcps {}
set sinks {}
for {set i 0} {$i < $nflows} {incr i} {
    set s [$ns node]
    set k [$ns node]
    $ns duplex-link $s $r1 100Mb 1ms DropTail
    $ns duplex-link $r2 $k 100Mb 1ms DropTail
    $ns queue-limit $s $r1 1000
    $ns queue-limit $r2 $k 1000
    set tcp [$ns create-connection TCP/Sack1 $s TCPSink/Sack1 $k $i]
    set ftp [$tcp attach-app FTP]
    $ns at 0.0 "$ftp start"
    lappend tcps $tcp
}

set acked0 {}
proc mark_warm {} {
    global tcps acked0
    foreach t $tcps { lappend acked0 [$t set ack_] }
}
proc finish {} {
    global ns tcps acked0 dur warm nflows seed qt rt red
    $ns flush-trace
    close $qt
    close $rt
    set g {}
    set i 0
    foreach t $tcps {
        set a [expr {[$t set ack_] - [lindex $acked0 $i]}]
        lappend g [expr {$a * 1460 * 8.0 / ($dur - $warm)}]
        incr i
    }
    set rto {}
    foreach t $tcps { lappend rto [$t set nrexmit_] }
    puts "$nflows $dur $warm $seed [join $g ,] [join $rto ,]"
    exit 0
}
$ns at $warm "mark_warm"
$ns at $dur "finish"
$ns run
