//! `hpccnic wireshark-constants`: the wire constants the Lua dissector
//! `tools/wireshark/hpcc.lua` needs, taken from their single sources —
//! `nic_spec::roce` (port, header lengths, opcodes and their classes), the
//! golden wire format `nic_golden::roce::packet` (the T bit and the
//! telemetry header, found by encoding), and `nic_golden::cc::int_ns3` /
//! `params` (the hop word's fields and units, found by encoding and
//! quantising; the rate codes). The dissector holds them in a generated
//! block between two marker lines; `--check` fails when that block is not
//! what this prints (a test runs it), `--update` rewrites it.

use nic_golden::cc::int_ns3::HopFields;
use nic_golden::cc::params::{CcParams, RATE_GBPS};
use nic_golden::roce::packet::{Packet, Tlm};
use nic_spec::roce::{self as spec, op};
use std::fmt::Write;
use std::path::PathBuf;

pub const BEGIN: &str =
    "-- BEGIN GENERATED CONSTANTS (`hpccnic wireshark-constants --update`; do not edit)";
pub const END: &str = "-- END GENERATED CONSTANTS";

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Exit 1 unless the generated block of this Lua file is current
    /// (default: none).
    #[arg(long, conflicts_with = "update")]
    check: Option<PathBuf>,
    /// Rewrite the generated block of this Lua file (default: none).
    #[arg(long)]
    update: Option<PathBuf>,
}

/// (shift, bits) of the ones of `mask`, which must be contiguous.
fn field(mask: u64) -> (u32, u32) {
    let shift = mask.trailing_zeros();
    let bits = mask.count_ones();
    assert_eq!(
        mask >> shift,
        (1u64 << bits) - 1,
        "{mask:#x} is not contiguous"
    );
    (shift, bits)
}

/// The BTH byte and bit that differ between two frames of the golden
/// encoder (a flag's position, read off the encoder, not restated).
fn bth_bit(base: &Packet, with: &Packet, what: &str) -> (usize, u8) {
    let (a, b) = (base.encode(), with.encode());
    let off = spec::BTH_OFF;
    let diff: Vec<usize> = (off..off + spec::BTH_LEN)
        .filter(|&i| a[i] != b[i])
        .collect();
    assert_eq!(diff.len(), 1, "{what} is one bit of the BTH");
    let mask = a[diff[0]] ^ b[diff[0]];
    assert!(mask.is_power_of_two());
    (diff[0] - off, mask)
}

/// The T bit: the BTH byte and bit that differ between a packet with and
/// without the telemetry area.
fn t_bit() -> (usize, u8) {
    let base = Packet {
        opcode: op::PROBE,
        ..Default::default()
    };
    let with = Packet {
        tlm: Some(Tlm::fresh()),
        ..base.clone()
    };
    bth_bit(&base, &with, "the T bit")
}

/// The BECN bit of a CNP: the BTH byte and bit that differ between a
/// packet with and without it.
fn becn_bit() -> (usize, u8) {
    let base = Packet {
        opcode: op::CNP,
        ..Default::default()
    };
    let with = Packet {
        becn: true,
        ..base.clone()
    };
    bth_bit(&base, &with, "BECN")
}

/// The Lua block.
pub fn constants() -> String {
    let mut s = String::new();
    let (t_byte, t_mask) = t_bit();
    let hdr = |f: u64| field(f);
    let h_ver = hdr(Tlm::header(0xF, 0, 0, 0, 0));
    let h_flags = hdr(Tlm::header(0, 0xF, 0, 0, 0));
    let h_nhop = hdr(Tlm::header(0, 0, 0xFF, 0, 0));
    let h_maxhop = hdr(Tlm::header(0, 0, 0, 0xFF, 0));
    let h_w = hdr(Tlm::header(0, 0, 0, 0, u32::MAX));
    let fresh = Tlm::fresh();
    let hop = |h: HopFields| field(h.encode());
    let all = HopFields {
        rate: 0,
        ts: 0,
        bytes: 0,
        qlen: 0,
    };
    let p_rate = hop(HopFields { rate: 7, ..all });
    let p_ts = hop(HopFields {
        ts: u32::MAX,
        ..all
    });
    let p_bytes = hop(HopFields {
        bytes: u32::MAX,
        ..all
    });
    let p_qlen = hop(HopFields {
        qlen: u32::MAX,
        ..all
    });
    // Units: a byte count divisible by both, quantised with multi = 1.
    let x = 655_360u64;
    let q = HopFields::quantise(0, 0, x, x, 1);
    let (qlen_unit, bytes_unit) = (x / q.qlen as u64, x / q.bytes as u64);
    assert_eq!(q.qlen as u64 * qlen_unit, x);
    assert_eq!(q.bytes as u64 * bytes_unit, x);
    let hops = fresh.hops.len();
    let lua_set = |pred: &dyn Fn(u8) -> bool| {
        let v: Vec<String> = op::ALL
            .iter()
            .filter(|&&o| pred(o))
            .map(|o| format!("[0x{o:02X}] = true"))
            .collect();
        format!("{{ {} }}", v.join(", "))
    };
    let w = &mut s;
    writeln!(w, "{BEGIN}").unwrap();
    writeln!(w, "local C = {{").unwrap();
    writeln!(w, "    roce_port = {},", spec::ROCE_PORT).unwrap();
    for (k, v) in [
        ("bth_len", spec::BTH_LEN),
        ("reth_len", spec::RETH_LEN),
        ("aeth_len", spec::AETH_LEN),
        ("tlm_len", spec::TLM_LEN),
        ("icrc_len", spec::ICRC_LEN),
    ] {
        writeln!(w, "    {k} = {v},").unwrap();
    }
    writeln!(
        w,
        "    -- BTH byte {t_byte} (resv8a), the T bit: a telemetry area follows the RoCE headers"
    )
    .unwrap();
    writeln!(w, "    t_byte = {t_byte},").unwrap();
    writeln!(w, "    t_mask = 0x{t_mask:02X},").unwrap();
    writeln!(w, "    op_probe = 0x{:02X},", op::PROBE).unwrap();
    writeln!(w, "    op_notify = 0x{:02X},", op::NOTIFY).unwrap();
    writeln!(w, "    op_ack_tlm = 0x{:02X},", op::ACK_TLM).unwrap();
    let (becn_byte, becn_mask) = becn_bit();
    writeln!(
        w,
        "    -- the RoCEv2 CNP (InfiniBand's own CNP is 0x80, which Wireshark names): BECN in BTH byte {becn_byte}"
    )
    .unwrap();
    writeln!(w, "    op_cnp = 0x{:02X},", op::CNP).unwrap();
    writeln!(w, "    becn_byte = {becn_byte},").unwrap();
    writeln!(w, "    becn_mask = 0x{becn_mask:02X},").unwrap();
    writeln!(w, "    known_op = {},", lua_set(&spec::known_opcode)).unwrap();
    let labels: Vec<String> = op::ALL
        .iter()
        .map(|&o| {
            format!(
                "[0x{o:02X}] = \"{}\"",
                op::name(o).expect("every opcode named")
            )
        })
        .collect();
    writeln!(w, "    op_label = {{ {} }},", labels.join(", ")).unwrap();
    writeln!(w, "    has_reth = {},", lua_set(&spec::has_reth)).unwrap();
    writeln!(w, "    has_aeth = {},", lua_set(&spec::has_aeth)).unwrap();
    writeln!(
        w,
        "    -- the telemetry header word (big-endian 64 bits): {{shift, bits}}"
    )
    .unwrap();
    for (k, (sh, b)) in [
        ("hdr_ver", h_ver),
        ("hdr_flags", h_flags),
        ("hdr_nhop", h_nhop),
        ("hdr_maxhop", h_maxhop),
        ("hdr_w", h_w),
    ] {
        writeln!(w, "    {k} = {{ {sh}, {b} }},").unwrap();
    }
    writeln!(w, "    tlm_ver = {},", fresh.ver()).unwrap();
    writeln!(w, "    tlm_maxhop = {},", fresh.maxhop()).unwrap();
    writeln!(w, "    tlm_hops = {hops},").unwrap();
    writeln!(
        w,
        "    -- flags bit 0: W (receiver-computed window, UQ24.8 bytes) valid"
    )
    .unwrap();
    writeln!(w, "    flag_w_valid = 0x1,").unwrap();
    writeln!(
        w,
        "    -- one ns-3 hop word (big-endian 64 bits): {{shift, bits}}"
    )
    .unwrap();
    for (k, (sh, b)) in [
        ("hop_rate", p_rate),
        ("hop_ts", p_ts),
        ("hop_bytes", p_bytes),
        ("hop_qlen", p_qlen),
    ] {
        writeln!(w, "    {k} = {{ {sh}, {b} }},").unwrap();
    }
    writeln!(
        w,
        "    -- bytes per qlen / tx-bytes unit, times the telemetry multi"
    )
    .unwrap();
    writeln!(w, "    qlen_unit = {qlen_unit},").unwrap();
    writeln!(w, "    bytes_unit = {bytes_unit},").unwrap();
    writeln!(w, "    multi_default = {},", CcParams::default().int_multi).unwrap();
    let rates: Vec<String> = RATE_GBPS
        .iter()
        .enumerate()
        .map(|(c, g)| format!("[{c}] = {g}"))
        .collect();
    writeln!(w, "    -- line-rate codes, Gb/s (other codes: unknown)").unwrap();
    writeln!(w, "    rate_gbps = {{ {} }},", rates.join(", ")).unwrap();
    writeln!(w, "}}").unwrap();
    writeln!(w, "{END}").unwrap();
    s
}

/// `text` with its generated block replaced by `block`; `None` if the
/// markers are missing.
pub fn replace_block(text: &str, block: &str) -> Option<String> {
    let b = text.find(BEGIN)?;
    let e = text[b..].find(END)? + b + END.len();
    let e = if text[e..].starts_with('\n') {
        e + 1
    } else {
        e
    };
    Some(format!("{}{}{}", &text[..b], block, &text[e..]))
}

pub fn main(a: Args) -> i32 {
    let block = constants();
    let Some(path) = a.check.as_ref().or(a.update.as_ref()) else {
        print!("{block}");
        return 0;
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            return 2;
        }
    };
    let Some(new) = replace_block(&text, &block) else {
        eprintln!(
            "error: {}: no generated block (the lines `{BEGIN}` … `{END}`)",
            path.display()
        );
        return 2;
    };
    if a.check.is_some() {
        if new == text {
            println!("{}: constants current", path.display());
            0
        } else {
            eprintln!(
                "{}: the generated constants differ from the spec's; run `hpccnic wireshark-constants --update {}`",
                path.display(),
                path.display()
            );
            1
        }
    } else {
        if new != text {
            if let Err(e) = std::fs::write(path, &new) {
                eprintln!("error: {}: {e}", path.display());
                return 2;
            }
        }
        println!("{}: constants written", path.display());
        0
    }
}
