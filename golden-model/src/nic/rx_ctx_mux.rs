//! Twin of `hdl/src/nic/rx_ctx_mux.rs`: the dispatcher's context port,
//! shared by flow creation and the requester's READ tracking (which wins).

use crate::roce::RxFlowCtx;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub cfg_valid: bool,
    pub cfg: RxFlowCtx,
    pub req_valid: bool,
    pub req: RxFlowCtx,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub ctx_valid: bool,
    pub ctx: RxFlowCtx,
    pub rx_busy: bool,
}

#[derive(Clone, Debug, Default)]
pub struct RxCtxMux<const A: usize>;

impl<const A: usize> Cycle for RxCtxMux<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        Out {
            ctx_valid: i.req_valid || i.cfg_valid,
            ctx: if i.req_valid { i.req } else { i.cfg },
            rx_busy: i.req_valid,
        }
    }
}
