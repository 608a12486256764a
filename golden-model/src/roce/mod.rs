//! RoCEv2: the wire format (`packet`, `crc32`), the twins of the Tx and Rx
//! pipelines (`tx`, `rx_parse`, `rx_dispatch`) and their transaction-level
//! models (`txn`: the receive rules, the Tx and Rx paths frame by frame). See `docs/roce.md`.

pub mod bswap;
pub mod crc32;
pub mod op_decode;
pub mod packet;
pub mod rx_dispatch;
pub mod rx_parse;
pub mod tx;
pub mod txn;
