//! The UART register bridge's wire protocol (`docs/board.md`): how a
//! host without PCIe (a board on a USB-UART) reads and writes the NIC's
//! AXI4-Lite registers.
//!
//! The RTL (`hdl/src/uart/uart_axil.rs`), its twin, the host script
//! (`boards/ecpix5/hpcc_uart.py`, whose copy of these values this
//! module's tests check) and the docs take these from here.
//!
//! The line is 8N1 (one start bit, eight data bits LSB first, one stop
//! bit, no parity); the bit time is a whole number of clock cycles
//! (`cfg_clks_per_bit`).
//!
//! A request: [`SYNC`], a command byte, the 16-bit register address
//! (high byte first), for [`cmd::WRITE`] the 32-bit value (high byte
//! first), then a CRC-8 ([`crc8`]) of every byte after [`SYNC`].
//!
//! A response (always [`RESP_LEN`] bytes): [`SYNC`], a status byte
//! ([`status`]), the 32-bit value (high byte first; 0 for a write or an
//! error), then a CRC-8 of the status and value bytes.

/// The first byte of every request and response.
pub const SYNC: u8 = 0x5A;

/// Command bytes.
pub mod cmd {
    /// Read the 32-bit register at the address (AXI4-Lite read).
    pub const READ: u8 = 0x01;
    /// Write the 32-bit value to the register at the address, all four
    /// byte lanes (AXI4-Lite write, `wstrb` = 0xF).
    pub const WRITE: u8 = 0x02;
    /// Read the bridge's own counter at index (address) k
    /// ([`super::STATS_NAMES`]); no AXI4-Lite access.
    pub const STATS: u8 = 0x03;
}

/// Request lengths in bytes, [`SYNC`] and the CRC included.
pub const READ_LEN: usize = 5;
pub const WRITE_LEN: usize = 9;
pub const STATS_LEN: usize = 5;
/// Response length in bytes, [`SYNC`] and the CRC included.
pub const RESP_LEN: usize = 7;

/// A request's length for a command byte, `None` for an unknown one.
pub const fn request_len(c: u8) -> Option<usize> {
    match c {
        cmd::READ => Some(READ_LEN),
        cmd::WRITE => Some(WRITE_LEN),
        cmd::STATS => Some(STATS_LEN),
        _ => None,
    }
}

/// Response status bytes. 0x00..=0x03 are the AXI4-Lite response of the
/// access (`bresp`/`rresp`: OKAY, EXOKAY, SLVERR, DECERR); a `STATS`
/// request answers OKAY, or DECERR for an index past the last counter.
pub mod status {
    pub const OKAY: u8 = 0x00;
    pub const SLVERR: u8 = 0x02;
    pub const DECERR: u8 = 0x03;
    /// The request's CRC-8 was wrong: nothing was accessed.
    pub const BAD_CRC: u8 = 0x80;
}

/// The bridge's counters (32 bits, wrapping), in `STATS` index order:
/// every byte sequence the bridge receives counts in exactly one of
/// them, except bytes of a frame already counted as bad, which are
/// dropped silently until the line is idle.
/// - `requests`: requests executed (their response sent);
/// - `bad_crc`: requests dropped for a wrong CRC-8 (answered
///   [`status::BAD_CRC`]);
/// - `bad_cmd`: an unknown command byte after [`SYNC`] (no response; the
///   rest is dropped until the line is idle);
/// - `truncated`: a request whose next byte did not come within the
///   idle timeout (no response);
/// - `framing`: a byte whose stop bit was 0 (a framing error or a
///   break; the request it was in is dropped, no response, and the rest
///   until the line is idle);
/// - `stray`: a byte other than [`SYNC`] while waiting for a request
///   (dropped);
/// - `overrun`: a byte that arrived while a request was being executed
///   or answered (dropped: the protocol is one request at a time).
pub const STATS_NAMES: [&str; 7] = [
    "requests",
    "bad_crc",
    "bad_cmd",
    "truncated",
    "framing",
    "stray",
    "overrun",
];

/// The CRC-8 polynomial, x^8 + x^2 + x + 1 (CRC-8/SMBUS: MSB first,
/// initial value 0, no final XOR). Appending a message's CRC to it gives
/// a CRC of 0.
pub const CRC8_POLY: u8 = 0x07;

/// CRC-8/SMBUS of `bytes` (the definition the RTL's XOR network is
/// emitted from; the golden twin uses the `crc` crate's instead).
pub const fn crc8(bytes: &[u8]) -> u8 {
    let mut c = 0u8;
    let mut i = 0;
    while i < bytes.len() {
        c = crc8_byte(c, bytes[i]);
        i += 1;
    }
    c
}

/// One byte into a running CRC-8.
pub const fn crc8_byte(crc: u8, byte: u8) -> u8 {
    let mut c = crc ^ byte;
    let mut k = 0;
    while k < 8 {
        c = if c & 0x80 != 0 {
            (c << 1) ^ CRC8_POLY
        } else {
            c << 1
        };
        k += 1;
    }
    c
}

/// Bit times at or below this are clamped to it (the receiver samples
/// at half a bit, which must be at least one cycle).
pub const MIN_CLKS_PER_BIT: u16 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc8_check_value_and_residue() {
        // CRC-8/SMBUS's check value.
        assert_eq!(crc8(b"123456789"), 0xF4);
        let mut m = b"\x01\x00\x10".to_vec();
        m.push(crc8(&m));
        assert_eq!(crc8(&m), 0);
    }

    #[test]
    fn the_stats_record_has_the_stats_names_in_order() {
        let r = crate::records::all()
            .into_iter()
            .find(|r| r.name == "UartBridgeStats")
            .unwrap();
        let names: Vec<&str> = r.fields.iter().map(|f| f.name).collect();
        assert_eq!(names, STATS_NAMES);
        // The board's first counter page is this record's.
        assert_eq!(
            crate::board::stats_fields(&crate::board::STATS_PAGES[0]),
            STATS_NAMES
        );
    }

    /// The host script's copy of the protocol (`boards/ecpix5/hpcc_uart.py`,
    /// which has no Rust to import) equals this module.
    #[test]
    fn the_host_script_has_these_values() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../boards/ecpix5/hpcc_uart.py");
        let py = std::fs::read_to_string(path).unwrap();
        let val = |name: &str| -> String {
            let pre = format!("{name} = ");
            let line = py
                .lines()
                .find(|l| l.starts_with(&pre))
                .unwrap_or_else(|| panic!("{name} is not in {path}"));
            line[pre.len()..].trim().to_string()
        };
        let num = |name: &str| -> u64 {
            let v = val(name);
            match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).unwrap(),
                None => v.parse().unwrap(),
            }
        };
        for (name, want) in [
            ("SYNC", SYNC as u64),
            ("CMD_READ", cmd::READ as u64),
            ("CMD_WRITE", cmd::WRITE as u64),
            ("CMD_STATS", cmd::STATS as u64),
            ("READ_LEN", READ_LEN as u64),
            ("WRITE_LEN", WRITE_LEN as u64),
            ("STATS_LEN", STATS_LEN as u64),
            ("RESP_LEN", RESP_LEN as u64),
            ("STATUS_OKAY", status::OKAY as u64),
            ("STATUS_SLVERR", status::SLVERR as u64),
            ("STATUS_DECERR", status::DECERR as u64),
            ("STATUS_BAD_CRC", status::BAD_CRC as u64),
            ("CRC8_POLY", CRC8_POLY as u64),
            ("HOST_MEM_BASE", crate::board::HOST_MEM_BASE as u64),
            (
                "HOST_MEM_LOG_WORDS",
                crate::board::HOST_MEM_LOG_WORDS as u64,
            ),
        ] {
            assert_eq!(num(name), want, "{name} in {path}");
        }
        let names: Vec<String> = STATS_NAMES.iter().map(|n| format!("\"{n}\"")).collect();
        assert_eq!(val("STATS_NAMES"), format!("[{}]", names.join(", ")));
        // STATS_PAGES: one line per page, in page order.
        let start = py
            .find("STATS_PAGES = [\n")
            .expect("STATS_PAGES in the script");
        let lines: Vec<&str> = py[start..]
            .lines()
            .skip(1)
            .take_while(|l| *l != "]")
            .collect();
        let want: Vec<String> = crate::board::STATS_PAGES
            .iter()
            .map(|p| {
                let f: Vec<String> = crate::board::stats_fields(p)
                    .iter()
                    .map(|n| format!("\"{n}\""))
                    .collect();
                format!("    (\"{}\", [{}]),", p.name, f.join(", "))
            })
            .collect();
        assert_eq!(lines, want, "STATS_PAGES in {path}");
    }

    /// `docs/board.md`'s protocol table shows these values.
    #[test]
    fn the_board_doc_has_these_values() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/board.md");
        let doc = std::fs::read_to_string(path).unwrap();
        for row in [
            format!("| `SYNC` | 0x{SYNC:02X} |"),
            format!("| `cmd::READ` | 0x{:02X} |", cmd::READ),
            format!("| `cmd::WRITE` | 0x{:02X} |", cmd::WRITE),
            format!("| `cmd::STATS` | 0x{:02X} |", cmd::STATS),
            format!("| `status::BAD_CRC` | 0x{:02X} |", status::BAD_CRC),
        ] {
            assert!(doc.contains(&row), "{path} has no row `{row}`");
        }
        for (k, n) in STATS_NAMES.iter().enumerate() {
            let row = format!("| {k} | `{n}` |");
            assert!(doc.contains(&row), "{path} has no row `{row}`");
        }
        for (p, page) in crate::board::STATS_PAGES.iter().enumerate().skip(1) {
            let row = format!(
                "| {p} | `{}` | `{}` | `{}` | {} |",
                page.name,
                page.record,
                page.clock,
                crate::board::stats_fields(page).join(", ")
            );
            assert!(doc.contains(&row), "{path} has no row `{row}`");
        }
    }

    #[test]
    fn lengths() {
        assert_eq!(request_len(cmd::READ), Some(5));
        assert_eq!(request_len(cmd::WRITE), Some(9));
        assert_eq!(request_len(0), None);
    }
}
