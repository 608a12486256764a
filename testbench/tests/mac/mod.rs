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

use nic_golden::stream::Axis;
use nic_spec::mac::ctl;

/// Beat `b` of a frame of `data` on a 64-bit stream: its bytes from
/// `tdata[7:0]` on, `tkeep` the low lanes, `tlast` on the last beat and
/// `tuser` with it if `user`; `tvalid` set.
pub(crate) fn beat(data: &[u8], b: usize, user: bool) -> Axis {
    let last = b + 1 == data.len().div_ceil(8);
    let lo = 8 * b;
    let hi = (lo + 8).min(data.len());
    let mut w = [0u8; 8];
    w[..hi - lo].copy_from_slice(&data[lo..hi]);
    Axis {
        tdata: u64::from_le_bytes(w),
        tkeep: ((1u16 << (hi - lo)) - 1) as u8,
        tvalid: true,
        tlast: last,
        tuser: last && user,
    }
}

/// A MAC control frame (EtherType 0x8808), FCS removed.
pub(crate) fn is_ctl(d: &[u8]) -> bool {
    d.len() >= 14 && d[12..14] == ctl::ETHERTYPE.to_be_bytes()
}

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
