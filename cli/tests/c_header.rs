//! The generated C header (`include/hpcc_nic.h`, `hpccnic c-header`):
//! the committed file is the generator's output, and a C program built
//! with `cc -Wall -Werror -std=c11` against it (its `_Static_assert`s on
//! the entry structs included) prints every constant, each equal to the
//! value computed here from `nic_spec`, the tables the RTL uses.

use nic_spec::hostif::{self, cq_reg, cqe, map, wqe};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn hpccnic(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hpccnic"))
        .args(args)
        .output()
        .expect("run hpccnic")
}

#[test]
fn the_committed_header_is_current() {
    let h = root().join("include/hpcc_nic.h");
    let o = hpccnic(&["c-header", "--check", h.to_str().unwrap()]);
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    // A stale copy is caught.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_header");
    std::fs::create_dir_all(&dir).unwrap();
    let stale = dir.join("stale.h");
    let text = std::fs::read_to_string(&h).unwrap();
    std::fs::write(&stale, text.replace("0x48504343u", "0x48504344u")).unwrap();
    let o = hpccnic(&["c-header", "--check", stale.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
}

/// `RxParseStats` → `RX_PARSE`, as the header names pages.
fn page_name(record: &str) -> String {
    let base = record.strip_suffix("Stats").unwrap();
    let mut s = String::new();
    for (i, ch) in base.chars().enumerate() {
        if ch.is_uppercase() && i > 0 {
            s.push('_');
        }
        s.push(ch.to_ascii_uppercase());
    }
    s
}

/// What the header's names must hold, from `nic_spec`.
fn expected() -> BTreeMap<String, u64> {
    let p = "HPCC_NIC";
    let mut e = BTreeMap::new();
    e.insert(format!("{p}_ID"), hostif::ID as u64);
    e.insert(format!("{p}_VERSION"), hostif::VERSION as u64);
    e.insert(
        format!("{p}_SOFT_RESET_CYCLES"),
        hostif::SOFT_RESET_CYCLES as u64,
    );
    e.insert(
        format!("{p}_CONTROL_SOFT_RESET"),
        hostif::control::SOFT_RESET as u64,
    );
    e.insert(
        format!("{p}_CONTROL_FULL_RESET"),
        hostif::control::FULL_RESET as u64,
    );
    for r in map::ALL {
        e.insert(format!("{p}_REG_{}", r.name), r.addr as u64);
    }
    // The array macros: an element of each.
    e.insert(
        "HPCC_NIC_REG_CORE_HI(0x2F)".into(),
        (map::CORE + 8 * 0x2F + 4) as u64,
    );
    e.insert(
        "HPCC_NIC_REG_CQ_AT(3, HPCC_NIC_CQ_CI)".into(),
        (map::CQ + 0x60 + cq_reg::CI) as u64,
    );
    e.insert(
        "HPCC_NIC_REG_SQ_DB_AT(255)".into(),
        (map::SQ_DB + 4 * 255) as u64,
    );
    e.insert(
        "HPCC_NIC_REG_STATS_AT(HPCC_NIC_STATS_PAGE_HOST_IF, 3)".into(),
        hostif::stats_addr("HostIfStats", 3).unwrap() as u64,
    );
    for r in nic_spec::regs::ALL {
        e.insert(format!("{p}_CORE_{}", r.name), r.addr as u64);
        e.insert(format!("{p}_CORE_{}_WIDTH", r.name), r.width as u64);
    }
    for r in cq_reg::ALL {
        e.insert(format!("{p}_CQ_{}", r.name), r.addr as u64);
    }
    for rec in nic_spec::records::all() {
        if let Some(k) = hostif::STATS_PAGES.iter().position(|&n| n == rec.name) {
            let pn = page_name(rec.name);
            e.insert(format!("{p}_STATS_PAGE_{pn}"), k as u64);
            for (i, f) in rec.fields.iter().enumerate() {
                e.insert(
                    format!("{p}_STAT_{pn}_{}", f.name.to_ascii_uppercase()),
                    hostif::stats_addr(rec.name, i).unwrap() as u64,
                );
            }
        }
    }
    e.insert(format!("{p}_WQE_SIZE"), wqe::SIZE as u64);
    for f in wqe::FIELDS {
        e.insert(format!("{p}_WQE_{}_OFF", f.name), f.offset as u64);
        e.insert(
            format!("offsetof(struct hpcc_nic_wqe, {})", f.name.to_lowercase()),
            f.offset as u64,
        );
    }
    e.insert("sizeof(struct hpcc_nic_wqe)".into(), wqe::SIZE as u64);
    e.insert(format!("{p}_CQE_SIZE"), cqe::SIZE as u64);
    for f in cqe::FIELDS {
        if f.size == 0 {
            e.insert(format!("{p}_CQE_FLAG_{}", f.name), 1 << f.bit);
            e.insert(
                "offsetof(struct hpcc_nic_cqe, flags)".into(),
                f.offset as u64,
            );
        } else {
            e.insert(format!("{p}_CQE_{}_OFF", f.name), f.offset as u64);
            e.insert(
                format!("offsetof(struct hpcc_nic_cqe, {})", f.name.to_lowercase()),
                f.offset as u64,
            );
        }
    }
    e.insert("sizeof(struct hpcc_nic_cqe)".into(), cqe::SIZE as u64);
    for s in nic_spec::roce::wr::Status::ALL {
        e.insert(
            format!("{p}_STATUS_{}", s.name().to_ascii_uppercase()),
            s as u64,
        );
    }
    e.insert(format!("{p}_WR_WRITE"), nic_spec::roce::wr::WRITE as u64);
    e.insert(format!("{p}_WR_READ"), nic_spec::roce::wr::READ as u64);
    e
}

#[test]
fn a_c_program_sees_the_rust_values() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_header");
    std::fs::create_dir_all(&dir).unwrap();
    let want = expected();
    // Every object-like macro of the header, and the expressions above.
    let header = std::fs::read_to_string(root().join("include/hpcc_nic.h")).unwrap();
    let mut exprs: Vec<String> = header
        .lines()
        .filter_map(|l| l.strip_prefix("#define "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .filter(|n| !n.contains('(') && n != "HPCC_NIC_H")
        .collect();
    exprs.extend(want.keys().filter(|k| k.contains('(')).cloned());
    let mut c = String::from("#include <stdio.h>\n#include \"hpcc_nic.h\"\n\nint main(void) {\n");
    for e in &exprs {
        c.push_str(&format!(
            "    printf(\"%s=%llu\\n\", \"{e}\", (unsigned long long)({e}));\n"
        ));
    }
    c.push_str("    return 0;\n}\n");
    let src = dir.join("check.c");
    let exe = dir.join("check");
    std::fs::write(&src, c).unwrap();
    let inc = root().join("include");
    let o = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
        .arg(&inc)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("cc");
    assert!(
        o.status.success(),
        "cc: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = Command::new(&exe).output().unwrap();
    assert!(o.status.success());
    let got: BTreeMap<String, u64> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| {
            let (k, v) = l.split_once('=').unwrap();
            (k.to_string(), v.parse().unwrap())
        })
        .collect();
    for (k, v) in &want {
        assert_eq!(got.get(k), Some(v), "{k}");
    }
    // And the header declares nothing the spec does not know of.
    let unknown: Vec<&String> = got.keys().filter(|k| !want.contains_key(*k)).collect();
    let allowed = |k: &str| {
        k.ends_with("_STRIDE")
            || k.ends_with("_COUNT")
            || k == "HPCC_NIC_AXIL_ADDR_W"
            || k == "HPCC_NIC_MAX_LOG_SIZE"
            || k.starts_with("HPCC_NIC_RESP_")
            || k == "HPCC_NIC_WR_MAX_LEN"
    };
    let unknown: Vec<&&String> = unknown.iter().filter(|k| !allowed(k)).collect();
    assert!(unknown.is_empty(), "{unknown:?}");
}
