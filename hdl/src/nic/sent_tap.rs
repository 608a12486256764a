//! DCQCN's "packets sent" events: the bytes each DCQCN flow puts on the
//! wire, tapped from the requester's descriptors, for the reaction
//! point's byte counter (`DcqcnRp`, op SENT; the L3QCN/DCQCN draft's
//! byte-counter increase stages).
//!
//! # What it does
//! - **Which flows are DCQCN's.** A one-bit-per-flow RAM follows the
//!   CREATE and DESTROY commits the reaction point takes (`ctl_taken`,
//!   `ctl_op`, `ctl_flow`: `CfgRegs.m_rp_ctl` as `RpArb` accepts it):
//!   CREATE sets the flow's bit, DESTROY clears it. HPCC++ flows never
//!   have it, so their packets make no SENT (the reaction point would
//!   count them as `drop_flow`).
//! - **The tap.** Each descriptor the Tx arbiter takes from the requester
//!   (`desc_taken`, `desc_flow`, `desc_len`: `Requester.m_desc` as
//!   `TxArb.s_req` accepts it) with a payload (`len` ≠ 0: WRITEs, SENDs
//!   and their retransmissions; a READ request carries none) is looked up
//!   in the RAM (one cycle); a DCQCN flow's packet counts in `sent_pkts`
//!   and goes into the pending SENT.
//! - **The pending SENT** (`m_sent`, `RpEvent` op SENT, valid/ready, to
//!   `RpArb.s_sent`, its last priority): one record. A packet of the flow
//!   already pending adds its bytes (saturating at 65535); a packet when
//!   nothing is pending, or in the cycle the pending one is taken, loads
//!   it; a packet of another flow while one is pending and not taken is
//!   dropped and counted (`sent_drops`): its bytes never reach the byte
//!   counter. The reaction point holds a flow's next event at most 8
//!   cycles (its interlock) and packets are at least 8 cycles apart at 64
//!   bits a beat, so drops need CNPs or creations holding the port.
//! - **Off** while `cfg_on` is low (the core drives it from
//!   `DcqcnCfg.byte_reset` ≠ 0): no packet is taken, so a NIC with the
//!   byte counter off sends the reaction point no SENT at all (the public
//!   simulators' DCQCN, and this core before the tap).
//!
//! # Ports (clock `clock`)
//! - `cfg_on` (level): the tap is on.
//! - `ctl_taken`, `ctl_op` (`nic_spec::dcqcn` op, 2 bits), `ctl_flow`
//!   (A bits): a commit to the reaction point, observed.
//! - `desc_taken`, `desc_flow` (A bits), `desc_len` (payload bytes, 13
//!   bits): a requester descriptor, observed.
//! - `m_sent` (`RpEvent`, valid/ready): op SENT, `flow`, `bytes`.
//! - `sent_pkts`, `sent_drops`: 32-bit wrapping counters.
//!
//! # Timing
//! A descriptor taken in cycle t is in `m_sent` from t + 2 (RAM read,
//! then the pending register). `m_sent.valid` and its fields are
//! registers. One descriptor per cycle.
//!
//! # Bad input
//! A commit in the cycle of a descriptor of the same flow is seen by that
//! descriptor (a bypass register: the RAM read of a word written in the
//! same cycle is undefined on the FPGA). A pending SENT whose flow is
//! destroyed before `RpArb` takes it reaches the reaction point, which
//! drops it as `drop_flow`. Flow ids are A bits wide, so none is out of
//! range.
//!
//! Golden twin: `nic_golden::nic::sent_tap`.

use crate::cc::RpEventSource;
use crate::mem::Ram;
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct SentTap<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub cfg_on: Signal<In, Bit>,
    pub ctl_taken: Signal<In, Bit>,
    pub ctl_op: Signal<In, Bits<2>>,
    pub ctl_flow: Signal<In, Bits<A>>,
    pub desc_taken: Signal<In, Bit>,
    pub desc_flow: Signal<In, Bits<A>>,
    pub desc_len: Signal<In, Bits<13>>,
    pub m_sent: RpEventSource,
    pub sent_pkts: Signal<Out, Bits<32>>,
    pub sent_drops: Signal<Out, Bits<32>>,
    /// One bit per flow: a DCQCN flow.
    is_dcqcn: Ram<Bit, A>,
    /// The descriptor being looked up.
    look_v: DFF<Bit>,
    look_flow: DFF<Bits<A>>,
    look_len: DFF<Bits<13>>,
    /// A commit of the looked-up flow in the lookup's cycle, and its bit.
    bypass_v: DFF<Bit>,
    bypass_bit: DFF<Bit>,
    /// The pending SENT.
    pend_v: DFF<Bit>,
    pend_flow: DFF<Bits<A>>,
    pend_bytes: DFF<Bits<16>>,
    n_pkts: DFF<Bits<32>>,
    n_drops: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<2>::from(nic_spec::dcqcn::OP_CREATE as u64)))]
    k_create: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<2>::from(nic_spec::dcqcn::OP_SENT as u64)))]
    k_sent: Constant<Bits<2>>,
    #[default(Constant::new(Bits::<17>::from(0xFFFFu64)))]
    k_max: Constant<Bits<17>>,
    dcqcn_pkt: Signal<Local, Bit>,
    taken: Signal<Local, Bit>,
    sum: Signal<Local, Bits<17>>,
}

impl<const A: usize> Logic for SentTap<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, look_v, look_flow, look_len, bypass_v, bypass_bit, pend_v, pend_flow,
            pend_bytes, n_pkts, n_drops
        );
        clock!(self, clock, is_dcqcn);
        // ---- Which flows are DCQCN's: the commits the reaction point takes.
        self.is_dcqcn.write_address.next = self.ctl_flow.val();
        self.is_dcqcn.write_data.next = (self.ctl_op.val() == self.k_create.val());
        self.is_dcqcn.write_enable.next = self.ctl_taken.val();
        // ---- Lookup: the descriptor's flow, with a same-cycle commit bypassed.
        self.is_dcqcn.read_address.next = self.desc_flow.val();
        self.look_v.d.next =
            (self.cfg_on.val() && self.desc_taken.val() && self.desc_len.val().any());
        self.look_flow.d.next = self.desc_flow.val();
        self.look_len.d.next = self.desc_len.val();
        self.bypass_v.d.next =
            (self.ctl_taken.val() && (self.ctl_flow.val() == self.desc_flow.val()));
        self.bypass_bit.d.next = (self.ctl_op.val() == self.k_create.val());
        if self.bypass_v.q.val() {
            self.dcqcn_pkt.next = (self.look_v.q.val() && self.bypass_bit.q.val());
        } else {
            self.dcqcn_pkt.next = (self.look_v.q.val() && self.is_dcqcn.read_data.val());
        }
        // ---- The pending SENT.
        self.taken.next = (self.pend_v.q.val() && self.m_sent.ready.val());
        self.sum.next = (bit_cast::<17, 16>(self.pend_bytes.q.val())
            + bit_cast::<17, 13>(self.look_len.q.val()));
        if self.taken.val() {
            self.pend_v.d.next = false;
        }
        if self.dcqcn_pkt.val() {
            self.n_pkts.d.next = (self.n_pkts.q.val() + 1);
            if (self.pend_v.q.val()
                && !self.taken.val()
                && (self.pend_flow.q.val() == self.look_flow.q.val()))
            {
                if (self.sum.val() > self.k_max.val()) {
                    self.pend_bytes.d.next = 0xFFFF.into();
                } else {
                    self.pend_bytes.d.next = self.sum.val().get_bits::<16>(0);
                }
            } else if (!self.pend_v.q.val() || self.taken.val()) {
                self.pend_v.d.next = true;
                self.pend_flow.d.next = self.look_flow.q.val();
                self.pend_bytes.d.next = bit_cast::<16, 13>(self.look_len.q.val());
            } else {
                self.n_drops.d.next = (self.n_drops.q.val() + 1);
            }
        }
        self.m_sent.valid.next = self.pend_v.q.val();
        self.m_sent.op.next = self.k_sent.val();
        self.m_sent.flow.next = bit_cast::<16, A>(self.pend_flow.q.val());
        self.m_sent.bytes.next = self.pend_bytes.q.val();
        self.sent_pkts.next = self.n_pkts.q.val();
        self.sent_drops.next = self.n_drops.q.val();
    }
}
