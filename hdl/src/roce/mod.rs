//! RoCEv2 pipelines: the ICRC block, the Tx frame builder and the two Rx
//! stages (checker, dispatcher). See `docs/roce.md`.

pub mod bswap;
pub mod crc32;
pub mod op_decode;
pub mod rx_dispatch;
pub mod rx_parse;
pub mod tx;
