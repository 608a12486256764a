mod bench;
mod bswap;
mod crc32;
mod op_decode;
mod requester;
mod rx_dispatch;
mod rx_parse;
mod tx;
