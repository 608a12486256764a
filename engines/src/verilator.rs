//! Engine 2: Verilator on the Verilog that rust-hdl emits.
//!
//! The model is built on demand: the emitted Verilog, plus a small
//! generated C++ shim with a C ABI (`cosim_new`, `cosim_step`,
//! `cosim_free`), is compiled by `verilator --build` into a shared library
//! under `target/verilator/<name>-<hash>/`, keyed by a hash of the Verilog
//! and the shim. Later runs (and later tests in the same process) reuse it.
//! The library is loaded with `libloading`.
//!
//! Port values cross the FFI as 64-bit words, `ceil(width/64)` per port,
//! least significant word first, masked to the port width in the shim.
//!
//! Waveforms: the shim dumps the VCD (timescale 1 ps) at `cycle * period`
//! with the clock low and the inputs applied, and at `cycle * period +
//! period / 2` after the rising edge; the period (ps) is given to
//! `cosim_new` at run time ([`crate::clock_period_ps`]).

use crate::gtkw::{write_gtkw_or_warn, GtkwSpec};
use crate::{Engine, Harness};
use nic_hdl::verilog::generate_verilog;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

/// Bumped whenever the shim or the build flags change, to invalidate caches.
const SHIM_VERSION: u32 = 3;

/// A port of the top module, as declared in the emitted Verilog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VPort {
    pub name: String,
    pub width: usize,
    pub input: bool,
}

impl VPort {
    fn words(&self) -> usize {
        self.width.div_ceil(64)
    }
    /// Verilator's C++ spelling of a Verilog identifier (`$` -> `__024`).
    fn cpp_name(&self) -> String {
        let mut s = String::new();
        for c in self.name.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                s.push(c);
            } else {
                s.push_str(&format!("__0{:02X}", c as u32));
            }
        }
        s
    }
}

/// Parse the ports of `module top` from rust-hdl's Verilog.
pub fn parse_top_ports(verilog: &str) -> Vec<VPort> {
    let mut ports = vec![];
    let mut in_top = false;
    for line in verilog.lines() {
        let t = line.trim();
        if t.starts_with("module top(") || t.starts_with("module top (") {
            in_top = true;
            continue;
        }
        if !in_top {
            continue;
        }
        if t.starts_with("endmodule") {
            break;
        }
        let (input, rest) = if let Some(r) = t.strip_prefix("input ") {
            (true, r)
        } else if let Some(r) = t.strip_prefix("output ") {
            (false, r)
        } else {
            continue;
        };
        let rest = rest
            .trim_start_matches("wire")
            .trim_start_matches("reg")
            .trim();
        let (width, name) = if let Some(r) = rest.strip_prefix('[') {
            let close = r.find(']').expect("port range");
            let range = &r[..close];
            let (hi, lo) = range.split_once(':').expect("port range");
            let w = hi.trim().parse::<usize>().unwrap() - lo.trim().parse::<usize>().unwrap() + 1;
            (w, r[close + 1..].trim())
        } else {
            (1, rest)
        };
        let name = name.trim_end_matches([';', ',']).trim().to_string();
        ports.push(VPort { name, width, input });
    }
    assert!(!ports.is_empty(), "no ports found in module top");
    ports
}

type NewFn = unsafe extern "C" fn(*const std::os::raw::c_char, u64) -> *mut std::ffi::c_void;
type StepFn = unsafe extern "C" fn(*mut std::ffi::c_void, *const u64, *mut u64);
type FreeFn = unsafe extern "C" fn(*mut std::ffi::c_void);

/// A Verilated design, compiled and loaded.
pub struct VerilatedLib {
    _lib: libloading::Library,
    new: NewFn,
    step: StepFn,
    free: FreeFn,
    pub ports: Vec<VPort>,
    pub dir: PathBuf,
    /// Built with `--trace` (a model that can write a VCD).
    pub traced: bool,
}

// The library handle and plain fn pointers are safe to share; each model
// instance is used by one thread at a time.
unsafe impl Send for VerilatedLib {}
unsafe impl Sync for VerilatedLib {}

/// One slot per model: the map's lock is held only to find or add a
/// slot, and each slot's own lock while its model is built or loaded, so
/// a test that needs a model already built never waits behind another
/// test's C++ compile (minutes for the whole NIC).
type LibSlot = Arc<Mutex<Option<Arc<VerilatedLib>>>>;

fn lib_cache() -> &'static Mutex<HashMap<String, LibSlot>> {
    static CACHE: OnceLock<Mutex<HashMap<String, LibSlot>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The C++ optimisation of a model, set through the variables of
/// Verilator's `verilated.mk`, and part of the model cache key:
/// - for tests (the default): the generated code's "fast" files at -O1,
///   its "slow" (construction) files at -O0. Measured on `hpcc_nic`
///   (Verilator 5.006, two cores): its build takes 32 s instead of 121 s,
///   and a two-NIC `sim` runs at 2124 cycles/s instead of 1852 (the golden
///   models in lockstep, not the model, set the pace there);
/// - for benchmarks ([`build_for_speed`], called by
///   [`crate::figures::figures`]): the flags every model was built with
///   before (Verilator's -Os for the fast files, our -O2 for the slow
///   ones), which the simulation-speed figures of `docs/figures.md` were
///   measured with.
const CXX_OPT_TEST: [&str; 2] = ["OPT_FAST=-O1", "OPT_SLOW=-O0"];
const CXX_OPT_SPEED: [&str; 2] = ["OPT_FAST=-Os", "OPT_SLOW=-O2"];

static FOR_SPEED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// From now on, this process builds its models for simulation speed
/// (benchmarks), not build time (tests).
pub fn build_for_speed() {
    FOR_SPEED.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn cxx_opt() -> [&'static str; 2] {
    if FOR_SPEED.load(std::sync::atomic::Ordering::Relaxed) {
        CXX_OPT_SPEED
    } else {
        CXX_OPT_TEST
    }
}

/// The C shim around `Vtop`. Without `trace` the model is built without
/// `--trace`, and the shim's VCD calls compile to nothing (`VM_TRACE` is
/// Verilator's own define, 0 or 1): `cosim_new` then ignores a VCD path,
/// which [`VerilatorEngine`] never passes to such a model.
fn shim_source(ports: &[VPort], clock: &str) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "// Generated by nic-testbench (shim v{SHIM_VERSION}). Do not edit.\n\
         #include \"Vtop.h\"\n#include \"verilated.h\"\n\
         #if VM_TRACE\n#include \"verilated_vcd_c.h\"\n#else\n\
         struct VerilatedVcdC {{ void dump(uint64_t) {{}} void close() {{}} }};\n#endif\n\
         #include <cstdint>\n\
         struct Cosim {{ VerilatedContext* ctx; Vtop* top; VerilatedVcdC* tfp; uint64_t t; uint64_t period; }};\n\
         static inline uint64_t mask64(unsigned w) {{ return w >= 64 ? ~0ULL : ((1ULL << w) - 1); }}\n\
         extern \"C\" {{\n\
         void* cosim_new(const char* vcd, uint64_t period_ps) {{\n\
         \x20 Cosim* c = new Cosim;\n\
         \x20 c->ctx = new VerilatedContext;\n\
         #if VM_TRACE\n\
         \x20 if (vcd) c->ctx->traceEverOn(true);\n\
         #endif\n\
         \x20 c->top = new Vtop{{c->ctx, \"top\"}};\n\
         \x20 c->tfp = nullptr; c->t = 0; c->period = period_ps;\n\
         #if VM_TRACE\n\
         \x20 if (vcd) {{ c->tfp = new VerilatedVcdC; c->top->trace(c->tfp, 99); c->tfp->open(vcd); }}\n\
         #endif\n\
         \x20 c->top->{clk} = 0; c->top->eval();\n\
         \x20 return c;\n}}\n\
         void cosim_free(void* p) {{\n\
         \x20 Cosim* c = (Cosim*)p;\n\
         \x20 if (c->tfp) {{ c->tfp->close(); delete c->tfp; }}\n\
         \x20 c->top->final(); delete c->top; delete c->ctx; delete c;\n}}\n\
         void cosim_step(void* p, const uint64_t* in, uint64_t* out) {{\n\
         \x20 Cosim* c = (Cosim*)p; Vtop* top = c->top;\n\
         \x20 top->{clk} = 0;\n",
        clk = clock
    ));
    let mut k = 0;
    for p in ports.iter().filter(|p| p.input && p.name != clock) {
        let n = p.cpp_name();
        if p.width <= 64 {
            s.push_str(&format!("  top->{n} = in[{k}] & mask64({});\n", p.width));
        } else {
            let nw32 = p.width.div_ceil(32);
            for j in 0..nw32 {
                let bits = (p.width - 32 * j).min(32);
                s.push_str(&format!(
                    "  top->{n}[{j}] = (uint32_t)((in[{}] >> {}) & mask64({bits}));\n",
                    k + j / 2,
                    32 * (j % 2)
                ));
            }
        }
        k += p.words();
    }
    s.push_str("  top->eval();\n  if (c->tfp) c->tfp->dump(c->t * c->period);\n");
    let mut k = 0;
    for p in ports.iter().filter(|p| !p.input) {
        let n = p.cpp_name();
        if p.width <= 64 {
            s.push_str(&format!("  out[{k}] = (uint64_t)top->{n};\n"));
        } else {
            for w in 0..p.words() {
                s.push_str(&format!("  out[{}] = (uint64_t)top->{n}[{}]", k + w, 2 * w));
                if 2 * w + 1 < p.width.div_ceil(32) {
                    s.push_str(&format!(" | ((uint64_t)top->{n}[{}] << 32)", 2 * w + 1));
                }
                s.push_str(";\n");
            }
        }
        k += p.words();
    }
    s.push_str(&format!(
        "  top->{clock} = 1; top->eval();\n  if (c->tfp) c->tfp->dump(c->t * c->period + c->period / 2);\n  c->t++;\n}}\n}}\n"
    ));
    s
}

fn verilator_bin() -> String {
    std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into())
}

/// Build (or reuse from the cache) the Verilated model of `verilog`; with
/// `trace`, a model that can write a VCD (Verilator's `--trace`, cached
/// apart as `<name>-vcd-<hash>`). Without it the C++ compile takes about
/// half the time (`hpcc_nic`: 18 s of a core instead of about 40, the
/// run-time library apart), and only runs that ask for waveforms pay for
/// them.
pub fn build(name: &str, verilog: &str, clock: &str, trace: bool) -> Arc<VerilatedLib> {
    let ports = parse_top_ports(verilog);
    let shim = shim_source(&ports, clock);
    let mut h = Sha256::new();
    h.update(verilog.as_bytes());
    h.update(shim.as_bytes());
    h.update(cxx_opt().concat().as_bytes());
    h.update([trace as u8]);
    let hash: String = h
        .finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect();
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let key = format!("{name}{}-{hash}", if trace { "-vcd" } else { "" });
    let slot = lib_cache()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key.clone())
        .or_default()
        .clone();
    let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(lib) = slot.as_ref() {
        return lib.clone();
    }
    let dir = crate::workspace_target().join("verilator").join(&key);
    let so = dir.join("libcosim.so");
    if !so.exists() {
        // One builder per model across processes too (nextest runs each
        // test in its own process, and the tests of one block start
        // together): the others wait on the lock, then load its library.
        let _lock = BuildLock::take(&dir);
        if !so.exists() {
            compile(&dir, verilog, &shim, &so, trace);
        }
    }
    let lib = unsafe { libloading::Library::new(&so) }
        .unwrap_or_else(|e| panic!("loading {}: {e}", so.display()));
    let (new, step, free) = unsafe {
        (
            *lib.get::<NewFn>(b"cosim_new\0").unwrap(),
            *lib.get::<StepFn>(b"cosim_step\0").unwrap(),
            *lib.get::<FreeFn>(b"cosim_free\0").unwrap(),
        )
    };
    let lib = Arc::new(VerilatedLib {
        _lib: lib,
        new,
        step,
        free,
        ports,
        dir,
        traced: trace,
    });
    *slot = Some(lib.clone());
    lib
}

fn compile(dir: &Path, verilog: &str, shim: &str, so: &Path, trace: bool) {
    // Build in a private directory, then rename: concurrent builders of the
    // same design (another test process) never see a half-written library.
    let tmp = dir.with_extension(format!("tmp{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(tmp.join("top.v"), verilog).unwrap();
    std::fs::write(tmp.join("cosim_shim.cpp"), shim).unwrap();
    let jobs = std::env::var("NIC_VERILATOR_JOBS").unwrap_or_else(|_| "2".into());
    let out = Command::new(verilator_bin())
        .current_dir(&tmp)
        .args([
            "--cc",
            "--exe",
            "--top-module",
            "top",
        ])
        .args(trace.then_some("--trace"))
        .args([
            // VCD time in ps, whatever `timescale the Verilog may carry.
            "--timescale-override",
            "1ps/1ps",
            "-O3",
            "--x-assign",
            "fast",
            "--x-initial",
            "fast",
            "-Wno-fatal",
            "-Wno-lint",
            "-Wno-style",
            "-CFLAGS",
            "-fPIC -O2",
            "-LDFLAGS",
            "-shared -Wl,-Bsymbolic",
            "-Mdir",
            "obj",
            "-o",
            "libcosim.so",
            "top.v",
            "cosim_shim.cpp",
        ])
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run verilator ({e}); install it with `make deps` (apt-get install verilator)")
        });
    step_ok(&out, "verilator", &tmp);
    // Verilator's run-time library is the same for every model: objects
    // built once are copied in after verilating (so they are newer than
    // the makefile, and `make` skips them). That takes about 14 s off
    // every build, most of a small block's.
    let runtime = runtime_dir(trace);
    let objects = runtime_objects(trace);
    let obj = tmp.join("obj");
    let have_runtime = objects
        .iter()
        .all(|o| std::fs::copy(runtime.join(o), obj.join(o)).is_ok());
    if !have_runtime {
        for o in objects {
            let _ = std::fs::remove_file(obj.join(o));
        }
    }
    let out = Command::new("make")
        .current_dir(&obj)
        .args(["-f", "Vtop.mk", "-j", &jobs])
        .args(cxx_opt())
        .output()
        .unwrap_or_else(|e| panic!("cannot run make ({e})"));
    step_ok(&out, "verilator build (make)", &tmp);
    if !have_runtime {
        keep_runtime(&obj, &runtime, objects);
    }
    // Keep the library and the sources it was built from; drop the objects.
    std::fs::create_dir_all(dir).unwrap();
    for f in ["top.v", "cosim_shim.cpp"] {
        std::fs::copy(tmp.join(f), dir.join(f)).unwrap();
    }
    let staged = dir.join(format!("libcosim.so.{}", std::process::id()));
    std::fs::copy(tmp.join("obj").join("libcosim.so"), &staged).unwrap();
    std::fs::rename(&staged, so).unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
}

/// An exclusive `flock` on `<dir>.lock`, held while a model is built;
/// released when dropped (or when the process ends).
struct BuildLock(#[allow(dead_code)] std::fs::File);

impl BuildLock {
    fn take(dir: &Path) -> Self {
        use std::os::unix::io::AsRawFd;
        std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
        let path = dir.with_extension("lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // SAFETY: flock on a descriptor this function owns.
        let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
        assert_eq!(r, 0, "flock {}", path.display());
        Self(file)
    }
}

/// Panics with a step's output if it failed.
fn step_ok(out: &std::process::Output, step: &str, dir: &Path) {
    if !out.status.success() {
        panic!(
            "{step} failed in {}:\n{}\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The objects of Verilator's run-time library that every model links
/// (the VCD writer only with `--trace`).
fn runtime_objects(trace: bool) -> &'static [&'static str] {
    if trace {
        &["verilated.o", "verilated_vcd_c.o", "verilated_threads.o"]
    } else {
        &["verilated.o", "verilated_threads.o"]
    }
}

/// Where the run-time objects are kept: one directory per Verilator
/// version, shim version (the build flags are the shim version's) and
/// tracing (`VM_TRACE` is defined in every object's compile).
fn runtime_dir(trace: bool) -> PathBuf {
    let version = Command::new(verilator_bin())
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let mut h = Sha256::new();
    h.update(version.as_bytes());
    h.update(SHIM_VERSION.to_le_bytes());
    h.update([trace as u8]);
    let hash: String = h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    crate::workspace_target()
        .join("verilator")
        .join(format!("_runtime-{hash}"))
}

/// Keeps the run-time objects of a finished build for later builds:
/// copied into a private directory, then renamed into place, so a
/// concurrent builder sees all of them or none.
fn keep_runtime(obj: &Path, runtime: &Path, objects: &[&str]) {
    if runtime.exists() {
        return;
    }
    let staged = runtime.with_extension(format!("tmp{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staged);
    if std::fs::create_dir_all(&staged).is_err() {
        return;
    }
    let copied = objects
        .iter()
        .all(|o| std::fs::copy(obj.join(o), staged.join(o)).is_ok());
    if !copied || std::fs::rename(&staged, runtime).is_err() {
        let _ = std::fs::remove_dir_all(&staged);
    }
}

/// A file-system-safe name for a design type, e.g. `Divider_32_16`.
pub fn design_name<H>() -> String {
    let full = std::any::type_name::<H>();
    // Drop module paths: nic_hdl::arith::divider::Divider<32, 16>
    let mut out = String::new();
    let mut word = String::new();
    for c in full.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else if c == ':' {
            word.clear();
        } else {
            if !word.is_empty() {
                out.push_str(&word);
                out.push('_');
                word.clear();
            }
        }
    }
    out.push_str(&word);
    out.trim_end_matches('_').to_string()
}

/// One instance of a Verilated design, stepped cycle by cycle.
pub struct VerilatorEngine<H: Harness> {
    lib: Arc<VerilatedLib>,
    model: *mut std::ffi::c_void,
    in_vals: Vec<u128>,
    in_words: Vec<u64>,
    out_words: Vec<u64>,
    out_vals: Vec<u128>,
    /// (word offset, words) of each harness input, in harness order.
    in_map: Vec<(usize, usize)>,
    out_map: Vec<(usize, usize)>,
    cycle: u64,
    vcd: Option<PathBuf>,
    /// Clock period of the VCD's time axis, ps.
    period_ps: u64,
    _h: std::marker::PhantomData<H>,
}

impl<H: Harness> VerilatorEngine<H> {
    /// Emit `uut`'s Verilog, build or reuse its model, and instantiate it.
    /// `name` names the cache directory (use the block's name).
    pub fn new(name: &str, uut: &mut H, vcd: Option<&Path>) -> Self {
        uut.connect_all();
        let verilog = generate_verilog(&*uut);
        Self::from_verilog(name, &verilog, vcd)
    }

    /// Like [`VerilatorEngine::new`] for `H::default()`, but generates the
    /// Verilog only once per process and design type.
    pub fn cached(vcd: Option<&Path>) -> Self
    where
        H: Default + 'static,
    {
        type ByType = HashMap<(std::any::TypeId, bool), Arc<VerilatedLib>>;
        static BY_TYPE: OnceLock<Mutex<ByType>> = OnceLock::new();
        let id = (std::any::TypeId::of::<H>(), vcd.is_some());
        let map = BY_TYPE.get_or_init(|| Mutex::new(HashMap::new()));
        let lib = {
            let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(id)
                .or_insert_with(|| {
                    let mut uut = H::default();
                    uut.connect_all();
                    let verilog = generate_verilog(&uut);
                    build(
                        &design_name::<H>(),
                        &verilog,
                        &H::clock_name(),
                        vcd.is_some(),
                    )
                })
                .clone()
        };
        Self::from_lib(lib, vcd)
    }

    pub fn from_verilog(name: &str, verilog: &str, vcd: Option<&Path>) -> Self {
        Self::from_lib(build(name, verilog, &H::clock_name(), vcd.is_some()), vcd)
    }

    fn from_lib(lib: Arc<VerilatedLib>, vcd: Option<&Path>) -> Self {
        let name = lib.dir.display().to_string();
        let offsets = |input: bool| {
            let mut map = HashMap::new();
            let mut k = 0;
            for p in lib
                .ports
                .iter()
                .filter(|p| p.input == input && p.name != H::clock_name())
            {
                map.insert(p.name.clone(), (k, p.words()));
                k += p.words();
            }
            (map, k)
        };
        let (imap, in_n) = offsets(true);
        let (omap, out_n) = offsets(false);
        let pick = |names: Vec<String>, map: &HashMap<String, (usize, usize)>, what: &str| {
            names
                .iter()
                .map(|n| {
                    *map.get(n).unwrap_or_else(|| {
                        panic!("{what} port `{n}` not found in the Verilog of `{name}`")
                    })
                })
                .collect::<Vec<_>>()
        };
        let in_map = pick(H::input_names(), &imap, "input");
        let out_map = pick(H::output_names(), &omap, "output");
        assert_eq!(
            in_map.len(),
            imap.len(),
            "harness of `{name}` does not drive every input port"
        );
        assert!(
            vcd.is_none() || lib.traced,
            "a VCD asked of `{name}`, a model built without --trace"
        );
        let cpath = vcd.map(|p| std::ffi::CString::new(p.to_str().unwrap()).unwrap());
        let period_ps = crate::clock_period_ps();
        let model = unsafe {
            (lib.new)(
                cpath
                    .as_ref()
                    .map(|c| c.as_ptr())
                    .unwrap_or(std::ptr::null()),
                period_ps,
            )
        };
        Self {
            lib,
            model,
            in_vals: Vec::new(),
            in_words: vec![0; in_n.max(1)],
            out_words: vec![0; out_n.max(1)],
            out_vals: vec![0; out_map.len()],
            in_map,
            out_map,
            cycle: 0,
            vcd: vcd.map(Path::to_path_buf),
            period_ps,
            _h: std::marker::PhantomData,
        }
    }

    /// The ports of the Verilated top module.
    pub fn ports(&self) -> &[VPort] {
        &self.lib.ports
    }
}

impl<H: Harness> Engine<H> for VerilatorEngine<H> {
    fn step(&mut self, input: &H::In) -> H::Out {
        H::in_values(input, &mut self.in_vals);
        for (v, &(off, n)) in self.in_vals.iter().zip(&self.in_map) {
            self.in_words[off] = *v as u64;
            if n > 1 {
                self.in_words[off + 1] = (*v >> 64) as u64;
            }
        }
        unsafe {
            (self.lib.step)(
                self.model,
                self.in_words.as_ptr(),
                self.out_words.as_mut_ptr(),
            )
        };
        for (o, &(off, n)) in self.out_vals.iter_mut().zip(&self.out_map) {
            *o = self.out_words[off] as u128;
            if n > 1 {
                *o |= (self.out_words[off + 1] as u128) << 64;
            }
        }
        self.cycle += 1;
        H::out_from_values(&self.out_vals)
    }
    fn cycles(&self) -> u64 {
        self.cycle
    }
    fn name(&self) -> &'static str {
        "verilator"
    }
}

impl<H: Harness> Drop for VerilatorEngine<H> {
    fn drop(&mut self) {
        // Closes the VCD; then its GTKWave save file.
        unsafe { (self.lib.free)(self.model) };
        if let Some(vcd) = self.vcd.take() {
            write_gtkw_or_warn(&GtkwSpec {
                vcd: &vcd,
                port_scope: "top",
                design_scope: "top.top",
                ports: self.lib.ports.iter().map(|p| p.name.clone()).collect(),
                clock: H::clock_name(),
                cycles: self.cycle,
                period_ps: self.period_ps,
            });
        }
    }
}
