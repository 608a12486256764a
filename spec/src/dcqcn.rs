//! The DCQCN reaction point's event operations (`RpEvent.op`) and update
//! statuses (`CcUpdate.status` of its updates): the RTL
//! (`hdl/src/cc/dcqcn.rs`), its twin, the replay tool and the docs.

/// A CNP for the flow (from its peer's notification point, or a switch).
pub const OP_CNP: u8 = 0;
/// The flow sent a packet of `bytes` (the byte counter).
pub const OP_SENT: u8 = 1;
/// The flow starts: Rc = Rt = line rate, α = α_init, not in recovery.
pub const OP_CREATE: u8 = 2;
/// The flow ends: its state is cleared.
pub const OP_DESTROY: u8 = 3;

/// Names of the ops, by code.
pub const OP_NAMES: [&str; 4] = ["cnp", "sent", "create", "destroy"];

/// `CcUpdate.status` of the reaction point's updates.
pub mod status {
    /// The rate changed (a cut, or an increase).
    pub const UPDATE: u8 = 0;
    /// A CNP that arrived in a decrease period with a cut already: the
    /// cut waits for the next period; the rate is unchanged.
    pub const HELD: u8 = 1;
    pub const CREATED: u8 = 2;
    pub const DESTROYED: u8 = 3;
    /// A flow id ≥ 2^A, or a flow not created: dropped, counted.
    pub const DROP_FLOW: u8 = 4;
}
