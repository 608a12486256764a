//! Harness of `ReqTimer`, the requester's retransmission timer.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::req_timer::ReqTimer;

harness! {
    impl<const A: usize> ReqTimer<A> {
        type In = golden::roce::req_timer::In;
        type Out = golden::roce::req_timer::Out;
        clock = clock;
        inputs { push: push, flow: flow, gen: gen, cfg_rto: cfg_rto, pop: pop }
        outputs { head: head, expired: expired }
    }
}
