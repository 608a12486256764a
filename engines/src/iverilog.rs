//! A 4-state check: the emitted Verilog under Icarus Verilog, which keeps
//! X and Z where Verilator (2-state) cannot. Batch mode: the whole
//! stimulus goes in as a `$readmemh` file and every output port of every
//! cycle comes back, `None` where any bit is X or Z.
//!
//! Same cycle semantics as the other engines: inputs applied with the
//! clock low, outputs sampled, then the rising edge.

use crate::verilator::{parse_top_ports, VPort};
use crate::Harness;
use nic_hdl::verilog::generate_verilog;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

fn esc(name: &str) -> String {
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        name.to_string()
    } else {
        format!("\\{name} ")
    }
}

/// Run `stim` through `H`'s Verilog under iverilog. Returns, per cycle,
/// the output ports in the harness's order (`None`: X or Z present).
pub fn run<H: Harness + Default>(
    test: &str,
    stim: &[H::In],
) -> Result<Vec<Vec<Option<u128>>>, String> {
    let mut uut = H::default();
    uut.connect_all();
    let verilog = generate_verilog(&uut);
    let ports = parse_top_ports(&verilog);
    let find = |n: &str| -> VPort {
        ports
            .iter()
            .find(|p| p.name == n)
            .cloned()
            .unwrap_or_else(|| panic!("no port {n}"))
    };
    let ins: Vec<VPort> = H::input_names().iter().map(|n| find(n)).collect();
    let outs: Vec<VPort> = H::output_names().iter().map(|n| find(n)).collect();
    let clock = H::clock_name();
    let win: usize = ins.iter().map(|p| p.width).sum();
    let dir = crate::workspace_target().join("iverilog").join(test);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    // Stimulus: one line per cycle, the inputs concatenated (first port in
    // the most significant bits).
    let mut hex = String::new();
    let mut vals = Vec::new();
    for i in stim {
        H::in_values(i, &mut vals);
        let mut line = String::new();
        let mut bits: Vec<bool> = Vec::with_capacity(win);
        for (p, v) in ins.iter().zip(vals.iter()) {
            for b in (0..p.width).rev() {
                bits.push(b < 128 && (v >> b) & 1 == 1);
            }
        }
        // Pad on the left to a whole number of hex digits.
        let pad = (4 - win % 4) % 4;
        let mut all = vec![false; pad];
        all.extend(bits);
        for c in all.chunks(4) {
            let d = c.iter().fold(0u8, |a, &b| a << 1 | b as u8);
            line.push(char::from_digit(d as u32, 16).unwrap());
        }
        hex.push_str(&line);
        hex.push('\n');
    }
    std::fs::write(dir.join("stim.hex"), hex).map_err(|e| e.to_string())?;
    let mut tb = String::new();
    writeln!(tb, "`timescale 1ns/1ps\nmodule tb;").unwrap();
    writeln!(
        tb,
        "  reg [{}:0] mem [0:{}];\n  reg [{}:0] cur;",
        win - 1,
        stim.len().max(1) - 1,
        win - 1
    )
    .unwrap();
    writeln!(tb, "  reg clk = 0;").unwrap();
    for (k, p) in outs.iter().enumerate() {
        writeln!(tb, "  wire [{}:0] o{k};", p.width - 1).unwrap();
    }
    let mut conns = vec![format!(".{}(clk)", esc(&clock))];
    let mut hi = win;
    for p in &ins {
        conns.push(format!(
            ".{}(cur[{}:{}])",
            esc(&p.name),
            hi - 1,
            hi - p.width
        ));
        hi -= p.width;
    }
    for (k, p) in outs.iter().enumerate() {
        conns.push(format!(".{}(o{k})", esc(&p.name)));
    }
    writeln!(tb, "  top dut({});", conns.join(", ")).unwrap();
    let fmt: Vec<&str> = outs.iter().map(|_| "%h").collect();
    let args: Vec<String> = (0..outs.len()).map(|k| format!("o{k}")).collect();
    writeln!(
        tb,
        "  integer i, f;\n  initial begin\n    $readmemh(\"stim.hex\", mem);\n    f = $fopen(\"out.txt\", \"w\");\n    for (i = 0; i < {n}; i = i + 1) begin\n      cur = mem[i]; #1;\n      $fwrite(f, \"{fmt}\\n\", {args});\n      clk = 1; #1; clk = 0; #1;\n    end\n    $fclose(f); $finish;\n  end\nendmodule",
        n = stim.len(),
        fmt = fmt.join(" "),
        args = args.join(", ")
    )
    .unwrap();
    std::fs::write(dir.join("tb.v"), tb).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("design.v"), &verilog).map_err(|e| e.to_string())?;
    let sim: PathBuf = dir.join("sim.vvp");
    let o = Command::new("iverilog")
        .current_dir(&dir)
        .args(["-g2012", "-o", "sim.vvp", "tb.v", "design.v"])
        .output()
        .map_err(|e| format!("iverilog: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "iverilog failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let o = Command::new("vvp")
        .current_dir(&dir)
        .arg(&sim)
        .output()
        .map_err(|e| format!("vvp: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "vvp failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let text = std::fs::read_to_string(dir.join("out.txt")).map_err(|e| e.to_string())?;
    Ok(text
        .lines()
        .map(|l| {
            l.split_whitespace()
                .map(|h| {
                    if h.chars().any(|c| matches!(c, 'x' | 'X' | 'z' | 'Z')) {
                        None
                    } else {
                        Some(u128::from_str_radix(h, 16).unwrap_or(u128::MAX))
                    }
                })
                .collect()
        })
        .collect())
}
