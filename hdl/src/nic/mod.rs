//! The NIC core (`docs/architecture.md` §5c): draft -00 Figure 4 as one
//! module, and the glue blocks that join the other areas' blocks.
//!
//! - [`cfg_regs`]: configuration writes (`nic_spec::regs`) → global
//!   registers and per-flow context writes;
//! - [`ev_arb`]: the scheduler's event port, shared by the requester and
//!   the CC module's updates (R converted to bytes per cycle);
//! - [`cc_arb`]: the CC module's event port, shared by flow creation and
//!   the requester's ACK telemetry;
//! - [`tx_arb`]: the Tx builder's descriptor port, shared by ACKs, READ
//!   responses and the requester;
//! - [`ev_merge`]: the requester's scheduler events, merged per flow while
//!   the scheduler holds them;
//! - [`rp_arb`]: the DCQCN reaction point's event port, shared by flow
//!   creation, received CNPs and SENTs;
//! - [`sent_tap`]: the bytes each DCQCN flow sends, as SENT events for
//!   the reaction point's byte counter;
//! - [`read_queue`]: the READ requests waiting for the READ responder;
//! - [`fb_queue`]: the feedback (received ACKs, NAKs, READ responses,
//!   NOTIFYs) waiting for `NotifyRx` and the requester;
//! - [`read_resp`]: READ requests → READ RESPONSE descriptors;
//! - [`rx_ctx_mux`]: the dispatcher's context port, shared by flow
//!   creation and the requester's READ tracking;
//! - [`int_tap`], [`notify_tx`], [`notify_rx`]: NewINT: the receiver's
//!   telemetry to its CC, its W back in a NOTIFY, the sender applying it;
//! - [`rx_pause`]: the receive buffer's fill → PAUSE requests to the MAC
//!   (host back-pressure becomes a link pause);
//! - [`core`]: `NicCore`, everything joined;
//! - [`nic`]: `HpccNic`, the host interface ([`crate::hostif`]) and the
//!   core: the `hpcc_nic` top;
//! - [`nic_10g`]: `HpccNic10g`, `HpccNic` on the 10G MAC, one clock: the
//!   `hpcc_nic_10g` top.

pub mod ack_coalesce;
pub mod cc_arb;
pub mod cfg_regs;
pub mod core;
pub mod desc_queue;
pub mod ev_arb;
pub mod ev_merge;
pub mod fb_queue;
pub mod int_tap;
pub mod nic;
pub mod nic_10g;
pub mod notify_rx;
pub mod notify_tx;
pub mod read_queue;
pub mod read_resp;
pub mod rp_arb;
pub mod rx_ctx_mux;
pub mod rx_pause;
pub mod sent_tap;
pub mod tx_arb;

pub use self::core::NicCore;
pub use self::nic::HpccNic;
pub use self::nic_10g::HpccNic10g;

// The records between the host interface and the core, generated from
// their one declaration in `nic_spec::records` in `crate::record` (both
// `hostif/` and `nic/` import them).
pub use crate::record::host_core::*;
