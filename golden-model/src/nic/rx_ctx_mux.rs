//! Twin of `hdl/src/nic/rx_ctx_mux.rs`: the dispatcher's context port,
//! shared by flow creation and the requester's READ tracking (which wins),
//! every output a register; a configuration write that meets a requester
//! write is held (`rx_busy`) and goes out in the first cycle without one.
//! See the RTL's docs for the ports and the behaviour on bad input.

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
pub struct RxCtxMux<const A: usize> {
    /// The write on `m_ctx` (its fields stay when none goes out).
    out: RxFlowCtx,
    out_valid: bool,
    /// The configuration write that met a requester write.
    held: RxFlowCtx,
    held_valid: bool,
}

impl<const A: usize> Cycle for RxCtxMux<A> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = Out {
            ctx_valid: self.out_valid,
            ctx: self.out,
            rx_busy: self.held_valid,
        };
        if i.req_valid {
            self.out = i.req;
            self.out_valid = true;
            if i.cfg_valid {
                self.held = i.cfg;
                self.held_valid = true;
            }
        } else if self.held_valid {
            self.out = self.held;
            self.out_valid = true;
            if i.cfg_valid {
                self.held = i.cfg;
            }
            self.held_valid = i.cfg_valid;
        } else {
            if i.cfg_valid {
                self.out = i.cfg;
            }
            self.out_valid = i.cfg_valid;
        }
        o
    }
}
