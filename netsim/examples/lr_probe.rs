//! One line-rate run (`netsim/src/line_rate.rs`) from the command line,
//! for looking into a figure of `make bench`'s `line-rate` group:
//!
//! `cargo run --profile quick -p nic-netsim --example lr_probe -- SIZES FLOWS MESSAGES [nic] [oneway]`
//!
//! SIZES is a comma list of message sizes in bytes; `nic` runs the whole
//! NIC's twins (`run_nic`) instead of the cores; `oneway` lets only NIC 0
//! post WRITEs. Prints NIC 0's direction.
use nic_netsim::line_rate::{run, run_nic, LineRateCfg};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: lr_probe SIZES FLOWS MESSAGES [nic] [oneway]");
        std::process::exit(2);
    }
    let sizes: Vec<u32> = args[1].split(',').map(|x| x.parse().unwrap()).collect();
    let flows: u32 = args[2].parse().unwrap();
    let flag = |f: &str| args[4..].iter().any(|a| a == f);
    let cfg = LineRateCfg {
        flows,
        sizes,
        messages: args[3].parse().unwrap(),
        link_delay: 100,
        dma_wr_share: 1.0,
        one_way: flag("oneway"),
        pause: false,
    };
    let r = if flag("nic") {
        run_nic(&cfg, false)
    } else {
        run(&cfg)
    };
    println!(
        "{} {} wire {:.4} data {:.4} drop {} to/nak {} cycles {}",
        args[1],
        flows,
        r.dir[0].wire_fill,
        r.dir[0].data_fill,
        r.dir[0].drop_full,
        r.dir[0].timeouts + r.dir[0].naks,
        r.cycles
    );
}
