//! `hdl/src/sched/flow_sched.rs` against `nic_golden::sched::flow_sched`,
//! in the closed loop of `nic_testbench::sched`.

use crate::common::*;
use nic_golden::sched::flow_sched::{FlowSched as Golden, Out};
use nic_hdl::sched::FlowSched;
use nic_testbench::cosim::engine;
use nic_testbench::sched::{run, Env, EnvCfg, RunStats};
use nic_testbench::EngineKind;
use proptest::prelude::*;

/// Run `cfg` for `cycles` on the golden model and `kind`, compared every
/// cycle.
fn cosim<const A: usize>(test: &str, kind: EngineKind, cfg: EnvCfg, cycles: u64, monitor: bool) -> Result<(Golden<A>, RunStats), String> {
    let mut env = Env::new(cfg);
    env.monitor = monitor;
    let mut e = engine::<FlowSched<A>>(kind, test);
    run::<A, FlowSched<A>>(&mut env, Some(e.as_mut()), cycles)
}

fn last(st: &RunStats) -> Out {
    st.last_out
}

#[test]
fn flow_sched_smoke_both_engines() {
    for kind in EngineKind::ALL {
        let mut cfg = EnvCfg::new(6, 1.0);
        cfg.mtu = 256;
        cfg.ack_delay = 300;
        cfg.tx_ready_pct = 70;
        let (_, st) = cosim::<4>("flow_sched_smoke", kind, cfg, 3000, true).unwrap();
        let o = last(&st);
        assert!(o.cnt_sends > 20, "{o:?}");
        assert!(st.window_checks > 20);
    }
}
