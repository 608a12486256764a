//! Harness of `RxCtxStore`, the dispatcher's per-flow context store.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::rx_ctx_store::RxCtxStore;

harness! {
    impl<const A: usize> RxCtxStore<A> {
        type In = golden::roce::rx_ctx_store::In;
        type Out = golden::roce::rx_ctx_store::Out;
        clock = clock;
        inputs {
            ctx_valid: s_ctx.valid, busy: busy, flow_new: flow_new, flow: flow,
            we_fl: we_fl, we_acc: we_acc, we_wva: we_wva, we_rd: we_rd,
            w_fl: w_fl, w_epsn: w_epsn, w_msn: w_msn, w_wva: w_wva, w_wleft: w_wleft,
            w_radr: w_radr, w_rpsn: w_rpsn, reset: reset, undo_arm: undo_arm, last_taken: last_taken
        }
        outputs {
            undo_held: undo_held, fl: fl, epsn: epsn, msn: msn, wva: wva, wleft: wleft,
            radr: radr, rpsn: rpsn, ent: ent
        }
        records_in { ctx: s_ctx }
    }
}
