//! Co-simulation: the golden model and an engine, same stimulus, every
//! output port compared on every cycle.

use crate::{vcd_path, Engine, Harness, RustHdlEngine, VerilatorEngine};
use nic_golden::Cycle;
use std::fmt::Debug;

/// Which engine runs the RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// rust-hdl's simulation kernel, in-process.
    RustHdl,
    /// Verilator on the emitted Verilog.
    Verilator,
}

impl EngineKind {
    pub const ALL: [EngineKind; 2] = [EngineKind::RustHdl, EngineKind::Verilator];
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::RustHdl => "rusthdl",
            EngineKind::Verilator => "verilator",
        }
    }
}

impl std::str::FromStr for EngineKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "rust-hdl" | "rusthdl" | "rust_hdl" => Ok(EngineKind::RustHdl),
            "verilator" => Ok(EngineKind::Verilator),
            _ => Err(format!("unknown engine `{s}` (verilator | rust-hdl)")),
        }
    }
}

/// Build an engine of `kind` for a fresh `H::default()`. `test` names the
/// VCD file (written when `NIC_VCD` is set).
pub fn engine<H: Harness + Default + 'static>(kind: EngineKind, test: &str) -> Box<dyn Engine<H>> {
    let vcd = vcd_path(test, kind.name());
    match kind {
        EngineKind::RustHdl => {
            let e = RustHdlEngine::new(H::default());
            Box::new(match vcd {
                Some(p) => e.with_vcd(&p),
                None => e,
            })
        }
        EngineKind::Verilator => Box::new(VerilatorEngine::<H>::cached(vcd.as_deref())),
    }
}

/// The first cycle at which the RTL and the golden model disagreed.
#[derive(Debug)]
pub struct Mismatch<I: Debug, O: Debug> {
    pub engine: &'static str,
    pub cycle: usize,
    pub input: I,
    pub expected: O,
    pub got: O,
}

impl<I: Debug, O: Debug> std::fmt::Display for Mismatch<I, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} != golden at cycle {}\n  input:    {:?}\n  golden:   {:?}\n  {}: {:?}",
            self.engine, self.cycle, self.input, self.expected, self.engine, self.got
        )
    }
}

/// Drive `golden` and an engine of `kind` with `stimulus`, one element per
/// cycle; compare all outputs every cycle. Returns the outputs on success.
pub fn check<H, G>(
    test: &str,
    kind: EngineKind,
    mut golden: G,
    stimulus: &[H::In],
) -> Result<Vec<H::Out>, Mismatch<H::In, H::Out>>
where
    H: Harness + Default + 'static,
    G: Cycle<In = H::In, Out = H::Out>,
{
    let mut eng = engine::<H>(kind, test);
    let mut outs = Vec::with_capacity(stimulus.len());
    for (cycle, i) in stimulus.iter().enumerate() {
        let want = golden.step(i);
        let got = eng.step(i);
        if want != got {
            return Err(Mismatch {
                engine: kind.name(),
                cycle,
                input: i.clone(),
                expected: want,
                got,
            });
        }
        outs.push(got);
    }
    Ok(outs)
}
