//! pcap: a run's packets at one capture point (see `capture.rs`) as a capture file that
//! Wireshark, tshark and tcpdump open.
//!
//! The file: classic pcap with nanosecond timestamps (magic 0xa1b23c4d), link type 101
//! (raw IPv4, no link-layer header), each packet's time the simulated instant it passed the
//! point (the run starts at the epoch, 1970-01-01 00:00:00). Headers are real IPv4 and TCP
//! (UDP for cross traffic) with correct checksums; the payload is zeros, cut at the snap
//! length (the records keep the packet's full length, so analysers count the bytes).
//!
//! Addresses and numbers:
//! - flow i: sender 10.1.0.(i+1) port 40000+i, receiver 10.2.0.(i+1) port 9; cross source
//!   k: 10.3.0.(k+1) port 30000+k → 10.4.0.(k+1) port 9 (beyond 254 the address's third
//!   byte counts on);
//! - initial sequence numbers 0 on both sides: the SYN is sequence number 0 and the
//!   engine's byte b travels as sequence number b+1 (mod 2³²), so Wireshark's relative
//!   numbers are the engine's plus one; ACK numbers likewise;
//! - every segment but the SYN carries ACK (the sender's acknowledges the SYN-ACK, 1);
//! - the window field advertises the flow's receiver window `tcp.rwnd` shifted by the
//!   smallest window scale that fits it (RFC 7323), announced with the MSS in the SYN and
//!   SYN-ACK. A run without a handshake (`tcp.syn` off, the default) has no SYN to announce
//!   it: tell Wireshark the shift (Preferences → Protocols → TCP → "Scaling factor to use
//!   when not available from capture", `tcp.default_window_scaling`), which
//!   [`window_shift`] gives and docs/export.md explains;
//! - the TCP header is 20 bytes plus, when the flow's `tcp.header` is over 40, that many
//!   bytes of NOP options (up to 40, whole words), so the IP length is the engine's wire
//!   size whenever `tcp.header` is between 40 and 80 and a multiple of 4;
//! - IP identification counts each host's captured packets; TTL 64; don't-fragment set;
//! - SACK (a flow with `sack.enabled`): the SYN and SYN-ACK add SACK-permitted (RFC 2018
//!   §2: NOP, NOP, kind 4, length 2) to the MSS and window scale; every ACK that carries
//!   blocks has the SACK option (NOP, NOP, kind 5, length 2 + 8·n; RFC 2018 §3), its edges
//!   numbered as the ACK number is (the engine's byte + 1), in the receiver's order, a
//!   D-SACK first (RFC 2883). The option follows the `tcp.header` NOPs; where the two
//!   would pass the 40 bytes TCP allows, NOPs give way. Its bytes lengthen the captured
//!   ACK beyond the engine's wire size (the simulation's `tcp.header` is what an ACK costs
//!   on the link; the option's real bytes are what Wireshark reads). A flow without SACK is
//!   written exactly as before.

use crate::capture::Captured;
use crate::net::sack::SackBlocks;
use crate::net::{Packet, PktKind};
use crate::scenario::Scenario;

/// Default snap length, bytes (tcpdump's long-standing default of 96).
pub const DEFAULT_SNAPLEN: u32 = 96;
/// Snap length bounds: every header written fits (IPv4 20 + TCP 20 + up to 40 bytes of
/// options: the SYN's MSS, window scale and SACK-permitted, a `tcp.header` above 40, an
/// ACK's SACK option), so Wireshark always reads the window scale and every SACK block; at
/// most the largest IPv4 packet.
pub const SNAPLEN_MIN: u32 = 80;
/// Upper bound of the snap length.
pub const SNAPLEN_MAX: u32 = 65_535;
/// Bytes of the per-packet record header.
pub const RECORD_HEADER: u64 = 16;
/// Receiver port of every flow.
pub const RECEIVER_PORT: u16 = 9;
/// Sender port of flow 0 (flow i uses this + i).
pub const SENDER_PORT: u16 = 40_000;
/// Source port of cross-traffic source 0.
pub const CROSS_PORT: u16 = 30_000;

/// The smallest window scale (0..=14) with `rwnd >> shift` ≤ 65 535.
pub fn window_shift(rwnd: u64) -> u8 {
    (0..14u8).find(|&s| rwnd >> s <= 0xffff).unwrap_or(14)
}

/// What to tell Wireshark about a capture of `s`, if anything: flows without a SYN in the
/// run cannot announce their window scale, so Wireshark must be given it (one wording for
/// the CLI's note and the page's).
pub fn window_scale_note(s: &Scenario) -> Option<String> {
    let mut shifts: Vec<u8> = s
        .flows
        .iter()
        .filter(|f| !f.tcp.syn)
        .map(|f| window_shift(f.tcp.rwnd))
        .collect();
    shifts.sort_unstable();
    shifts.dedup();
    let &[shift] = shifts.as_slice() else {
        return (shifts.len() > 1).then(|| {
            format!(
                "the flows start without a SYN and have different window scales ({}): Wireshark takes one for all \
                 (Preferences → Protocols → TCP → \"Scaling factor to use when not available from capture\"); \
                 give each flow the same tcp.rwnd or turn the SYN handshake on",
                shifts.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
            )
        });
    };
    (shift > 0).then(|| {
        format!(
            "no SYN in this run, so Wireshark cannot read the window scale: set Preferences → Protocols → TCP → \
             \"Scaling factor to use when not available from capture\" to {shift} (multiply by {}), with tshark \
             -o \"tcp.default_window_scaling:{shift} (multiply by {})\", or turn the SYN handshake on (tcp.syn)",
            1u32 << shift,
            1u32 << shift
        )
    })
}

/// Per-flow constants of the headers.
#[derive(Clone, Debug)]
struct FlowHdr {
    mss: u16,
    shift: u8,
    /// Window field after the handshake (scaled) and in SYNs (unscaled, capped).
    window: u16,
    syn_window: u16,
    /// NOP-option bytes of every non-SYN segment.
    pad: u8,
    /// Offers SACK-permitted in its SYN and SYN-ACK.
    sack: bool,
}

/// Writes the pcap file of a run, record by record.
#[derive(Clone, Debug)]
pub struct PcapWriter {
    snaplen: u32,
    flows: Vec<FlowHdr>,
    /// Next IP identification per host: senders, receivers, cross sources, cross sinks.
    ip_id: Vec<u16>,
    n_flows: usize,
    n_cross: usize,
    /// Packets written.
    pub packets: u64,
}

fn addr(net: u8, i: usize) -> [u8; 4] {
    let host = i as u32 + 1;
    [10, net, (host >> 8) as u8, host as u8]
}

/// Adds 16-bit big-endian words to a ones'-complement sum.
fn sum16(mut acc: u32, bytes: &[u8]) -> u32 {
    let mut chunks = bytes.chunks_exact(2);
    for c in &mut chunks {
        acc += u16::from_be_bytes([c[0], c[1]]) as u32;
    }
    if let [b] = chunks.remainder() {
        acc += (*b as u32) << 8;
    }
    acc
}

fn fold(mut acc: u32) -> u16 {
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    !(acc as u16)
}

/// Writes an ACK's options into `opts`: `pad` NOPs (the `tcp.header` beyond 40), then,
/// when `sack` holds blocks, NOP, NOP and the SACK option with each edge numbered as the
/// ACK number is (byte + 1, mod 2³²). NOPs give way where both would pass 40 bytes (the
/// option itself, at most 4 + 8·4 = 36 bytes, always fits). Returns the options' length.
fn sack_option(sack: &SackBlocks, pad: usize, opts: &mut [u8; 40]) -> usize {
    if sack.is_empty() {
        opts[..pad].fill(1);
        return pad;
    }
    let n = sack.n as usize;
    let len = 4 + 8 * n;
    let nops = pad.min(40 - len);
    opts[..nops + 2].fill(1);
    opts[nops + 2] = 5;
    opts[nops + 3] = (2 + 8 * n) as u8;
    for (k, (l, r)) in sack.iter().enumerate() {
        let at = nops + 4 + 8 * k;
        opts[at..at + 4].copy_from_slice(&(l.wrapping_add(1) as u32).to_be_bytes());
        opts[at + 4..at + 8].copy_from_slice(&(r.wrapping_add(1) as u32).to_be_bytes());
    }
    nops + len
}

impl PcapWriter {
    /// A writer for `s`'s flows and cross sources; `snaplen` within
    /// [`SNAPLEN_MIN`]..=[`SNAPLEN_MAX`] (checked by the request).
    pub fn new(s: &Scenario, snaplen: u32) -> PcapWriter {
        let flows = s
            .flows
            .iter()
            .map(|f| {
                let shift = window_shift(f.tcp.rwnd);
                FlowHdr {
                    mss: f.tcp.mss.min(0xffff) as u16,
                    shift,
                    window: (f.tcp.rwnd >> shift).min(0xffff) as u16,
                    syn_window: f.tcp.rwnd.min(0xffff) as u16,
                    pad: (f.tcp.header.saturating_sub(40).min(40) & !3) as u8,
                    sack: f.sack.enabled,
                }
            })
            .collect();
        PcapWriter {
            snaplen,
            flows,
            ip_id: vec![0; 2 * s.flows.len() + 2 * s.cross.len()],
            n_flows: s.flows.len(),
            n_cross: s.cross.len(),
            packets: 0,
        }
    }

    /// The file header.
    pub fn header(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&0xa1b2_3c4du32.to_le_bytes());
        out.extend_from_slice(&2u16.to_le_bytes());
        out.extend_from_slice(&4u16.to_le_bytes());
        out.extend_from_slice(&0i32.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&self.snaplen.to_le_bytes());
        out.extend_from_slice(&101u32.to_le_bytes());
    }

    /// Appends one record per captured packet.
    pub fn write(&mut self, records: &[Captured], out: &mut Vec<u8>) {
        let mut pkt = Vec::with_capacity(128);
        for r in records {
            pkt.clear();
            let wire = self.packet(r, &mut pkt);
            let caplen = (pkt.len() as u32).min(self.snaplen);
            out.extend_from_slice(&((r.t / 1_000_000_000) as u32).to_le_bytes());
            out.extend_from_slice(&((r.t % 1_000_000_000) as u32).to_le_bytes());
            out.extend_from_slice(&caplen.to_le_bytes());
            out.extend_from_slice(&wire.to_le_bytes());
            out.extend_from_slice(&pkt[..caplen as usize]);
            self.packets += 1;
        }
    }

    /// Builds the headers (and as much zero payload as the snap length keeps) into `buf`;
    /// returns the packet's full length.
    fn packet(&mut self, r: &Captured, buf: &mut Vec<u8>) -> u32 {
        let p = &r.pkt;
        let i = p.flow as usize;
        if p.kind == PktKind::Udp {
            let k = i.min(self.n_cross.saturating_sub(1));
            let (src, dst) = (addr(3, k), addr(4, k));
            let host = 2 * self.n_flows + k;
            let total = (p.size as u64).clamp(28, 0xffff) as u16;
            self.ip(buf, 17, total, src, dst, host, 0);
            let udp_len = total - 20;
            let sport = CROSS_PORT.wrapping_add(k as u16);
            let start = buf.len();
            buf.extend_from_slice(&sport.to_be_bytes());
            buf.extend_from_slice(&RECEIVER_PORT.to_be_bytes());
            buf.extend_from_slice(&udp_len.to_be_bytes());
            buf.extend_from_slice(&[0, 0]);
            let mut acc = sum16(0, &src);
            acc = sum16(acc, &dst);
            acc += 17 + udp_len as u32;
            acc = sum16(acc, &buf[start..]);
            let c = match fold(acc) {
                0 => 0xffff,
                c => c,
            };
            buf[start + 6..start + 8].copy_from_slice(&c.to_be_bytes());
            self.pad_payload(buf, (udp_len - 8) as usize);
            return total as u32;
        }
        let f = self.flows[i].clone();
        let forward = matches!(p.kind, PktKind::Data | PktKind::Syn);
        let (src, dst, sport, dport, host) = if forward {
            (
                addr(1, i),
                addr(2, i),
                SENDER_PORT.wrapping_add(i as u16),
                RECEIVER_PORT,
                i,
            )
        } else {
            (
                addr(2, i),
                addr(1, i),
                RECEIVER_PORT,
                SENDER_PORT.wrapping_add(i as u16),
                self.n_flows + i,
            )
        };
        // (seq, ack, flags, window, options)
        const ACK: u8 = 0x10;
        const SYN: u8 = 0x02;
        let mut opts = [0u8; 40];
        let (seq, ack, flags, window, olen): (u32, u32, u8, u16, usize) = match p.kind {
            PktKind::Syn | PktKind::SynAck => {
                let o = [2, 4, (f.mss >> 8) as u8, f.mss as u8, 1, 3, 3, f.shift];
                opts[..8].copy_from_slice(&o);
                let mut olen = 8;
                if f.sack {
                    opts[8..12].copy_from_slice(&[1, 1, 4, 2]);
                    olen = 12;
                }
                if p.kind == PktKind::Syn {
                    (0, 0, SYN, f.syn_window, olen)
                } else {
                    (0, 1, SYN | ACK, f.syn_window, olen)
                }
            }
            PktKind::Data => {
                opts[..f.pad as usize].fill(1);
                (p.seq.wrapping_add(1) as u32, 1, ACK, f.window, f.pad as usize)
            }
            _ => {
                let olen = sack_option(&r.sack, f.pad as usize, &mut opts);
                (1, p.seq.wrapping_add(1) as u32, ACK, f.window, olen)
            }
        };
        // RFC 3168: ECE is the TCP flags byte's 0x40, CWR its 0x80; the codepoint is the
        // low two bits of the IP header's TOS byte.
        let flags = flags | ((p.ecn & Packet::ECE != 0) as u8) << 6 | ((p.ecn & Packet::CWR != 0) as u8) << 7;
        let payload = if p.kind == PktKind::Data { p.len as usize } else { 0 };
        let tcp_len = 20 + olen + payload;
        let total = (20 + tcp_len).min(0xffff) as u16;
        self.ip(buf, 6, total, src, dst, host, p.ecn & Packet::ECN_MASK);
        let start = buf.len();
        buf.extend_from_slice(&sport.to_be_bytes());
        buf.extend_from_slice(&dport.to_be_bytes());
        buf.extend_from_slice(&seq.to_be_bytes());
        buf.extend_from_slice(&ack.to_be_bytes());
        buf.push((((20 + olen) / 4) as u8) << 4);
        buf.push(flags);
        buf.extend_from_slice(&window.to_be_bytes());
        buf.extend_from_slice(&[0, 0, 0, 0]);
        buf.extend_from_slice(&opts[..olen]);
        // The checksum covers the pseudo-header, the header and the payload, which is
        // zeros: only its length counts.
        let mut acc = sum16(0, &src);
        acc = sum16(acc, &dst);
        acc += 6 + (total as u32 - 20);
        acc = sum16(acc, &buf[start..]);
        buf[start + 16..start + 18].copy_from_slice(&fold(acc).to_be_bytes());
        self.pad_payload(buf, payload);
        total as u32
    }

    #[allow(clippy::too_many_arguments)]
    fn ip(&mut self, buf: &mut Vec<u8>, proto: u8, total: u16, src: [u8; 4], dst: [u8; 4], host: usize, tos: u8) {
        let id = self.ip_id[host];
        self.ip_id[host] = id.wrapping_add(1);
        let start = buf.len();
        buf.extend_from_slice(&[0x45, tos]);
        buf.extend_from_slice(&total.to_be_bytes());
        buf.extend_from_slice(&id.to_be_bytes());
        buf.extend_from_slice(&[0x40, 0, 64, proto, 0, 0]);
        buf.extend_from_slice(&src);
        buf.extend_from_slice(&dst);
        let c = fold(sum16(0, &buf[start..]));
        buf[start + 10..start + 12].copy_from_slice(&c.to_be_bytes());
    }

    /// Zero payload up to the snap length (the rest is cut).
    fn pad_payload(&self, buf: &mut Vec<u8>, payload: usize) {
        let room = (self.snaplen as usize).saturating_sub(buf.len());
        buf.resize(buf.len() + payload.min(room), 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{Fate, Packet};

    fn scenario() -> Scenario {
        Scenario::from_json_str(r#"{"flows":[{"tcp":{"rwnd":100000,"header":52}}]}"#).unwrap()
    }

    fn rec(t: u64, kind: PktKind, seq: u64, len: u32) -> Captured {
        Captured {
            t,
            pkt: Packet {
                flow: 0,
                kind,
                seq,
                len,
                seg: 1,
                tx: 1,
                size: len + 52,
                fate: Fate::Ok,
                ecn: 0,
            },
            sack: Default::default(),
        }
    }

    #[test]
    fn the_note_gives_wireshark_the_scale_only_when_the_capture_cannot() {
        let no_syn = Scenario::from_json_str(r#"{"flows":[{}]}"#).unwrap();
        let note = window_scale_note(&no_syn).unwrap();
        assert!(note.contains("to 5 (multiply by 32)"), "{note}");
        assert!(
            note.contains(r#"-o "tcp.default_window_scaling:5 (multiply by 32)""#),
            "{note}"
        );
        let syn = Scenario::from_json_str(r#"{"flows":[{"tcp":{"syn":true}}]}"#).unwrap();
        assert_eq!(window_scale_note(&syn), None);
        let small = Scenario::from_json_str(r#"{"flows":[{"tcp":{"rwnd":60000}}]}"#).unwrap();
        assert_eq!(window_scale_note(&small), None);
        let mixed = Scenario::from_json_str(r#"{"flows":[{},{"tcp":{"rwnd":60000}}]}"#).unwrap();
        assert!(window_scale_note(&mixed)
            .unwrap()
            .contains("different window scales (0, 5)"));
    }

    #[test]
    fn window_scale_is_the_smallest_that_fits() {
        assert_eq!(window_shift(65_535), 0);
        assert_eq!(window_shift(65_536), 1);
        assert_eq!(window_shift(1 << 20), 5);
        assert_eq!(window_shift(1 << 30), 14);
    }

    #[test]
    fn a_data_segment_has_real_headers_with_valid_checksums() {
        let s = scenario();
        let mut w = PcapWriter::new(&s, 96);
        let mut out = Vec::new();
        w.header(&mut out);
        assert_eq!(out.len(), 24);
        assert_eq!(&out[..4], &[0x4d, 0x3c, 0xb2, 0xa1]);
        w.write(&[rec(1_500_000_123, PktKind::Data, 1460, 1460)], &mut out);
        let r = &out[24..];
        assert_eq!(u32::from_le_bytes(r[0..4].try_into().unwrap()), 1);
        assert_eq!(u32::from_le_bytes(r[4..8].try_into().unwrap()), 500_000_123);
        let (caplen, len) = (
            u32::from_le_bytes(r[8..12].try_into().unwrap()),
            u32::from_le_bytes(r[12..16].try_into().unwrap()),
        );
        // 20 IP + 20 TCP + 12 NOP options (header 52) + 1460 payload; 96 kept.
        assert_eq!((caplen, len), (96, 1512));
        let ip = &r[16..];
        assert_eq!(u16::from_be_bytes([ip[2], ip[3]]), 1512);
        assert_eq!(fold(sum16(0, &ip[..20])), 0, "IP checksum verifies");
        assert_eq!(&ip[12..20], &[10, 1, 0, 1, 10, 2, 0, 1]);
        let tcp = &ip[20..];
        assert_eq!(u16::from_be_bytes([tcp[0], tcp[1]]), 40_000);
        assert_eq!(u16::from_be_bytes([tcp[2], tcp[3]]), 9);
        assert_eq!(
            u32::from_be_bytes(tcp[4..8].try_into().unwrap()),
            1461,
            "byte 1460 → 1461"
        );
        assert_eq!(tcp[12] >> 4, 8, "32-byte header");
        assert_eq!(tcp[13], 0x10, "ACK");
        assert_eq!(u16::from_be_bytes([tcp[14], tcp[15]]), (100_000 >> 1) as u16);
        // Verify the TCP checksum over the full segment (payload zeros).
        let mut full = tcp[..76].to_vec();
        full.resize(1492, 0);
        let mut acc = sum16(0, &ip[12..20]);
        acc += 6 + 1492;
        assert_eq!(fold(sum16(acc, &full)), 0, "TCP checksum verifies");
    }

    #[test]
    fn the_handshake_announces_mss_and_window_scale() {
        let s = scenario();
        let mut w = PcapWriter::new(&s, 96);
        let mut out = Vec::new();
        w.write(&[rec(0, PktKind::Syn, 0, 0), rec(1, PktKind::SynAck, 0, 0)], &mut out);
        let syn = &out[16..];
        let tcp = &syn[20..];
        assert_eq!(tcp[13], 0x02);
        assert_eq!(&tcp[20..28], &[2, 4, (1460u16 >> 8) as u8, 1460u16 as u8, 1, 3, 3, 1]);
        assert_eq!(u16::from_be_bytes([tcp[14], tcp[15]]), 65_535, "unscaled in a SYN");
        let synack = &out[16 + 48 + 16..];
        assert_eq!(&synack[12..20], &[10, 2, 0, 1, 10, 1, 0, 1]);
        assert_eq!(synack[20 + 13], 0x12);
        assert_eq!(u32::from_be_bytes(synack[28..32].try_into().unwrap()), 1);
    }

    fn sack_scenario() -> Scenario {
        Scenario::from_json_str(r#"{"flows":[{"tcp":{"rwnd":100000,"header":52},"sack":{"enabled":true}}]}"#).unwrap()
    }

    /// The TCP header of the only record in `out` (no file header), after checking both
    /// checksums: (IP total length, TCP header bytes).
    fn tcp_of(out: &[u8]) -> (u16, Vec<u8>) {
        let ip = &out[16..];
        assert_eq!(fold(sum16(0, &ip[..20])), 0, "IP checksum verifies");
        let total = u16::from_be_bytes([ip[2], ip[3]]);
        let tcp = &ip[20..total as usize];
        let mut acc = sum16(0, &ip[12..20]);
        acc += 6 + tcp.len() as u32;
        assert_eq!(fold(sum16(acc, tcp)), 0, "TCP checksum verifies");
        let hlen = (tcp[12] >> 4) as usize * 4;
        (total, tcp[..hlen].to_vec())
    }

    #[test]
    fn a_sack_flow_offers_sack_permitted_in_its_handshake() {
        let mut w = PcapWriter::new(&sack_scenario(), 96);
        for kind in [PktKind::Syn, PktKind::SynAck] {
            let mut out = Vec::new();
            w.write(&[rec(0, kind, 0, 0)], &mut out);
            let (total, tcp) = tcp_of(&out);
            assert_eq!((total, tcp.len()), (52, 32));
            assert_eq!(&tcp[20..], &[2, 4, 5, 180, 1, 3, 3, 1, 1, 1, 4, 2]);
        }
        // Without SACK the SYN is as it always was.
        let mut w = PcapWriter::new(&scenario(), 96);
        let mut out = Vec::new();
        w.write(&[rec(0, PktKind::Syn, 0, 0)], &mut out);
        assert_eq!(tcp_of(&out).1.len(), 28);
    }

    #[test]
    fn an_ack_carries_its_sack_blocks_numbered_as_the_ack_is() {
        let mut w = PcapWriter::new(&sack_scenario(), 96);
        let mut r = rec(0, PktKind::Ack, 2920, 0);
        r.sack.dsack = true;
        assert!(r.sack.push(1460, 2920));
        assert!(r.sack.push(5840, 8760));
        let mut out = Vec::new();
        w.write(&[r], &mut out);
        let (total, tcp) = tcp_of(&out);
        // 12 NOPs for tcp.header 52, then NOP NOP, kind 5, length 18, two blocks.
        assert_eq!((total, tcp.len()), (72, 52));
        assert_eq!(u32::from_be_bytes(tcp[8..12].try_into().unwrap()), 2921);
        assert!(tcp[20..34].iter().all(|&b| b == 1));
        assert_eq!(&tcp[34..36], &[5, 18]);
        let edge = |k: usize| u32::from_be_bytes(tcp[36 + 4 * k..40 + 4 * k].try_into().unwrap());
        assert_eq!([edge(0), edge(1), edge(2), edge(3)], [1461, 2921, 5841, 8761]);
        // Four blocks take 36 bytes: only 4 of the 12 NOPs fit beside them.
        let mut r = rec(0, PktKind::Ack, 0, 0);
        for k in 0..4 {
            assert!(r.sack.push(3000 * k + 1460, 3000 * k + 2920));
        }
        let mut out = Vec::new();
        w.write(&[r], &mut out);
        let (total, tcp) = tcp_of(&out);
        assert_eq!((total, tcp.len()), (80, 60));
        assert_eq!(&tcp[20..28], &[1, 1, 1, 1, 1, 1, 5, 34]);
        // An ACK without blocks keeps the plain header.
        let mut out = Vec::new();
        w.write(&[rec(0, PktKind::Ack, 0, 0)], &mut out);
        let (total, tcp) = tcp_of(&out);
        assert_eq!((total, tcp.len()), (52, 32));
        assert!(tcp[20..].iter().all(|&b| b == 1));
    }
}
