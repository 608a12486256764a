//! RoCEv2: the wire format (`packet`, `crc32`), the twins of the Tx and Rx
//! pipelines (`tx`, `rx_parse`, `rx_dispatch`) and the transaction-level
//! transport used by the `sim` command (`transport`). See `docs/roce.md`.

pub mod crc32;
pub mod packet;
pub mod rx_dispatch;
pub mod rx_parse;
pub mod transport;
pub mod tx;
