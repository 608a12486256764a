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
}
