//! Twins of the host interface (`hdl/src/hostif/`): its blocks and
//! `HostIf`, joined from their twins.

pub mod axil_slave;
pub mod axil_split;
pub mod bram_dma;
pub mod cmpl_queue;
pub mod cq_engine;
pub mod csr;
pub mod csr_decode;
pub mod dma_rd_mux;
pub mod dma_wr_pack;
pub mod host_if;
pub mod sq_engine;
pub mod stats_sel;
pub mod wqe_unpack;

// The records this area's blocks exchange, generated from their one
// declaration in `nic_spec::records` (see `crate::record`).
use crate::golden_record;
nic_spec::axil_in_record!(golden_record! {});
nic_spec::axil_out_record!(golden_record! {});
nic_spec::reg_req_record!(golden_record! {});
nic_spec::reg_resp_record!(golden_record! {});
nic_spec::dma_desc_record!(golden_record! {});
nic_spec::wqe_fetch_record!(golden_record! {});
nic_spec::wqe_beat_record!(golden_record! {});
nic_spec::sq_commit_record!(golden_record! {});
nic_spec::cqe_req_record!(golden_record! {});
nic_spec::cqe_write_record!(golden_record! {});
nic_spec::cq_event_record!(golden_record! {});
nic_spec::host_if_stats_record!(golden_record! {});
nic_spec::bram_dma_stats_record!(golden_record! {});

/// The 32-bit lane mask of an AXI4-Lite write strobe.
pub fn lane_mask(wstrb: u8) -> u32 {
    (0..4)
        .filter(|i| wstrb >> i & 1 == 1)
        .fold(0, |m, i| m | 0xFF << (8 * i))
}

/// `old` with the strobed byte lanes of `new`.
pub fn merge(old: u32, new: u32, wstrb: u8) -> u32 {
    let m = lane_mask(wstrb);
    (old & !m) | (new & m)
}
