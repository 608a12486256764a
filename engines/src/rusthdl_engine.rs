//! Engine 1: rust-hdl's own simulation kernel, in-process.

use crate::gtkw::{write_gtkw_or_warn, GtkwSpec};
use crate::{Engine, Harness};
use rust_hdl::core::atom::Atom;
use rust_hdl::core::block::Block;
use rust_hdl::core::check_error::check_all;
use rust_hdl::core::probe::Probe;
use rust_hdl::core::simulate::simulate;
use rust_hdl::core::vcd_probe::{write_vcd_change, write_vcd_dump, write_vcd_header, VCDProbe};
use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

/// rust-hdl's settle loop, iteration cap per half cycle (rust-hdl's own
/// `Simulation` uses 100).
const MAX_SETTLE_ITERS: usize = 100;

/// Runs a rust-hdl block with rust-hdl's simulation kernel: every half
/// cycle, `update_all()` until nothing changes, exactly as rust-hdl's
/// `Simulation` does, but driven step by step from the caller's thread.
pub struct RustHdlEngine<H: Harness> {
    uut: Box<H>,
    cycle: u64,
    vcd: Option<VCDProbe<BufWriter<File>>>,
    vcd_path: Option<PathBuf>,
    /// Clock period of the VCD's time axis, ps.
    period_ps: u64,
}

impl<H: Harness> RustHdlEngine<H> {
    /// Wrap a freshly built block. Panics if rust-hdl's connectivity checks
    /// fail (undriven inputs, logic loops, latching writes).
    pub fn new(mut uut: H) -> Self {
        uut.connect_all();
        check_all(&mut uut).expect("rust-hdl design check failed");
        let mut uut = Box::new(uut);
        // Settle the initial state with the clock low.
        uut.set_clock(false);
        assert!(
            simulate(uut.as_mut(), MAX_SETTLE_ITERS),
            "initial settle failed"
        );
        Self {
            uut,
            cycle: 0,
            vcd: None,
            vcd_path: None,
            period_ps: crate::clock_period_ps(),
        }
    }

    /// Also write a VCD of every signal in the hierarchy to `path` (time
    /// in ps at [`crate::clock_period_ps`]), and, when the engine is
    /// dropped, a GTKWave save file next to it ([`crate::gtkw`]).
    pub fn with_vcd(mut self, path: &std::path::Path) -> Self {
        let f = BufWriter::new(File::create(path).expect("create VCD file"));
        let vcd = write_vcd_header(f, self.uut.as_ref());
        self.vcd = Some(write_vcd_dump(vcd, self.uut.as_ref()));
        self.vcd_path = Some(path.to_path_buf());
        self
    }

    /// The block under test, for white-box inspection.
    pub fn uut(&self) -> &H {
        &self.uut
    }

    fn trace(&mut self, time: u64) {
        if let Some(mut vcd) = self.vcd.take() {
            vcd.timestamp(time).expect("VCD write");
            self.vcd = Some(write_vcd_change(vcd, self.uut.as_ref()));
        }
    }
}

impl<H: Harness> Engine<H> for RustHdlEngine<H> {
    fn step(&mut self, input: &H::In) -> H::Out {
        self.uut.set_clock(false);
        self.uut.drive(input);
        assert!(
            simulate(self.uut.as_mut(), MAX_SETTLE_ITERS),
            "rust-hdl: design failed to settle (combinational loop?) at cycle {}",
            self.cycle
        );
        self.trace(self.cycle * self.period_ps);
        let out = self.uut.sample();
        self.uut.set_clock(true);
        assert!(
            simulate(self.uut.as_mut(), MAX_SETTLE_ITERS),
            "rust-hdl: design failed to settle after the clock edge at cycle {}",
            self.cycle
        );
        self.trace(self.cycle * self.period_ps + self.period_ps / 2);
        self.cycle += 1;
        out
    }
    fn cycles(&self) -> u64 {
        self.cycle
    }
    fn name(&self) -> &'static str {
        "rusthdl"
    }
}

impl<H: Harness> Drop for RustHdlEngine<H> {
    fn drop(&mut self) {
        // Close the VCD (flushing it), then write its GTKWave save file.
        drop(self.vcd.take());
        if let Some(vcd) = self.vcd_path.take() {
            write_gtkw_or_warn(&GtkwSpec {
                vcd: &vcd,
                port_scope: "uut",
                design_scope: "uut",
                ports: top_ports(self.uut.as_ref()),
                clock: H::clock_name(),
                cycles: self.cycle,
                period_ps: self.period_ps,
            });
        }
    }
}

/// The top-level ports of a block, as Verilog names (interface members
/// joined with `$`), in declaration order.
fn top_ports(uut: &dyn Block) -> Vec<String> {
    #[derive(Default)]
    struct Ports {
        depth: usize,
        namespace: Vec<String>,
        names: Vec<String>,
    }
    impl Probe for Ports {
        fn visit_start_scope(&mut self, _name: &str, _node: &dyn Block) {
            self.depth += 1;
        }
        fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
            self.namespace.push(name.to_string());
        }
        fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
            if self.depth == 1 && signal.kind().is_parameter() {
                let mut n = self.namespace.join("$");
                if !n.is_empty() {
                    n.push('$');
                }
                n.push_str(name);
                self.names.push(n);
            }
        }
        fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
            self.namespace.pop();
        }
        fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
            self.depth -= 1;
        }
    }
    let mut p = Ports::default();
    uut.accept("uut", &mut p);
    p.names
}
