use nic_golden::cc::fluid::*;
use nic_golden::cc::hpcc::*;
use nic_golden::cc::hpcc_ref::HpccRef;
use nic_golden::cc::params::*;
fn main() {
    let p = CcParams { flows: 1024, ..Default::default() };
    let regs = p.regs().unwrap();
    let cfg = FluidCfg { flows: 1, duration_ns: 3.0e6, ..Default::default() };
    let mut r = HpccRef::new(&p.effective().unwrap());
    let run_r = run(&p, &cfg, &mut r);
    let mut r2 = HpccRef::new(&p.effective().unwrap());
    let mut f2 = HpccFixed::new(10);
    let c = CcEvent{op:1, flow:0, ..Default::default()}; r2.process(&c); f2.process(&c,&regs);
    let mut mx: f64 = 0.0; let mut first = true;
    for (i,e) in run_r.events.iter().enumerate() { let a = r2.process(e); let b = f2.process(e,&regs);
      let re = ((b.w as f64/256.0 - a.w)/a.w).abs(); mx = mx.max(re);
      if re > 1e-4 && first { first=false; println!("first big at {i}: ref w {:.3} u {:.6} inc {} | fix w {:.3} u {:.6} inc {}", a.w, a.u, a.inc_stage, b.w as f64/256.0, b.u as f64/16777216.0, b.inc_stage); }
      if i % 2000 == 1999 { println!("{i}: max {:.2e} | ref w {:.1} fix w {:.1} | wc ref {:.1} fix {:.1}", mx, a.w, b.w as f64/256.0, r2.state[0].wc, f2.state[0].wc as f64/256.0); mx = 0.0; } }
}
