//! VCD output of both engines: the file is written, parses as VCD, and
//! carries the block hierarchy as scopes; its time axis is real time at the
//! design clock (1 ps timescale, rising edges 6400 ps apart); a GTKWave
//! save file that names only signals of the VCD is written next to it.

use nic_golden::stream::Axis;
use nic_golden::stream::In;
use nic_hdl::top::AxisFifo64;
use nic_testbench::{Engine, RustHdlEngine, VerilatorEngine};
use std::collections::{BTreeSet, HashMap};

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

/// The names GTKWave gives the variables of a VCD (scopes and reference
/// joined by `.`, `[msb:lsb]` for vectors), and the id code of each.
fn gtkwave_names(path: &std::path::Path) -> HashMap<String, vcd::IdCode> {
    let f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let header = vcd::Parser::new(f).parse_header().unwrap();
    let mut out = HashMap::new();
    fn walk(items: &[vcd::ScopeItem], prefix: &str, out: &mut HashMap<String, vcd::IdCode>) {
        for it in items {
            match it {
                vcd::ScopeItem::Scope(s) => {
                    walk(&s.items, &format!("{prefix}{}.", s.identifier), out)
                }
                vcd::ScopeItem::Var(v) => {
                    let idx = match (&v.index, v.size) {
                        (Some(i), _) => i.to_string(),
                        (None, w) if w > 1 => format!("[{}:0]", w - 1),
                        _ => String::new(),
                    };
                    out.insert(format!("{prefix}{}{idx}", v.reference), v.code);
                }
                _ => {}
            }
        }
    }
    walk(&header.items, "", &mut out);
    out
}

/// The clock period every VCD is written with (6400 ps unless the run
/// overrides it with `NIC_CLOCK_MHZ`).
fn period_ps() -> u64 {
    let p = nic_testbench::clock_period_ps();
    if std::env::var_os("NIC_CLOCK_MHZ").is_none() {
        assert_eq!(p, 6400, "156.25 MHz by default");
        assert_eq!(nic_testbench::CLOCK_PERIOD_PS, 6400);
    }
    p
}

/// The timescale is 1 ps, the clock's rising edges are one period apart,
/// the first at half a period, one per cycle; inputs change with the
/// clock low, at multiples of the period.
fn check_time_axis(path: &std::path::Path, clock: &str, cycles: usize) {
    let period = period_ps();
    let f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut p = vcd::Parser::new(f);
    let header = p.parse_header().unwrap();
    assert_eq!(
        header.timescale,
        Some((1, vcd::TimescaleUnit::PS)),
        "{}",
        path.display()
    );
    let clk = gtkwave_names(path)[clock];
    let (mut t, mut level, mut rises, mut falls) = (0u64, None, vec![], vec![]);
    for cmd in p {
        match cmd.unwrap() {
            vcd::Command::Timestamp(ts) => t = ts,
            vcd::Command::ChangeScalar(id, v) if id == clk => {
                match (level, v) {
                    (Some(vcd::Value::V0), vcd::Value::V1) => rises.push(t),
                    (Some(vcd::Value::V1), vcd::Value::V0) => falls.push(t),
                    _ => {}
                }
                level = Some(v);
            }
            _ => {}
        }
    }
    assert_eq!(
        rises.len(),
        cycles,
        "{}: one rising edge per cycle",
        path.display()
    );
    assert_eq!(rises[0], period / 2, "{}", path.display());
    for w in rises.windows(2) {
        assert_eq!(
            w[1] - w[0],
            period,
            "{}: rising edges {w:?}",
            path.display()
        );
    }
    for f in &falls {
        assert_eq!(f % period, 0, "{}: falling edge at {f}", path.display());
    }
}

/// The GTKWave save file next to `vcd`: it loads `vcd`, shows the clock
/// first, groups the ports, and every signal it names is in the VCD.
fn check_gtkw(vcd: &std::path::Path, clock: &str, bundle: &str) {
    let gtkw = vcd.with_extension("gtkw");
    let text = std::fs::read_to_string(&gtkw).unwrap_or_else(|e| panic!("{}: {e}", gtkw.display()));
    let abs = std::fs::canonicalize(vcd).unwrap();
    assert!(
        text.contains(&format!("[dumpfile] \"{}\"", abs.display())),
        "{text}"
    );
    let names = gtkwave_names(vcd);
    let signals: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty() && !"[*@-".contains(&l[..1]))
        .collect();
    assert!(signals.len() > 10, "{text}");
    assert_eq!(signals[0], clock, "the clock comes first");
    for s in &signals {
        assert!(
            names.contains_key(*s),
            "{}: `{s}` is not in the VCD",
            gtkw.display()
        );
    }
    // Bundles are open groups.
    assert!(text.contains(&format!("@800200\n-{bundle}\n")), "{text}");
    assert!(text.contains(&format!("@1000200\n-{bundle}\n")), "{text}");
}

fn stim() -> Vec<In> {
    (0..50u64)
        .map(|k| In {
            s: Axis {
                tdata: k as u128,
                tvalid: k % 3 != 0,
                ..Default::default()
            },
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
    check_time_axis(&path, "uut.clock", stim().len());
    check_gtkw(&path, "uut.clock", "s_axis");
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
    check_time_axis(&path, "top.clock", stim().len());
    check_gtkw(&path, "top.clock", "s_axis");
    std::fs::remove_dir_all(&dir).ok();
}
