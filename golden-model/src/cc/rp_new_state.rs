//! Twin of `hdl/src/cc/rp_new_state.rs` (`RpNewState`): the DCQCN
//! reaction point's new state at S7, registered into S8 (see the RTL's
//! docs for the ports and the order of precedence).

use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// Rc [31:0], Rt [63:32].
    pub rate: u64,
    /// α [20:0], byte counter [52:21].
    pub ab: u64,
    /// created 0, armed 2, cnp_a 3, cnp_d 4, t_stage [8:5], b_stage
    /// [12:9], epochs [28:13], [44:29], [60:45] (61 bits).
    pub meta: u64,
    pub create: bool,
    pub destroy: bool,
    pub cnp: bool,
    pub first: bool,
    pub cnp_cut: bool,
    pub sent_acc: bool,
    pub byte_pass: bool,
    pub vis_live: bool,
    pub vis_astep: bool,
    pub vis_inc: bool,
    pub vis_cut: bool,
    /// 21 bits.
    pub alpha_use: u32,
    pub rc_base: u32,
    pub cut_d: u32,
    /// 33 bits.
    pub bc33: u64,
    pub inc_rc: u32,
    pub inc_rt: u32,
    pub cur_a: u16,
    pub cur_d: u16,
    pub cur_i: u16,
    pub r_line: u32,
    pub r_min: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub rc: u32,
    pub rt: u32,
    /// 21 bits.
    pub alpha: u32,
    pub bcount: u32,
    /// 4 bits each.
    pub t_stage: u8,
    pub b_stage: u8,
    pub created: bool,
    pub armed: bool,
    pub cnp_a: bool,
    pub cnp_d: bool,
    pub ep_a: u16,
    pub ep_d: u16,
    pub ep_i: u16,
    /// min(max(t_stage, b_stage), 7).
    pub stage_max: u8,
    pub increased: bool,
}

#[derive(Clone, Debug, Default)]
pub struct RpNewState {
    q: Out,
}

/// The new state of one operation (combinational; the block registers
/// it).
pub fn new_state(i: &In) -> Out {
    let field = |w: u64, lo: u32, n: u32| (w >> lo) & ((1u64 << n) - 1);
    let meta = i.meta;
    let mut o = Out {
        rc: i.rate as u32,
        rt: (i.rate >> 32) as u32,
        alpha: i.alpha_use & 0x1f_ffff,
        bcount: field(i.ab, 21, 32) as u32,
        t_stage: field(meta, 5, 4) as u8,
        b_stage: field(meta, 9, 4) as u8,
        created: meta & 1 != 0,
        armed: meta & 4 != 0,
        cnp_a: meta & 8 != 0,
        cnp_d: meta & 16 != 0,
        ep_a: field(meta, 13, 16) as u16,
        ep_d: field(meta, 29, 16) as u16,
        ep_i: field(meta, 45, 16) as u16,
        stage_max: 0,
        increased: false,
    };
    let t_old = o.t_stage;
    let b_old = o.b_stage;
    if i.create {
        o = Out {
            rc: i.r_line,
            rt: i.r_line,
            alpha: o.alpha,
            created: true,
            ep_a: i.cur_a,
            ep_d: i.cur_d,
            ep_i: i.cur_i,
            ..Out::default()
        };
    } else if i.destroy {
        o = Out::default();
    } else if i.cnp {
        o.armed = true;
        if i.first {
            o.cnp_a = false;
            o.ep_a = i.cur_a;
        } else {
            o.cnp_a = true;
        }
        if !i.cnp_cut {
            o.cnp_d = true;
        }
    } else if i.sent_acc {
        if i.byte_pass {
            (o.rc, o.rt) = (i.inc_rc, i.inc_rt);
            o.bcount = 0;
            o.increased = true;
            o.b_stage = (b_old + 1).min(15);
        } else {
            o.bcount = i.bc33 as u32;
        }
    } else if i.vis_live {
        if i.vis_astep {
            o.cnp_a = false;
            o.ep_a = i.cur_a;
        }
        if i.vis_inc {
            (o.rc, o.rt) = (i.inc_rc, i.inc_rt);
            o.ep_i = i.cur_i;
            o.increased = true;
            o.t_stage = (t_old + 1).min(15);
        }
    }
    if i.cnp_cut || i.vis_cut {
        o.rt = i.rc_base;
        o.rc = i.rc_base.wrapping_sub(i.cut_d).max(i.r_min);
        o.t_stage = 0;
        o.b_stage = 0;
        o.bcount = 0;
        o.ep_i = i.cur_i;
        o.ep_d = i.cur_d;
        o.cnp_d = false;
    }
    o.stage_max = o.t_stage.max(o.b_stage).min(7);
    o
}

impl Cycle for RpNewState {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        let out = self.q;
        self.q = new_state(i);
        out
    }
}
