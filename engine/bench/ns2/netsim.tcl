# The NetSim lab scenario (cwndlab preset netsim-newreno) in ns-2, for whole-process
# comparisons with `cwndlab run` (engine/bench/cli_vs_ns2.sh).
#   ns netsim.tcl DURATION [TRACEFILE]
# sender n0 - r1 - r2 - n1 receiver; every link 10 Mbit/s; access links 0.1 ms, backbone
# 50 ms with bit errors (1e-7) on the data direction; 1000-packet drop-tail queues; TCP
# NewReno with 1460-byte segments (+40-byte headers), initial window 1, a receiver window of
# 1 MiB (718 packets), fed by a CBR source of 1460 bytes every 1168 us. Without TRACEFILE
# nothing is traced: only the summary counters are printed at the end.
set duration [lindex $argv 0]
set tracefile [lindex $argv 1]
set ns [new Simulator]
if {$tracefile ne ""} {
    set tf [open $tracefile w]
    $ns trace-all $tf
}
set n0 [$ns node]
set r1 [$ns node]
set r2 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $r1 10Mb 0.1ms DropTail
$ns duplex-link $r1 $r2 10Mb 50ms DropTail
$ns duplex-link $r2 $n1 10Mb 0.1ms DropTail
foreach {a b} [list $n0 $r1 $r1 $n0 $r1 $r2 $r2 $r1 $r2 $n1 $n1 $r2] {
    $ns queue-limit $a $b 1000
}
# BER 1e-7 as ns-2's byte error model (its bit unit is an FEC model): a byte is corrupted
# with 1 - (1 - 1e-7)^8, so a packet of n bytes is lost with 1 - (1 - 1e-7)^(8n), as in cwndlab.
set em [new ErrorModel]
$em unit byte
$em set rate_ [expr {1.0 - pow(1.0 - 1e-7, 8)}]
$em ranvar [new RandomVariable/Uniform]
$ns lossmodel $em $r1 $r2
set tcp [new Agent/TCP/Newreno]
$tcp set packetSize_ 1460
$tcp set window_ 718
$tcp set windowInit_ 1
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1460
$cbr set interval_ 0.001168
$cbr attach-agent $tcp
proc finish {} {
    global ns tcp tracefile tf duration
    if {$tracefile ne ""} { $ns flush-trace; close $tf }
    set acked [$tcp set ack_]
    puts "ns-2 netsim: [$tcp set ndatapack_] data packets, [$tcp set nrexmitpack_] retransmitted, acked $acked, goodput [expr {($acked + 1) * 1460 * 8.0 / $duration}] bit/s"
    exit 0
}
$ns at 0.0 "$cbr start"
$ns at $duration "finish"
$ns run
