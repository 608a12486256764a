//! `hdl/src/nic/cfg_regs.rs` against `nic_golden::nic::cfg_regs`:
//! random writes to every register, to no register, and commits of good
//! and out-of-range flows, with random back-pressure.

use crate::common::*;
use nic_golden::nic::cfg_regs::{CfgRegs as Golden, In};
use nic_golden::nic::CfgWrite;
use nic_hdl::nic::cfg_regs::CfgRegs;
use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};

fn stimulus(seed: u64, n: usize) -> Vec<In> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let addr = match rng.gen_range(0..10) {
                0 => nic_spec::regs::COMMIT,
                1 => rng.gen(),
                2 => rng.gen_range(0..0x40),
                _ => nic_spec::regs::ALL[rng.gen_range(0..nic_spec::regs::ALL.len())].addr,
            };
            let data = match rng.gen_range(0..3) {
                0 => rng.gen::<u64>(),
                1 => rng.gen_range(0..16) | ((rng.gen::<bool>() as u64) << 32),
                _ => rng.gen_range(0..64),
            };
            In {
                cfg_valid: rng.gen_bool(0.6),
                cfg: CfgWrite { addr, data },
                rx_busy: rng.gen_bool(0.3),
                req_ctx_ready: rng.gen_bool(0.6),
                cc_ctl_ready: rng.gen_bool(0.6),
                rp_ctl_ready: rng.gen_bool(0.6),
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(config(16))]
    #[test]
    fn cfg_regs_matches_golden(seed in any::<u64>(), n in 20usize..300) {
        let s = stimulus(seed, n);
        // A 1024-word receive buffer: MTU_LOG2 12 and up are refused.
        let out = both::<CfgRegs<4, 10>, Golden<4, 10>>("cfg_regs", &s)?;
        // The stimulus reaches every path: writes taken, commits done.
        if n > 200 {
            let last = out.last().unwrap();
            prop_assert!(last.commits > 0 && last.bad_cfg > 0);
        }
    }
}

/// A commit's CC control goes to exactly one of the two CC blocks: a
/// DCQCN flow (`FLOW_CC_VARIANT` 2, or 3 read as 2) is created in the
/// reaction point and destroyed in the HPCC++ module, an HPCC++ flow the
/// other way round; an inactive commit destroys it in both. The DCQCN
/// registers reach `m_dcqcn` and `np_interval`.
#[test]
fn cfg_regs_routes_each_flow_to_one_cc() {
    use nic_spec::regs::*;
    let w = |addr: u16, data: u64| In {
        cfg_valid: true,
        cfg: CfgWrite { addr, data },
        ..ready()
    };
    fn ready() -> In {
        In {
            req_ctx_ready: true,
            cc_ctl_ready: true,
            rp_ctl_ready: true,
            ..Default::default()
        }
    }
    let mut s = vec![w(DCQCN_R_LINE, 12_345), w(NP_INTERVAL, 0x1FF_FFFF)];
    for (variant, active) in [(2u64, true), (0, true), (3, true), (1, true), (2, false)] {
        s.push(w(FLOW_CC_VARIANT, variant));
        s.push(w(COMMIT, 5 | (active as u64) << 32));
        s.extend(std::iter::repeat(ready()).take(8));
    }
    let out = both::<CfgRegs<4, 11>, Golden<4, 11>>("cfg_regs_route", &s).unwrap();
    let last = out.last().unwrap();
    assert_eq!((last.dcqcn.r_line, last.np_interval), (12_345, 0xFF_FFFF));
    let ops: Vec<(u8, u8)> = out
        .iter()
        .filter(|o| o.cc_ctl_valid)
        .map(|o| o.cc_ctl.op)
        .zip(out.iter().filter(|o| o.rp_ctl_valid).map(|o| o.rp_ctl.op))
        .collect();
    use nic_golden::cc::hpcc::op as h;
    use nic_spec::dcqcn as d;
    assert_eq!(
        ops,
        vec![
            (h::DESTROY, d::OP_CREATE),
            (h::CREATE, d::OP_DESTROY),
            (h::DESTROY, d::OP_CREATE),
            (h::CREATE, d::OP_DESTROY),
            (h::DESTROY, d::OP_DESTROY),
        ]
    );
    assert!(out
        .iter()
        .filter(|o| o.rp_ctl_valid)
        .all(|o| o.rp_ctl.flow == 5));
}

/// `MTU_LOG2` takes what the receive buffer holds (two maximum frames
/// and sixteen minimum ones) and refuses the rest, counted in `bad_cfg`
/// with the register unchanged: a 2^8-word buffer takes 256-byte MTUs
/// only, 2^10 up to 2 KiB, 2^11 everything (values past 12 are clamped).
#[test]
fn mtu_log2_is_refused_above_what_the_receive_buffer_takes() {
    use nic_spec::regs::MTU_LOG2;
    let s: Vec<In> = (0u64..16)
        .map(|d| In {
            cfg_valid: true,
            cfg: CfgWrite {
                addr: MTU_LOG2,
                data: d,
            },
            ..Default::default()
        })
        .chain(std::iter::once(In::default()))
        .collect();
    fn taken(out: &[nic_golden::nic::cfg_regs::Out]) -> (Vec<u8>, u32) {
        (
            out[1..].iter().map(|o| o.mtu_log2).collect(),
            out.last().unwrap().bad_cfg,
        )
    }
    let (m8, bad8) = taken(&both::<CfgRegs<4, 8>, Golden<4, 8>>("cfg_regs_mtu8", &s).unwrap());
    assert_eq!(m8, [0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 8, 8, 8, 8]);
    assert_eq!(bad8, 7);
    let (m10, bad10) = taken(&both::<CfgRegs<4, 10>, Golden<4, 10>>("cfg_regs_mtu10", &s).unwrap());
    assert_eq!(&m10[8..], [8, 9, 10, 11, 11, 11, 11, 11]);
    assert_eq!(bad10, 4);
    let (m11, bad11) = taken(&both::<CfgRegs<4, 11>, Golden<4, 11>>("cfg_regs_mtu11", &s).unwrap());
    assert_eq!(m11, (0..16).collect::<Vec<u8>>());
    assert_eq!(bad11, 0);
}

/// `RX_XOFF` takes a fill the 2^B-word buffer can reach (at most 2^B − 1
/// words) and refuses the rest, compared whole (bits above 15 too),
/// counted in `bad_cfg` with the register unchanged.
#[test]
fn rx_xoff_is_refused_above_the_receive_buffer() {
    use nic_spec::regs::{RX_PAUSE_QUANTA, RX_XOFF, RX_XON};
    let s: Vec<In> = [
        (RX_XOFF, 1023),
        (RX_XOFF, 1024),
        (RX_XOFF, 0x1_0000_0005),
        (RX_XOFF, 5),
        (RX_XON, 0xFFFF),
        (RX_PAUSE_QUANTA, 0x1_2345),
    ]
    .into_iter()
    .map(|(addr, data)| In {
        cfg_valid: true,
        cfg: CfgWrite { addr, data },
        ..Default::default()
    })
    .chain(std::iter::once(In::default()))
    .collect();
    let out = both::<CfgRegs<4, 10>, Golden<4, 10>>("cfg_regs_rx_xoff", &s).unwrap();
    let xoff: Vec<u16> = out[1..5].iter().map(|o| o.rx_xoff).collect();
    assert_eq!(xoff, [1023, 1023, 1023, 5]);
    let last = out.last().unwrap();
    assert_eq!(
        (last.rx_xon, last.rx_pause_quanta, last.bad_cfg),
        (0xFFFF, 0x2345, 2)
    );
}

/// The region registers: `MR_COMMIT` puts the staged region on `m_mr` in
/// the next cycle (entry, active, rights and domain from `MR_ATTR`),
/// `MR_CLEAR` a clear; `FLOW_PD` goes out on `m_pd` with the flow's
/// `m_tx_ctx`.
#[test]
fn cfg_regs_region_and_domain_writes() {
    use nic_spec::regs::*;
    let w = |addr: u16, data: u64| In {
        cfg_valid: true,
        cfg: CfgWrite { addr, data },
        req_ctx_ready: true,
        cc_ctl_ready: true,
        rp_ctl_ready: true,
        ..Default::default()
    };
    let s = vec![
        w(MR_BASE, 0x1000),
        w(MR_LEN, 0x2000),
        w(MR_RKEY, 0x0305),
        w(MR_ATTR, 7 | (3 << 16)),
        w(MR_COMMIT, 3 | (1 << 32)),
        w(MR_CLEAR, 0),
        w(FLOW_PD, 9),
        w(COMMIT, 2 | (1 << 32)),
        In::default(),
        In::default(),
    ];
    let out = both::<CfgRegs<4, 10>, Golden<4, 10>>("cfg_regs_mr", &s).unwrap();
    let mr: Vec<usize> = (0..out.len()).filter(|&c| out[c].mr_valid).collect();
    assert_eq!(mr, [5, 6]);
    let m = out[5].mr;
    assert_eq!(
        (m.index, m.active, m.clear, m.rights, m.pd, m.rkey, m.base, m.len),
        (3, true, false, 3, 7, 0x0305, 0x1000, 0x2000)
    );
    assert!(out[6].mr.clear && !out[6].mr.active);
    let pd: Vec<usize> = (0..out.len()).filter(|&c| out[c].pd_valid).collect();
    assert_eq!(pd, [8]);
    assert!(out[8].tx_ctx_valid);
    assert_eq!((out[8].pd.flow, out[8].pd.pd), (2, 9));
    assert_eq!(out.last().unwrap().bad_cfg, 0);
}
