//! VCD output of both engines: the file is written, parses as VCD, and
//! carries the block hierarchy as scopes.

use nic_golden::stream::In;
use nic_hdl::top::AxisFifo64;
use nic_testbench::{Engine, RustHdlEngine, VerilatorEngine};
use std::collections::BTreeSet;

/// All `scope.scope.signal` paths declared in a VCD file.
fn paths(path: &std::path::Path) -> BTreeSet<String> {
    let f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut p = vcd::Parser::new(f);
    let header = p.parse_header().expect("valid VCD header");
    let mut out = BTreeSet::new();
    fn walk(items: &[vcd::ScopeItem], prefix: &str, out: &mut BTreeSet<String>) {
        for it in items {
            match it {
                vcd::ScopeItem::Scope(s) => {
                    walk(&s.items, &format!("{prefix}{}.", s.identifier), out)
                }
                vcd::ScopeItem::Var(v) => {
                    out.insert(format!("{prefix}{}", v.reference));
                }
                _ => {}
            }
        }
    }
    walk(&header.items, "", &mut out);
    // The body parses too.
    for cmd in p {
        cmd.expect("valid VCD body");
    }
    out
}

fn stim() -> Vec<In> {
    (0..50u64)
        .map(|k| In {
            s_tdata: k as u128,
            s_tvalid: k % 3 != 0,
            m_tready: k % 5 != 0,
            ..In::default()
        })
        .collect()
}

#[test]
fn rusthdl_engine_writes_hierarchical_vcd() {
    let dir = std::env::temp_dir().join(format!("nic-vcd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fifo.rusthdl.vcd");
    {
        let mut e = RustHdlEngine::new(AxisFifo64::default()).with_vcd(&path);
        for i in stim() {
            e.step(&i);
        }
    }
    let p = paths(&path);
    assert!(p.iter().any(|s| s.ends_with("s_axis.tdata")), "{p:?}");
    assert!(
        p.iter()
            .any(|s| s.contains(".out.") && s.ends_with("main_v.q")),
        "{p:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn verilator_engine_writes_hierarchical_vcd() {
    let dir = std::env::temp_dir().join(format!("nic-vcd-v-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fifo.verilator.vcd");
    {
        let mut e = VerilatorEngine::<AxisFifo64>::cached(Some(&path));
        for i in stim() {
            e.step(&i);
        }
    }
    let p = paths(&path);
    assert!(
        p.iter()
            .any(|s| s.starts_with("top.") && s.contains("tdata")),
        "{p:?}"
    );
    // Sub-block instances appear as scopes.
    assert!(
        p.iter().any(|s| s.starts_with("top.top.out.main_v.")),
        "{p:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
