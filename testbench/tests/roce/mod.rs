mod bench;
mod bswap;
pub(crate) mod cnm_rx;
mod crc32;
mod op_decode;
mod requester;
mod rx_dispatch;
mod rx_parse;
mod tx;
