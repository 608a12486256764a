//! The host of `hpcc_nic_10g` (the NIC on the 10G MAC), and two of them
//! over XGMII words: what `hpccnic sim --top nic-10g` runs.
//!
//! [`NicHost10g`] is the driver of [`crate::driver`] for the NIC's host
//! side; the NIC's wire side is an [`XgmiiLink`] each way, which the
//! hosts share (the word NIC n sends in cycle t is the word NIC 1 − n
//! receives in cycle t + 1 + delay). Frames never pass through the
//! driver: its MAC side stays idle. The runs' frames, for the pcap, are
//! the links' monitors'.

use crate::core_env::{Host, Pair, WireFrame};
use crate::driver::{
    drive_pair, nic_hosts, DriverHost, DriverParams, NicHost, NicSimCfg, NicSimResult,
};
use crate::link::LinkCfg;
use crate::xgmii_link::XgmiiLink;
use nic_golden::mac::{MacPauseStats, MacRxStats, MacTxStats};
use nic_golden::nic::nic;
use nic_golden::nic::nic_10g::{In, Out};
use std::cell::RefCell;
use std::rc::Rc;

/// The driver on one `hpcc_nic_10g`: `tx` carries this NIC's words,
/// `rx` the peer's.
pub struct NicHost10g {
    pub driver: NicHost,
    tx: Rc<RefCell<XgmiiLink>>,
    rx: Rc<RefCell<XgmiiLink>>,
    /// The driver's inputs this cycle (its MAC side is not used).
    last: nic::In,
}

impl Host for NicHost10g {
    type In = In;
    type Out = Out;
    fn inputs(&mut self, now: u64) -> In {
        self.last = self.driver.inputs(now);
        let (d, c) = self.rx.borrow_mut().word_at(now);
        In::from_nic(&self.last, d, c)
    }
    fn take(&mut self, now: u64, _i: &In, o: &Out) -> Option<Vec<u8>> {
        let i = self.last;
        let sent = self.driver.take(now, &i, &o.to_nic());
        debug_assert!(sent.is_none(), "the driver's MAC side is idle");
        let mut tx = self.tx.borrow_mut();
        if i.rst {
            // The MAC's words already on their way out follow the reset.
            tx.sender_reset_until = Some(now + 8);
        }
        tx.push(now, o.xgmii_txd, o.xgmii_txc);
        None
    }
    fn receive(&mut self, _frame: Vec<u8>) {
        unreachable!("hpcc_nic_10g takes its frames as XGMII words")
    }
    fn finished(&self) -> bool {
        self.driver.finished()
    }
    fn last_tx_start(&self) -> u64 {
        0
    }
}

impl DriverHost for NicHost10g {
    fn driver(&self) -> &NicHost {
        &self.driver
    }
    fn driver_mut(&mut self) -> &mut NicHost {
        &mut self.driver
    }
}

/// A link that never carries a frame: the [`Pair`]'s frame links are
/// unused between two `hpcc_nic_10g`.
struct NoFrames;

impl crate::core_env::Wire for NoFrames {
    fn send(&mut self, _now: u64, _frame: Vec<u8>) -> bool {
        unreachable!("hpcc_nic_10g sends XGMII words")
    }
    fn pop_arrived(&mut self, _now: u64) -> Option<Vec<u8>> {
        None
    }
    fn lost(&self) -> u64 {
        0
    }
    fn delay(&self) -> u64 {
        0
    }
}

/// What a run over XGMII adds to [`NicSimResult`].
#[derive(Debug, Default)]
pub struct Xgmii10gResult {
    pub sim: NicSimResult,
    /// Per direction (NIC n's words): frames made bad on the way, frames
    /// the NIC aborted.
    pub lost: [u64; 2],
    pub aborted: [u64; 2],
    /// Frames cut short by a reset of their sender's MAC (`rst`).
    pub cut: [u64; 2],
    /// Each NIC's MAC counters at the end (its `m_stats_mac_*` ports).
    pub mac: [(MacTxStats, MacRxStats, MacPauseStats); 2],
    /// NIC 0's inputs, every cycle, if asked (to replay them on an RTL
    /// engine).
    pub inputs: Vec<In>,
}

/// Two `hpcc_nic_10g` (`nics`: the golden twin, or an RTL engine with the
/// twin in lockstep), each driven by the driver, over XGMII words with
/// `c.core.delay` cycles of delay and `c.core.loss` frames made bad per
/// direction. Runs as [`crate::driver::run_nic_sim`] (`record`: keep NIC
/// 0's inputs); a frame on the
/// wire that breaks a good sender's rules (preamble, FCS, terminator,
/// size) is an error of the run.
pub fn run_nic_10g_sim(
    c: &NicSimCfg,
    p: &DriverParams,
    nics: [crate::core_env::NicFn<'_, In, Out>; 2],
    max_cycles: u64,
    record: bool,
    progress: &mut dyn FnMut(u64, usize, usize),
) -> Xgmii10gResult {
    let (hosts, w) = nic_hosts(c, p);
    let cfg = LinkCfg {
        delay: c.core.delay,
        loss: c.core.loss,
        ce: 0.0,
        corrupt: 0.0,
    };
    let links = [0usize, 1].map(|n| {
        Rc::new(RefCell::new(XgmiiLink::new(
            cfg,
            n,
            c.core.seed ^ (0x11 * (n as u64 + 1)),
        )))
    });
    let [h0, h1] = hosts;
    let hosts = [(0, h0), (1, h1)].map(|(n, driver)| NicHost10g {
        driver,
        tx: links[n].clone(),
        rx: links[1 - n].clone(),
        last: nic::In::default(),
    });
    let mut pair = Pair::with_wires(hosts, nics, [Box::new(NoFrames), Box::new(NoFrames)]);
    if record {
        pair.record = Some([Vec::new(), Vec::new()]);
    }
    let mut sim = drive_pair(&mut pair, &w, max_cycles, progress);
    let mut wire: Vec<WireFrame> = Vec::new();
    let mut r = Xgmii10gResult::default();
    for (n, l) in links.iter().enumerate() {
        let mut l = l.borrow_mut();
        sim.errors
            .extend(l.errors.iter().map(|e| format!("wire from NIC {n}: {e}")));
        r.lost[n] = l.lost;
        r.aborted[n] = l.aborted;
        r.cut[n] = l.cut;
        wire.append(&mut l.frames);
    }
    wire.sort_by_key(|f| (f.time, f.from));
    if let Some([r0, _]) = pair.record.take() {
        r.inputs = r0;
    }
    r.mac = pair
        .last
        .map(|o| (o.stats_mac_tx, o.stats_mac_rx, o.stats_mac_pause));
    sim.wire = wire;
    r.sim = sim;
    r
}
