//! RoCEv2: the wire format (`packet`, `crc32`), the twins of the Tx and Rx
//! pipelines (`tx`, `rx_parse`, `rx_dispatch`) and their transaction-level
//! models (`txn`: the receive rules, the Tx and Rx paths frame by frame). See `docs/roce.md`.

pub mod bswap;
pub mod cnm_rx;
pub mod crc32;
pub mod dispatch_counters;
pub mod fb_check;
pub mod host_write_skid;
pub mod mr_check;
pub mod op_decode;
pub mod packet;
pub mod read_psns;
pub mod req_counters;
pub mod req_intake;
pub mod req_state_ram;
pub mod req_timer;
pub mod requester;
pub mod rx_check;
pub mod rx_ctx_store;
pub mod rx_dispatch;
pub mod rx_meta_ram;
pub mod rx_parse;
pub mod rx_verdict;
pub mod segment;
pub mod tx;
pub mod tx_ctx_ram;
pub mod tx_out;
pub mod txn;
pub mod wr_check;
pub mod wr_ring;

// The records this area's blocks exchange, generated from their one
// declaration in `nic_spec::records` (see `crate::record`).
use crate::golden_record;
nic_spec::telemetry_record!(golden_record! {});
nic_spec::rx_meta_record!(golden_record! {});
nic_spec::ack_record!(golden_record! {});
nic_spec::cc_feedback_record!(golden_record! {});
nic_spec::nak_record!(golden_record! {});
nic_spec::read_req_record!(golden_record! {});
nic_spec::host_write_record!(golden_record! {});
nic_spec::host_read_record!(golden_record! {});
nic_spec::tx_desc_record!(golden_record! {});
nic_spec::tx_flow_ctx_record!(golden_record! {});
nic_spec::rx_flow_ctx_record!(golden_record! {});
nic_spec::mr_write_record!(golden_record! {});
nic_spec::flow_pd_record!(golden_record! {});
nic_spec::mr_check_stats_record!(golden_record! {});
nic_spec::rx_parse_stats_record!(golden_record! {});
nic_spec::rx_dispatch_stats_record!(golden_record! {});
nic_spec::tx_stats_record!(golden_record! {});
nic_spec::work_req_record!(golden_record! {});
nic_spec::wr_completion_record!(golden_record! {});
nic_spec::req_flow_ctx_record!(golden_record! {});
nic_spec::req_stats_record!(golden_record! {});
nic_spec::cnm_info_record!(golden_record! {});
nic_spec::cnm_stats_record!(golden_record! {});

impl Telemetry {
    /// Telemetry from the T bit and the TLM area's six words (header, hops
    /// 0..4); all 0 when `present` is false.
    pub fn from_words(present: bool, words: [u64; 6]) -> Self {
        if !present {
            return Self::default();
        }
        let [hdr, hop0, hop1, hop2, hop3, hop4] = words;
        Self {
            present,
            hdr,
            hop0,
            hop1,
            hop2,
            hop3,
            hop4,
        }
    }
    /// The six words: header, hops 0..4.
    pub fn words(&self) -> [u64; 6] {
        [
            self.hdr, self.hop0, self.hop1, self.hop2, self.hop3, self.hop4,
        ]
    }
    /// Word `k` (0 = header, 1..=5 = hops 0..4).
    pub fn word_mut(&mut self, k: usize) -> &mut u64 {
        match k {
            0 => &mut self.hdr,
            1 => &mut self.hop0,
            2 => &mut self.hop1,
            3 => &mut self.hop2,
            4 => &mut self.hop3,
            _ => &mut self.hop4,
        }
    }
}

impl From<packet::Tlm> for Telemetry {
    /// A packet's TLM area as a present telemetry record.
    fn from(t: packet::Tlm) -> Self {
        let [hop0, hop1, hop2, hop3, hop4] = t.hops;
        Self {
            present: true,
            hdr: t.hdr,
            hop0,
            hop1,
            hop2,
            hop3,
            hop4,
        }
    }
}

impl Telemetry {
    /// The packet's TLM area, if present.
    pub fn to_tlm(&self) -> Option<packet::Tlm> {
        self.present.then_some(packet::Tlm {
            hdr: self.hdr,
            hops: [self.hop0, self.hop1, self.hop2, self.hop3, self.hop4],
        })
    }
}
