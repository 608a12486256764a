use nic_netsim::line_rate::{run, LineRateCfg};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sizes: Vec<u32> = args[1].split(',').map(|x| x.parse().unwrap()).collect();
    let flows: u32 = args[2].parse().unwrap();
    let r = run(&LineRateCfg {
        flows,
        sizes,
        messages: args[3].parse().unwrap(),
        link_delay: 100,
        dma_wr_share: 1.0,
        one_way: false,
        pause: false,
    });
    println!(
        "{} {} wire {:.4} data {:.4} drop {} to/nak {}",
        args[1],
        flows,
        r.dir[0].wire_fill,
        r.dir[0].data_fill,
        r.dir[0].drop_full,
        r.dir[0].timeouts + r.dir[0].naks
    );
}
