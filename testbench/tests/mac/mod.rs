//! The MAC blocks' tests, and what the receivers' tests share.

mod axis_async_fifo;
mod axis_pad;
mod gmii_rx;
mod gmii_tx;
mod mac_10g;
mod mac_1g;
mod req_sync;
mod tx_pause;
mod vendor_mac;
mod xgmii_rx;
mod xgmii_tx;

use nic_spec::mac::ctl;

/// A MAC control frame without FCS, padded to 60 bytes: to the control
/// destination, from 02:00:00:00:00:01, EtherType 0x8808, `op`, `body`.
pub(crate) fn ctl_frame(op: u16, body: &[u8]) -> Vec<u8> {
    let mut f = ctl::DST.to_be_bytes()[2..].to_vec();
    f.extend_from_slice(&[0x02, 0, 0, 0, 0, 1]);
    f.extend_from_slice(&ctl::ETHERTYPE.to_be_bytes());
    f.extend_from_slice(&op.to_be_bytes());
    f.extend_from_slice(body);
    f.resize(60, 0);
    f
}
