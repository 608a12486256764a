//! The READ responder: a READ request (`ReadReq` from the dispatcher,
//! already checked and acknowledged in its PSN space) becomes its READ
//! RESPONSE descriptors, one per MTU of the requested length.
//!
//! Ports (clock `clock`): `cfg_mtu_log2: 4` (clamped to 8..=12),
//! `s_rdreq` (`ReadReq`), `m_desc` (`TxDesc`). Counters `reads` (requests
//! taken) and `resps` (descriptors sent), 32 bits, wrapping.
//!
//! Response k of n = max(1, ceil(len/MTU)): opcode FIRST / MIDDLE / LAST
//! (ONLY if n = 1), PSN = psn + k, payload min(MTU, len − k·MTU) bytes
//! from local address va + k·MTU, AETH = ACK syndrome ≪ 24 | MSN (the Tx
//! builder puts it on FIRST, LAST and ONLY). A zero-length READ gets one
//! ONLY response without payload. The R_Key is not checked (no memory
//! protection yet: the VA is the local address).
//!
//! One request at a time: `s_rdreq.ready` is high while idle; a
//! descriptor is offered every cycle `m_desc.ready` allows (registered
//! fields). Latency: request to first descriptor 1 cycle. The MTU is a
//! register of the clamped `cfg_mtu_log2` (a write takes effect one cycle
//! later), so no output depends on an input in the same cycle but
//! `s_rdreq.ready`'s register and `m_desc`'s handshake (timing rule R1:
//! `docs/architecture.md` §5i).
//!
//! Golden twin: `nic_golden::nic::read_resp`.

use crate::roce::{ReadReqSink, TxDescSource};
use nic_spec::roce::{op, syndrome};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

#[derive(LogicBlock, SmartDefault)]
pub struct ReadResp<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub cfg_mtu_log2: Signal<In, Bits<4>>,
    pub s_rdreq: ReadReqSink<A>,
    pub m_desc: TxDescSource<A>,
    pub reads: Signal<Out, Bits<32>>,
    pub resps: Signal<Out, Bits<32>>,
    busy: DFF<Bit>,
    first: DFF<Bit>,
    flow: DFF<Bits<A>>,
    psn: DFF<Bits<24>>,
    addr: DFF<Bits<64>>,
    left: DFF<Bits<32>>,
    msn: DFF<Bits<24>>,
    n_reads: DFF<Bits<32>>,
    n_resps: DFF<Bits<32>>,
    /// The MTU in bytes, 2^clamp(cfg_mtu_log2, 8, 12), registered.
    mtu: DFF<Bits<32>>,
    #[default(Constant::new(Bits::<4>::from(8u64)))]
    k_m8: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<4>::from(12u64)))]
    k_m12: Constant<Bits<4>>,
    #[default(Constant::new(Bits::<32>::from(1u64)))]
    k_one: Constant<Bits<32>>,
    #[default(Constant::new(Bits::<8>::from(op::READ_RESP_FIRST as u64)))]
    k_first: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(op::READ_RESP_MIDDLE as u64)))]
    k_middle: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(op::READ_RESP_LAST as u64)))]
    k_last: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<8>::from(op::READ_RESP_ONLY as u64)))]
    k_only: Constant<Bits<8>>,
    #[default(Constant::new(Bits::<32>::from((syndrome::ACK as u64) << 24)))]
    k_aeth: Constant<Bits<32>>,
    mlog: Signal<Local, Bits<4>>,
    last: Signal<Local, Bit>,
    send: Signal<Local, Bit>,
}

impl<const A: usize> Logic for ReadResp<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, first, flow, psn, addr, left, msn, n_reads, n_resps, mtu);
        if (self.cfg_mtu_log2.val() < self.k_m8.val()) {
            self.mlog.next = self.k_m8.val();
        } else if (self.cfg_mtu_log2.val() > self.k_m12.val()) {
            self.mlog.next = self.k_m12.val();
        } else {
            self.mlog.next = self.cfg_mtu_log2.val();
        }
        self.mtu.d.next = (self.k_one.val() << self.mlog.val());
        self.last.next = (self.left.q.val() <= self.mtu.q.val());
        self.send.next = (self.busy.q.val() && self.m_desc.ready.val());
        self.s_rdreq.ready.next = !self.busy.q.val();
        if (!self.busy.q.val() && self.s_rdreq.valid.val()) {
            self.busy.d.next = true;
            self.first.d.next = true;
            self.flow.d.next = self.s_rdreq.flow.val();
            self.psn.d.next = self.s_rdreq.psn.val();
            self.addr.d.next = self.s_rdreq.va.val();
            self.left.d.next = self.s_rdreq.len.val();
            self.msn.d.next = self.s_rdreq.msn.val();
            self.n_reads.d.next = (self.n_reads.q.val() + 1);
        }
        if self.send.val() {
            self.n_resps.d.next = (self.n_resps.q.val() + 1);
            self.first.d.next = false;
            self.psn.d.next = (self.psn.q.val() + 1);
            self.addr.d.next = (self.addr.q.val() + bit_cast::<64, 32>(self.mtu.q.val()));
            self.left.d.next = (self.left.q.val() - self.mtu.q.val());
            if self.last.val() {
                self.busy.d.next = false;
            }
        }
        self.m_desc.valid.next = self.busy.q.val();
        self.m_desc.flow.next = self.flow.q.val();
        if self.first.q.val() {
            if self.last.val() {
                self.m_desc.opcode.next = self.k_only.val();
            } else {
                self.m_desc.opcode.next = self.k_first.val();
            }
        } else if self.last.val() {
            self.m_desc.opcode.next = self.k_last.val();
        } else {
            self.m_desc.opcode.next = self.k_middle.val();
        }
        self.m_desc.psn.next = self.psn.q.val();
        self.m_desc.ackreq.next = false;
        self.m_desc.len.next = self.left.q.val().get_bits::<13>(0);
        if !self.last.val() {
            self.m_desc.len.next = self.mtu.q.val().get_bits::<13>(0);
        }
        self.m_desc.addr.next = self.addr.q.val();
        self.m_desc.va.next = 0.into();
        self.m_desc.rkey.next = 0.into();
        self.m_desc.dlen.next = 0.into();
        self.m_desc.aeth.next = (self.k_aeth.val() | bit_cast::<32, 24>(self.msn.q.val()));
        self.m_desc.tlm.present.next = false;
        self.m_desc.tlm.hdr.next = 0.into();
        self.m_desc.tlm.hop0.next = 0.into();
        self.m_desc.tlm.hop1.next = 0.into();
        self.m_desc.tlm.hop2.next = 0.into();
        self.m_desc.tlm.hop3.next = 0.into();
        self.m_desc.tlm.hop4.next = 0.into();
        self.reads.next = self.n_reads.q.val();
        self.resps.next = self.n_resps.q.val();
    }
}
