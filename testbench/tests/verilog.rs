//! `hdl/src/verilog.rs`: the Verilog emitter writes what rust-hdl's
//! `generate_verilog` writes, byte for byte.

use nic_hdl::top::{tops, Top};

/// The emitter's Verilog is rust-hdl's own, byte for byte, on `top` and
/// on every top but the NIC-sized ones (`make test-full` does those:
/// rust-hdl's emitter takes about 30 s on each).
#[test]
fn the_verilog_is_rust_hdls_on_every_small_top() {
    for t in tops().iter().filter(|t| !NIC_SIZED.contains(&t.name)) {
        same_as_rust_hdl(t);
    }
}

#[test]
#[ignore = "long: make test-full"]
fn the_verilog_is_rust_hdls_on_the_nic_sized_tops() {
    for t in tops().iter().filter(|t| NIC_SIZED.contains(&t.name)) {
        same_as_rust_hdl(t);
    }
}

/// The tops with a whole NIC inside.
const NIC_SIZED: [&str; 5] = [
    "hpcc_nic",
    "hpcc_nic_10g",
    "hpcc_nic_core",
    "alveo_core",
    "ecpix5_core",
];

fn same_as_rust_hdl(t: &Top) {
    let design = (t.design)();
    let ours = nic_hdl::verilog::generate_verilog(&*design);
    let theirs = nic_hdl::verilog::rust_hdl_verilog(&*design);
    assert!(
        ours == theirs,
        "{}: the emitted Verilog differs from rust-hdl's",
        t.name
    );
}
