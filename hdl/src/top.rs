//! The synthesisable tops: every block configuration that `make verilog`,
//! `make lint` and `make synth` process, by name.
//!
//! The default configuration of each block is the one the NIC uses; the
//! stream blocks are at the default 64-bit width.

use crate::arith::{Divider, MinMax, Normalize, SatAddSub, WideMul};
use crate::cc::{HpccCc, Ns3HopParse};
use crate::roce::tx::RoceTx;
use crate::sched::FlowSched;
use crate::stream::{AxisFifo, AxisSkid};
use rust_hdl::prelude::*;

/// 32-bit saturating add/subtract.
pub type SatAddSub32 = SatAddSub<32>;
/// 32-bit min/max.
pub type MinMax32 = MinMax<32>;
/// 32-bit leading-zero count and normalisation.
pub type Normalize32 = Normalize<32, 6>;
/// 32-bit divider with 16 fraction bits: q = floor(a·2^16 / d).
pub type Divider32 = Divider<32, 16>;
/// 64-bit stream register slice, 1-bit tuser.
pub type AxisSkid64 = AxisSkid<64, 8, 1>;
/// 64-bit stream FIFO, 512 beats of block RAM, 1-bit tuser.
pub type AxisFifo64 = AxisFifo<64, 8, 1, 74, 9>;

/// The HPCC++ CC module at its default size, 1024 flows.
pub type HpccCc1024 = HpccCc<10>;
/// The HPCC++ CC module at 4096 flows (must still fit an ECP5-85F).
pub type HpccCc4096 = HpccCc<12>;

/// The flow scheduler at its default size, 1024 flows.
pub type FlowSched1024 = FlowSched<10>;

/// The RoCEv2 Tx frame builder, 1024 flows.
pub type RoceTx1024 = RoceTx<10>;

fn verilog_of<B: Block + Default>() -> String {
    let mut uut = B::default();
    uut.connect_all();
    generate_verilog(&uut)
}

/// The Verilog of a top as `make verilog` writes it: rust-hdl's modules
/// (`top` and its sub-modules, exactly what the co-simulation tests run)
/// followed by a wrapper module named `name` whose ports are `top`'s with
/// every `$` replaced by `_` (`s_axis_rx$tdata` → `s_axis_rx_tdata`), the
/// flat names vendor tools and cocotb's `AxiStreamBus.from_prefix` bind to.
/// The wrapper is wiring only; `make lint` and `make synth` use it as the
/// top module.
///
/// Panics if two ports would get the same flat name, or if `top`'s port
/// declarations cannot be read.
pub fn with_flat_wrapper(name: &str, verilog: &str) -> String {
    let ports = top_ports(verilog);
    let flat = |p: &str| p.replace('$', "_");
    let mut seen = std::collections::HashSet::new();
    for p in &ports {
        assert!(
            seen.insert(flat(&p.name)),
            "{name}: two ports of `top` flatten to `{}`",
            flat(&p.name)
        );
    }
    let mut w = String::new();
    w.push_str(&format!(
        "\n// {name}: `top` with flat port names (`$` -> `_`); wiring only.\n"
    ));
    let list: Vec<String> = ports.iter().map(|p| flat(&p.name)).collect();
    w.push_str(&format!("module {name}({});\n", list.join(", ")));
    for p in &ports {
        w.push_str(&format!(
            "    {} wire {}{};\n",
            if p.input { "input" } else { "output" },
            p.range,
            flat(&p.name)
        ));
    }
    w.push_str("    top core(\n");
    let conns: Vec<String> = ports
        .iter()
        .map(|p| format!("        .{}({})", p.name, flat(&p.name)))
        .collect();
    w.push_str(&conns.join(",\n"));
    w.push_str("\n    );\nendmodule\n");
    format!("{verilog}{w}")
}

/// One port of the emitted `top` module.
struct Port {
    name: String,
    input: bool,
    /// `[63:0] ` or empty.
    range: String,
}

/// `top`'s ports, from rust-hdl's "Module arguments" declarations
/// (`input wire  [63:0] s_axis$tdata;`, `output reg  x;`).
fn top_ports(verilog: &str) -> Vec<Port> {
    let body = verilog.split_once("module top(").expect("a `top` module").1;
    let header = body.split_once(");").expect("top's port list").0;
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    names
        .iter()
        .map(|&n| {
            let decl = body
                .lines()
                .map(str::trim)
                .find(|l| {
                    (l.starts_with("input ") || l.starts_with("output "))
                        && l.trim_end_matches(';').rsplit(' ').next() == Some(n)
                })
                .unwrap_or_else(|| panic!("no declaration of top's port `{n}`"));
            let range = decl
                .split_once('[')
                .map(|(_, r)| format!("[{}] ", r.split_once(']').expect("a range").0))
                .unwrap_or_default();
            Port {
                name: n.to_string(),
                input: decl.starts_with("input "),
                range,
            }
        })
        .collect()
}

/// A named top: its name and a function that emits its Verilog.
pub struct Top {
    pub name: &'static str,
    pub about: &'static str,
    pub verilog: fn() -> String,
}

impl Top {
    /// Its Verilog with the flat wrapper named after it
    /// ([`with_flat_wrapper`]): what `make verilog` writes.
    pub fn verilog_flat(&self) -> String {
        with_flat_wrapper(self.name, &(self.verilog)())
    }
}

/// Every top, in the order `make synth` reports them.
pub fn tops() -> Vec<Top> {
    vec![
        Top {
            name: "wide_mul",
            about: "32x32->64 multiplier, latency 4",
            verilog: verilog_of::<WideMul>,
        },
        Top {
            name: "divider32",
            about: "32-bit divider, 16 fraction bits, latency 33",
            verilog: verilog_of::<Divider32>,
        },
        Top {
            name: "normalize32",
            about: "32-bit leading-zero count + normalise, latency 2",
            verilog: verilog_of::<Normalize32>,
        },
        Top {
            name: "sat_add_sub32",
            about: "32-bit saturating add/sub, latency 1",
            verilog: verilog_of::<SatAddSub32>,
        },
        Top {
            name: "min_max32",
            about: "32-bit min/max, latency 1",
            verilog: verilog_of::<MinMax32>,
        },
        Top {
            name: "axis_skid64",
            about: "64-bit AXI-stream register slice",
            verilog: verilog_of::<AxisSkid64>,
        },
        Top {
            name: "axis_fifo64",
            about: "64-bit AXI-stream FIFO, 512 beats",
            verilog: verilog_of::<AxisFifo64>,
        },
        Top {
            name: "ns3_hop_parse",
            about: "ns-3 telemetry hop parser (combinational)",
            verilog: verilog_of::<Ns3HopParse>,
        },
        Top {
            name: "hpcc_cc",
            about: "HPCC++ CC module, 1024 flows",
            verilog: verilog_of::<HpccCc1024>,
        },
        Top {
            name: "hpcc_cc_4096",
            about: "HPCC++ CC module, 4096 flows",
            verilog: verilog_of::<HpccCc4096>,
        },
        Top {
            name: "flow_sched",
            about: "credit-based flow scheduler, 1024 flows",
            verilog: verilog_of::<FlowSched1024>,
        },
        Top {
            name: "roce_rx_parse",
            about:
                "RoCEv2 Rx parser/checker, 2048-word frame buffer, latency 7 (last word -> record)",
            verilog: verilog_of::<crate::roce::rx_parse::RoceRxParse<11>>,
        },
        Top {
            name: "roce_tx",
            about: "RoCEv2 Tx frame builder, 1024 flows, line rate",
            verilog: verilog_of::<RoceTx1024>,
        },
        Top {
            name: "roce_rx_dispatch",
            about: "RoCEv2 Rx dispatcher (per-flow PSN state, events), 1024 flows",
            verilog: verilog_of::<crate::roce::rx_dispatch::RoceRxDispatch<10>>,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every top gets a flat wrapper with the same ports, none with `$`.
    #[test]
    fn every_top_has_a_flat_wrapper() {
        for t in tops().iter().filter(|t| t.name != "hpcc_cc_4096") {
            let raw = (t.verilog)();
            let v = t.verilog_flat();
            let header = v
                .split_once(&format!("module {}(", t.name))
                .unwrap_or_else(|| panic!("{}: no wrapper module", t.name))
                .1
                .split_once(");")
                .unwrap()
                .0;
            let ports: Vec<&str> = header.split(',').map(str::trim).collect();
            assert_eq!(ports.len(), top_ports(&raw).len(), "{}", t.name);
            assert!(ports.iter().all(|p| !p.contains('$')), "{}", t.name);
        }
    }

    /// The RoCE blocks' packet streams are `s_axis_<name>` / `m_axis_<name>`
    /// with every AXI4-Stream signal, `tuser` included.
    #[test]
    fn roce_streams_are_axis_bundles_with_tuser() {
        for (top, streams) in [
            ("roce_tx", &["s_axis_rd", "m_axis_tx"][..]),
            ("roce_rx_parse", &["s_axis_rx", "m_axis_pay"][..]),
            ("roce_rx_dispatch", &["s_axis_pay"][..]),
        ] {
            let t = tops().into_iter().find(|t| t.name == top).unwrap();
            let v = t.verilog_flat();
            let wrapper = v.split_once(&format!("module {top}(")).unwrap().1;
            for s in streams {
                for f in ["tdata", "tkeep", "tlast", "tuser", "tvalid", "tready"] {
                    let p = format!("{s}_{f}");
                    assert!(wrapper.contains(&format!(" {p};")), "{top}: no port {p}");
                }
            }
        }
    }
}
