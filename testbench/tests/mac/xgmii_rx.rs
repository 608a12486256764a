//! `hdl/src/mac/xgmii_rx.rs` against `nic_golden::mac::xgmii_rx`, and the
//! twin against the byte-level reference `nic_golden::mac::xgmii::decode`.
//!
//! - `xgmii_rx_matches_golden`: both engines, every port every cycle, on
//!   random traffic with lane-0 and lane-4 starts and every kind of bad
//!   frame: a bad FCS, `/E/` in mid-frame, a missing SFD, runts,
//!   oversize frames, a frame that never ends, pause and PFC frames (good
//!   and with a bad FCS), other MAC control frames. The good frames that
//!   come out are exactly the reference's good frames; every start is
//!   counted once.
//! - `xgmii_rx_pause_quanta`: PAUSE and PFC frames give their quanta.
//! - `xgmii_rx_no_x_in_four_state_simulation`: Icarus, no X or Z.

use super::ctl_frame;
use crate::common::*;
use nic_golden::mac::xgmii::{decode, fcs};
use nic_golden::mac::xgmii_rx::{In, Out, XgmiiRx as Golden};
use nic_hdl::mac::XgmiiRx;
use nic_spec::mac::{ctl, xgmii, SFD};
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

const MAX: usize = 1522;

/// What a generated frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Good,
    BadFcs,
    Error,
    NoSfd,
    Runt,
    Oversize,
    Pause(u16),
    PausePfc,
    PauseBadFcs,
    CtlOther,
    NeverEnds,
}

/// Lanes (byte, control) of random traffic, and the kinds sent.
fn traffic(seed: u64, n: usize) -> (Vec<(u8, bool)>, Vec<Kind>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut lanes: Vec<(u8, bool)> = vec![(xgmii::IDLE, true); 8 * rng.gen_range(1..4)];
    let mut kinds = Vec::new();
    for _ in 0..n {
        let kind = match rng.gen_range(0..24) {
            0 => Kind::BadFcs,
            1 => Kind::Error,
            2 => Kind::NoSfd,
            3 => Kind::Runt,
            4 => Kind::Oversize,
            5 => Kind::Pause(rng.gen()),
            6 => Kind::PausePfc,
            7 => Kind::PauseBadFcs,
            8 => Kind::CtlOther,
            9 if rng.gen_bool(0.3) => Kind::NeverEnds,
            _ => Kind::Good,
        };
        kinds.push(kind);
        let len = match kind {
            Kind::Runt => rng.gen_range(1..60),
            Kind::Oversize => rng.gen_range(MAX - 3..MAX + 40),
            Kind::NeverEnds => MAX + 200,
            _ if rng.gen_bool(0.3) => 60,
            _ => rng.gen_range(60..400),
        };
        let mut f: Vec<u8> = match kind {
            Kind::Pause(q) => ctl_frame(ctl::OP_PAUSE, &q.to_be_bytes()),
            Kind::PausePfc | Kind::PauseBadFcs => {
                let mut b = vec![0, rng.gen()];
                b.extend((0..16).map(|_| rng.gen::<u8>()));
                ctl_frame(ctl::OP_PFC, &b)
            }
            Kind::CtlOther => ctl_frame(0x0002, &[1, 2]),
            _ => (0..len).map(|_| rng.gen()).collect(),
        };
        let c = fcs(&f);
        f.extend_from_slice(&c);
        if matches!(kind, Kind::BadFcs | Kind::PauseBadFcs) {
            let k = rng.gen_range(0..f.len());
            f[k] ^= 1 << rng.gen_range(0..8);
        }
        // Start in lane 0 or 4.
        while lanes.len() % 4 != 0 {
            lanes.push((xgmii::IDLE, true));
        }
        lanes.push((xgmii::START, true));
        lanes.extend([(0x55, false); 6]);
        lanes.push((if kind == Kind::NoSfd { 0x5D } else { SFD }, false));
        let err_at = rng.gen_range(0..f.len());
        for (k, &b) in f.iter().enumerate() {
            if kind == Kind::Error && k == err_at {
                lanes.push((xgmii::ERROR, true));
            } else {
                lanes.push((b, false));
            }
        }
        if kind != Kind::NeverEnds {
            lanes.push((xgmii::TERM, true));
        }
        let gap = rng.gen_range(4..30);
        lanes.extend(std::iter::repeat((xgmii::IDLE, true)).take(gap));
    }
    lanes.extend([(xgmii::IDLE, true); 64]);
    (lanes, kinds)
}

fn words(lanes: &[(u8, bool)]) -> Vec<(u64, u8)> {
    lanes
        .chunks(8)
        .map(|ch| {
            let mut d = xgmii::IDLE_WORD;
            let mut c = 0xFFu8;
            for (k, &(b, ct)) in ch.iter().enumerate() {
                d = (d & !(0xFFu64 << (8 * k))) | ((b as u64) << (8 * k));
                c = (c & !(1 << k)) | ((ct as u8) << k);
            }
            (d, c)
        })
        .collect()
}

fn stim(w: &[(u64, u8)]) -> Vec<In> {
    w.iter()
        .map(|&(d, c)| In {
            rxd: d,
            rxc: c,
            cfg_max_len: MAX as u16,
            ..Default::default()
        })
        .collect()
}

/// The frames on `m_axis`: bytes, and `tuser` of the last beat.
fn frames_out(o: &[Out]) -> Vec<(Vec<u8>, bool)> {
    let mut got = Vec::new();
    let mut cur = Vec::new();
    for x in o.iter().filter(|x| x.m.tvalid) {
        for b in 0..8 {
            if (x.m.tkeep >> b) & 1 != 0 {
                cur.push((x.m.tdata >> (8 * b)) as u8);
            }
        }
        if x.m.tlast {
            got.push((std::mem::take(&mut cur), x.m.tuser));
        }
    }
    got
}

proptest! {
    #![proptest_config(config(24))]
    #[test]
    fn xgmii_rx_matches_golden(seed in any::<u64>(), n in 1usize..30) {
        let (lanes, kinds) = traffic(seed, n);
        let w = words(&lanes);
        let o = both::<XgmiiRx, Golden>("xgmii_rx", &stim(&w))?;
        // The good frames out are the reference's good frames that are not
        // MAC control frames.
        let (dec, _) = decode(&w, MAX);
        let want: Vec<Vec<u8>> = dec
            .iter()
            .filter(|f| f.good && !(f.data.len() >= 14 && f.data[12..14] == ctl::ETHERTYPE.to_be_bytes()))
            .map(|f| f.data.clone())
            .collect();
        let got: Vec<Vec<u8>> = frames_out(&o).into_iter().filter(|f| !f.1).map(|f| f.0).collect();
        prop_assert_eq!(got, want);
        let st = o.last().unwrap().stats;
        let count = |k: fn(&Kind) -> bool| kinds.iter().filter(|x| k(x)).count() as u32;
        prop_assert_eq!(st.frames, count(|k| *k == Kind::Good));
        prop_assert_eq!(st.bad_preamble, count(|k| *k == Kind::NoSfd));
        prop_assert_eq!(st.pause, count(|k| matches!(k, Kind::Pause(_) | Kind::PausePfc)));
        prop_assert_eq!(st.ctl_other, count(|k| *k == Kind::CtlOther));
        prop_assert_eq!(st.bad_fcs, count(|k| matches!(k, Kind::BadFcs | Kind::PauseBadFcs)));
        prop_assert_eq!(st.runts, count(|k| *k == Kind::Runt));
        prop_assert_eq!(st.errors, count(|k| *k == Kind::Error));
        prop_assert_eq!(st.oversize, count(|k| matches!(k, Kind::Oversize | Kind::NeverEnds)));
    }
}

/// PAUSE gives its quanta; PFC the largest time of an enabled priority.
#[test]
fn xgmii_rx_pause_quanta() {
    let mut lanes: Vec<(u8, bool)> = vec![(xgmii::IDLE, true); 8];
    let mut times = [0u16; 8];
    for (p, t) in times.iter_mut().enumerate() {
        *t = 1000 + 700 * p as u16;
    }
    let mut pfc = vec![0, 0b0101_0010];
    for t in times {
        pfc.extend_from_slice(&t.to_be_bytes());
    }
    for f in [
        ctl_frame(ctl::OP_PAUSE, &0x1234u16.to_be_bytes()),
        ctl_frame(ctl::OP_PFC, &pfc),
    ] {
        let mut f = f;
        let c = fcs(&f);
        f.extend_from_slice(&c);
        lanes.push((xgmii::START, true));
        lanes.extend([(0x55, false); 6]);
        lanes.push((SFD, false));
        lanes.extend(f.iter().map(|&b| (b, false)));
        lanes.push((xgmii::TERM, true));
        lanes.extend([(xgmii::IDLE, true); 19]);
    }
    lanes.extend([(xgmii::IDLE, true); 64]);
    let o = both::<XgmiiRx, Golden>("xgmii_rx_pause", &stim(&words(&lanes))).unwrap();
    let q: Vec<u16> = o
        .iter()
        .filter(|x| x.pause_valid)
        .map(|x| x.pause_quanta)
        .collect();
    // Priorities 1, 4 and 6 enabled: the largest is priority 6's.
    assert_eq!(q, vec![0x1234, times[6]]);
    assert!(
        o.iter().all(|x| !x.m.tvalid),
        "MAC control frames are not passed on"
    );
}

#[test]
fn xgmii_rx_no_x_in_four_state_simulation() {
    let (lanes, _) = traffic(5, 16);
    four_state::<XgmiiRx, Golden>("xgmii_rx_x", &stim(&words(&lanes)));
}
