//! `make bench`'s RoCE part alone (ignored by default):
//! `cargo test --release -p nic-testbench --test blocks bench_roce_alone -- --ignored --nocapture`

#[test]
#[ignore]
fn bench_roce_alone() {
    let mut f = nic_testbench::figures::figures();
    nic_testbench::bench::roce::bench_roce(&mut f);
    for (k, v) in &f {
        println!("{k:50} {v:.3}");
    }
}
