//! The 10G MAC receiver: XGMII words to a 64-bit frame stream without the
//! FCS.
//!
//! What it does: finds `/S/` in lane 0 or lane 4 (a lane-4 start is realigned
//! by half a word), checks the preamble and SFD, checks the FCS (the CRC
//! register over the frame and its FCS must end at the residue 0xDEBB20E3;
//! computed as: the register over the whole words equals the last word's
//! target, [`Crc32FcsTarget64`]), the length (runts under 64 bytes, oversize
//! over `cfg_max_len`, FCS included) and control characters inside the frame,
//! strips the FCS, and flags a bad frame on `tuser` of its last beat, as the
//! NIC's receive path expects. MAC control frames (EtherType 0x8808 to
//! 01-80-C2-00-00-01) are never passed on; a good PAUSE or PFC frame raises
//! `pause_valid` with its quanta (PFC: the largest time among the priorities it
//! enables: the NIC has one transmit queue).
//!
//! Ports (clock `clock`, synchronous active-high `reset`):
//! - `xgmii_rxd` / `xgmii_rxc`: lane k in bits 8k+7..8k / bit k;
//! - `cfg_max_len`: the longest frame taken, FCS included (a constant in
//!   the tops: `nic_spec::mac::MAX_FRAME`, or `MAX_FRAME_JUMBO`);
//! - `m_axis` (`AxisSource<64, 8, 1>`, `tready` ignored: a MAC cannot
//!   stall the wire; put a FIFO behind it): `tkeep` all ones but on the
//!   last beat, `tuser` on the last beat = bad frame;
//! - `bad_frame`, `bad_fcs`: one-cycle pulses with the end of a frame
//!   (the ports `rx_error_bad_frame`, `rx_error_bad_fcs` of `mac_10g`);
//! - `pause_valid`, `pause_quanta`: a good PAUSE/PFC frame's request;
//! - `m_stats` (`MacRxStats`): each frame that starts counts once.
//!
//! Pipeline: input registers and the lane-4 realignment, whose word's lane
//! classification ([`RxLanes`]) is registered with it into stage B (`b_*`);
//! there the word's data part of the CRC ([`Crc32Data64`], a whole word) and
//! its FCS target ([`Crc32FcsTarget64`], its byte count from that register)
//! are computed and registered into stage C (`c_*`), where the frame logic runs: on
//! a whole word the CRC register advances ([`Crc32Advance`], a whole word) and
//! takes the part in; a frame's last, partial word is never taken in: the
//! register is compared with its target as the word ends the frame, and the
//! result registered (`end_fcs_bad`, read with the frame's verdict a cycle
//! later; a frame cut as oversize has no last word and is bad anyway). Every
//! CRC network is one fixed XOR network: none selects by byte count.
//! Oversize is judged from a registered flag (`cnt_over8`), and a PFC frame's
//! largest enabled time from a registered max tree of [`MinMax`] blocks
//! (`time_p*` → `max_p*` → `max_all`; not reset: the times are, and it flushes
//! in 3 cycles) that settles three cycles after the last time is captured,
//! before the end of any frame that is not a runt.
//!
//! Latency: a word on the pins in cycle t is realigned in cycle t + 2
//! (t + 3 for a lane-4 start's second half) and reaches the frame logic
//! in t + 4; its bytes leave on `m_axis` one word later (the FCS is held
//! back to be stripped), the last beat one cycle after the word that
//! ends the frame. Throughput: one word per cycle, always.
//!
//! Bad input: a wrong preamble or SFD: nothing is passed on, counted
//! (`bad_preamble`) and pulsed on `bad_frame`. A control character other
//! than `/T/` inside the frame (`/E/`, `/I/`, a second `/S/`), a runt, an
//! oversize frame (cut at the limit: the rest of it is ignored until the
//! next `/S/`), or a bad FCS: the frame's beats so far are passed on with
//! `tuser` on the last; a frame of 4 bytes or fewer (nothing left once
//! the FCS is stripped) passes no beat and is only counted. A frame that
//! never ends is cut as oversize. A start less than 5 bytes after a `/T/`
//! in lane 4 realignment can lose that frame (the IFG is at least 5 bytes
//! on any conforming link).
//!
//! Golden twin: `nic_golden::mac::xgmii_rx`, held to the byte-level
//! reference `nic_golden::mac::xgmii::decode`.

use super::MacRxStatsSource;
use crate::arith::MinMax;
use crate::roce::crc32::{Crc32Advance, Crc32Data64, Crc32FcsTarget64};
use crate::stream::AxisSource;
use nic_spec::mac::{ctl, xgmii, MIN_FRAME};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// The MAC control destination (`ctl::DST`) as it lies in the lanes of
/// bytes 0 to 5 of a frame's first word (byte 0 in bits 7..0).
const DST_LANES: u64 = {
    let dst = ctl::DST.to_be_bytes();
    u64::from_le_bytes([dst[2], dst[3], dst[4], dst[5], dst[6], dst[7], 0, 0])
};

/// Lane classification (combinational): `fc` = the first lane with its
/// control bit set (8 if none), `term` = that lane holds `/T/`;
/// `keep_hi` = the lanes of `fc` − 4 bytes (an end with `fc` ≥ 5 leaves
/// them after the FCS is stripped), `keep_lo` = the lanes of 4 + `fc`
/// (an end with `fc` ≤ 4 cuts the held word there).
#[derive(LogicBlock, Default)]
pub struct RxLanes {
    pub d: Signal<In, Bits<64>>,
    pub c: Signal<In, Bits<8>>,
    pub fc: Signal<Out, Bits<4>>,
    pub term: Signal<Out, Bit>,
    pub keep_hi: Signal<Out, Bits<8>>,
    pub keep_lo: Signal<Out, Bits<8>>,
}

fn keep_of(n: u64) -> u64 {
    if n >= 8 {
        0xFF
    } else {
        (1u64 << n) - 1
    }
}

impl Logic for RxLanes {
    fn update(&mut self) {
        let c = self.c.val().to_u64() as u32;
        let fc = (c | 0x100).trailing_zeros() as u64;
        self.fc.next = Bits::<4>::from(fc);
        let byte = (self.d.val().to_u64() >> (8 * (fc.min(7)))) & 0xFF;
        self.term.next = fc < 8 && byte == xgmii::TERM as u64;
        self.keep_hi.next = Bits::<8>::from(keep_of(fc.saturating_sub(4)));
        self.keep_lo.next = Bits::<8>::from(keep_of(4 + fc));
    }
    fn connect(&mut self) {
        self.fc.connect();
        self.term.connect();
        self.keep_hi.connect();
        self.keep_lo.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut s = String::from("always @(*) begin\n  casez (c)\n");
        for k in 0..8u32 {
            let pat: String = (0..8)
                .rev()
                .map(|j| {
                    if j < k {
                        '0'
                    } else if j == k {
                        '1'
                    } else {
                        '?'
                    }
                })
                .collect();
            s += &format!("    8'b{pat}: fc = 4'd{k};\n");
        }
        s += "    default: fc = 4'd8;\n  endcase\n";
        s += &format!(
            "  term = (fc != 4'd8) && (d[{{fc[2:0], 3'b000}} +: 8] == 8'h{:02X});\n",
            xgmii::TERM
        );
        s += "  keep_hi = (fc > 4'd4) ? ((8'd1 << (fc - 4'd4)) - 8'd1) : 8'd0;\n";
        s += "  keep_lo = (fc < 4'd4) ? ((8'd1 << (fc + 4'd4)) - 8'd1) : 8'hFF;\nend\n";
        Verilog::Custom(s)
    }
}

/// The four big-endian 16-bit fields of a word's lane pairs (0,1), (2,3),
/// (4,5), (6,7) (combinational): EtherType, opcode, quanta and PFC times.
#[derive(LogicBlock, Default)]
pub struct Be16x4 {
    pub d: Signal<In, Bits<64>>,
    pub p0: Signal<Out, Bits<16>>,
    pub p1: Signal<Out, Bits<16>>,
    pub p2: Signal<Out, Bits<16>>,
    pub p3: Signal<Out, Bits<16>>,
}

impl Logic for Be16x4 {
    fn update(&mut self) {
        let d = self.d.val().to_u64();
        let p = |k: u32| (((d >> (16 * k)) & 0xFF) << 8) | ((d >> (16 * k + 8)) & 0xFF);
        self.p0.next = Bits::<16>::from(p(0));
        self.p1.next = Bits::<16>::from(p(1));
        self.p2.next = Bits::<16>::from(p(2));
        self.p3.next = Bits::<16>::from(p(3));
    }
    fn connect(&mut self) {
        self.p0.connect();
        self.p1.connect();
        self.p2.connect();
        self.p3.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut s = String::from("always @(*) begin\n");
        for k in 0..4 {
            s += &format!(
                "  p{k} = {{d[{}:{}], d[{}:{}]}};\n",
                16 * k + 7,
                16 * k,
                16 * k + 15,
                16 * k + 8
            );
        }
        s += "end\n";
        Verilog::Custom(s)
    }
}

#[derive(LogicBlock, SmartDefault)]
pub struct XgmiiRx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub xgmii_rxd: Signal<In, Bits<64>>,
    pub xgmii_rxc: Signal<In, Bits<8>>,
    pub cfg_max_len: Signal<In, Bits<16>>,
    pub m_axis: AxisSource<64, 8, 1>,
    pub bad_frame: Signal<Out, Bit>,
    pub bad_fcs: Signal<Out, Bit>,
    pub pause_valid: Signal<Out, Bit>,
    pub pause_quanta: Signal<Out, Bits<16>>,
    pub m_stats: MacRxStatsSource,
    lanes_a: RxLanes,
    be: Be16x4,
    crc_data: Crc32Data64,
    crc_adv: Crc32Advance,
    crc_tgt: Crc32FcsTarget64,
    #[default(DFFWithInit::new(Bits::<64>::from(xgmii::IDLE_WORD)))]
    in_d: DFFWithInit<Bits<64>>,
    #[default(DFFWithInit::new(Bits::<8>::from(0xFFu64)))]
    in_c: DFFWithInit<Bits<8>>,
    #[default(DFFWithInit::new(Bits::<64>::from(xgmii::IDLE_WORD)))]
    prev_d: DFFWithInit<Bits<64>>,
    #[default(DFFWithInit::new(Bits::<8>::from(0xFFu64)))]
    prev_c: DFFWithInit<Bits<8>>,
    swap: DFF<Bit>,
    /// A plain `DFF`, not a `DFFWithInit`: Verilator 5.006 (Debian's)
    /// computed the CRC's XOR network wrong on a `DFFWithInit` output (its
    /// `q = dff.q ^ init`), while Icarus and rust-hdl were right; its
    /// power-up value 0 is never seen (`b_c` powers up as control lanes).
    b_d: DFF<Bits<64>>,
    #[default(DFFWithInit::new(Bits::<8>::from(0xFFu64)))]
    b_c: DFFWithInit<Bits<8>>,
    /// The lane classification of the word in `b_*` ([`RxLanes`] on the
    /// realigned word, registered with it: the FCS target's byte count
    /// comes from a register).
    b_fc: DFF<Bits<4>>,
    b_term: DFF<Bit>,
    b_keep_hi: DFF<Bits<8>>,
    b_keep_lo: DFF<Bits<8>>,
    #[default(DFFWithInit::new(Bits::<64>::from(xgmii::IDLE_WORD)))]
    c_d: DFFWithInit<Bits<64>>,
    c_fc: DFF<Bits<4>>,
    c_term: DFF<Bit>,
    c_keep_hi: DFF<Bits<8>>,
    c_keep_lo: DFF<Bits<8>>,
    /// Compares on the word in stage C, made in stage B and registered
    /// with it (off the frame logic's path): `/S/` in lane 0, the whole
    /// preamble word, the MAC control destination in lanes 0..6.
    c_start: DFF<Bit>,
    c_pre: DFF<Bit>,
    c_dst: DFF<Bit>,
    /// The MAC control EtherType in lanes 4, 5 (read on the frame's second
    /// word).
    c_type_ctl: DFF<Bit>,
    /// `c_fc` decoded in stage B: no control lane (a whole data word);
    /// the first control lane is 5 or later.
    c_full: DFF<Bit>,
    c_fc_ge5: DFF<Bit>,
    dpart: DFF<Bits<32>>,
    /// The FCS target of the word in stage C, were it a frame's last.
    c_target: DFF<Bits<32>>,
    /// The FCS check of the frame's last word failed: the CRC register
    /// (over the whole words before it) differed from the word's target.
    end_fcs_bad: DFF<Bit>,
    data: DFF<Bit>,
    cnt: DFF<Bits<16>>,
    /// A full word now would make the frame oversize: cnt + 8 (saturated)
    /// > cfg_max_len, judged a cycle ahead from the count it loads.
    cnt_over8: DFF<Bit>,
    crc: DFF<Bits<32>>,
    widx: DFF<Bits<3>>,
    hold_v: DFF<Bit>,
    hold_d: DFF<Bits<64>>,
    hold_k: DFF<Bits<8>>,
    dst_ctl: DFF<Bit>,
    is_ctl: DFF<Bit>,
    /// The MAC control frame's opcode, decoded when it is captured: PFC
    /// (`op_pfc`), PAUSE or PFC (`op_pause`).
    op_pfc: DFF<Bit>,
    op_pause: DFF<Bit>,
    pfc_en: DFF<Bits<8>>,
    time_p0: DFF<Bits<16>>,
    time_p1: DFF<Bits<16>>,
    time_p2: DFF<Bits<16>>,
    time_p3: DFF<Bits<16>>,
    time_p4: DFF<Bits<16>>,
    time_p5: DFF<Bits<16>>,
    time_p6: DFF<Bits<16>>,
    time_p7: DFF<Bits<16>>,
    max_p01: MinMax<16>,
    max_p23: MinMax<16>,
    max_p45: MinMax<16>,
    max_p67: MinMax<16>,
    max_p0123: MinMax<16>,
    max_p4567: MinMax<16>,
    max_all: MinMax<16>,
    pend: DFF<Bit>,
    end_err: DFF<Bit>,
    end_over: DFF<Bit>,
    o_tdata: DFF<Bits<64>>,
    o_tkeep: DFF<Bits<8>>,
    o_tvalid: DFF<Bit>,
    o_tlast: DFF<Bit>,
    o_tuser: DFF<Bits<1>>,
    o_bad_frame: DFF<Bit>,
    o_bad_fcs: DFF<Bit>,
    o_pause_valid: DFF<Bit>,
    o_pause_quanta: DFF<Bits<16>>,
    n_frames: DFF<Bits<32>>,
    n_bytes: DFF<Bits<32>>,
    n_bad_preamble: DFF<Bits<32>>,
    n_errors: DFF<Bits<32>>,
    n_oversize: DFF<Bits<32>>,
    n_runts: DFF<Bits<32>>,
    n_bad_fcs: DFF<Bits<32>>,
    n_pause: DFF<Bits<32>>,
    n_ctl_other: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<32>::from(0xFFFF_FFFFu64)))]
    k_crc_init: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<8>::from(xgmii::START as u64)))]
    k_start: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<64>::from(xgmii::PREAMBLE_WORD)))]
    k_pre_word: Constant<Bits<64>>,
    #[default(Constant::new(Bits::<8>::from(xgmii::PREAMBLE_CTRL as u64)))]
    k_pre_ctrl: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<64>::from(xgmii::IDLE_WORD)))]
    k_idle_word: Constant<Bits<64>>,
    #[default(Constant::new(Bits::<16>::from(MIN_FRAME as u64)))]
    k_min: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<48>::from(DST_LANES)))]
    k_dst: Constant<Bits<48>>,
    /// The EtherType as lanes 4, 5 hold it (first byte in the low bits).
    #[default(Constant::new(Bits::<16>::from( (ctl::ETHERTYPE as u16).swap_bytes() as u64, )))]
    k_ethertype_lanes: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(ctl::OP_PAUSE as u64)))]
    k_op_pause: Constant<Bits<16>>,
    #[default(Constant::new(Bits::<16>::from(ctl::OP_PFC as u64)))]
    k_op_pfc: Constant<Bits<16>>,
    a_d: Signal<Local, Bits<64>>,
    a_c: Signal<Local, Bits<8>>,
    s0: Signal<Local, Bit>,
    s4: Signal<Local, Bit>,
    v_err: Signal<Local, Bit>,
    v_over: Signal<Local, Bit>,
    v_runt: Signal<Local, Bit>,
    v_fcs: Signal<Local, Bit>,
    cnt_n: Signal<Local, Bits<17>>,
    cnt_sat: Signal<Local, Bits<16>>,
    cfg_less16: Signal<Local, Bits<16>>,
    cnt_next: Signal<Local, Bits<16>>,
    ctl_now: Signal<Local, Bit>,
    pfc: Signal<Local, Bit>,
}

impl Logic for XgmiiRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            in_d,
            in_c,
            prev_d,
            prev_c,
            swap,
            b_d,
            b_c,
            b_fc,
            b_term,
            b_keep_hi,
            b_keep_lo,
            c_d,
            c_fc,
            c_term,
            c_keep_hi,
            c_keep_lo,
            c_start,
            c_pre,
            c_dst,
            c_type_ctl,
            c_full,
            c_fc_ge5,
            dpart,
            c_target,
            end_fcs_bad,
            data,
            cnt,
            cnt_over8,
            crc,
            widx,
            hold_v,
            hold_d,
            hold_k,
            dst_ctl,
            is_ctl,
            op_pfc,
            op_pause,
            pfc_en,
            time_p0,
            time_p1,
            time_p2,
            time_p3,
            time_p4,
            time_p5,
            time_p6,
            time_p7,
            pend,
            end_err,
            end_over,
            o_tdata,
            o_tkeep,
            o_tvalid,
            o_tlast,
            o_tuser,
            o_bad_frame,
            o_bad_fcs,
            o_pause_valid,
            o_pause_quanta,
            n_frames,
            n_bytes,
            n_bad_preamble,
            n_errors,
            n_oversize,
            n_runts,
            n_bad_fcs,
            n_pause,
            n_ctl_other
        );
        self.o_tvalid.d.next = false;
        self.o_tlast.d.next = false;
        self.o_tuser.d.next = 0.into();
        self.o_bad_frame.d.next = false;
        self.o_bad_fcs.d.next = false;
        self.o_pause_valid.d.next = false;

        // ---- Lane-4 alignment ----------------------------------------------
        if self.swap.q.val() {
            self.a_d.next = ((bit_cast::<64, 32>(self.in_d.q.val().get_bits::<32>(0)) << 32)
                | bit_cast::<64, 32>(self.prev_d.q.val().get_bits::<32>(32)));
            self.a_c.next = ((bit_cast::<8, 4>(self.in_c.q.val().get_bits::<4>(0)) << 4)
                | bit_cast::<8, 4>(self.prev_c.q.val().get_bits::<4>(4)));
        } else {
            self.a_d.next = self.prev_d.q.val();
            self.a_c.next = self.prev_c.q.val();
        }
        self.s0.next = (self.in_c.q.val().get_bit(0)
            && (self.in_d.q.val().get_bits::<8>(0) == self.k_start.val()));
        self.s4.next = (self.in_c.q.val().get_bit(4)
            && (self.in_d.q.val().get_bits::<8>(32) == self.k_start.val()));
        if self.s0.val() {
            self.swap.d.next = false;
        } else if self.s4.val() {
            self.swap.d.next = true;
        }
        self.prev_d.d.next = self.in_d.q.val();
        self.prev_c.d.next = self.in_c.q.val();
        self.in_d.d.next = self.xgmii_rxd.val();
        self.in_c.d.next = self.xgmii_rxc.val();
        // ---- Stage B: the data part of the CRC (linear: step(c, d, n) =
        // step(c, 0, n) ^ step(0, d, n)), registered with the word --------
        self.b_d.d.next = self.a_d.val();
        self.b_c.d.next = self.a_c.val();
        self.lanes_a.d.next = self.a_d.val();
        self.lanes_a.c.next = self.a_c.val();
        self.b_fc.d.next = self.lanes_a.fc.val();
        self.b_term.d.next = self.lanes_a.term.val();
        self.b_keep_hi.d.next = self.lanes_a.keep_hi.val();
        self.b_keep_lo.d.next = self.lanes_a.keep_lo.val();
        self.crc_data.data.next = self.b_d.q.val();
        self.crc_data.nbytes.next = 8.into();
        self.c_d.d.next = self.b_d.q.val();
        self.dpart.d.next = self.crc_data.part.val();
        self.crc_tgt.data.next = self.b_d.q.val();
        self.crc_tgt.nbytes.next = self.b_fc.q.val();
        self.c_target.d.next = self.crc_tgt.target.val();
        self.c_fc.d.next = self.b_fc.q.val();
        self.c_term.d.next = self.b_term.q.val();
        self.c_keep_hi.d.next = self.b_keep_hi.q.val();
        self.c_keep_lo.d.next = self.b_keep_lo.q.val();
        self.c_start.d.next = (self.b_c.q.val().get_bit(0)
            && (self.b_d.q.val().get_bits::<8>(0) == self.k_start.val()));
        self.c_pre.d.next = ((self.b_c.q.val() == self.k_pre_ctrl.val())
            && (self.b_d.q.val() == self.k_pre_word.val()));
        self.c_dst.d.next = (self.b_d.q.val().get_bits::<48>(0) == self.k_dst.val());
        self.c_type_ctl.d.next =
            (self.b_d.q.val().get_bits::<16>(32) == self.k_ethertype_lanes.val());
        self.c_full.d.next = (self.b_fc.q.val() == 8);
        self.c_fc_ge5.d.next = (self.b_fc.q.val() >= 5);
        // ---- Stage C: the frame, from the word in c_d, its compares and its lane
        // classification, registered with it --------------------------------
        self.be.d.next = self.c_d.q.val();
        // ---- PFC: the largest enabled time, a registered max tree that
        // settles three cycles after the last time is captured ------------
        self.max_p01.clock.next = self.clock.val();
        self.max_p01.a.next = self.time_p0.q.val();
        self.max_p01.b.next = self.time_p1.q.val();
        self.max_p01.in_valid.next = true;
        self.max_p23.clock.next = self.clock.val();
        self.max_p23.a.next = self.time_p2.q.val();
        self.max_p23.b.next = self.time_p3.q.val();
        self.max_p23.in_valid.next = true;
        self.max_p45.clock.next = self.clock.val();
        self.max_p45.a.next = self.time_p4.q.val();
        self.max_p45.b.next = self.time_p5.q.val();
        self.max_p45.in_valid.next = true;
        self.max_p67.clock.next = self.clock.val();
        self.max_p67.a.next = self.time_p6.q.val();
        self.max_p67.b.next = self.time_p7.q.val();
        self.max_p67.in_valid.next = true;
        self.max_p0123.clock.next = self.clock.val();
        self.max_p0123.a.next = self.max_p01.max.val();
        self.max_p0123.b.next = self.max_p23.max.val();
        self.max_p0123.in_valid.next = true;
        self.max_p4567.clock.next = self.clock.val();
        self.max_p4567.a.next = self.max_p45.max.val();
        self.max_p4567.b.next = self.max_p67.max.val();
        self.max_p4567.in_valid.next = true;
        self.max_all.clock.next = self.clock.val();
        self.max_all.a.next = self.max_p0123.max.val();
        self.max_all.b.next = self.max_p4567.max.val();
        self.max_all.in_valid.next = true;

        // ---- The last beat of the frame that ended last cycle --------------
        self.v_err.next = self.end_err.q.val();
        self.v_over.next = (self.end_over.q.val() || (self.cnt.q.val() > self.cfg_max_len.val()));
        self.v_runt.next = (self.cnt.q.val() < self.k_min.val());
        self.v_fcs.next = self.end_fcs_bad.q.val();
        if self.pend.q.val() {
            if self.v_err.val() {
                self.n_errors.d.next = (self.n_errors.q.val() + 1);
            } else if self.v_over.val() {
                self.n_oversize.d.next = (self.n_oversize.q.val() + 1);
            } else if self.v_runt.val() {
                self.n_runts.d.next = (self.n_runts.q.val() + 1);
            } else if self.v_fcs.val() {
                self.n_bad_fcs.d.next = (self.n_bad_fcs.q.val() + 1);
            } else if self.is_ctl.q.val() {
                if self.op_pause.q.val() {
                    self.n_pause.d.next = (self.n_pause.q.val() + 1);
                    self.o_pause_valid.d.next = true;
                    self.o_pause_quanta.d.next = self.max_all.max.val();
                } else {
                    self.n_ctl_other.d.next = (self.n_ctl_other.q.val() + 1);
                }
            } else {
                self.n_frames.d.next = (self.n_frames.q.val() + 1);
                self.n_bytes.d.next = (self.n_bytes.q.val() + bit_cast::<32, 16>(self.cnt.q.val()));
            }
            self.o_bad_frame.d.next = (self.v_err.val() || self.v_over.val() || self.v_runt.val());
            self.o_bad_fcs.d.next =
                (!(self.v_err.val() || self.v_over.val() || self.v_runt.val()) && self.v_fcs.val());
            if (self.hold_v.q.val() && !self.is_ctl.q.val()) {
                self.o_tvalid.d.next = true;
                self.o_tlast.d.next = true;
                if (self.v_err.val() || self.v_over.val() || self.v_runt.val() || self.v_fcs.val())
                {
                    self.o_tuser.d.next = 1.into();
                }
                self.o_tdata.d.next = self.hold_d.q.val();
                self.o_tkeep.d.next = self.hold_k.q.val();
            }
            self.hold_v.d.next = false;
            self.pend.d.next = false;
        }

        // ---- This word ------------------------------------------------------
        self.crc_adv.crc_in.next = self.crc.q.val();
        self.crc_adv.nbytes.next = 8.into();
        self.cnt_next.next = self.cnt.q.val();
        self.cnt_n.next =
            (bit_cast::<17, 16>(self.cnt.q.val()) + bit_cast::<17, 4>(self.c_fc.q.val()));
        if self.cnt_n.val().get_bit(16) {
            self.cnt_sat.next = 0xFFFF.into();
        } else {
            self.cnt_sat.next = self.cnt_n.val().get_bits::<16>(0);
        }
        self.ctl_now.next =
            ((self.widx.q.val() == 1) && self.dst_ctl.q.val() && self.c_type_ctl.q.val());
        self.pfc.next = self.op_pfc.q.val();
        if !self.data.q.val() {
            if self.c_start.q.val() {
                if self.c_pre.q.val() {
                    self.data.d.next = true;
                    self.cnt_next.next = 0.into();
                    self.crc.d.next = self.k_crc_init.val();
                    self.widx.d.next = 0.into();
                    self.is_ctl.d.next = false;
                    self.dst_ctl.d.next = false;
                    self.time_p0.d.next = 0.into();
                    self.time_p1.d.next = 0.into();
                    self.time_p2.d.next = 0.into();
                    self.time_p3.d.next = 0.into();
                    self.time_p4.d.next = 0.into();
                    self.time_p5.d.next = 0.into();
                    self.time_p6.d.next = 0.into();
                    self.time_p7.d.next = 0.into();
                } else {
                    self.n_bad_preamble.d.next = (self.n_bad_preamble.q.val() + 1);
                    self.o_bad_frame.d.next = true;
                }
            }
        } else {
            // Whole words only into the CRC register; a last, partial
            // word is checked here: the register against its target.
            if self.c_full.q.val() {
                self.crc.d.next = (self.crc_adv.crc_out.val() ^ self.dpart.q.val());
            } else {
                self.end_fcs_bad.d.next = (self.crc.q.val() != self.c_target.q.val());
            }
            self.cnt_next.next = self.cnt_sat.val();
            if (self.c_full.q.val() && self.cnt_over8.q.val()) {
                // Oversize: cut here; the held word becomes the last beat.
                self.end_err.d.next = false;
                self.end_over.d.next = true;
                self.pend.d.next = true;
                self.data.d.next = false;
            } else if self.c_full.q.val() {
                if self.ctl_now.val() {
                    self.is_ctl.d.next = true;
                    self.op_pfc.d.next = (self.be.p3.val() == self.k_op_pfc.val());
                    self.op_pause.d.next = ((self.be.p3.val() == self.k_op_pause.val())
                        || (self.be.p3.val() == self.k_op_pfc.val()));
                }
                if (self.hold_v.q.val() && !self.is_ctl.q.val() && !self.ctl_now.val()) {
                    self.o_tvalid.d.next = true;
                    self.o_tdata.d.next = self.hold_d.q.val();
                    self.o_tkeep.d.next = 0xFF.into();
                }
                if self.widx.q.val() == 0 {
                    self.dst_ctl.d.next = self.c_dst.q.val();
                }
                if (self.is_ctl.q.val() && (self.widx.q.val() == 2)) {
                    if self.pfc.val() {
                        self.pfc_en.d.next = self.c_d.q.val().get_bits::<8>(8);
                        if self.c_d.q.val().get_bit(8) {
                            self.time_p0.d.next = self.be.p1.val();
                        }
                        if self.c_d.q.val().get_bit(9) {
                            self.time_p1.d.next = self.be.p2.val();
                        }
                        if self.c_d.q.val().get_bit(10) {
                            self.time_p2.d.next = self.be.p3.val();
                        }
                    } else {
                        self.time_p0.d.next = self.be.p0.val();
                    }
                } else if (self.is_ctl.q.val() && self.pfc.val() && (self.widx.q.val() == 3)) {
                    if self.pfc_en.q.val().get_bit(3) {
                        self.time_p3.d.next = self.be.p0.val();
                    }
                    if self.pfc_en.q.val().get_bit(4) {
                        self.time_p4.d.next = self.be.p1.val();
                    }
                    if self.pfc_en.q.val().get_bit(5) {
                        self.time_p5.d.next = self.be.p2.val();
                    }
                    if self.pfc_en.q.val().get_bit(6) {
                        self.time_p6.d.next = self.be.p3.val();
                    }
                } else if (self.is_ctl.q.val()
                    && self.pfc.val()
                    && (self.widx.q.val() == 4)
                    && self.pfc_en.q.val().get_bit(7))
                {
                    self.time_p7.d.next = self.be.p0.val();
                }
                self.hold_v.d.next = true;
                self.hold_d.d.next = self.c_d.q.val();
                self.hold_k.d.next = 0xFF.into();
                if self.widx.q.val() != 7 {
                    self.widx.d.next = (self.widx.q.val() + 1);
                }
            } else {
                if self.c_fc_ge5.q.val() {
                    if (self.hold_v.q.val() && !self.is_ctl.q.val()) {
                        self.o_tvalid.d.next = true;
                        self.o_tdata.d.next = self.hold_d.q.val();
                        self.o_tkeep.d.next = 0xFF.into();
                    }
                    self.hold_v.d.next = true;
                    self.hold_d.d.next = self.c_d.q.val();
                    self.hold_k.d.next = self.c_keep_hi.q.val();
                } else if self.hold_v.q.val() {
                    self.hold_k.d.next = self.c_keep_lo.q.val();
                }
                self.end_err.d.next = !self.c_term.q.val();
                self.end_over.d.next = false;
                self.pend.d.next = true;
                self.data.d.next = false;
            }
        }
        // ---- Reset ----------------------------------------------------------
        if self.reset.val() {
            self.in_d.d.next = self.k_idle_word.val();
            self.in_c.d.next = 0xFF.into();
            self.prev_d.d.next = self.k_idle_word.val();
            self.prev_c.d.next = 0xFF.into();
            self.swap.d.next = false;
            self.b_d.d.next = 0.into();
            self.b_c.d.next = 0xFF.into();
            // RxLanes of the reset word (all control, data 0).
            self.b_fc.d.next = 0.into();
            self.b_term.d.next = false;
            self.b_keep_hi.d.next = 0.into();
            self.b_keep_lo.d.next = 0x0F.into();
            self.c_d.d.next = self.k_idle_word.val();
            self.dpart.d.next = 0.into();
            self.c_target.d.next = 0.into();
            self.end_fcs_bad.d.next = false;
            self.c_fc.d.next = 0.into();
            self.c_term.d.next = false;
            self.c_keep_hi.d.next = 0.into();
            self.c_keep_lo.d.next = 0.into();
            self.c_start.d.next = false;
            self.c_pre.d.next = false;
            self.c_dst.d.next = false;
            self.c_type_ctl.d.next = false;
            self.c_full.d.next = false;
            self.c_fc_ge5.d.next = false;
            self.data.d.next = false;
            self.cnt_next.next = 0.into();
            self.crc.d.next = 0.into();
            self.widx.d.next = 0.into();
            self.hold_v.d.next = false;
            self.hold_d.d.next = 0.into();
            self.hold_k.d.next = 0.into();
            self.dst_ctl.d.next = false;
            self.is_ctl.d.next = false;
            self.op_pfc.d.next = false;
            self.op_pause.d.next = false;
            self.pfc_en.d.next = 0.into();
            self.time_p0.d.next = 0.into();
            self.time_p1.d.next = 0.into();
            self.time_p2.d.next = 0.into();
            self.time_p3.d.next = 0.into();
            self.time_p4.d.next = 0.into();
            self.time_p5.d.next = 0.into();
            self.time_p6.d.next = 0.into();
            self.time_p7.d.next = 0.into();
            self.pend.d.next = false;
            self.end_err.d.next = false;
            self.end_over.d.next = false;
            self.o_tdata.d.next = 0.into();
            self.o_tkeep.d.next = 0.into();
            self.o_tvalid.d.next = false;
            self.o_tlast.d.next = false;
            self.o_tuser.d.next = 0.into();
            self.o_bad_frame.d.next = false;
            self.o_bad_fcs.d.next = false;
            self.o_pause_valid.d.next = false;
            self.o_pause_quanta.d.next = 0.into();
            self.n_frames.d.next = 0.into();
            self.n_bytes.d.next = 0.into();
            self.n_bad_preamble.d.next = 0.into();
            self.n_errors.d.next = 0.into();
            self.n_oversize.d.next = 0.into();
            self.n_runts.d.next = 0.into();
            self.n_bad_fcs.d.next = 0.into();
            self.n_pause.d.next = 0.into();
            self.n_ctl_other.d.next = 0.into();
        }
        // A full word ends the frame as oversize when cnt + 8 (saturated)
        // > cfg_max_len, judged a cycle ahead and registered. The flag is
        // only read inside a frame after a full word (a partial word ends
        // the frame), so the count it is judged for is cnt + 8 + 8: the
        // comparison is the register against a constant of the top
        // (cfg_max_len - 16), not the sum loaded (no adder before it).
        // Saturation agrees: a count that would saturate is over any
        // cfg_max_len below 0xFFFF. cfg_max_len is configuration: hold it
        // steady (a change is seen from the next cycle).
        self.cnt.d.next = self.cnt_next.val();
        self.cfg_less16.next = (self.cfg_max_len.val() - 16);
        // Outside a frame, a frame can only start, with the count 0 (off
        // the start detection's path).
        if self.data.q.val() {
            self.cnt_over8.d.next = ((self.cfg_max_len.val() != 0xFFFF)
                && ((self.cfg_max_len.val() < 16) || (self.cnt.q.val() > self.cfg_less16.val())));
        } else {
            self.cnt_over8.d.next =
                ((self.cfg_max_len.val() != 0xFFFF) && (self.cfg_max_len.val() < 8));
        }
        if self.reset.val() {
            self.cnt_over8.d.next = false;
        }
        self.m_axis.tdata.next = self.o_tdata.q.val();
        self.m_axis.tkeep.next = self.o_tkeep.q.val();
        self.m_axis.tvalid.next = self.o_tvalid.q.val();
        self.m_axis.tlast.next = self.o_tlast.q.val();
        self.m_axis.tuser.next = self.o_tuser.q.val();
        self.bad_frame.next = self.o_bad_frame.q.val();
        self.bad_fcs.next = self.o_bad_fcs.q.val();
        self.pause_valid.next = self.o_pause_valid.q.val();
        self.pause_quanta.next = self.o_pause_quanta.q.val();
        self.m_stats.frames.next = self.n_frames.q.val();
        self.m_stats.bytes.next = self.n_bytes.q.val();
        self.m_stats.bad_preamble.next = self.n_bad_preamble.q.val();
        self.m_stats.errors.next = self.n_errors.q.val();
        self.m_stats.oversize.next = self.n_oversize.q.val();
        self.m_stats.runts.next = self.n_runts.q.val();
        self.m_stats.bad_fcs.next = self.n_bad_fcs.q.val();
        self.m_stats.pause.next = self.n_pause.q.val();
        self.m_stats.ctl_other.next = self.n_ctl_other.q.val();
    }
}
