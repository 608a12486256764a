//! `hdl/src/mac/gmii_rx.rs` against `nic_golden::mac::gmii_rx`, and the
//! twin against the byte-level reference `nic_golden::mac::gmii::decode`.
//!
//! - `gmii_rx_matches_golden`: both engines, every port every cycle, on
//!   random traffic with preambles of 1 to 7 bytes, gaps of 1 to 20 byte
//!   times, and every kind of bad frame: a bad FCS, `rx_er` in
//!   mid-frame, a missing SFD, a start without a preamble, runts (down to
//!   one byte), oversize frames, a frame that never ends, pause and PFC
//!   frames (good and with a bad FCS), other MAC control frames. The good
//!   frames out are exactly the reference's good frames; every start is
//!   counted once.
//! - `gmii_rx_pause_quanta`: PAUSE and PFC frames give their quanta.
//! - `gmii_rx_no_x_in_four_state_simulation`: Icarus, no X or Z.

use super::ctl_frame;
use crate::common::*;
use nic_golden::mac::gmii::{decode, Sym};
use nic_golden::mac::gmii_rx::{GmiiRx as Golden, In, Out};
use nic_golden::mac::xgmii::fcs;
use nic_hdl::mac::GmiiRx;
use nic_spec::mac::{ctl, PREAMBLE_BYTE, SFD};
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

const MAX: usize = 1522;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Good,
    BadFcs,
    Error,
    NoSfd,
    NoPreamble,
    Runt,
    Oversize,
    Pause(u16),
    PausePfc,
    PauseBadFcs,
    CtlOther,
    NeverEnds,
}

const IDLE: Sym = (0, false, false);

fn traffic(seed: u64, n: usize) -> (Vec<Sym>, Vec<Kind>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut syms: Vec<Sym> = vec![IDLE; rng.gen_range(1..8)];
    let mut kinds = Vec::new();
    for _ in 0..n {
        let kind = match rng.gen_range(0..26) {
            0 => Kind::BadFcs,
            1 => Kind::Error,
            2 => Kind::NoSfd,
            3 => Kind::NoPreamble,
            4 => Kind::Runt,
            5 => Kind::Oversize,
            6 => Kind::Pause(rng.gen()),
            7 => Kind::PausePfc,
            8 => Kind::PauseBadFcs,
            9 => Kind::CtlOther,
            10 if rng.gen_bool(0.3) => Kind::NeverEnds,
            _ => Kind::Good,
        };
        kinds.push(kind);
        let len = match kind {
            Kind::Runt => rng.gen_range(1..60),
            Kind::Oversize => rng.gen_range(MAX - 3..MAX + 40),
            Kind::NeverEnds => MAX + 100,
            _ if rng.gen_bool(0.3) => 60,
            _ => rng.gen_range(60..300),
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
        if kind == Kind::Runt && rng.gen_bool(0.3) {
            // Down to a single byte, FCS included.
            f.truncate(rng.gen_range(0..4));
        } else {
            let c = fcs(&f);
            f.extend_from_slice(&c);
        }
        if matches!(kind, Kind::BadFcs | Kind::PauseBadFcs) {
            let k = rng.gen_range(0..f.len());
            f[k] ^= 1 << rng.gen_range(0..8);
        }
        if kind == Kind::NoPreamble {
            syms.push((0x42, true, false));
            syms.extend(f.iter().map(|&b| (b, true, false)));
        } else {
            let npre = rng.gen_range(1..=7);
            syms.extend(std::iter::repeat((PREAMBLE_BYTE, true, false)).take(npre));
            syms.push((if kind == Kind::NoSfd { 0x5D } else { SFD }, true, false));
            let err_at = rng.gen_range(0..f.len().max(1));
            for (k, &b) in f.iter().enumerate() {
                syms.push((b, true, kind == Kind::Error && k == err_at));
            }
        }
        // Idle, sometimes with rx_er (a false carrier: ignored).
        let gap = rng.gen_range(1..20);
        for _ in 0..gap {
            syms.push((rng.gen(), false, rng.gen_bool(0.1)));
        }
    }
    syms.extend([IDLE; 40]);
    (syms, kinds)
}

fn stim(s: &[Sym]) -> Vec<In> {
    s.iter()
        .map(|&(d, dv, er)| In {
            rxd: d,
            rx_dv: dv,
            rx_er: er,
            cfg_max_len: MAX as u16,
            ..Default::default()
        })
        .collect()
}

fn frames_out(o: &[Out]) -> Vec<(Vec<u8>, bool)> {
    let mut got = Vec::new();
    let mut cur = Vec::new();
    for x in o.iter().filter(|x| x.m.tvalid) {
        cur.push(x.m.tdata);
        if x.m.tlast {
            got.push((std::mem::take(&mut cur), x.m.tuser));
        }
    }
    assert!(cur.is_empty(), "a frame without its last beat");
    got
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn gmii_rx_matches_golden(seed in any::<u64>(), n in 1usize..24) {
        let (syms, kinds) = traffic(seed, n);
        let o = both::<GmiiRx, Golden>("gmii_rx", &stim(&syms))?;
        let want: Vec<Vec<u8>> = decode(&syms, MAX)
            .into_iter()
            .filter(|f| f.good && !(f.data.len() >= 14 && f.data[..6] == ctl::DST.to_be_bytes()[2..] && f.data[12..14] == ctl::ETHERTYPE.to_be_bytes()))
            .map(|f| f.data)
            .collect();
        let got: Vec<Vec<u8>> = frames_out(&o).into_iter().filter(|f| !f.1).map(|f| f.0).collect();
        prop_assert_eq!(got, want);
        let st = o.last().unwrap().stats;
        let count = |k: fn(&Kind) -> bool| kinds.iter().filter(|x| k(x)).count() as u32;
        prop_assert_eq!(st.frames, count(|k| *k == Kind::Good));
        prop_assert_eq!(st.bad_preamble, count(|k| matches!(k, Kind::NoSfd | Kind::NoPreamble)));
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
fn gmii_rx_pause_quanta() {
    let mut syms: Vec<Sym> = vec![IDLE; 4];
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
        syms.extend([(PREAMBLE_BYTE, true, false); 7]);
        syms.push((SFD, true, false));
        syms.extend(f.iter().map(|&b| (b, true, false)));
        syms.extend([IDLE; 12]);
    }
    syms.extend([IDLE; 30]);
    let o = both::<GmiiRx, Golden>("gmii_rx_pause", &stim(&syms)).unwrap();
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
fn gmii_rx_reset_mid_frame() {
    let (syms, _) = traffic(11, 4);
    let mut s = stim(&syms);
    let cut = s.len() / 2;
    s[cut].reset = true;
    let o = both::<GmiiRx, Golden>("gmii_rx_reset", &s).unwrap();
    assert_eq!(o[cut + 1].stats, Default::default());
    assert!(!o[cut + 1].m.tvalid);
}

#[test]
fn gmii_rx_no_x_in_four_state_simulation() {
    let (syms, _) = traffic(5, 12);
    four_state::<GmiiRx, Golden>("gmii_rx_x", &stim(&syms));
}
