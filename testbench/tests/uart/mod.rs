//! The UART register bridge's blocks (`hdl/src/uart/`) against their
//! twins, and a line model written here (the host's side: characters →
//! line levels, line levels → characters), independent of both.

mod uart_axil;
mod uart_rx;
mod uart_tx;

/// The line levels of one 8N1 character at `n` cycles a bit: start bit,
/// eight data bits LSB first, stop bit (0 if `stop_ok` is false: a
/// framing error).
pub fn char_levels(byte: u8, n: usize, stop_ok: bool) -> Vec<bool> {
    let mut bits = vec![false];
    bits.extend((0..8).map(|k| (byte >> k) & 1 != 0));
    bits.push(stop_ok);
    bits.iter()
        .flat_map(|&b| std::iter::repeat_n(b, n))
        .collect()
}

/// A character seen on a line: its byte, or a framing error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Char {
    Byte(u8),
    FramingError,
}

/// Decode a line sampled once a cycle at `n` cycles a bit: each falling
/// edge from idle starts a character, sampled in the middle of each bit.
/// With `strict`, every bit must also hold for exactly `n` cycles (what
/// a transmitter must do).
pub fn decode_line(line: &[bool], n: usize, strict: bool) -> Vec<Char> {
    let mut out = Vec::new();
    let mut i = 1;
    while i < line.len() {
        if line[i - 1] && !line[i] {
            let mid = |k: usize| i + n / 2 + k * n;
            if mid(9) >= line.len() {
                break;
            }
            if line[mid(0)] {
                i += 1;
                continue;
            }
            if strict {
                for k in 0..10 {
                    let lv = line[i + k * n];
                    assert!(
                        line[i + k * n..i + (k + 1) * n].iter().all(|&x| x == lv),
                        "bit {k} of the character at cycle {i} is not {n} cycles long"
                    );
                }
            }
            let mut b = 0u8;
            for k in 0..8 {
                if line[mid(k + 1)] {
                    b |= 1 << k;
                }
            }
            out.push(if line[mid(9)] {
                Char::Byte(b)
            } else {
                Char::FramingError
            });
            i = mid(9);
        } else {
            i += 1;
        }
    }
    out
}
