//! A byte-level GMII reference, written from IEEE 802.3 clause 35 and
//! independent of the twins' cycle structure: frames to wire bytes, and a
//! stream of GMII byte times back to frames. The tests hold the twins
//! (and through them the RTL) against it; cocotbext-eth's `GmiiSource` and
//! `GmiiSink` hold the emitted Verilog against their own.

use super::xgmii::{fcs, Frame};
use nic_spec::mac;

/// One GMII byte time: the data byte, `tx_en`/`rx_dv`, `tx_er`/`rx_er`.
pub type Sym = (u8, bool, bool);

/// What a transmitter sends for `frame` while `tx_en` is high: seven
/// preamble bytes, the SFD, the frame padded with zeros to 60 bytes, its
/// FCS.
pub fn wire_bytes(frame: &[u8]) -> Vec<u8> {
    let mut f = frame.to_vec();
    if f.len() < mac::MIN_FRAME - mac::FCS_LEN {
        f.resize(mac::MIN_FRAME - mac::FCS_LEN, 0);
    }
    let c = fcs(&f);
    let mut w = vec![mac::PREAMBLE_BYTE; mac::PREAMBLE_LEN - 1];
    w.push(mac::SFD);
    w.extend_from_slice(&f);
    w.extend_from_slice(&c);
    w
}

/// Decode GMII byte times: a frame is a run with `dv` high that starts
/// with one or more preamble bytes and the SFD; its data bytes follow. A
/// frame with `er` inside it, a wrong FCS, or fewer than 64 or more than
/// `max_len` bytes (FCS included) is returned with `good` false, its
/// data without its last four bytes; a run without a good preamble and
/// SFD is skipped. `start` is the index of the run's first byte time.
pub fn decode(syms: &[Sym], max_len: usize) -> Vec<Frame> {
    let mut frames = Vec::new();
    let mut i = 0;
    while i < syms.len() {
        if !syms[i].1 {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i;
        while end < syms.len() && syms[end].1 {
            end += 1;
        }
        let run = &syms[start..end];
        i = end;
        let npre = run.iter().take_while(|s| s.0 == mac::PREAMBLE_BYTE).count();
        if npre == 0 || npre >= run.len() || run[npre].0 != mac::SFD {
            continue;
        }
        let body = &run[npre + 1..];
        let bytes: Vec<u8> = body.iter().map(|s| s.0).collect();
        let er = body.iter().any(|s| s.2);
        let n = bytes.len();
        let fcs_ok = n >= mac::FCS_LEN && fcs(&bytes[..n - mac::FCS_LEN])[..] == bytes[n - 4..];
        let good = !er && fcs_ok && n >= mac::MIN_FRAME && n <= max_len;
        frames.push(Frame {
            data: bytes[..n.saturating_sub(mac::FCS_LEN)].to_vec(),
            good,
            start,
        });
    }
    frames
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syms(bytes: &[u8]) -> Vec<Sym> {
        let mut s: Vec<Sym> = vec![(0, false, false); 3];
        s.extend(bytes.iter().map(|&b| (b, true, false)));
        s.extend([(0, false, false); 3]);
        s
    }

    #[test]
    fn a_padded_frame_decodes_and_a_corrupt_one_does_not() {
        let f: Vec<u8> = (0..20u8).collect();
        let w = wire_bytes(&f);
        assert_eq!(w.len(), 8 + 60 + 4);
        let d = decode(&syms(&w), mac::MAX_FRAME);
        assert_eq!(d.len(), 1);
        assert!(d[0].good);
        assert_eq!(&d[0].data[..20], &f[..]);
        assert_eq!(d[0].start, 3);
        let mut bad = w.clone();
        bad[30] ^= 1;
        assert!(!decode(&syms(&bad), mac::MAX_FRAME)[0].good);
        // No SFD: skipped.
        let mut nosfd = w.clone();
        nosfd[7] = 0x55;
        nosfd[8] = 0x00;
        assert!(decode(&syms(&nosfd), mac::MAX_FRAME).is_empty());
    }
}
