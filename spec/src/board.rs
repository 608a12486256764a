//! Board-level constants: how a board without PCIe (the ECPIX-5,
//! `docs/board.md`) lays its host side out behind the UART register
//! bridge.
//!
//! The bridge's 16-bit address space is the NIC's register map
//! ([`crate::hostif::map`]) below [`HOST_MEM_BASE`]; from it up to the
//! top of the space is the window onto the board's host memory
//! (`BramDma`'s host port, through `AxilSplit`), at host address
//! `addr - HOST_MEM_BASE`.

/// The first bridge address of the host-memory window.
pub const HOST_MEM_BASE: u16 = 0xC000;
/// log2 of the host memory's 8-byte words: the window's 16 KiB.
pub const HOST_MEM_LOG_WORDS: usize = 11;

/// One page of the bridge's `STATS` command on a board: a counter
/// record, read in its field order, and the clock its counters count on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsPage {
    /// The page's name (the host script's and the docs').
    pub name: &'static str,
    /// The record of `crate::records` whose fields are the counters.
    pub record: &'static str,
    /// The clock domain the counters live in (the board core's port).
    pub clock: &'static str,
}

/// The pages of the bridge's `STATS` command (`crate::uart::cmd::STATS`):
/// request address `(page << 8) | k` reads counter `k` of page `page`
/// (`stats_index`). Page 0 is the bridge's own counters
/// (`crate::uart::STATS_NAMES`); the others are the board core's, read
/// through its `ext_stat_*` port, those of another clock carried into
/// the core clock by a toggle handshake (`docs/board.md` §4). An address
/// past a page's last counter, or of no page, answers DECERR.
pub const STATS_PAGES: [StatsPage; 7] = [
    StatsPage {
        name: "BRIDGE",
        record: "UartBridgeStats",
        clock: "clk",
    },
    StatsPage {
        name: "HOST_MEM",
        record: "BramDmaStats",
        clock: "clk",
    },
    StatsPage {
        name: "TX_FIFO",
        record: "AsyncFifoStats",
        clock: "clk",
    },
    StatsPage {
        name: "RX_FIFO",
        record: "AsyncFifoStats",
        clock: "rgmii_rxc",
    },
    StatsPage {
        name: "MAC_TX",
        record: "MacTxStats",
        clock: "tx_clk",
    },
    StatsPage {
        name: "MAC_RX",
        record: "MacRxStats",
        clock: "rgmii_rxc",
    },
    StatsPage {
        name: "RESET",
        record: "BoardStats",
        clock: "clk100",
    },
];

/// Page numbers of [`STATS_PAGES`], for the RTL.
pub mod stats_page {
    pub const BRIDGE: u8 = 0;
    pub const HOST_MEM: u8 = 1;
    pub const TX_FIFO: u8 = 2;
    pub const RX_FIFO: u8 = 3;
    pub const MAC_TX: u8 = 4;
    pub const MAC_RX: u8 = 5;
    pub const RESET: u8 = 6;
}

/// The counter names of page `page` (its record's fields, in order).
pub fn stats_fields(page: &StatsPage) -> Vec<&'static str> {
    let r = crate::records::all()
        .into_iter()
        .find(|r| r.name == page.record)
        .unwrap_or_else(|| panic!("no record {}", page.record));
    r.fields.iter().map(|f| f.name).collect()
}

/// The `STATS` address of counter `field` of the page named `page`.
pub fn stats_index(page: &str, field: &str) -> Option<u16> {
    let p = STATS_PAGES.iter().position(|s| s.name == page)?;
    let k = stats_fields(&STATS_PAGES[p])
        .iter()
        .position(|&f| f == field)?;
    Some(((p as u16) << 8) | k as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hostif::map;

    #[test]
    fn the_window_is_above_the_register_map_and_fills_the_space() {
        for r in map::ALL {
            let end = r.addr as u32 + r.count as u32 * r.stride as u32;
            assert!(end <= HOST_MEM_BASE as u32, "{} ends at {end:#x}", r.name);
        }
        assert_eq!(
            HOST_MEM_BASE as u32 + (8u32 << HOST_MEM_LOG_WORDS),
            1 << crate::hostif::ADDR_W
        );
    }

    #[test]
    fn stats_pages_are_counter_records_in_page_order() {
        let numbers = [
            ("BRIDGE", stats_page::BRIDGE),
            ("HOST_MEM", stats_page::HOST_MEM),
            ("TX_FIFO", stats_page::TX_FIFO),
            ("RX_FIFO", stats_page::RX_FIFO),
            ("MAC_TX", stats_page::MAC_TX),
            ("MAC_RX", stats_page::MAC_RX),
            ("RESET", stats_page::RESET),
        ];
        assert_eq!(numbers.len(), STATS_PAGES.len());
        for (k, (name, n)) in numbers.iter().enumerate() {
            assert_eq!(STATS_PAGES[k].name, *name);
            assert_eq!(*n as usize, k);
        }
        let all = crate::records::all();
        for p in STATS_PAGES {
            let r = all.iter().find(|r| r.name == p.record).expect("a record");
            assert!(
                r.kind == "level" && r.fields.iter().all(|f| f.width == 32),
                "{}",
                p.name
            );
            assert!(r.fields.len() <= 256, "{}", p.name);
        }
        assert_eq!(stats_index("MAC_RX", "errors"), Some(0x0503));
        assert_eq!(stats_index("RESET", "lock_losses"), Some(0x0600));
        assert_eq!(stats_index("MAC_RX", "nothing"), None);
    }
}
