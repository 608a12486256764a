//! A byte-level XGMII reference, written from IEEE 802.3 clause 46 and
//! independent of the twins' cycle structure: frames to wire bytes, and a
//! stream of 64-bit XGMII words back to frames. The tests hold the twins
//! (and through them the RTL) against it; cocotbext-eth holds the emitted
//! Verilog against its own.

use crate::roce::crc32::crc32;
use nic_spec::mac::{self, xgmii};

/// The FCS of `frame` in wire order (least significant byte first).
pub fn fcs(frame: &[u8]) -> [u8; 4] {
    crc32(frame).to_le_bytes()
}

/// What a transmitter puts between `/S/` and `/T/` for `frame`: the
/// preamble and SFD (with `/S/` in place of the first preamble byte),
/// the frame padded with zeros to 60 bytes, its FCS.
pub fn wire_bytes(frame: &[u8]) -> Vec<u8> {
    let mut f = frame.to_vec();
    if f.len() < mac::MIN_FRAME - mac::FCS_LEN {
        f.resize(mac::MIN_FRAME - mac::FCS_LEN, 0);
    }
    let c = fcs(&f);
    let mut w = xgmii::PREAMBLE_WORD.to_le_bytes().to_vec();
    w.extend_from_slice(&f);
    w.extend_from_slice(&c);
    w
}

/// One frame as a receiver sees it: its bytes without the FCS, whether it
/// is good, and where it started (byte position of `/S/` in the stream).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub data: Vec<u8>,
    pub good: bool,
    pub start: usize,
}

/// Decode a stream of XGMII words (lane 0 in bits 7..0 of each word):
/// a frame is `/S/` in lane 0 or 4, six preamble bytes and the SFD, data
/// bytes, `/T/`. A frame with a control character other than `/T/` in it,
/// a wrong FCS, or fewer than 64 or more than `max_len` bytes (FCS
/// included) is returned with `good` false; one with a wrong preamble or
/// SFD is skipped. Also returns the `/T/` positions (byte index).
pub fn decode(words: &[(u64, u8)], max_len: usize) -> (Vec<Frame>, Vec<usize>) {
    let lanes: Vec<(u8, bool)> = words
        .iter()
        .flat_map(|&(d, c)| (0..8).map(move |k| ((d >> (8 * k)) as u8, (c >> k) & 1 != 0)))
        .collect();
    let mut frames = Vec::new();
    let mut terms = Vec::new();
    let mut i = 0;
    while i < lanes.len() {
        let (b, c) = lanes[i];
        if c && b == xgmii::START && i % 4 == 0 && i + 8 <= lanes.len() {
            let pre_ok = (1..7).all(|k| lanes[i + k] == (mac::PREAMBLE_BYTE, false))
                && lanes[i + 7] == (mac::SFD, false);
            if !pre_ok {
                i += 1;
                continue;
            }
            let start = i;
            let mut j = i + 8;
            let mut bytes = Vec::new();
            let mut ctrl_err = false;
            let mut ended = false;
            while j < lanes.len() {
                let (b, c) = lanes[j];
                if c {
                    if b == xgmii::TERM {
                        terms.push(j);
                    } else {
                        ctrl_err = true;
                    }
                    ended = true;
                    break;
                }
                bytes.push(b);
                j += 1;
            }
            if !ended {
                break;
            }
            let n = bytes.len();
            let good = !ctrl_err
                && (mac::MIN_FRAME..=max_len).contains(&n)
                && fcs(&bytes[..n - 4]) == bytes[n - 4..];
            bytes.truncate(n.saturating_sub(4));
            frames.push(Frame {
                data: bytes,
                good,
                start,
            });
            i = j + 1;
        } else {
            i += 1;
        }
    }
    (frames, terms)
}

/// XGMII words for `frames` sent back to back the way a 10G transmitter
/// with a deficit idle count does (the reference schedule the transmitter
/// twin is held to): each frame starts in lane 0 or 4, the gap from `/T/`
/// to the next `/S/` is 12 bytes with up to 3 idles deleted to reach a
/// lane-0/4 start, the deficit (0..=3) growing by each deleted idle and
/// shrinking (not below 0) by each inserted one. `first_start` is the byte
/// position of the first `/S/` (a multiple of 8).
pub fn schedule(frames: &[Vec<u8>], first_start: usize) -> Vec<(u64, u8)> {
    let mut lanes: Vec<(u8, bool)> = vec![(xgmii::IDLE, true); first_start];
    let mut deficit = 0usize;
    for f in frames {
        lanes.extend(
            wire_bytes(f)
                .into_iter()
                .enumerate()
                .map(|(k, b)| (b, k == 0)),
        );
        lanes.push((xgmii::TERM, true));
        let t = lanes.len() - 1;
        let r = (t + mac::IFG) % 4;
        let mut next = t + mac::IFG;
        if r != 0 {
            if deficit + r <= mac::DIC_MAX {
                next -= r;
                deficit += r;
            } else {
                next += 4 - r;
                deficit = deficit.saturating_sub(4 - r);
            }
        }
        lanes.resize(next, (xgmii::IDLE, true));
    }
    while lanes.len() % 8 != 0 {
        lanes.push((xgmii::IDLE, true));
    }
    lanes
        .chunks(8)
        .map(|ch| {
            let mut d = 0u64;
            let mut c = 0u8;
            for (k, &(b, ct)) in ch.iter().enumerate() {
                d |= (b as u64) << (8 * k);
                c |= (ct as u8) << k;
            }
            (d, c)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mac::{xgmii_rx, xgmii_tx};
    use crate::stream::Axis;
    use crate::Cycle;

    fn frames(seed: u64, n: usize) -> Vec<Vec<u8>> {
        let mut x = seed;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..n)
            .map(|_| {
                let len = match next() % 4 {
                    0 => 60,
                    1 => 1 + (next() % 80) as usize,
                    _ => 60 + (next() % 200) as usize,
                };
                (0..len).map(|_| next() as u8).collect()
            })
            .collect()
    }

    /// Run the transmitter twin with every frame offered back to back.
    fn tx_words(fs: &[Vec<u8>]) -> Vec<(u64, u8)> {
        let beats: Vec<xgmii_tx::In> = fs
            .iter()
            .flat_map(|f| {
                let nb = f.len().div_ceil(8);
                (0..nb).map(move |b| {
                    let ch = &f[8 * b..(8 * b + 8).min(f.len())];
                    let mut d = 0u64;
                    for (k, &x) in ch.iter().enumerate() {
                        d |= (x as u64) << (8 * k);
                    }
                    xgmii_tx::In {
                        s: Axis {
                            tdata: d,
                            tkeep: ((1u16 << ch.len()) - 1) as u8,
                            tvalid: true,
                            tlast: b + 1 == nb,
                            ..Default::default()
                        },
                        ..Default::default()
                    }
                })
            })
            .collect();
        let mut tx = xgmii_tx::XgmiiTx::default();
        let mut out = Vec::new();
        let mut k = 0;
        for _ in 0..(beats.len() * 3 + 40) {
            let i = beats.get(k).copied().unwrap_or_default();
            let o = tx.step(&i);
            if o.s_tready && i.s.tvalid {
                k += 1;
            }
            out.push((o.txd, o.txc));
        }
        assert_eq!(k, beats.len());
        out
    }

    #[test]
    fn tx_twin_follows_the_reference_schedule() {
        for seed in 1..20 {
            let fs = frames(seed, 40);
            let got = tx_words(&fs);
            // The first /S/ leaves in cycle 6: the preamble is registered
            // in cycle 0, passes the CRC and rewind stages' four registers
            // in cycles 1 to 4, and is encoded into the output register in
            // cycle 5.
            let want = schedule(&fs, 8 * 6);
            let diff = (0..want.len()).find(|&k| got[k] != want[k]);
            assert_eq!(diff, None, "seed {seed}: first difference at word {diff:?}");
            let (dec, _) = decode(&got, 1522);
            assert_eq!(dec.len(), fs.len());
            for (d, f) in dec.iter().zip(&fs) {
                let mut p = f.clone();
                p.resize(p.len().max(60), 0);
                assert!(d.good);
                assert_eq!(d.data, p);
            }
        }
    }

    #[test]
    fn sixty_four_byte_frames_take_ten_and_a_half_words() {
        let fs = vec![vec![0xA5u8; 60]; 100];
        let got = tx_words(&fs);
        let (dec, _) = decode(&got, 1522);
        assert_eq!(dec.len(), 100);
        assert_eq!(dec[99].start - dec[1].start, 98 * 84);
    }

    #[test]
    fn rx_twin_takes_the_reference_schedule() {
        for seed in 1..20 {
            let fs = frames(seed, 40);
            let words = schedule(&fs, 8);
            let mut rx = xgmii_rx::XgmiiRx::default();
            let mut got: Vec<(Vec<u8>, bool)> = Vec::new();
            let mut cur = Vec::new();
            for k in 0..words.len() + 8 {
                let (d, c) = words.get(k).copied().unwrap_or((xgmii::IDLE_WORD, 0xFF));
                let o = rx.step(&xgmii_rx::In {
                    rxd: d,
                    rxc: c,
                    cfg_max_len: 1522,
                    ..Default::default()
                });
                if o.m.tvalid {
                    for b in 0..8 {
                        if (o.m.tkeep >> b) & 1 != 0 {
                            cur.push((o.m.tdata >> (8 * b)) as u8);
                        }
                    }
                    if o.m.tlast {
                        got.push((std::mem::take(&mut cur), o.m.tuser));
                    }
                }
            }
            let (dec, _) = decode(&words, 1522);
            assert_eq!(got.len(), dec.len(), "seed {seed}");
            for (g, d) in got.iter().zip(&dec) {
                assert_eq!(g.0, d.data);
                assert_eq!(!g.1, d.good);
            }
            assert_eq!(rx.step(&Default::default()).stats.frames as usize, fs.len());
        }
    }
}
