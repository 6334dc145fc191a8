# Fall & Floyd (1996) scripted-drop cases on ns-2.35, rebuilt after ns-2's
# tcl/test/test-suite-tcpVariants.tcl (topology net4, its global defaults, its drop
# mechanism: an ErrorModel/List on the r1->k1 link that drops the packets with these
# ordinal numbers, counted from 0, among the packets of flow 1 entering the link; the
# 40-byte SYN is packet 0, so packet N is data segment N on its first transmission).
#
# usage: ns fall-floyd-sack.tcl <Sack1|Reno|Newreno|Tahoe> <drops, e.g. "14 26 28"> <outprefix>
# writes <outprefix>.tr: the packet trace of all links and the agent variable trace, interleaved
if {$argc != 3} {
    puts stderr "usage: ns fall-floyd-sack.tcl <Sack1|Reno|Newreno|Tahoe> <drop list> <outprefix>"
    exit 2
}
set variant [lindex $argv 0]
set drops   [lindex $argv 1]
set out     [lindex $argv 2]

remove-all-packet-headers
add-packet-header Flags IP TCP

# The test suite's global defaults (test-suite-tcpVariants.tcl, header).
Agent/TCP set precisionReduce_ false
Agent/TCP set rtxcur_init_ 6.0
Agent/TCP set updated_rttvar_ false
Agent/TCP set minrto_ 1
Agent/TCP/Newreno set newreno_changes1_ 0
Agent/TCP/Newreno set partial_window_deflation_ 0
Agent/TCP set singledup_ 0
Trace set show_tcphdr_ 1

set ns [new Simulator]
set tr [open $out.tr w]
$ns trace-all $tr

# Topology net4.
set s1 [$ns node]
set s2 [$ns node]
set r1 [$ns node]
set k1 [$ns node]
$ns duplex-link $s1 $r1 8Mb 0ms DropTail
$ns duplex-link $s2 $r1 8Mb 0ms DropTail
$ns duplex-link $r1 $k1 800Kb 100ms DropTail
$ns queue-limit $r1 $k1 8
$ns queue-limit $k1 $r1 8

set lossylink [$ns link $r1 $k1]
set em [new ErrorModule Fid]
set errmodel [new ErrorModel/Periodic]
$errmodel unit pkt
$lossylink errormodule $em
set errmodel1 [new ErrorModel/List]
$errmodel1 droplist $drops
$em insert $errmodel1
$em bind $errmodel1 1

set fid 1
switch -- $variant {
    Sack1   { set tcp [$ns create-connection TCP/Sack1 $s1 TCPSink/Sack1 $k1 $fid] }
    Tahoe   { set tcp [$ns create-connection TCP $s1 TCPSink $k1 $fid] }
    default { set tcp [$ns create-connection TCP/$variant $s1 TCPSink $k1 $fid] }
}
$tcp set window_ 28
set ftp [$tcp attach-app FTP]
$ns at 1.0 "$ftp start"

# Agent variables go to the same channel as the packet trace, so the lines stay in event order.
set vf $tr
$tcp attach $vf
foreach v {cwnd_ ssthresh_ dupacks_ ack_ t_seqno_ maxseq_ rtt_ srtt_ rttvar_ backoff_ nrexmit_} {
    $tcp trace $v
}
proc finish {} {
    global ns tr vf
    $ns flush-trace
    close $tr

    exit 0
}
$ns at 6.0 "finish"
$ns run
