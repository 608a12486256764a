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
//!   advances), `ack`, `probe`, `notify`, `hpcc` (PROBE or NOTIFY).
//!
//! Combinational (latency 0). An opcode outside the table gives `known`
//! = 0 and every class 0. Twin: `nic_golden::roce::op_decode`.

use nic_spec::roce::{self as spec, op};
use rust_hdl::prelude::*;

/// Opcodes in the table.
const N: usize = op::ALL.len();

#[derive(LogicBlock)]
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
    /// One-hot: which opcode of the table `op` is (0 if none).
    hit: Signal<Local, Bits<N>>,
    k_opcode: [Constant<Bits<8>>; N],
    k_onehot: [Constant<Bits<N>>; N],
    k_reth: Constant<Bits<N>>,
    k_aeth: Constant<Bits<N>>,
    k_pay: Constant<Bits<N>>,
    k_only: Constant<Bits<N>>,
    k_write: Constant<Bits<N>>,
    k_read_req: Constant<Bits<N>>,
    k_read_resp: Constant<Bits<N>>,
    k_ends_msg: Constant<Bits<N>>,
    k_ack: Constant<Bits<N>>,
    k_probe: Constant<Bits<N>>,
    k_notify: Constant<Bits<N>>,
    k_hpcc: Constant<Bits<N>>,
}

/// The table positions whose opcode is in the class `f`, as a mask.
fn class(f: fn(u8) -> bool) -> Constant<Bits<N>> {
    let m = op::ALL
        .iter()
        .enumerate()
        .filter(|(_, &o)| f(o))
        .fold(0u64, |m, (i, _)| m | (1 << i));
    Constant::new(Bits::<N>::from(m))
}

impl Default for OpDecode {
    fn default() -> Self {
        Self {
            op: Default::default(),
            known: Default::default(),
            reth: Default::default(),
            aeth: Default::default(),
            pay: Default::default(),
            only: Default::default(),
            write: Default::default(),
            read_req: Default::default(),
            read_resp: Default::default(),
            ends_msg: Default::default(),
            ack: Default::default(),
            probe: Default::default(),
            notify: Default::default(),
            hpcc: Default::default(),
            hit: Default::default(),
            k_opcode: std::array::from_fn(|i| Constant::new(Bits::<8>::from(op::ALL[i] as u64))),
            k_onehot: std::array::from_fn(|i| Constant::new(Bits::<N>::from(1u64 << i))),
            k_reth: class(spec::has_reth),
            k_aeth: class(spec::has_aeth),
            k_pay: class(spec::carries_payload),
            k_only: class(spec::is_only),
            k_write: class(spec::is_write),
            k_read_req: class(|o| o == op::READ_REQ),
            k_read_resp: class(spec::is_read_resp),
            k_ends_msg: class(spec::ends_message),
            k_ack: class(|o| o == op::ACK),
            k_probe: class(|o| o == op::PROBE),
            k_notify: class(|o| o == op::NOTIFY),
            k_hpcc: class(spec::is_hpcc),
        }
    }
}

impl Logic for OpDecode {
    #[hdl_gen]
    fn update(&mut self) {
        self.hit.next = 0.into();
        for i in 0..N {
            if (self.op.val() == self.k_opcode[i].val()) {
                self.hit.next = self.k_onehot[i].val();
            }
        }
        self.known.next = self.hit.val().any();
        self.reth.next = (self.hit.val() & self.k_reth.val()).any();
        self.aeth.next = (self.hit.val() & self.k_aeth.val()).any();
        self.pay.next = (self.hit.val() & self.k_pay.val()).any();
        self.only.next = (self.hit.val() & self.k_only.val()).any();
        self.write.next = (self.hit.val() & self.k_write.val()).any();
        self.read_req.next = (self.hit.val() & self.k_read_req.val()).any();
        self.read_resp.next = (self.hit.val() & self.k_read_resp.val()).any();
        self.ends_msg.next = (self.hit.val() & self.k_ends_msg.val()).any();
        self.ack.next = (self.hit.val() & self.k_ack.val()).any();
        self.probe.next = (self.hit.val() & self.k_probe.val()).any();
        self.notify.next = (self.hit.val() & self.k_notify.val()).any();
        self.hpcc.next = (self.hit.val() & self.k_hpcc.val()).any();
    }
}
