//! The flow scheduler's event operations (`SchedEvent.op`,
//! `docs/architecture.md` §5): the RTL (`hdl/src/sched/flow_sched.rs`),
//! its twin, and the requester that sends most of them.

/// una = nxt = end = a, R = W = 0, credit 0, epoch = b.
pub const OP_INIT: u8 = 0;
/// end += a.
pub const OP_DOORBELL: u8 = 1;
/// R = a (UQ8.24 B/cycle), W = b (UQ24.8 B).
pub const OP_UPDATE: u8 = 2;
/// una = a (cumulative), a in [una, nxt].
pub const OP_ACK: u8 = 3;
/// una = nxt = a, epoch = b; a in [una, end] (go-back, or a skip forward).
pub const OP_REWIND: u8 = 4;
/// nxt = a, the bytes past a back to the credit, epoch = b; a in [una, nxt].
pub const OP_TRIM: u8 = 5;
/// An ACK and a DOORBELL of one flow merged (`hdl/src/nic/ev_merge.rs`):
/// una = a as ACK does, end += b as DOORBELL does; both checked against
/// the flow's state before the event, and the event applied whole or not
/// at all (a failed part counts in its op's `bad_ack` / `bad_doorbell`).
pub const OP_ACK_DB: u8 = 6;

/// log2 of the requester's Tx descriptor queue (`hdl/src/nic/desc_queue.rs`
/// in `hpcc_nic_core`): 4 descriptors, one PktSend of the default 4 KiB
/// credit cap at a 1 KiB MTU. While it is full the requester takes no
/// PktSend and cuts the one it is cutting (TRIM).
pub const REQ_DESC_QUEUE_LOG2: usize = 2;
