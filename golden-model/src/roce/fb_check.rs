//! Twin of `hdl/src/roce/fb_check.rs` (`FbCheck`): the requester's
//! feedback checks, registers from the inputs of the cycle before (and
//! `is_ahead` from `p_above`, of the cycle before that). See the RTL's
//! docs for the ports.

use crate::roce::op_decode::decode;
use crate::Cycle;
use nic_spec::roce::{aeth_class, wr, AETH_CLASS_ACK};

const PSN_MASK: u32 = 0xFF_FFFF;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub is_fb: bool,
    pub is_nak: bool,
    pub fb_opcode: u8,
    pub fb_aeth: u32,
    /// 24 bits.
    pub fb_psn: u32,
    /// 24 bits.
    pub psn_max: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub is_ack: bool,
    pub rresp: bool,
    pub nak_status: u8,
    pub p_in: u32,
    pub is_ahead: bool,
}

#[derive(Clone, Debug, Default)]
pub struct FbCheck {
    r: Out,
    /// `p_in` + 1 (24 bits).
    p_above: u32,
}

impl Cycle for FbCheck {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let out = self.r;
        let class = decode(i.fb_opcode);
        let psn = i.fb_psn & PSN_MASK;
        let ahead = self.p_above.wrapping_sub(i.psn_max) & PSN_MASK;
        self.r = Out {
            is_ack: (class.ack && aeth_class(i.fb_aeth) == AETH_CLASS_ACK) || class.read_resp,
            rresp: i.is_fb && class.read_resp,
            nak_status: wr::Status::of_nak((i.fb_aeth >> 24) as u8).map_or(0, |s| s as u8),
            p_in: if i.is_nak {
                psn.wrapping_sub(1) & PSN_MASK
            } else {
                psn
            },
            is_ahead: ahead != 0 && ahead < 1 << 23,
        };
        self.p_above = if i.is_nak { psn } else { (psn + 1) & PSN_MASK };
        out
    }
}
