//! Twins of the NIC core (`hdl/src/nic/`): the glue blocks and the core
//! itself, joined from the blocks' twins.

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

// The records this area's blocks exchange, generated from their one
// declaration in `nic_spec::records` (see `crate::record`).
use crate::golden_record;
nic_spec::cfg_write_record!(golden_record! {});
nic_spec::core_stats_record!(golden_record! {});
