//! `OpDecode`: the opcode table of `docs/roce.md` §1 as logic, one
//! instance wherever a block classifies an opcode (the Rx parser twice,
//! the Tx builder, the Rx dispatcher).
//!
//! The table and every class come from `nic_spec::roce` (`op::ALL`,
//! `has_reth`, `is_write`, …), evaluated when the block is built: the
//! classes are constants here, so they are written once for the RTL, the
//! golden models and the docs.
//!
//! # Ports
//! - `op` (8 bits) in;
//! - out, one bit each: `known` (in the table), `reth`, `aeth`, `pay`
//!   (may carry a payload), `only` (WRITE ONLY / READ RESPONSE ONLY),
//!   `write`, `read_req`, `read_resp`, `ends_msg` (the responder's MSN
//!   advances), `ack`, `probe`, `notify`, `hpcc` (PROBE, NOTIFY or HPCC
//!   ACK), `cnp` (a RoCEv2 CNP).
//!
//! Combinational (latency 0). An opcode outside the table gives `known`
//! = 0 and every class 0. Twin: `nic_golden::roce::op_decode`.

use nic_spec::roce::{self as spec, op};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

/// Opcodes in the table.
const N: usize = op::ALL.len();

#[derive(LogicBlock, SmartDefault)]
pub struct OpDecode {
    pub op: Signal<In, Bits<8>>,
    pub known: Signal<Out, Bit>,
    pub reth: Signal<Out, Bit>,
    pub aeth: Signal<Out, Bit>,
    pub pay: Signal<Out, Bit>,
    pub only: Signal<Out, Bit>,
    pub write: Signal<Out, Bit>,
    pub read_req: Signal<Out, Bit>,
    pub read_resp: Signal<Out, Bit>,
    pub ends_msg: Signal<Out, Bit>,
    pub ack: Signal<Out, Bit>,
    pub probe: Signal<Out, Bit>,
    pub notify: Signal<Out, Bit>,
    pub hpcc: Signal<Out, Bit>,
    pub cnp: Signal<Out, Bit>,
    /// `op` equals the table's opcode i.
    eq: [Signal<Local, Bit>; N],
    #[default(std::array::from_fn(|i| Constant::new(Bits::<8>::from(op::ALL[i] as u64))))]
    k_opcode: [Constant<Bits<8>>; N],
    #[default(class(spec::has_reth))]
    m_reth: [Constant<Bit>; N],
    #[default(class(spec::has_aeth))]
    m_aeth: [Constant<Bit>; N],
    #[default(class(spec::carries_payload))]
    m_pay: [Constant<Bit>; N],
    #[default(class(spec::is_only))]
    m_only: [Constant<Bit>; N],
    #[default(class(spec::is_write))]
    m_write: [Constant<Bit>; N],
    #[default(class(|o| o == op::READ_REQ))]
    m_read_req: [Constant<Bit>; N],
    #[default(class(spec::is_read_resp))]
    m_read_resp: [Constant<Bit>; N],
    #[default(class(spec::ends_message))]
    m_ends_msg: [Constant<Bit>; N],
    #[default(class(spec::is_ack))]
    m_ack: [Constant<Bit>; N],
    #[default(class(|o| o == op::PROBE))]
    m_probe: [Constant<Bit>; N],
    #[default(class(|o| o == op::NOTIFY))]
    m_notify: [Constant<Bit>; N],
    #[default(class(spec::is_hpcc))]
    m_hpcc: [Constant<Bit>; N],
    #[default(class(spec::is_cnp))]
    m_cnp: [Constant<Bit>; N],
}

/// For each opcode of the table, whether it is in the class `f`.
fn class(f: fn(u8) -> bool) -> [Constant<Bit>; N] {
    std::array::from_fn(|i| Constant::new(f(op::ALL[i])))
}

impl Logic for OpDecode {
    #[hdl_gen]
    fn update(&mut self) {
        // Each class is the OR of the equalities of its opcodes (the
        // masks are constants, so only those equalities remain).
        self.known.next = false;
        self.reth.next = false;
        self.aeth.next = false;
        self.pay.next = false;
        self.only.next = false;
        self.write.next = false;
        self.read_req.next = false;
        self.read_resp.next = false;
        self.ends_msg.next = false;
        self.ack.next = false;
        self.probe.next = false;
        self.notify.next = false;
        self.hpcc.next = false;
        self.cnp.next = false;
        for i in 0..N {
            self.eq[i].next = (self.op.val() == self.k_opcode[i].val());
            if self.eq[i].val() {
                self.known.next = true;
            }
            if (self.eq[i].val() && self.m_reth[i].val()) {
                self.reth.next = true;
            }
            if (self.eq[i].val() && self.m_aeth[i].val()) {
                self.aeth.next = true;
            }
            if (self.eq[i].val() && self.m_pay[i].val()) {
                self.pay.next = true;
            }
            if (self.eq[i].val() && self.m_only[i].val()) {
                self.only.next = true;
            }
            if (self.eq[i].val() && self.m_write[i].val()) {
                self.write.next = true;
            }
            if (self.eq[i].val() && self.m_read_req[i].val()) {
                self.read_req.next = true;
            }
            if (self.eq[i].val() && self.m_read_resp[i].val()) {
                self.read_resp.next = true;
            }
            if (self.eq[i].val() && self.m_ends_msg[i].val()) {
                self.ends_msg.next = true;
            }
            if (self.eq[i].val() && self.m_ack[i].val()) {
                self.ack.next = true;
            }
            if (self.eq[i].val() && self.m_probe[i].val()) {
                self.probe.next = true;
            }
            if (self.eq[i].val() && self.m_notify[i].val()) {
                self.notify.next = true;
            }
            if (self.eq[i].val() && self.m_hpcc[i].val()) {
                self.hpcc.next = true;
            }
            if (self.eq[i].val() && self.m_cnp[i].val()) {
                self.cnp.next = true;
            }
        }
    }
}
