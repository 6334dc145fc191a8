# Source 000's CWV runs in ns-2 (Debian's ns2 2.35), built from the parameters of ns-2's
# test-suite-tcp.tcl (docs/validation.md §3a), to set ns-2's own numbers next to cwndlab's
# cwv-* presets:  ns cwv.tcl TICK QOPTION CONTROL_INCREASE DROP_SEQNO END
#   TICK             TCP clock tick, s (0.1, 0.001, 0.5)
#   QOPTION          1: RFC 2861 decay (QOption_), 0: ns-2's standard restart after idle
#   CONTROL_INCREASE 1: the window-full growth gate (control_increase_)
#   DROP_SEQNO       a data packet (ns-2 seqno) dropped on its first pass, or -1
#   END              end of the run, s
# Prints every change of cwnd_ and ssthresh_ ("t cwnd ssthresh", packets) and, at the end,
# the highest cumulative ACK.
lassign $argv tick qoption control drop end
set ns [new Simulator]
Agent/TCP set tcpTick_ $tick
Agent/TCP set precisionReduce_ false
Agent/TCP set rtxcur_init_ 6.0
Agent/TCP set windowInit_ 1
Agent/TCP set minrto_ 0
Agent/TCP set useHeaders_ false
Agent/TCP set syn_ false
Agent/TCP set singledup_ 0
Agent/TCP set window_ 25
Agent/TCP set packetSize_ 100
Agent/TCP set QOption_ $qoption
Agent/TCP set control_increase_ $control
Agent/TCP set EnblRTTCtr_ 0
set s1 [$ns node]
set r1 [$ns node]
set k1 [$ns node]
$ns duplex-link $s1 $r1 8Mb 5ms DropTail
$ns duplex-link $r1 $k1 800Kb 20ms DropTail
$ns queue-limit $r1 $k1 25
$ns queue-limit $k1 $r1 25
if {$drop >= 0} {
    set em [new ErrorModel/List]
    $em droplist [list $drop]
    $ns lossmodel $em $r1 $k1
}
set tcp [new Agent/TCP]
set sink [new Agent/TCPSink]
$ns attach-agent $s1 $tcp
$ns attach-agent $k1 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
proc show {} {
    global ns tcp
    puts "[format %.6f [$ns now]] [$tcp set cwnd_] [$tcp set ssthresh_]"
}
set last ""
proc watch {} {
    global ns tcp last
    set now "[$tcp set cwnd_] [$tcp set ssthresh_]"
    if {$now ne $last} { show; set last $now }
    $ns at [expr {[$ns now] + 0.0005}] watch
}
$ns at 0.0 "watch"
$ns at 0.0 "$ftp produce 100"
$ns at 2.4 "$ftp producemore 100"
$ns at 2.5 "$ftp producemore 100"
proc finish {} {
    global tcp
    puts "acked [$tcp set ack_] ndatapack [$tcp set ndatapack_]"
    exit 0
}
$ns at $end "finish"
$ns run
