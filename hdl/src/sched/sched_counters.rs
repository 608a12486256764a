//! The scheduler's counters: which operation counts where
//! (`FlowSched`'s "Bad input"). A block of
//! [`FlowSched`](super::flow_sched::FlowSched), at its stage S10.
//!
//! # Ports (clock `clock`; no reset: the counters wrap)
//! - In, one cycle per retired operation (S10): `ev` (an event retired,
//!   its flow in range or not), `kill` (its flow was out of range),
//!   `rejected` (an in-range event dropped by its checks), `op` (3 bits,
//!   its `SchedEvent` op), `ack_ok`, `db_ok` (an ACK_DB's parts passed),
//!   `sent` (a PktSend queued), `probed` (a probe queued).
//! - Out: `m_stats` ([`SchedStatsSource`], 32-bit wrapping counters, each
//!   a flip-flop): `events` (`ev`), `sends`, `probes`, `bad_flow`
//!   (`kill`), and a rejected event in its op's counter: DOORBELL
//!   `bad_doorbell`, UPDATE `bad_update`, ACK `bad_ack`, REWIND
//!   `bad_rewind`, TRIM `bad_trim`, ACK_DB `bad_ack` where its ACK part
//!   failed and `bad_doorbell` where its DOORBELL part did (both where
//!   both did), any other op `bad_op`.
//!
//! # Timing
//! A count is on `m_stats` the cycle after its flags; one 32-bit
//! increment per counter a cycle.
//!
//! # Bad input
//! Any flags count as stated: `kill` and `rejected` are the parent's
//! verdicts, taken as they come.
//!
//! Golden twin: `nic_golden::sched::sched_counters`.

use crate::sched::SchedStatsSource;
use nic_spec::sched::{OP_ACK, OP_ACK_DB, OP_DOORBELL, OP_REWIND, OP_TRIM, OP_UPDATE};
use rust_hdl::prelude::*;
use smart_default::SmartDefault;

fn op(v: u8) -> Constant<Bits<3>> {
    Constant::new(Bits::<3>::from(v as u64))
}

#[derive(LogicBlock, SmartDefault)]
pub struct SchedCounters {
    pub clock: Signal<In, Clock>,
    pub ev: Signal<In, Bit>,
    pub kill: Signal<In, Bit>,
    pub rejected: Signal<In, Bit>,
    pub op: Signal<In, Bits<3>>,
    pub ack_ok: Signal<In, Bit>,
    pub db_ok: Signal<In, Bit>,
    pub sent: Signal<In, Bit>,
    pub probed: Signal<In, Bit>,
    pub m_stats: SchedStatsSource,
    c_events: DFF<Bits<32>>,
    c_sends: DFF<Bits<32>>,
    c_probes: DFF<Bits<32>>,
    c_bad_flow: DFF<Bits<32>>,
    c_bad_op: DFF<Bits<32>>,
    c_bad_update: DFF<Bits<32>>,
    c_bad_ack: DFF<Bits<32>>,
    c_bad_rewind: DFF<Bits<32>>,
    c_bad_doorbell: DFF<Bits<32>>,
    c_bad_trim: DFF<Bits<32>>,
    #[default(op(OP_DOORBELL))]
    op_db: Constant<Bits<3>>,
    #[default(op(OP_UPDATE))]
    op_upd: Constant<Bits<3>>,
    #[default(op(OP_ACK))]
    op_ack: Constant<Bits<3>>,
    #[default(op(OP_REWIND))]
    op_rew: Constant<Bits<3>>,
    #[default(op(OP_TRIM))]
    op_trim: Constant<Bits<3>>,
    #[default(op(OP_ACK_DB))]
    op_ack_db: Constant<Bits<3>>,
}

impl Logic for SchedCounters {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            c_events,
            c_sends,
            c_probes,
            c_bad_flow,
            c_bad_op,
            c_bad_update,
            c_bad_ack,
            c_bad_rewind,
            c_bad_doorbell,
            c_bad_trim
        );
        self.m_stats.events.next = self.c_events.q.val();
        self.m_stats.sends.next = self.c_sends.q.val();
        self.m_stats.probes.next = self.c_probes.q.val();
        self.m_stats.bad_flow.next = self.c_bad_flow.q.val();
        self.m_stats.bad_op.next = self.c_bad_op.q.val();
        self.m_stats.bad_update.next = self.c_bad_update.q.val();
        self.m_stats.bad_ack.next = self.c_bad_ack.q.val();
        self.m_stats.bad_rewind.next = self.c_bad_rewind.q.val();
        self.m_stats.bad_doorbell.next = self.c_bad_doorbell.q.val();
        self.m_stats.bad_trim.next = self.c_bad_trim.q.val();
        if self.ev.val() {
            self.c_events.d.next = (self.c_events.q.val() + 1);
        }
        if self.kill.val() {
            self.c_bad_flow.d.next = (self.c_bad_flow.q.val() + 1);
        }
        if self.rejected.val() {
            if (self.op.val() == self.op_db.val()) {
                self.c_bad_doorbell.d.next = (self.c_bad_doorbell.q.val() + 1);
            } else if (self.op.val() == self.op_upd.val()) {
                self.c_bad_update.d.next = (self.c_bad_update.q.val() + 1);
            } else if (self.op.val() == self.op_ack.val()) {
                self.c_bad_ack.d.next = (self.c_bad_ack.q.val() + 1);
            } else if (self.op.val() == self.op_rew.val()) {
                self.c_bad_rewind.d.next = (self.c_bad_rewind.q.val() + 1);
            } else if (self.op.val() == self.op_trim.val()) {
                self.c_bad_trim.d.next = (self.c_bad_trim.q.val() + 1);
            } else if (self.op.val() == self.op_ack_db.val()) {
                if !self.ack_ok.val() {
                    self.c_bad_ack.d.next = (self.c_bad_ack.q.val() + 1);
                }
                if !self.db_ok.val() {
                    self.c_bad_doorbell.d.next = (self.c_bad_doorbell.q.val() + 1);
                }
            } else {
                self.c_bad_op.d.next = (self.c_bad_op.q.val() + 1);
            }
        }
        if self.sent.val() {
            self.c_sends.d.next = (self.c_sends.q.val() + 1);
        }
        if self.probed.val() {
            self.c_probes.d.next = (self.c_probes.q.val() + 1);
        }
    }
}
