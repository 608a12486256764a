//! Twin of `hdl/src/roce/tx.rs` (`RoceTx<A>`): the RoCEv2 frame builder,
//! cycle-exact (`docs/roce.md` §1–§4, §6).
//!
//! One descriptor in, one frame out. The model keeps the RTL's registers
//! (prep stages P1–P5 and the waiting frame, the word generator) and
//! steps the twin of its stages A and B ([`TxOut`]: the ICRC, the output
//! slice) so that every port matches on every cycle; see the RTL's doc comment for the structure, the timing and the
//! descriptor checks ([`RoceTx::check`] here).
//!
//! Also here, for tests and stimulus generators: [`host_word`], a host
//! memory whose contents are a pure function of the address.

pub use crate::roce::tx_ctx_ram::Ctx;
use crate::roce::tx_ctx_ram::{self, TxCtxRam};
use crate::roce::tx_out::{self, TxOut};
use crate::roce::{HostReadReq, TxDesc, TxFlowCtx, TxStats};
use crate::stream::Axis;
use crate::Cycle;

/// One cycle's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    /// A flow context write, taken in every cycle where `ctx_valid` is high.
    pub ctx_valid: bool,
    pub ctx: TxFlowCtx,
    pub req_valid: bool,
    pub req: TxDesc,
    /// `tkeep`: ignored (the block counts words; the DMA side defines them).
    pub rd: Axis,
    pub rdq_ready: bool,
    pub out_tready: bool,
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub req_ready: bool,
    pub rd_tready: bool,
    pub rdq_valid: bool,
    pub rdq: HostReadReq,
    /// `tuser`: on a frame's last word: abort (its payload came flagged, or a
    /// reset cut it: the closing word).
    pub out: Axis,
    pub stats: TxStats,
}

/// The host memory of tests: the 8-byte word at `addr` (8-aligned).
pub fn host_word(addr: u64) -> u64 {
    let mut z = addr.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Byte `i` of the host memory of [`host_word`].
pub fn host_byte(i: u64) -> u8 {
    (host_word(i & !7) >> (8 * (i & 7))) as u8
}

/// Opcode classes of a descriptor.
#[derive(Clone, Copy, Debug, Default)]
struct Op {
    known: bool,
    pay: bool,
    need1: bool,
    reth: bool,
    aeth: bool,
    wreth: bool,
    rraeth: bool,
    ack: bool,
    probe: bool,
    cnp: bool,
}

fn classify(op: u8) -> Op {
    let c = crate::roce::op_decode::decode(op);
    Op {
        known: c.known,
        pay: c.pay,
        need1: c.pay && !c.only,
        reth: c.reth,
        aeth: c.aeth,
        wreth: c.reth && !c.read_req,
        rraeth: c.read_resp && c.aeth,
        ack: c.ack,
        probe: c.hpcc,
        cnp: c.cnp,
    }
}

/// The RoCEv2 Tx frame builder with 2^A flows.
#[derive(Clone, Debug)]
pub struct RoceTx<const A: usize> {
    /// The flow contexts and the P1 register.
    ctx_ram: TxCtxRam<A>,
    // Prep.
    p1v: bool,
    p2v: bool,
    p3v: bool,
    p4v: bool,
    p5v: bool,
    sv: bool,
    d_opcode: u8,
    d_psn: u32,
    d_ack: bool,
    d_tlm: bool,
    /// A CNP: BECN (BTH byte 4 bit 6) set.
    d_becn: bool,
    d_no_aeth: bool,
    d_reth: bool,
    d_pay_len: u32,
    d_len_pad4: u32,
    d_pay_words: u32,
    d_pad_cnt: u32,
    d_ip_len_base: u32,
    d_hdr_len: u32,
    d_hdr_items: u32,
    d_item1: u64,
    d_rd: u64,
    x: [u64; 6],
    n_b0: u64,
    n_b1: u64,
    n_b3: u64,
    n_b4: u64,
    n_b5: u64,
    n_item0: u64,
    ck_a: u32,
    ck_b: u32,
    ck_c: u32,
    iplen: u32,
    tprime: u32,
    hn: u32,
    ck_ab: u32,
    ck_ci: u32,
    udplen: u32,
    ck_x: u32,
    ck_f: u32,
    rdq_v: bool,
    rdq_a: u64,
    rdq_l: u16,
    // Generator.
    g_act: bool,
    base: [u64; 6],
    item: [u64; 9],
    g_j: u32,
    g_hl: u32,
    g_pl: u32,
    g_rdat: u32,
    g_rcrc: u32,
    g_no_aeth: bool,
    g_tlm: bool,
    g_i0: bool,
    carry: u64,
    cmask: u8,
    g_err: bool,
    /// Stages A and B (the ICRC) and the output slice (`m_axis_tx`).
    out: TxOut,
    /// `s_req.ready`, a register.
    rdy_q: bool,
    c_bad: u32,
}

impl<const A: usize> Default for RoceTx<A> {
    fn default() -> Self {
        Self {
            ctx_ram: TxCtxRam::default(),
            p1v: false,
            p2v: false,
            p3v: false,
            p4v: false,
            p5v: false,
            sv: false,
            d_opcode: 0,
            d_psn: 0,
            d_ack: false,
            d_tlm: false,
            d_becn: false,
            d_no_aeth: false,
            d_reth: false,
            d_pay_len: 0,
            d_len_pad4: 0,
            d_pay_words: 0,
            d_pad_cnt: 0,
            d_ip_len_base: 0,
            d_hdr_len: 0,
            d_hdr_items: 0,
            d_item1: 0,
            d_rd: 0,
            x: [0; 6],
            n_b0: 0,
            n_b1: 0,
            n_b3: 0,
            n_b4: 0,
            n_b5: 0,
            n_item0: 0,
            ck_a: 0,
            ck_b: 0,
            ck_c: 0,
            iplen: 0,
            tprime: 0,
            hn: 0,
            ck_ab: 0,
            ck_ci: 0,
            udplen: 0,
            ck_x: 0,
            ck_f: 0,
            rdq_v: false,
            rdq_a: 0,
            rdq_l: 0,
            g_act: false,
            base: [0; 6],
            item: [0; 9],
            g_j: 0,
            g_hl: 0,
            g_pl: 0,
            g_rdat: 0,
            g_rcrc: 0,
            g_no_aeth: false,
            g_tlm: false,
            g_i0: false,
            carry: 0,
            cmask: 0,
            g_err: false,
            out: TxOut::default(),
            rdy_q: false,
            c_bad: 0,
        }
    }
}

const M14: u32 = 0x3FFF;

/// Byte mask to a 64-bit lane mask.
fn expand(m: u8) -> u64 {
    (0..8).fold(0u64, |y, k| {
        if (m >> k) & 1 != 0 {
            y | 0xFF << (8 * k)
        } else {
            y
        }
    })
}

impl<const A: usize> RoceTx<A> {
    /// Whether the descriptor in `i` is dropped (`cnt_bad_req`).
    pub fn check(i: &In) -> bool {
        let o = classify(i.req.opcode);
        let len = (i.req.len & 0x1FFF) as u32;
        let len0 = len == 0;
        let syn = (i.req.aeth >> 24) as u8;
        !o.known
            || len > 4096
            || (!o.pay && !len0)
            || (o.need1 && len0)
            || (!len0 && i.req.addr & 7 != 0)
            || (o.wreth && i.req.dlen < len)
            || (o.ack && !nic_spec::roce::syndrome::sent(syn))
            || (o.rraeth && syn != 0x1F)
            || (o.probe && !i.req.tlm.present)
    }

    /// The context of `flow` as stored.
    pub fn context(&self, flow: usize) -> Ctx {
        self.ctx_ram.context(flow)
    }
}

impl<const A: usize> Cycle for RoceTx<A> {
    type In = In;
    type Out = Out;

    fn step(&mut self, i: &In) -> Out {
        // ---- P0 ----
        let rdy = self.rdy_q;
        let accept = rdy && i.req_valid;
        let bad = Self::check(i);
        let len = (i.req.len & 0x1FFF) as u32;
        let op = classify(i.req.opcode);

        // ---- Generator (combinational) ----
        // The enable of the generator and stages A and B.
        let adv = self.out.adv();
        let g_last = self.g_rcrc == 2 || self.g_rcrc == 0x3FFE;
        let in_items = self.g_j >= 5;
        let cons_h = in_items && self.g_hl != 0;
        let need_rd = self.g_act && in_items && self.g_hl == 0 && self.g_pl != 0;
        let produce = self.g_act && (!need_rd || i.rd.tvalid);
        let take = self.sv && (!self.g_act || (adv && produce && g_last));
        let rd_tready = adv && need_rd;
        let w_err = self.g_err || (need_rd && i.rd.tvalid && i.rd.tuser);
        let (item_le, imask) = if cons_h {
            let m = if self.g_i0 {
                if self.g_no_aeth {
                    0x01
                } else {
                    0x10
                }
            } else if self.g_tlm && self.g_hl <= 6 {
                0xFF
            } else {
                0
            };
            (self.item[0].swap_bytes(), m)
        } else if need_rd {
            (i.rd.tdata, 0)
        } else {
            (0, 0)
        };
        let bmask: u8 = match self.g_j {
            1 => 0x80,
            2 => 0x40,
            3 | 5 => 0x03,
            _ => 0,
        };
        let keep8: u8 = if self.g_rdat & 0x2000 != 0 {
            0
        } else if self.g_rdat >> 3 != 0 {
            0xFF
        } else {
            !(0xFFu8 << (self.g_rdat & 7))
        };
        let (raw, mask8) = if self.g_no_aeth {
            (
                self.base[0].swap_bytes() | self.carry | (item_le << 48),
                bmask | self.cmask | (imask << 6),
            )
        } else {
            (
                self.base[0].swap_bytes() | self.carry | (item_le << 16),
                bmask | self.cmask | (imask << 2),
            )
        };
        let word = raw & expand(keep8);
        let crcm = word | expand(mask8);

        let out = Out {
            req_ready: rdy,
            rd_tready,
            rdq_valid: self.rdq_v,
            rdq: HostReadReq {
                addr: self.rdq_a,
                len: self.rdq_l,
            },
            out: Axis::default(),
            stats: TxStats::default(),
        };

        // ---- Clock edge: compute every next value from the current state ----
        // The context store is taken out rather than copied.
        let mut ctx_ram = std::mem::take(&mut self.ctx_ram);
        let c = ctx_ram.step(&tx_ctx_ram::In {
            ctx_valid: i.ctx_valid,
            ctx: i.ctx,
            rd_flow: i.req.flow,
            load: self.p1v,
        });
        let mut n = self.clone();
        n.ctx_ram = ctx_ram;
        let o = n.out.step(&tx_out::In {
            reset: i.reset,
            produce,
            word,
            crcm,
            word_j: self.g_j as u8,
            rcrc: self.g_rcrc as u16,
            err: w_err,
            out_tready: i.out_tready,
        });
        let out = Out {
            out: o.out,
            stats: TxStats {
                frames: o.frames,
                bad_req: self.c_bad,
                aborted: o.aborted,
            },
            ..out
        };
        // P0 (a bad descriptor's fields load too; nothing reads them).
        if accept {
            n.d_opcode = i.req.opcode;
            n.d_psn = i.req.psn & 0xFF_FFFF;
            n.d_ack = i.req.ackreq;
            n.d_tlm = i.req.tlm.present;
            n.d_becn = op.cnp;
            n.d_no_aeth = !op.aeth;
            n.d_reth = op.reth;
            n.d_pay_len = len;
            n.d_len_pad4 = (len + 3) & 0x1FFC;
            n.d_pay_words = ((len + 7) & 0x1FFF) >> 3;
            n.d_pad_cnt = len.wrapping_neg() & 3;
            let ext = if op.reth {
                16
            } else if op.aeth {
                4
            } else {
                0
            };
            let t = if i.req.tlm.present { 48 } else { 0 };
            n.d_ip_len_base = ext + t + 44;
            n.d_hdr_len = ext + t + 54;
            n.d_hdr_items = if op.aeth {
                2
            } else if op.reth {
                3
            } else {
                1
            } + if i.req.tlm.present { 6 } else { 0 };
            n.d_item1 = if op.reth {
                i.req.va
            } else {
                ((i.req.ackreq as u64) << 63)
                    | (((i.req.psn & 0xFF_FFFF) as u64) << 32)
                    | i.req.aeth as u64
            };
            n.d_rd = ((i.req.rkey as u64) << 32) | i.req.dlen as u64;
            n.x = i.req.tlm.words();
        }
        if accept && bad {
            n.c_bad = self.c_bad.wrapping_add(1);
        }
        if accept {
            n.rdq_v = !bad && len != 0;
            n.rdq_a = i.req.addr;
            n.rdq_l = len as u16;
        } else if i.rdq_ready {
            n.rdq_v = false;
        }
        // P2: header words, lengths (`c`: the context P1 registered).
        if self.p2v {
            let flags = (self.d_pad_cnt << 4) as u64;
            n.n_b0 = (c.dmac << 16) | (c.smac >> 32);
            n.n_b1 = ((c.smac & 0xFFFF_FFFF) << 32) | 0x0800_4500 | c.tos as u64;
            n.n_b3 = ((c.sip as u64) << 16) | (c.dip >> 16) as u64;
            n.n_b4 = (((c.dip & 0xFFFF) as u64) << 48) | ((c.sport as u64) << 32) | 0x12B7_0000;
            if self.d_no_aeth {
                n.n_b5 = ((self.d_opcode as u64) << 40) | (flags << 32) | ((c.pkey as u64) << 16);
                n.n_item0 = ((self.d_becn as u64) << 62)
                    | ((self.d_tlm as u64) << 56)
                    | ((c.dqp as u64) << 32)
                    | ((self.d_ack as u64) << 31)
                    | self.d_psn as u64;
            } else {
                n.n_b5 = 0;
                n.n_item0 = ((self.d_opcode as u64) << 56)
                    | (flags << 48)
                    | ((c.pkey as u64) << 32)
                    | ((self.d_tlm as u64) << 24)
                    | c.dqp as u64;
            }
            n.ck_a = (c.sip >> 16) + (c.sip & 0xFFFF);
            n.ck_b = (c.dip >> 16) + (c.dip & 0xFFFF);
            n.ck_c = c.tos as u32 + 0xC511;
            n.iplen = (self.d_len_pad4 + self.d_ip_len_base) & 0xFFFF;
            n.tprime = (self.d_len_pad4 + self.d_hdr_len) & M14;
            n.hn = (self.d_pay_len + self.d_hdr_len) & M14;
        }
        // P3..P5.
        if self.p3v {
            n.ck_ab = self.ck_a + self.ck_b;
            n.ck_ci = self.ck_c + self.iplen;
            n.udplen = self.iplen.wrapping_sub(20) & 0xFFFF;
        }
        if self.p4v {
            n.ck_x = (self.ck_ab + self.ck_ci) & 0x7FFFF;
        }
        if self.p5v {
            n.ck_f = (self.ck_x & 0xFFFF) + (self.ck_x >> 16);
        }
        let f2 = ((self.ck_f & 0xFFFF) + (self.ck_f >> 16)) & 0xFFFF;

        // Generator.
        if i.reset || take {
            n.g_err = false;
        } else if adv && produce {
            n.g_err = w_err;
        }
        if i.reset {
            n.g_act = false;
        } else if take {
            n.g_act = true;
            n.base = [
                self.n_b0,
                self.n_b1,
                ((self.iplen as u64) << 48) | 0x4000_4011,
                self.n_b3 | (((!f2 & 0xFFFF) as u64) << 48),
                self.n_b4 | self.udplen as u64,
                self.n_b5,
            ];
            let x = self.x;
            n.item = if !self.d_no_aeth {
                [
                    self.n_item0,
                    self.d_item1,
                    x[0],
                    x[1],
                    x[2],
                    x[3],
                    x[4],
                    x[5],
                    0,
                ]
            } else if self.d_reth {
                [
                    self.n_item0,
                    self.d_item1,
                    self.d_rd,
                    x[0],
                    x[1],
                    x[2],
                    x[3],
                    x[4],
                    x[5],
                ]
            } else {
                [self.n_item0, x[0], x[1], x[2], x[3], x[4], x[5], 0, 0]
            };
            n.g_j = 0;
            n.g_hl = self.d_hdr_items;
            n.g_pl = self.d_pay_words;
            n.g_rdat = self.hn;
            n.g_rcrc = self.tprime;
            n.g_no_aeth = self.d_no_aeth;
            n.g_tlm = self.d_tlm;
            n.g_i0 = true;
            n.carry = 0;
            n.cmask = 0;
        } else if adv && produce {
            if g_last {
                n.g_act = false;
            }
            n.g_j = if in_items { 6 } else { self.g_j + 1 };
            n.base = [
                self.base[1],
                self.base[2],
                self.base[3],
                self.base[4],
                self.base[5],
                0,
            ];
            if cons_h {
                for k in 0..8 {
                    n.item[k] = self.item[k + 1];
                }
                n.item[8] = 0;
                n.g_hl = self.g_hl - 1;
                n.g_i0 = false;
            } else if need_rd {
                n.g_pl = self.g_pl - 1;
            }
            n.g_rdat = self.g_rdat.wrapping_sub(8) & M14;
            n.g_rcrc = self.g_rcrc.wrapping_sub(8) & M14;
            if self.g_no_aeth {
                n.carry = item_le >> 16;
                n.cmask = imask >> 2;
            } else {
                n.carry = item_le >> 48;
                n.cmask = imask >> 6;
            }
        }

        // Prep flags, reset.
        if i.reset {
            n.p1v = false;
            n.p2v = false;
            n.p3v = false;
            n.p4v = false;
            n.p5v = false;
            n.sv = false;
            n.rdq_v = false;
            n.c_bad = 0;
        } else {
            n.p1v = accept && !bad;
            n.p2v = self.p1v;
            n.p3v = self.p2v;
            n.p4v = self.p3v;
            n.p5v = self.p4v;
            if self.p5v {
                n.sv = true;
            } else if take {
                n.sv = false;
            }
        }
        // `s_req.ready` next cycle: nothing in prep or waiting then, and no
        // reset now (a descriptor taken in a reset's first cycle is
        // abandoned with the pipeline).
        n.rdy_q = !(n.p1v || n.p2v || n.p3v || n.p4v || n.p5v || n.sv || n.rdq_v) && !i.reset;
        *self = n;
        out
    }
}
