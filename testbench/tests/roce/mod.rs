mod bench;
mod crc32;
mod rx_dispatch;
mod rx_parse;
mod tx;
