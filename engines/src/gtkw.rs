//! GTKWave save files (`.gtkw`) next to the VCDs the engines write.
//!
//! [`write_gtkw`] reads the declarations of a VCD the engine has just
//! closed and writes `<same stem>.gtkw`, which loads that VCD with:
//! - the clock, then the top-level ports in declaration order, grouped by
//!   bundle (the part of the Verilog name before the first `$`, e.g.
//!   `s_axis$tdata` → `s_axis`) or, for loose ports, by the prefix before
//!   the first `_` (`req_*`, `out_*`, `cnt_*`); groups are open, a prefix
//!   shared by one port only is not a group;
//! - then one collapsed group `internals` holding collapsed groups: the top
//!   module's own signals (`locals`), and one group per sub-block instance
//!   (or array of instances) with every signal below it but the clock;
//! - 1-bit signals in binary (`@28`), vectors in hex (`@22`);
//! - a zoom that shows the whole run, or its first 40 cycles if longer.
//!
//! Names follow GTKWave's own naming of VCD variables: the scopes and the
//! reference joined by `.`, and `[msb:lsb]` for vectors (the VCD's index
//! if it has one), so every name in the file exists in the VCD.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// One `$var` of a VCD header.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VcdVar {
    /// Enclosing scopes, outermost first.
    pub scope: Vec<String>,
    pub reference: String,
    pub width: u32,
    /// The index written after the reference, e.g. `[63:0]`, if any.
    pub index: Option<String>,
}

impl VcdVar {
    /// The name GTKWave gives this variable (and expects in a save file).
    pub fn gtkwave_name(&self) -> String {
        let mut s = self.scope.join(".");
        if !s.is_empty() {
            s.push('.');
        }
        s.push_str(&self.reference);
        match (&self.index, self.width) {
            (Some(i), _) => s.push_str(i),
            (None, w) if w > 1 => {
                let _ = write!(s, "[{}:0]", w - 1);
            }
            _ => {}
        }
        s
    }
}

/// The header of a VCD file: its timescale (e.g. `1ps`, spaces removed)
/// and its variables in declaration order.
pub fn read_vcd_header(path: &Path) -> std::io::Result<(String, Vec<VcdVar>)> {
    let f = std::io::BufReader::new(std::fs::File::open(path)?);
    let mut scope: Vec<String> = Vec::new();
    let mut vars = Vec::new();
    let mut timescale = String::new();
    // Declarations are `$keyword ... $end`, possibly over several lines.
    let mut cmd: Vec<String> = Vec::new();
    'lines: for line in f.lines() {
        let line = line?;
        for tok in line.split_whitespace() {
            if tok == "$end" {
                let c = std::mem::take(&mut cmd);
                match c.first().map(String::as_str) {
                    Some("$scope") => scope.push(c.get(2).cloned().unwrap_or_default()),
                    Some("$upscope") => {
                        scope.pop();
                    }
                    Some("$var") if c.len() >= 5 => vars.push(VcdVar {
                        scope: scope.clone(),
                        reference: c[4].clone(),
                        width: c[2].parse().unwrap_or(1),
                        index: c.get(5).cloned(),
                    }),
                    Some("$timescale") => timescale = c[1..].concat(),
                    Some("$enddefinitions") => break 'lines,
                    _ => {}
                }
            } else {
                cmd.push(tok.to_string());
            }
        }
    }
    Ok((timescale, vars))
}

/// What [`write_gtkw`] needs besides the VCD.
pub struct GtkwSpec<'a> {
    /// The VCD, already closed.
    pub vcd: &'a Path,
    /// VCD scope holding the top-level ports: `uut` (rust-hdl), `top`
    /// (Verilator). rust-hdl nests interface signals one scope further
    /// (`uut.s_axis.tdata`); Verilator keeps the Verilog name
    /// (`top.s_axis$tdata`).
    pub port_scope: &'a str,
    /// VCD scope of the design's top module: `uut` (rust-hdl), `top.top`
    /// (Verilator). Its sub-scopes that are not port bundles are the
    /// sub-block instances.
    pub design_scope: &'a str,
    /// Verilog names of the top-level ports (bundles joined with `$`), in
    /// declaration order.
    pub ports: Vec<String>,
    /// Verilog name of the clock.
    pub clock: String,
    /// Cycles run (for the zoom).
    pub cycles: u64,
    /// Clock period of the VCD's time axis, ps.
    pub period_ps: u64,
}

/// `x.vcd` → `x.gtkw`.
pub fn gtkw_path(vcd: &Path) -> PathBuf {
    vcd.with_extension("gtkw")
}

/// The group of a top-level port: the bundle before the first `$`, or the
/// prefix before the first `_` of a loose port (the whole name if none).
pub fn port_group(name: &str) -> &str {
    match name.split_once('$') {
        Some((b, _)) => b,
        None => name.split_once('_').map(|(p, _)| p).unwrap_or(name),
    }
}

fn split_scope(s: &str) -> Vec<String> {
    s.split('.')
        .filter(|p| !p.is_empty())
        .map(String::from)
        .collect()
}

/// The VCD variables of a top-level port (one, or several for a port of a
/// struct type, which rust-hdl writes as `name$field` variables).
fn port_vars<'v>(vars: &'v [VcdVar], port_scope: &[String], name: &str) -> Vec<&'v VcdVar> {
    // Verilator: the Verilog name in the port scope.
    let exact: Vec<&VcdVar> = vars
        .iter()
        .filter(|v| v.scope == port_scope && v.reference == name)
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    // rust-hdl: bundle members in sub-scopes.
    let parts: Vec<&str> = name.split('$').collect();
    let (last, bundle) = parts.split_last().unwrap();
    let mut scope = port_scope.to_vec();
    scope.extend(bundle.iter().map(|s| s.to_string()));
    let nested: Vec<&VcdVar> = vars
        .iter()
        .filter(|v| v.scope == scope && v.reference == *last)
        .collect();
    if !nested.is_empty() {
        return nested;
    }
    let prefix = format!("{last}$");
    vars.iter()
        .filter(|v| v.scope == scope && v.reference.starts_with(&prefix))
        .collect()
}

/// Width of the wave area, pixels, in the window size the file sets.
const WAVE_PX: f64 = 800.0;

/// The GTKWave zoom that shows `visible_ps` across the wave area. GTKWave
/// (3.3) shows 2^-zoom / 200 time units per pixel (measured: zoom -16 shows
/// 262 ns of a 1 ps VCD over 800 pixels).
fn zoom_for(visible_ps: u64) -> f64 {
    -((visible_ps.max(1) as f64) * 200.0 / WAVE_PX).log2()
}

fn trace_flags(w: u32) -> &'static str {
    if w > 1 {
        "@22"
    } else {
        "@28"
    }
}

struct Writer {
    out: String,
    flags: &'static str,
}

impl Writer {
    fn signal(&mut self, v: &VcdVar) {
        // Enum-typed signals (rust-hdl writes them with width 0) have no
        // bit representation GTKWave can show in a trace: leave them to
        // the signal tree.
        if v.width == 0 {
            return;
        }
        let f = trace_flags(v.width);
        if f != self.flags {
            self.out.push_str(f);
            self.out.push('\n');
            self.flags = f;
        }
        self.out.push_str(&v.gtkwave_name());
        self.out.push('\n');
    }
    fn begin(&mut self, name: &str, open: bool) {
        let f = if open { "@800200" } else { "@c00200" };
        let _ = writeln!(self.out, "{f}\n-{name}");
        self.flags = "";
    }
    fn end(&mut self, name: &str, open: bool) {
        let f = if open { "@1000200" } else { "@1401200" };
        let _ = writeln!(self.out, "{f}\n-{name}");
        self.flags = "";
    }
    fn group(&mut self, name: &str, vars: &[&VcdVar], open: bool) {
        self.begin(name, open);
        for v in vars {
            self.signal(v);
        }
        self.end(name, open);
    }
}

/// Write `<stem>.gtkw` next to `spec.vcd`; returns its path.
pub fn write_gtkw(spec: &GtkwSpec) -> std::io::Result<PathBuf> {
    let (_, vars) = read_vcd_header(spec.vcd)?;
    let port_scope = split_scope(spec.port_scope);
    let design_scope = split_scope(spec.design_scope);
    let abs = std::fs::canonicalize(spec.vcd)?;

    let mut w = Writer {
        out: String::new(),
        flags: "",
    };
    let _ = writeln!(
        w.out,
        "[*]\n[*] GTKWave save file written by nic-testbench for {}\n\
         [*] time axis: 1 ps units, {} ps per clock cycle ({:.2} MHz)\n[*]",
        abs.file_name().unwrap().to_string_lossy(),
        spec.period_ps,
        1e6 / spec.period_ps as f64
    );
    let _ = writeln!(w.out, "[dumpfile] \"{}\"", abs.display());
    let visible = spec.cycles.clamp(1, 40) * spec.period_ps;
    let _ = writeln!(w.out, "[timestart] 0");
    let _ = writeln!(w.out, "[size] 1400 800");
    let _ = writeln!(w.out, "[pos] -1 -1");
    let _ = writeln!(w.out, "*{:.6} -1", zoom_for(visible));
    let _ = writeln!(w.out, "[treeopen] {}.", spec.port_scope);
    let _ = writeln!(w.out, "[sst_width] 250\n[signals_width] 300");
    let _ = writeln!(w.out, "[sst_expanded] 1\n[sst_vpaned_height] 250");

    // Top-level ports: the clock, then groups in order of first appearance.
    let mut shown: HashSet<&VcdVar> = HashSet::new();
    for v in port_vars(&vars, &port_scope, &spec.clock) {
        w.signal(v);
        shown.insert(v);
    }
    let mut groups: Vec<(&str, Vec<&VcdVar>)> = Vec::new();
    for p in spec.ports.iter().filter(|p| **p != spec.clock) {
        let g = port_group(p);
        let vs: Vec<&VcdVar> = port_vars(&vars, &port_scope, p)
            .into_iter()
            .filter(|v| shown.insert(v))
            .collect();
        match groups.iter_mut().find(|(n, _)| *n == g) {
            Some((_, list)) => list.extend(vs),
            None => groups.push((g, vs)),
        }
    }
    for (name, vs) in &groups {
        match vs.len() {
            0 => {}
            1 => w.signal(vs[0]),
            _ => w.group(name, vs, true),
        }
    }

    // Inside the design: its own signals, then one group per instance.
    let port_names: HashSet<&str> = spec.ports.iter().map(String::as_str).collect();
    let bundles: HashSet<&str> = spec
        .ports
        .iter()
        .filter_map(|p| p.split_once('$').map(|(b, _)| b))
        .collect();
    // Verilator repeats each sub-block's ports in the parent as
    // `inst$port`, next to the instance's own scope `inst`: show them once,
    // in the instance.
    let scopes: HashSet<&[String]> = vars.iter().map(|v| &v.scope[..]).collect();
    let alias = |v: &VcdVar| match v.reference.split_once('$') {
        Some((inst, _)) => {
            let mut s = v.scope.clone();
            s.push(inst.to_string());
            scopes.iter().any(|x| x.starts_with(&s))
        }
        None => false,
    };
    // Every sub-block's copy of the clock is the clock: not repeated.
    let clock_leaf = spec.clock.rsplit('$').next().unwrap_or(&spec.clock);
    let internal = |v: &VcdVar| !alias(v) && !shown.contains(v) && v.reference != clock_leaf;
    let d = design_scope.len();
    let mut internals: Vec<(String, Vec<&VcdVar>)> = Vec::new();
    let locals: Vec<&VcdVar> = vars
        .iter()
        .filter(|v| {
            v.scope == design_scope && !port_names.contains(v.reference.as_str()) && internal(v)
        })
        .collect();
    if !locals.is_empty() {
        internals.push(("locals".into(), locals));
    }
    // One group per instance; an array of instances (`stage$0`, `stage$1`,
    // ...) is one group.
    for v in &vars {
        if v.scope.len() > d && v.scope[..d] == design_scope[..] && internal(v) {
            let inst = v.scope[d].as_str();
            if bundles.contains(inst) {
                continue;
            }
            let key = inst.split('$').next().unwrap_or(inst);
            match internals.iter_mut().find(|(n, _)| n == key) {
                Some((_, list)) => list.push(v),
                None => internals.push((key.to_string(), vec![v])),
            }
        }
    }
    if !internals.is_empty() {
        w.begin("internals", false);
        for (name, vs) in &internals {
            w.group(name, vs, false);
        }
        w.end("internals", false);
    }

    let path = gtkw_path(spec.vcd);
    std::fs::write(&path, w.out)?;
    Ok(path)
}

/// [`write_gtkw`], reporting a failure on stderr instead of failing (the
/// engines call it when they are dropped, possibly while unwinding).
pub(crate) fn write_gtkw_or_warn(spec: &GtkwSpec) {
    if let Err(e) = write_gtkw(spec) {
        eprintln!(
            "nic-testbench: cannot write the GTKWave save file for {}: {e}",
            spec.vcd.display()
        );
    }
}
