//! Twin of `hdl/src/roce/rx_check.rs` (`RxCheck`): the dispatcher's
//! checks of a record against its flow's context words, registers from
//! the inputs of the cycle before. See the RTL's docs for the ports.

use crate::Cycle;

const PSN_MASK: u32 = 0xFF_FFFF;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub qp_high: bool,
    /// 24 bits.
    pub psn: u32,
    /// 13 bits.
    pub len: u16,
    pub dlen: u32,
    pub va: u64,
    pub is_write: bool,
    pub has_reth: bool,
    pub is_read_req: bool,
    pub fl: u8,
    /// 24 bits.
    pub epsn: u32,
    pub wva: u64,
    pub wleft: u32,
    pub radr: u64,
    /// 24 bits.
    pub rpsn: u32,
    /// 89 bits: address [63:0], first PSN [87:64], lap [88].
    pub ent: u128,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub unk: bool,
    pub d_zero: bool,
    pub d_ahead: bool,
    pub d_dup: bool,
    pub va_bad: bool,
    pub len_over: bool,
    pub rr_match: bool,
    pub ra_bad: bool,
    pub nak_sent: bool,
    pub cnp_on_ce: bool,
}

/// The checks of one record against its words (the registers' next
/// value).
pub fn check(i: &In) -> Out {
    let bit = |k: u32| i.fl >> k & 1 != 0;
    let len = i.len & 0x1FFF;
    let d = i.psn.wrapping_sub(i.epsn) & PSN_MASK;
    let va = if i.has_reth { i.va } else { i.wva };
    let data_moves = if i.is_read_req { i.dlen != 0 } else { len != 0 };
    let rd_done = bit(3);
    let ent_lap = (i.ent >> 88) & 1 != 0;
    let ent_psn = (i.ent >> 64) as u32 & PSN_MASK;
    let rbase = if rd_done { i.ent as u64 } else { i.radr };
    Out {
        unk: i.qp_high || !bit(0),
        d_zero: d == 0,
        d_ahead: d != 0 && d < 1 << 12,
        d_dup: d >= (1 << 24) - (1 << 12),
        va_bad: va & 7 != 0 && data_moves,
        len_over: i.is_write && !i.has_reth && u32::from(len) > i.wleft,
        rr_match: if rd_done {
            ent_lap == bit(7) && i.psn & PSN_MASK == ent_psn
        } else {
            i.psn & PSN_MASK == i.rpsn & PSN_MASK
        },
        ra_bad: rbase & 7 != 0 && len != 0,
        nak_sent: bit(1),
        cnp_on_ce: bit(2),
    }
}

#[derive(Clone, Debug, Default)]
pub struct RxCheck {
    r: Out,
}

impl Cycle for RxCheck {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let out = self.r;
        self.r = check(i);
        out
    }
}
