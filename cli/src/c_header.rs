//! `hpccnic c-header`: the C header of the driver contract
//! (`include/hpcc_nic.h`, `docs/driver.md`), generated from the tables
//! the RTL and the models use: `nic_spec::hostif` (the AXI4-Lite map,
//! the CQ registers, the send- and completion-queue entries, the
//! responses), `nic_spec::regs` (the core's registers), `nic_spec::records`
//! (the counters of each page) and `nic_spec::roce::wr` (opcodes,
//! statuses). `--check FILE` exits 1 unless FILE is what this prints (a
//! test runs it on the committed header); `--out FILE` writes it.

use nic_spec::hostif::{self, cq_reg, cqe, map, resp, wqe, Field};
use nic_spec::roce::wr;
use std::fmt::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Exit 1 unless this file is the header as generated (default: none).
    #[arg(long, conflicts_with_all = ["out", "doc_check", "doc_update"])]
    check: Option<PathBuf>,
    /// Write the header here (default: stdout).
    #[arg(long, conflicts_with_all = ["doc_check", "doc_update"])]
    out: Option<PathBuf>,
    /// Exit 1 unless the generated tables of this Markdown file
    /// (`docs/driver.md`) are current (default: none).
    #[arg(long, conflicts_with = "doc_update")]
    doc_check: Option<PathBuf>,
    /// Rewrite the generated tables of this Markdown file (default: none).
    #[arg(long)]
    doc_update: Option<PathBuf>,
}

pub const DOC_BEGIN: &str =
    "<!-- BEGIN GENERATED TABLES (`hpccnic c-header --doc-update docs/driver.md`; do not edit) -->";
pub const DOC_END: &str = "<!-- END GENERATED TABLES -->";

/// The Markdown tables of `docs/driver.md`, from the same tables as the
/// header.
pub fn doc_tables() -> String {
    let mut s = String::new();
    let w = &mut s;
    writeln!(w, "{DOC_BEGIN}\n").unwrap();
    writeln!(w, "#### The AXI4-Lite map\n").unwrap();
    writeln!(w, "| address | register | access | elements | meaning |").unwrap();
    writeln!(w, "|---|---|---|---|---|").unwrap();
    for r in map::ALL {
        let acc = match r.access {
            hostif::Access::Ro => "RO",
            hostif::Access::Rw => "RW",
        };
        let elems = if r.count > 1 {
            format!("{} × 0x{:X}", r.count, r.stride)
        } else {
            "1".into()
        };
        writeln!(
            w,
            "| 0x{:04X} | `{}` | {acc} | {elems} | {} |",
            r.addr, r.name, r.doc
        )
        .unwrap();
    }
    writeln!(
        w,
        "\n#### A completion queue's registers (offset in its block)\n"
    )
    .unwrap();
    writeln!(w, "| offset | register | access | meaning |").unwrap();
    writeln!(w, "|---|---|---|---|").unwrap();
    for r in cq_reg::ALL {
        let acc = match r.access {
            hostif::Access::Ro => "RO",
            hostif::Access::Rw => "RW",
        };
        writeln!(w, "| 0x{:02X} | `{}` | {acc} | {} |", r.addr, r.name, r.doc).unwrap();
    }
    writeln!(
        w,
        "\n#### The core's registers (index r: low word at `CORE` + 8r, high word at + 4)\n"
    )
    .unwrap();
    writeln!(w, "| r | register | bits | meaning |").unwrap();
    writeln!(w, "|---|---|---|---|").unwrap();
    for r in nic_spec::regs::ALL {
        writeln!(
            w,
            "| 0x{:02X} | `{}` | {} | {} |",
            r.addr, r.name, r.width, r.doc
        )
        .unwrap();
    }
    writeln!(w, "\n#### Counter pages\n").unwrap();
    writeln!(
        w,
        "| page | address | record | counters, in order (4 bytes apart) |"
    )
    .unwrap();
    writeln!(w, "|---|---|---|---|").unwrap();
    let recs = nic_spec::records::all();
    for (p, page) in hostif::STATS_PAGES.iter().enumerate() {
        let rec = recs.iter().find(|r| r.name == *page).unwrap();
        let names: Vec<String> = rec.fields.iter().map(|f| format!("`{}`", f.name)).collect();
        writeln!(
            w,
            "| {p} | 0x{:04X} | `{page}` | {} |",
            map::STATS + 0x100 * p as u16,
            names.join(", ")
        )
        .unwrap();
    }
    for (title, size, fields) in [
        ("A send-queue entry", wqe::SIZE, wqe::FIELDS),
        ("A completion-queue entry", cqe::SIZE, cqe::FIELDS),
    ] {
        writeln!(w, "\n#### {title} ({size} bytes, little-endian)\n").unwrap();
        writeln!(w, "| offset | field | bytes | meaning |").unwrap();
        writeln!(w, "|---|---|---|---|").unwrap();
        for f in fields {
            let bytes = if f.size == 0 {
                format!("bit {}", f.bit)
            } else {
                f.size.to_string()
            };
            writeln!(
                w,
                "| {} | `{}` | {bytes} | {} |",
                f.offset,
                f.name.to_lowercase(),
                f.doc
            )
            .unwrap();
        }
    }
    writeln!(w, "\n#### Completion statuses\n").unwrap();
    writeln!(w, "| status | name |").unwrap();
    writeln!(w, "|---|---|").unwrap();
    for st in wr::Status::ALL {
        writeln!(w, "| {} | `{}` |", st as u8, st.name()).unwrap();
    }
    writeln!(w, "\n{DOC_END}").unwrap();
    s
}

/// The prefix of every name in the header.
pub const P: &str = "HPCC_NIC";

/// `RxParseStats` → `RX_PARSE` (the page's name in the header).
pub fn page_name(record: &str) -> String {
    let base = record.strip_suffix("Stats").unwrap_or(record);
    let mut s = String::new();
    for (i, ch) in base.chars().enumerate() {
        if ch.is_uppercase() && i > 0 {
            s.push('_');
        }
        s.push(ch.to_ascii_uppercase());
    }
    s
}

/// Every constant of the header as (name, value): what the C test
/// checks the compiled header against.
pub fn constants() -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = vec![
        (format!("{P}_ID"), hostif::ID as u64),
        (format!("{P}_VERSION"), hostif::VERSION as u64),
        (format!("{P}_AXIL_ADDR_W"), hostif::ADDR_W as u64),
        (format!("{P}_MAX_LOG_SIZE"), hostif::MAX_LOG_SIZE as u64),
        (
            format!("{P}_SOFT_RESET_CYCLES"),
            hostif::SOFT_RESET_CYCLES as u64,
        ),
        (
            format!("{P}_CONTROL_SOFT_RESET"),
            hostif::control::SOFT_RESET as u64,
        ),
        (
            format!("{P}_CONTROL_FULL_RESET"),
            hostif::control::FULL_RESET as u64,
        ),
        (format!("{P}_RESP_OKAY"), resp::OKAY as u64),
        (format!("{P}_RESP_SLVERR"), resp::SLVERR as u64),
        (format!("{P}_RESP_DECERR"), resp::DECERR as u64),
    ];
    for r in map::ALL {
        v.push((format!("{P}_REG_{}", r.name), r.addr as u64));
        if r.count > 1 {
            v.push((format!("{P}_REG_{}_STRIDE", r.name), r.stride as u64));
            v.push((format!("{P}_REG_{}_COUNT", r.name), r.count as u64));
        }
    }
    for r in nic_spec::regs::ALL {
        v.push((format!("{P}_CORE_{}", r.name), r.addr as u64));
        v.push((format!("{P}_CORE_{}_WIDTH", r.name), r.width as u64));
    }
    for r in cq_reg::ALL {
        v.push((format!("{P}_CQ_{}", r.name), r.addr as u64));
    }
    let recs = nic_spec::records::all();
    for (p, page) in hostif::STATS_PAGES.iter().enumerate() {
        let pn = page_name(page);
        v.push((format!("{P}_STATS_PAGE_{pn}"), p as u64));
        let rec = recs
            .iter()
            .find(|r| r.name == *page)
            .expect("a counter record");
        v.push((format!("{P}_STATS_{pn}_COUNT"), rec.fields.len() as u64));
        for (k, f) in rec.fields.iter().enumerate() {
            v.push((
                format!("{P}_STAT_{pn}_{}", f.name.to_ascii_uppercase()),
                hostif::stats_addr(page, k).expect("a counter") as u64,
            ));
        }
    }
    v.push((format!("{P}_WQE_SIZE"), wqe::SIZE as u64));
    for f in wqe::FIELDS {
        v.push((format!("{P}_WQE_{}_OFF", f.name), f.offset as u64));
    }
    v.push((format!("{P}_CQE_SIZE"), cqe::SIZE as u64));
    for f in cqe::FIELDS {
        if f.size == 0 {
            v.push((format!("{P}_CQE_FLAG_{}", f.name), 1 << f.bit));
        } else {
            v.push((format!("{P}_CQE_{}_OFF", f.name), f.offset as u64));
        }
    }
    v.push((format!("{P}_WR_WRITE"), wr::WRITE as u64));
    v.push((format!("{P}_WR_READ"), wr::READ as u64));
    v.push((format!("{P}_WR_MAX_LEN"), wr::MAX_LEN as u64));
    for s in wr::Status::ALL {
        v.push((
            format!("{P}_STATUS_{}", s.name().to_ascii_uppercase()),
            s as u64,
        ));
    }
    v
}

/// A C type of `size` bytes.
fn c_type(size: usize) -> &'static str {
    match size {
        1 => "uint8_t",
        2 => "uint16_t",
        4 => "uint32_t",
        8 => "uint64_t",
        _ => panic!("no C type of {size} bytes"),
    }
}

/// A struct of an entry table, reserved bytes where the table has none,
/// a flag bit's byte as `flags`.
fn c_struct(w: &mut String, name: &str, size: usize, fields: &[Field]) {
    writeln!(w, "struct {name} {{").unwrap();
    let mut at = 0;
    let mut rsvd = 0;
    for f in fields {
        if f.offset < at {
            continue; // a flag in a byte already declared
        }
        if f.offset > at {
            writeln!(w, "    uint8_t rsvd{rsvd}[{}];", f.offset - at).unwrap();
            rsvd += 1;
        }
        if f.size == 0 {
            writeln!(
                w,
                "    uint8_t flags; /* bit {}: {} */",
                f.bit,
                f.name.to_lowercase()
            )
            .unwrap();
            at = f.offset + 1;
        } else {
            writeln!(
                w,
                "    {} {}; /* {} */",
                c_type(f.size),
                f.name.to_lowercase(),
                f.doc
            )
            .unwrap();
            at = f.offset + f.size;
        }
    }
    if size > at {
        writeln!(w, "    uint8_t rsvd{rsvd}[{}];", size - at).unwrap();
    }
    writeln!(w, "}};").unwrap();
    writeln!(
        w,
        "_Static_assert(sizeof(struct {name}) == {size}, \"{name}: {size} bytes\");"
    )
    .unwrap();
    for f in fields.iter().filter(|f| f.size > 0) {
        writeln!(
            w,
            "_Static_assert(offsetof(struct {name}, {}) == {}, \"{name}.{}\");",
            f.name.to_lowercase(),
            f.offset,
            f.name.to_lowercase()
        )
        .unwrap();
    }
}

/// One line of C comment (no `*/` inside).
fn comment(s: &str) -> String {
    s.replace("*/", "* /")
}

/// The header.
pub fn header() -> String {
    let consts = constants();
    let value = |name: &str| -> u64 {
        consts
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{name}"))
            .1
    };
    let mut s = String::new();
    let w = &mut s;
    writeln!(
        w,
        "/* hpcc_nic.h: the driver contract of the HPCC++ SmartNIC (docs/driver.md).\n \
         * Generated by `hpccnic c-header` from nic_spec (spec/src/hostif.rs, regs.rs,\n \
         * records.rs, roce.rs), the tables the RTL and its models use. Do not edit. */"
    )
    .unwrap();
    writeln!(w, "#ifndef HPCC_NIC_H\n#define HPCC_NIC_H\n").unwrap();
    writeln!(w, "#include <stddef.h>\n#include <stdint.h>\n").unwrap();
    // Sizes, widths, counts, offsets and enumerations in decimal;
    // addresses, indices and bit patterns in hex.
    let decimal = |name: &str| {
        ["_WIDTH", "_COUNT", "_SIZE", "_OFF", "_ADDR_W"]
            .iter()
            .any(|x| name.ends_with(x))
            || ["_STATUS_", "_WR_", "_STATS_PAGE_", "_RESP_"]
                .iter()
                .any(|x| name.contains(x))
    };
    let def = |w: &mut String, name: &str, doc: &str| {
        let v = value(name);
        let v = if decimal(name) {
            format!("{v}u")
        } else {
            format!("0x{v:X}u")
        };
        if doc.is_empty() {
            writeln!(w, "#define {name} {v}").unwrap();
        } else {
            writeln!(w, "#define {name} {v} /* {} */", comment(doc)).unwrap();
        }
    };
    def(w, &format!("{P}_ID"), "the ID register's value: \"HPCC\"");
    def(w, &format!("{P}_VERSION"), "major << 16 | minor");
    def(w, &format!("{P}_AXIL_ADDR_W"), "AXI4-Lite address bits");
    def(
        w,
        &format!("{P}_MAX_LOG_SIZE"),
        "the largest ring: 2^15 entries",
    );
    def(
        w,
        &format!("{P}_SOFT_RESET_CYCLES"),
        "cycles a soft reset holds the pipelines in reset",
    );
    def(
        w,
        &format!("{P}_CONTROL_SOFT_RESET"),
        "CONTROL bit: soft reset",
    );
    def(
        w,
        &format!("{P}_CONTROL_FULL_RESET"),
        "CONTROL bit: full reset (every register and flow to its power-up value)",
    );
    writeln!(w, "\n/* AXI4-Lite responses (BRESP, RRESP). */").unwrap();
    for n in ["OKAY", "SLVERR", "DECERR"] {
        def(w, &format!("{P}_RESP_{n}"), "");
    }
    writeln!(
        w,
        "\n/* The AXI4-Lite map: byte addresses of 32-bit registers. */"
    )
    .unwrap();
    for r in map::ALL {
        def(w, &format!("{P}_REG_{}", r.name), r.doc);
        if r.count > 1 {
            def(w, &format!("{P}_REG_{}_STRIDE", r.name), "");
            def(w, &format!("{P}_REG_{}_COUNT", r.name), "elements at most");
        }
    }
    writeln!(w, "/* Element addresses of the arrays. */").unwrap();
    writeln!(
        w,
        "#define {P}_REG_CORE_LO(r) ({P}_REG_CORE + {P}_REG_CORE_STRIDE * (r))"
    )
    .unwrap();
    writeln!(w, "#define {P}_REG_CORE_HI(r) ({P}_REG_CORE_LO(r) + 4u)").unwrap();
    writeln!(
        w,
        "#define {P}_REG_CQ_AT(c, reg) ({P}_REG_CQ + {P}_REG_CQ_STRIDE * (c) + (reg))"
    )
    .unwrap();
    writeln!(w, "#define {P}_REG_STATS_AT(page, k) ({P}_REG_STATS + {P}_REG_STATS_STRIDE * (page) + 4u * (k))").unwrap();
    writeln!(
        w,
        "#define {P}_REG_SQ_DB_AT(f) ({P}_REG_SQ_DB + {P}_REG_SQ_DB_STRIDE * (f))"
    )
    .unwrap();
    writeln!(w, "/* CAPS fields. */").unwrap();
    writeln!(w, "#define {P}_CAPS_LOG_FLOWS(c) ((c) & 0xFu)").unwrap();
    writeln!(w, "#define {P}_CAPS_LOG_WRS(c) (((c) >> 4) & 0xFu)").unwrap();
    writeln!(w, "#define {P}_CAPS_LOG_CQS(c) (((c) >> 8) & 0xFu)").unwrap();
    writeln!(w, "#define {P}_CAPS_LOG_RING(c) (((c) >> 12) & 0xFu)").unwrap();
    writeln!(w, "#define {P}_CAPS_HOPS(c) (((c) >> 16) & 0xFu)").unwrap();
    writeln!(
        w,
        "\n/* The core's registers: index r of HPCC_NIC_REG_CORE_LO(r) / _HI(r); the\n \
         * value's width in bits (a width above 32 has a high word). */"
    )
    .unwrap();
    for r in nic_spec::regs::ALL {
        def(w, &format!("{P}_CORE_{}", r.name), r.doc);
        def(w, &format!("{P}_CORE_{}_WIDTH", r.name), "");
    }
    writeln!(
        w,
        "\n/* Completion-queue registers: offsets in a CQ's block. */"
    )
    .unwrap();
    for r in cq_reg::ALL {
        def(w, &format!("{P}_CQ_{}", r.name), r.doc);
    }
    writeln!(
        w,
        "\n/* Counters (32 bits, wrapping, read-only): page p at HPCC_NIC_REG_STATS +\n \
         * 0x100 p, counter k at + 4k. */"
    )
    .unwrap();
    let recs = nic_spec::records::all();
    for page in hostif::STATS_PAGES {
        let pn = page_name(page);
        def(w, &format!("{P}_STATS_PAGE_{pn}"), page);
        def(w, &format!("{P}_STATS_{pn}_COUNT"), "counters on the page");
        let rec = recs.iter().find(|r| r.name == page).unwrap();
        for f in rec.fields {
            def(
                w,
                &format!("{P}_STAT_{pn}_{}", f.name.to_ascii_uppercase()),
                "",
            );
        }
    }
    writeln!(
        w,
        "\n/* A send-queue entry (work request), little-endian. */"
    )
    .unwrap();
    def(w, &format!("{P}_WQE_SIZE"), "bytes");
    for f in wqe::FIELDS {
        def(w, &format!("{P}_WQE_{}_OFF", f.name), f.doc);
    }
    c_struct(w, "hpcc_nic_wqe", wqe::SIZE, wqe::FIELDS);
    writeln!(w, "\n/* A completion-queue entry, little-endian. */").unwrap();
    def(w, &format!("{P}_CQE_SIZE"), "bytes");
    for f in cqe::FIELDS {
        if f.size == 0 {
            def(w, &format!("{P}_CQE_FLAG_{}", f.name), f.doc);
        } else {
            def(w, &format!("{P}_CQE_{}_OFF", f.name), f.doc);
        }
    }
    c_struct(w, "hpcc_nic_cqe", cqe::SIZE, cqe::FIELDS);
    writeln!(w, "\n/* Work-request opcodes and completion statuses. */").unwrap();
    def(w, &format!("{P}_WR_WRITE"), "RDMA WRITE");
    def(w, &format!("{P}_WR_READ"), "RDMA READ");
    def(
        w,
        &format!("{P}_WR_MAX_LEN"),
        "the longest work request, bytes",
    );
    for st in wr::Status::ALL {
        def(
            w,
            &format!("{P}_STATUS_{}", st.name().to_ascii_uppercase()),
            "",
        );
    }
    writeln!(w, "\n#endif /* HPCC_NIC_H */").unwrap();
    s
}

/// Check or rewrite the generated block of a Markdown file.
fn doc(path: &std::path::Path, update: bool) -> i32 {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            return 2;
        }
    };
    let (Some(b), Some(e)) = (text.find(DOC_BEGIN), text.find(DOC_END)) else {
        eprintln!(
            "error: {}: no generated block ({DOC_BEGIN} … {DOC_END})",
            path.display()
        );
        return 2;
    };
    let e = e + DOC_END.len() + text[e + DOC_END.len()..].starts_with('\n') as usize;
    let new = format!("{}{}{}", &text[..b], doc_tables(), &text[e..]);
    if !update {
        if new == text {
            println!("{}: tables current", path.display());
            return 0;
        }
        eprintln!(
            "{}: the generated tables differ from the spec's; run `hpccnic c-header --doc-update {}`",
            path.display(),
            path.display()
        );
        return 1;
    }
    if let Err(e) = std::fs::write(path, new) {
        eprintln!("error: {}: {e}", path.display());
        return 2;
    }
    println!("{}: tables written", path.display());
    0
}

pub fn main(a: Args) -> i32 {
    if let Some(p) = &a.doc_check {
        return doc(p, false);
    }
    if let Some(p) = &a.doc_update {
        return doc(p, true);
    }
    let h = header();
    if let Some(p) = &a.check {
        return match std::fs::read_to_string(p) {
            Ok(t) if t == h => {
                println!("{}: current", p.display());
                0
            }
            Ok(_) => {
                eprintln!(
                    "{}: differs from the spec's header; run `hpccnic c-header --out {}`",
                    p.display(),
                    p.display()
                );
                1
            }
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                2
            }
        };
    }
    match &a.out {
        Some(p) => {
            if let Err(e) = std::fs::write(p, &h) {
                eprintln!("error: {}: {e}", p.display());
                return 2;
            }
            println!("{}: written", p.display());
            0
        }
        None => {
            print!("{h}");
            0
        }
    }
}
