//! `hdl/src/mac/axis_async_fifo.rs` (a frame FIFO between two clocks)
//! against `nic_golden::mac::axis_async_fifo`, on rust-hdl's kernel with
//! two unrelated clocks (its own loop: the common engines drive one
//! clock). After every edge of either clock, `s_axis.tready`, the
//! counters and every `m_axis` port equal the twin's.
//!
//! - `axis_async_fifo_matches_golden`: both modes (drop when full /
//!   back-pressure), a 16-word FIFO, random clock periods (either side the
//!   faster, up to 1:6), random gaps and back-pressure, frames of 1 to 24
//!   words (longer than the FIFO too), `tuser` on some. Every frame that
//!   comes out is a sent frame, whole and unchanged, in order; with
//!   back-pressure every frame that fits comes out and only the long ones
//!   are dropped; every frame is counted once (`frames` or `dropped`).
//! - `axis_async_fifo_resets`: resets of either side alone, of any
//!   length, in mid-traffic: the twin still agrees after every edge, the
//!   frames that come out are sent frames in order, whole, or cut by the
//!   reset and closed by the bad terminator beat; traffic resumes.
//! - The emitted Verilog runs under Icarus with cocotbext-axi's
//!   AXI4-Stream source and sink at unrelated clocks
//!   (`testbench/cocotb/test_async_fifo.py`, in `make test`).

use nic_golden::mac::axis_async_fifo::{AxisAsyncFifo as Golden, Beat, SIn, TERM_BEAT};
use nic_hdl::mac::AxisAsyncFifo;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use rust_hdl::core::check_error::check_all;
use rust_hdl::core::simulate::simulate;
use rust_hdl::prelude::*;

const A: usize = 4;

/// What a run saw.
struct Run {
    /// Frames offered (tag = index + 1), their beats.
    sent: Vec<Vec<Beat>>,
    /// Frames that came out on m_axis (beats taken, up to `tlast`).
    got: Vec<Vec<Beat>>,
    frames: u32,
    dropped: u32,
    /// Frames offered completely (every beat taken) since the last reset.
    offered_whole: usize,
}

fn frame(tag: usize, len: usize, bad: bool) -> Vec<Beat> {
    (0..len)
        .map(|b| Beat {
            tdata: ((tag as u128) << 16) | b as u128,
            tkeep: if b + 1 == len { 0x0F } else { 0xFF },
            tlast: b + 1 == len,
            tuser: (b + 1 == len && bad) as u32,
        })
        .collect()
}

fn set_s<const DROP: usize>(d: &mut AxisAsyncFifo<A, DROP>, i: &SIn) {
    d.s_rst.next = i.reset;
    d.s_axis.tdata.next = Bits::<64>::from(i.beat.tdata as u64);
    d.s_axis.tkeep.next = Bits::<8>::from(i.beat.tkeep as u64);
    d.s_axis.tlast.next = i.beat.tlast;
    d.s_axis.tuser.next = Bits::<1>::from(i.beat.tuser as u64);
    d.s_axis.tvalid.next = i.tvalid;
}

/// `p_reset`: chance per cycle of each side that a reset starts (it then
/// lasts 1 to 8 cycles), while the first 70 % of the frames are offered.
fn run<const DROP: usize>(
    seed: u64,
    hs: u64,
    hm: u64,
    n_frames: usize,
    p_reset: f64,
) -> Result<Run, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = AxisAsyncFifo::<A, DROP>::default();
    dut.connect_all();
    check_all(&mut dut).map_err(|e| format!("{e:?}"))?;
    let mut g = Golden::<A, DROP>::default();
    let p_gap = rng.gen_range(0.0..0.5);
    let p_ready = rng.gen_range(0.2..1.0);
    let sent: Vec<Vec<Beat>> = (0..n_frames)
        .map(|k| {
            let len = if rng.gen_bool(0.1) {
                rng.gen_range(17..25)
            } else {
                rng.gen_range(1..12)
            };
            frame(k + 1, len, rng.gen_bool(0.2))
        })
        .collect();
    let (mut cs, mut cm) = (false, false);
    let (mut ts, mut tm) = (2 * hs, 2 * hm + 1);
    let (mut f, mut b) = (0usize, 0usize);
    let mut is = SIn::default();
    let (mut rm, mut ready_m) = (false, false);
    let (mut rs_left, mut rm_left) = (0u32, 0u32);
    let mut got = Vec::new();
    let mut cur: Vec<Beat> = Vec::new();
    let mut offered_whole = 0usize;
    let mut quiet = 0usize;
    let mut taken = false;
    // Resets start only while the first 70 % of the frames are offered.
    let reset_until = sent.len() * 7 / 10;
    set_s(&mut dut, &is);
    dut.m_rst.next = rm;
    dut.m_axis.tready.next = ready_m;
    dut.s_clk.next = Clock { clk: false };
    dut.m_clk.next = Clock { clk: false };
    if !simulate(&mut dut, 100) {
        return Err("initial settle".into());
    }
    let mut edges = 0usize;
    // Run until every frame is offered and the FIFO has drained.
    while quiet < 400 {
        edges += 1;
        if edges > 2_000_000 {
            return Err("no progress".into());
        }
        let s_edge = ts < tm;
        if s_edge {
            cs = !cs;
            ts += 2 * hs;
            if cs {
                let o = g.s_out(&is);
                taken = is.tvalid && o.tready;
                if taken {
                    b += 1;
                    if b == sent[f].len() {
                        f += 1;
                        b = 0;
                        offered_whole += 1;
                    }
                }
                g.step_s(&is);
            }
            dut.s_clk.next = Clock { clk: cs };
        } else {
            cm = !cm;
            tm += 2 * hm;
            if cm {
                let shown = g.m_out();
                if shown.tvalid && ready_m {
                    cur.push(shown.beat);
                    if shown.beat.tlast {
                        got.push(std::mem::take(&mut cur));
                    }
                }
                g.step_m(rm, ready_m);
                if rm {
                    // The consumer shares m_rst: a frame it was taking is
                    // gone with it.
                    cur.clear();
                }
            }
            dut.m_clk.next = Clock { clk: cm };
        }
        if !simulate(&mut dut, 100) {
            return Err("settle".into());
        }
        let so = g.s_out(&is);
        let mo = g.m_out();
        let have_s = (
            dut.s_axis.tready.val(),
            dut.m_stats.frames.val().to_u64() as u32,
            dut.m_stats.dropped.val().to_u64() as u32,
        );
        if have_s != (so.tready, so.stats.frames, so.stats.dropped) {
            return Err(format!("edge {edges}: s side {have_s:?}, twin {so:?}"));
        }
        let have_m = (
            dut.m_axis.tvalid.val(),
            dut.m_axis.tdata.val().to_u64(),
            dut.m_axis.tkeep.val().to_u64() as u8,
            dut.m_axis.tlast.val(),
            dut.m_axis.tuser.val().any(),
        );
        let want_m = (
            mo.tvalid,
            mo.beat.tdata as u64,
            mo.beat.tkeep as u8,
            mo.beat.tlast,
            mo.beat.tuser != 0,
        );
        if have_m != want_m {
            return Err(format!("edge {edges}: m side {have_m:?}, twin {want_m:?}"));
        }
        // New inputs after a falling edge.
        if s_edge && !cs {
            if rs_left > 0 {
                rs_left -= 1;
            } else if p_reset > 0.0 && f < reset_until && rng.gen_bool(p_reset) {
                rs_left = rng.gen_range(1..=8);
            }
            let reset = rs_left > 0;
            if reset {
                // The source shares s_rst: it restarts the frame it was
                // sending. (A reset of the read side alone does not touch
                // it: it holds its beat and goes on.)
                b = 0;
            }
            let hold = is.tvalid && !taken && !reset;
            let offer = !reset && f < sent.len() && (hold || !rng.gen_bool(p_gap));
            is = SIn {
                reset,
                beat: if offer { sent[f][b] } else { Beat::default() },
                tvalid: offer,
            };
        }
        if !s_edge && !cm {
            if rm_left > 0 {
                rm_left -= 1;
            } else if p_reset > 0.0 && f < reset_until && rng.gen_bool(p_reset) {
                rm_left = rng.gen_range(1..=8);
            }
            rm = rm_left > 0;
            ready_m = rng.gen_bool(p_ready);
        }
        set_s(&mut dut, &is);
        dut.m_rst.next = rm;
        dut.m_axis.tready.next = ready_m;
        if f >= sent.len() && !g.m_out().tvalid {
            quiet += 1;
        } else {
            quiet = 0;
        }
    }
    let st = g.s_out(&is).stats;
    Ok(Run {
        sent,
        got,
        frames: st.frames,
        dropped: st.dropped,
        offered_whole,
    })
}

/// The frames out are sent frames in order, each whole (or, if `cut_ok`,
/// a prefix closed by the terminator beat).
fn check_order(r: &Run, cut_ok: bool) -> Result<usize, TestCaseError> {
    let mut next = 0usize;
    let mut whole = 0;
    for fr in &r.got {
        let tag = (fr[0].tdata >> 16) as usize;
        prop_assert!(tag >= 1 && tag <= r.sent.len(), "tag {tag}");
        prop_assert!(
            tag > next,
            "frame {tag} after {next}: out of order or twice"
        );
        next = tag;
        let want = &r.sent[tag - 1];
        if fr == want {
            whole += 1;
        } else {
            prop_assert!(cut_ok, "frame {tag} changed: {fr:?}");
            prop_assert_eq!(
                *fr.last().unwrap(),
                TERM_BEAT,
                "frame {} cut without the terminator",
                tag
            );
            prop_assert_eq!(&fr[..fr.len() - 1], &want[..fr.len() - 1]);
        }
    }
    Ok(whole)
}

proptest! {
    #![proptest_config(crate::common::config(16))]
    #[test]
    fn axis_async_fifo_matches_golden(seed in any::<u64>(), hs in 2u64..13, hm in 2u64..13, n in 1usize..60) {
        // Back-pressure: every frame that fits arrives, only long ones are
        // dropped.
        let r = run::<0>(seed, hs, hm, n, 0.0).map_err(TestCaseError::fail)?;
        let whole = check_order(&r, false)?;
        let long = r.sent.iter().filter(|f| f.len() > 1 << A).count();
        prop_assert_eq!(whole, n - long);
        prop_assert_eq!(r.dropped as usize, long);
        prop_assert_eq!(r.frames as usize, n - long);
        // Drop when full: frames arrive whole or are dropped whole, each
        // counted once.
        let r = run::<1>(seed ^ 7, hs, hm, n, 0.0).map_err(TestCaseError::fail)?;
        let whole = check_order(&r, false)?;
        prop_assert_eq!(whole, r.frames as usize);
        prop_assert_eq!((r.frames + r.dropped) as usize, n);
        prop_assert!(r.offered_whole == n);
    }
}

#[test]
fn axis_async_fifo_resets() {
    for seed in 0..6u64 {
        let (hs, hm) = [(3, 7), (7, 3), (5, 5), (2, 11), (11, 2), (4, 6)][seed as usize];
        for drop in [false, true] {
            let r = if drop {
                run::<1>(seed, hs, hm, 80, 0.01)
            } else {
                run::<0>(seed, hs, hm, 80, 0.01)
            }
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let whole = check_order(&r, true).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            // Traffic resumes: with back-pressure, the last frame (offered
            // long after the last reset) arrives.
            assert!(whole > 0, "seed {seed}: nothing came through");
            let last = r.got.last().map(|f| (f[0].tdata >> 16) as usize);
            let fits = r.sent.last().unwrap().len() <= 1 << A;
            if fits && !drop {
                assert_eq!(last, Some(r.sent.len()), "seed {seed}: the last frame");
            }
        }
    }
}

/// The FIFO with both clocks tied to one (`hpcc_nic_10g`'s transmit
/// FIFO) against `OneClock` (the twin's `step_same_clock`), both engines,
/// every port every cycle: both modes, random frames (longer than the
/// FIFO too), gaps, back-pressure and resets; the frames out are the
/// frames in, whole, in order.
mod one_clock {
    use crate::common::*;
    use nic_golden::mac::axis_async_fifo::{OneClock, OneClockIn, OneClockOut};
    use nic_golden::stream::Axis;
    use nic_golden::Cycle;
    use nic_testbench::blocks::AxisAsyncFifoOneClock;
    use proptest::prelude::*;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    fn stimulus<const DROP: usize>(seed: u64, n: usize, resets: bool) -> Vec<OneClockIn> {
        let mut rng = StdRng::seed_from_u64(seed);
        let p_ready = rng.gen_range(0.2..1.0);
        let mut g = OneClock::<4, DROP>::default();
        let mut v = Vec::new();
        let (mut f, mut b) = (0u64, 0u64);
        let mut beats = rng.gen_range(1..24u64);
        let mut dry = 0;
        while f < n as u64 || v.len() < 40 {
            let done = f >= n as u64;
            let i = OneClockIn {
                reset: resets && rng.gen_bool(0.003),
                s: Axis {
                    tdata: (f << 16) | b,
                    tkeep: 0xFF,
                    tlast: b + 1 == beats,
                    tuser: b + 1 == beats && f % 5 == 3,
                    tvalid: !done && dry == 0,
                },
                m_tready: rng.gen_bool(p_ready),
            };
            let o = g.step(&i);
            if !done {
                if i.reset {
                    b = 0;
                } else if dry > 0 {
                    dry -= 1;
                } else if o.s_tready {
                    b += 1;
                    if b == beats {
                        f += 1;
                        b = 0;
                        beats = rng.gen_range(1..24);
                    }
                    dry = if rng.gen_bool(0.2) {
                        rng.gen_range(1..4)
                    } else {
                        0
                    };
                }
            }
            v.push(i);
        }
        for _ in 0..60 {
            v.push(OneClockIn {
                m_tready: true,
                ..Default::default()
            });
        }
        v
    }

    /// The frames taken out: (frame tag, beats, tuser), each beat its
    /// frame's and in order.
    fn frames(s: &[OneClockIn], o: &[OneClockOut]) -> Vec<(u64, u64, bool)> {
        let mut v = Vec::new();
        let mut k = 0;
        for (i, x) in s.iter().zip(o) {
            if x.m.tvalid && i.m_tready {
                assert_eq!(x.m.tdata & 0xFFFF, k, "beat out of order");
                k += 1;
                if x.m.tlast {
                    v.push((x.m.tdata >> 16, k, x.m.tuser));
                    k = 0;
                }
            }
        }
        v
    }

    proptest! {
        #![proptest_config(config(8))]
        #[test]
        fn axis_async_fifo_one_clock_matches_golden(seed in any::<u64>(), n in 1usize..30) {
            let s = stimulus::<0>(seed, n, false);
            let o = both::<AxisAsyncFifoOneClock<4, 0>, OneClock<4, 0>>("axis_async_fifo_1clk_bp", &s)?;
            // Back-pressure: every frame that fits (16 words) comes out,
            // in order; the longer ones are dropped.
            let got = frames(&s, &o);
            let st = o.last().unwrap().stats;
            prop_assert_eq!(got.len() as u32, st.frames);
            prop_assert_eq!(st.frames + st.dropped, n as u32);
            prop_assert!(got.windows(2).all(|w| w[0].0 < w[1].0));
            prop_assert!(got.iter().all(|&(_, beats, _)| beats <= 16));
            let s = stimulus::<1>(seed, n, false);
            let o = both::<AxisAsyncFifoOneClock<4, 1>, OneClock<4, 1>>("axis_async_fifo_1clk_drop", &s)?;
            let got = frames(&s, &o);
            let st = o.last().unwrap().stats;
            prop_assert_eq!(got.len() as u32, st.frames);
            prop_assert_eq!(st.frames + st.dropped, n as u32);
            prop_assert!(got.windows(2).all(|w| w[0].0 < w[1].0));
        }
    }

    #[test]
    fn axis_async_fifo_one_clock_resets() {
        for seed in 0..3 {
            let s = stimulus::<0>(seed, 40, true);
            both::<AxisAsyncFifoOneClock<4, 0>, OneClock<4, 0>>("axis_async_fifo_1clk_rst", &s)
                .unwrap();
        }
    }

    #[test]
    fn axis_async_fifo_one_clock_no_x_in_four_state_simulation() {
        four_state::<AxisAsyncFifoOneClock<4, 0>, OneClock<4, 0>>(
            "axis_async_fifo_1clk_x",
            &stimulus::<0>(5, 20, true),
        );
    }
}
