//! `hdl/src/roce/segment.rs` (the requester's segmentation) against
//! `nic_golden::roce::segment`: every port every cycle on both engines,
//! and, for entries the requester writes and cursors inside them, the
//! block's registers against `nic_golden::roce::requester::segment`.

use crate::common::*;
use nic_golden::roce::requester::{extent, npkts, segment, WrEntry};
use nic_golden::roce::segment::{In, Segment as Golden};
use nic_hdl::roce::segment::Segment;
use proptest::prelude::*;

/// Any value of every input in every cycle (wider than the fields too),
/// with the MTU as the requester makes it in half of them.
fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = (
        any::<[u32; 10]>(),
        any::<[u64; 2]>(),
        any::<bool>(),
        chance(50),
        0u32..5,
    )
        .prop_map(|(w, d, read, real, near)| {
            let mlog = (w[0] & 0xF) as u8;
            // In half the cycles the MTU, the extent and the cursor are
            // as the requester makes them: a power of two, a 16-bit
            // length, a cursor inside the entry.
            let mtu = if real { 1 << mlog } else { w[1] };
            let ext = if real { w[5] & 0xFFFF } else { w[5] };
            let cur = if real {
                w[7].wrapping_add(w[2] % (ext + 1))
            } else {
                w[2]
            };
            // The PktSend's rest at the edges of the trim test: the
            // entry's rest (`left`), one below it, the MTU, one below it.
            let left = ext.wrapping_sub(cur.wrapping_sub(w[7]));
            let rem = match near {
                0 => left,
                1 => left.wrapping_sub(1),
                2 => mtu,
                3 => mtu.wrapping_sub(1),
                _ => w[3],
            } as u16;
            In {
                mlog,
                mtu,
                cur,
                rem,
                read,
                len: w[4],
                ext,
                last_k: if real { ext >> mlog } else { w[6] },
                seq_first: w[7],
                seq_end: w[7].wrapping_add(ext),
                psn_first: w[8],
                laddr: d[0],
                va: d[1],
                rd_k: w[9],
            }
        });
    prop::collection::vec(cycle, 1..100)
}

/// A work request as the requester writes it, a cursor at one of its
/// packets, the PktSend's rest and (for a READ) the responses received.
fn cut() -> impl Strategy<Value = (WrEntry, u32, u32, u16, u32)> {
    (
        any::<bool>(),
        prop_oneof![2 => 1u32..=8192, 1 => 1u32..=(1 << 31) - 1],
        8u32..=12,
        any::<[u32; 3]>(),
        any::<[u64; 2]>(),
        (0u32..6, any::<u16>()),
        any::<u32>(),
    )
        .prop_map(|(read, len, l, w, d, (near, rem_any), pick)| {
            let e = WrEntry {
                read,
                rd_idx: 0,
                laddr: d[0],
                va: d[1],
                rkey: 0,
                len,
                tag: 0,
                seq_first: w[0],
                psn_first: w[1] & 0xFF_FFFF,
            };
            let n = npkts(len, l);
            // A WRITE's cursor is at one of its packets; a READ takes one
            // byte of the stream, and `pick` responses of it are in.
            let (k, rd_k) = if read { (0, pick % n) } else { (pick % n, 0) };
            let cur = e.seq_first.wrapping_add(k << l);
            // The PktSend's rest: at the edges of the trim test (the
            // packet's length, one less, one more) or any.
            let seg = segment(&e, cur, l, rd_k).seg as u16;
            let rem = match near {
                0 => seg,
                1 => seg.wrapping_sub(1),
                2 => seg.wrapping_add(1),
                _ => rem_any,
            };
            (e, l, cur, rem, rd_k)
        })
}

fn port(e: &WrEntry, l: u32, cur: u32, rem: u16, rd_k: u32) -> In {
    let ext = extent(e.read, e.len);
    In {
        mlog: l as u8,
        mtu: 1 << l,
        cur,
        rem,
        read: e.read,
        len: e.len,
        ext,
        last_k: npkts(e.len, l) - 1,
        seq_first: e.seq_first,
        seq_end: e.seq_first.wrapping_add(ext),
        psn_first: e.psn_first,
        laddr: e.laddr,
        va: e.va,
        rd_k,
    }
}

proptest! {
    #![proptest_config(config(32))]
    /// Both engines, every port, every cycle, any input every cycle.
    #[test]
    fn segment_matches_golden(s in stim()) {
        both::<Segment, Golden>("roce_segment", &s)?;
    }

    /// A cut a cycle: each result on both engines, a cycle later, is the
    /// plain statement's (`requester::segment`): the packet's length,
    /// whether it ends the work request, the trim (it does not fit in the
    /// PktSend's rest), its opcode, PSN and address, a READ's request,
    /// the next PSN, and the cursor and rest after it.
    #[test]
    fn segment_is_the_requesters_cut(cuts in prop::collection::vec(cut(), 1..40)) {
        let mut s: Vec<In> = cuts.iter().map(|&(e, l, cur, rem, rd_k)| port(&e, l, cur, rem, rd_k)).collect();
        s.push(In::default());
        let out = both::<Segment, Golden>("roce_segment_cut", &s)?;
        for (j, &(e, l, cur, rem, rd_k)) in cuts.iter().enumerate() {
            let c = segment(&e, cur, l, rd_k);
            let o = out[j + 1];
            prop_assert_eq!(o.seg, c.seg, "cut {}", j);
            prop_assert_eq!(o.seg_eq_left, c.seg == c.left, "cut {}", j);
            prop_assert_eq!(o.trim, c.seg > rem as u32, "cut {}", j);
            prop_assert_eq!((o.opcode, o.psn, o.last), (c.opcode, c.psn, c.last), "cut {}", j);
            prop_assert_eq!(o.wr_addr, e.laddr.wrapping_add(c.off as u64), "cut {}", j);
            prop_assert_eq!((o.rd_va, o.rd_dlen, o.rd_psn), (c.rd_va, c.rd_dlen, c.rd_psn), "cut {}", j);
            prop_assert_eq!(o.psn_next, c.psn_next, "cut {}", j);
            prop_assert_eq!(o.cur_new, cur.wrapping_add(c.seg), "cut {}", j);
            prop_assert_eq!(o.rem_new, rem.wrapping_sub(c.seg as u16), "cut {}", j);
        }
    }
}
