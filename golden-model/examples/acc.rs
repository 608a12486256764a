use nic_golden::cc::fluid::*;
use nic_golden::cc::hpcc::HpccFixed;
use nic_golden::cc::hpcc_ref::HpccRef;
use nic_golden::cc::params::*;
fn main() {
    for (flows, max_stage, eta) in [(1usize, 5u32, 0.95), (4, 5, 0.95), (16, 0, 0.95), (8, 5, 0.99)] {
        let p = CcParams { max_stage, eta, flows: 1024, ..Default::default() };
        let regs = p.regs().unwrap();
        let cfg = FluidCfg { flows, duration_ns: 3.0e6, ..Default::default() };
        let mut r = HpccRef::new(&p.effective().unwrap());
        let run_r = run(&p, &cfg, &mut r);
        let mut fx = Fixed(HpccFixed::new(10), regs);
        let run_f = run(&p, &cfg, &mut fx);
        // shadow
        let mut r2 = HpccRef::new(&p.effective().unwrap());
        let mut f2 = HpccFixed::new(10);
        for k in 0..flows { let c = nic_golden::cc::hpcc::CcEvent{op:1, flow:k as u16, ..Default::default()}; r2.process(&c); f2.process(&c,&regs);}
        let mut maxe: f64 = 0.0; let mut sum = 0.0; let mut n = 0; let mut maxe_ss: f64 = 0.0;
        let half = run_r.events.len()/2;
        for (i,e) in run_r.events.iter().enumerate() { let a = r2.process(e).w; let b = f2.process(e,&regs).w as f64/256.0; let re = ((b-a)/a).abs(); maxe = maxe.max(re); if i>=half {maxe_ss = maxe_ss.max(re); sum+=re; n+=1;} }
        let mr = run_r.mean_w(flows, 1.5e6); let mf = run_f.mean_w(flows, 1.5e6);
        let tr: f64 = mr.iter().sum(); let tf: f64 = mf.iter().sum();
        println!("flows {flows} ms {max_stage} eta {eta}: events {} util {:.4} maxq {} | shadow max {:.2e} ss max {:.2e} mean {:.2e} | closed-loop total W ref {:.1} fix {:.1} rel {:.2e}",
          run_r.events.len(), run_r.delivered as f64 / (100.0/8.0*3.0e6), run_r.max_queue, maxe, maxe_ss, sum/n as f64, tr, tf, (tf-tr)/tr);
    }
}
