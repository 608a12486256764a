//! RoCE pipeline figures for `make bench`: cycles per frame of each
//! pipeline for back-to-back frames (minimum-size and MTU), on Verilator,
//! with the golden twins in lockstep (every port, every cycle).

use crate::cosim::EngineKind;
use crate::figures::Figures;
use crate::roce::pipes::{engine_for, Lockstep, RtlRx};
use nic_golden::roce::packet::{op, Packet, Reth};
use nic_golden::roce::tx::{host_word, In as TxIn, RoceTx as TxGolden};
use nic_golden::roce::txn::{FlowCfg, RxEvent, RxPipe};
use nic_golden::roce::{TxDesc, TxFlowCtx};
use nic_golden::stream::Axis;
use nic_hdl::roce::tx::RoceTx;

/// Flow-id bits of the benchmarked tops (the NIC's 1024 flows).
const A: usize = 10;

/// Back-to-back Tx frames for one descriptor kind: the descriptor is
/// always valid, the host data always ready, `out_tready` always high.
/// Returns (cycles per frame in the steady state, bytes per frame).
fn tx_back_to_back(opcode: u8, len: u16, frames: usize) -> (f64, usize) {
    let mut e = Lockstep::new(
        engine_for::<RoceTx<A>>(EngineKind::Verilator, None),
        TxGolden::<A>::default(),
        "roce_tx",
    );
    e.step(&TxIn {
        reset: true,
        ..Default::default()
    });
    e.step(&TxIn {
        ctx_valid: true,
        ctx: TxFlowCtx {
            flow: 3,
            dmac: 0x02_00_00_00_00_02,
            smac: 0x02_00_00_00_00_01,
            sip: 0x0A00_0001,
            dip: 0x0A00_0002,
            sport: 0xC000,
            dqp: 3,
            pkey: 0xFFFF,
            tos: 2,
        },
        ..Default::default()
    });
    // Host reads requested and not yet delivered: (address, words left).
    let mut reads = std::collections::VecDeque::<(u64, u64)>::new();
    let mut tlasts = Vec::new();
    let mut bytes = 0usize;
    let mut cur = 0usize;
    let mut psn = 0u32;
    let mut cycle = 0u64;
    while tlasts.len() < frames {
        assert!(
            cycle < (len as u64 / 8 + 200) * frames as u64 + 10_000,
            "roce_tx bench: stuck after {} frames",
            tlasts.len()
        );
        let i = TxIn {
            req_valid: true,
            req: TxDesc {
                flow: 3,
                opcode,
                psn,
                len: len,
                aeth: 0x1F00_0000,
                addr: 0x1000,
                va: 0x8000,
                rkey: 0x1234,
                dlen: len as u32,
                ..Default::default()
            },
            rd: Axis {
                tvalid: !reads.is_empty(),
                tdata: reads.front().map_or(0, |r| host_word(r.0)),
                tlast: reads.front().is_some_and(|r| r.1 == 1),
                ..Default::default()
            },
            rdq_ready: true,
            out_tready: true,
            ..Default::default()
        };
        let o = e.step(&i);
        if o.req_ready {
            psn = (psn + 1) & 0xFF_FFFF;
        }
        if i.rd.tvalid && o.rd_tready {
            let r = reads.front_mut().unwrap();
            r.0 += 8;
            r.1 -= 1;
            if r.1 == 0 {
                reads.pop_front();
            }
        }
        if o.rdq_valid {
            reads.push_back((o.rdq.addr, (o.rdq.len as u64).div_ceil(8)));
        }
        if o.out.tvalid {
            cur += o.out.tkeep.count_ones() as usize;
            if o.out.tlast {
                tlasts.push(cycle);
                bytes = cur;
                cur = 0;
            }
        }
        cycle += 1;
    }
    // Steady state: skip the first frames (pipeline fill).
    let skip = frames / 4;
    let cpf = (tlasts[frames - 1] - tlasts[skip - 1]) as f64 / (frames - skip) as f64;
    (cpf, bytes)
}

/// Tx figures into `f`.
pub fn bench_tx(f: &mut Figures) {
    for (name, opcode, len) in [
        ("ack", 0x11u8, 0u16),
        ("write_only_1024", 0x0A, 1024),
        ("write_middle_4096", 0x07, 4096),
    ] {
        let (cpf, bytes) = tx_back_to_back(opcode, len, 64);
        let ideal = bytes.div_ceil(8) as f64;
        f.insert(format!("roce_tx.{name}.frame_bytes"), bytes as f64);
        f.insert(format!("roce_tx.{name}.cycles_per_frame"), cpf);
        f.insert(format!("roce_tx.{name}.ideal_cycles_per_frame"), ideal);
        f.insert(format!("roce_tx.{name}.mpps_at_156mhz"), 156.25 / cpf);
    }
}

/// Back-to-back Rx frames through the parser and the dispatcher (Verilator,
/// twins in lockstep), all readies high: (cycles per frame over the burst
/// including the drain, frame bytes, CC events, host bytes written, drops).
fn rx_back_to_back(
    make: impl Fn(u32) -> Packet,
    frames: usize,
) -> (f64, usize, usize, usize, usize) {
    let mut rx = RtlRx::<11, A>::new(EngineKind::Verilator, 10, None);
    // The WRITEs' R_Key (1: entry 0) grants all of memory to domain 0.
    rx.set_region(
        0,
        Some(nic_spec::mr::Region {
            base: 0,
            len: u64::MAX,
            rkey: 1,
            pd: 0,
            rights: nic_spec::mr::right::REMOTE_WRITE | nic_spec::mr::right::REMOTE_READ,
        }),
    );
    rx.configure(
        2,
        &FlowCfg {
            valid: true,
            epsn: 0,
            rd_addr: 0,
            rd_psn: 0,
            cnp_on_ce: false,
        },
    );
    let burst: Vec<Vec<u8>> = (0..frames as u32).map(|k| make(k).encode()).collect();
    let bytes = burst[0].len();
    let (ev, cycles) = rx.receive_burst(&burst);
    let count = |f: fn(&RxEvent) -> usize| ev.iter().map(f).sum::<usize>();
    let cc = count(|e| matches!(e, RxEvent::Cc(_)) as usize);
    let written = count(|e| match e {
        RxEvent::HostWrite { data, .. } => data.len(),
        _ => 0,
    });
    let drops = count(|e| matches!(e, RxEvent::Drop(_)) as usize);
    (cycles as f64 / frames as f64, bytes, cc, written, drops)
}

/// Rx figures into `f`.
pub fn bench_rx(f: &mut Figures) {
    let ack = |k: u32| Packet {
        opcode: op::ACK,
        dqp: 2,
        psn: k,
        aeth: Some(0x1F00_0000 | k),
        ..Packet::default()
    };
    let write = |k: u32| Packet {
        opcode: op::WRITE_ONLY,
        dqp: 2,
        psn: k,
        reth: Some(Reth {
            va: 0x10000 + 1024 * k as u64,
            rkey: 1,
            dlen: 1024,
        }),
        payload: (0..1024).map(|i| (i * 7 + k as usize) as u8).collect(),
        ..Packet::default()
    };
    let n = 256;
    for (name, (cpf, bytes, cc, written, drops)) in [
        ("ack", rx_back_to_back(ack, n)),
        ("write_only_1024", rx_back_to_back(write, n)),
    ] {
        f.insert(format!("roce_rx.{name}.frame_bytes"), bytes as f64);
        f.insert(format!("roce_rx.{name}.cycles_per_frame"), cpf);
        f.insert(
            format!("roce_rx.{name}.wire_cycles_per_frame"),
            bytes.div_ceil(8) as f64,
        );
        f.insert(format!("roce_rx.{name}.frames"), n as f64);
        f.insert(format!("roce_rx.{name}.cc_events"), cc as f64);
        f.insert(format!("roce_rx.{name}.host_bytes_written"), written as f64);
        f.insert(format!("roce_rx.{name}.drops"), drops as f64);
    }
}

/// Every RoCE figure.
pub fn bench_roce(f: &mut Figures) {
    bench_tx(f);
    bench_rx(f);
    bench_requester(f);
}

/// The requester on Verilator (`Requester128`, MTU 1024, every ready
/// high): work requests taken back to back, a PktSend of four MTUs to
/// its descriptors, an ACK to its completion and scheduler ACK.
pub fn bench_requester(f: &mut Figures) {
    use crate::cosim::engine;
    use nic_golden::roce::requester::In;
    use nic_golden::roce::{CcFeedback, ReqFlowCtx, WorkReq};
    use nic_golden::sched::PktSend;
    use nic_hdl::top::Requester128;
    use nic_spec::roce::{aeth, op, syndrome, wr};
    let mut e = engine::<Requester128>(EngineKind::Verilator, "bench_requester");
    let base = In {
        cfg_mtu_log2: 10,
        cfg_rto: 1 << 30,
        ev_ready: true,
        desc_ready: true,
        cmpl_ready: true,
        cc_ready: true,
        ..In::default()
    };
    let step = |e: &mut Box<dyn crate::Engine<Requester128>>, i: &In| {
        let c = e.cycles();
        (c, e.step(i))
    };
    // The flow's context, then let its INIT go.
    let ctx = In {
        ctx_valid: true,
        ctx: ReqFlowCtx {
            flow: 5,
            active: true,
            psn: 100,
            tlm_data: false,
            retry_limit: nic_spec::roce::wr::RETRY_LIMIT_MAX,
        },
        ..base
    };
    while !step(&mut e, &ctx).1.ctx_ready {}
    for _ in 0..20 {
        step(&mut e, &base);
    }
    // 16 WRITEs of 4 KiB offered back to back.
    let mut taken = Vec::new();
    for k in 0..16u32 {
        let w = In {
            wr_valid: true,
            wr: WorkReq {
                flow: 5,
                opcode: wr::WRITE,
                laddr: 0x1000 * k as u64,
                va: 0x10_0000,
                rkey: 1,
                len: 4096,
                tag: k,
            },
            ..base
        };
        loop {
            let (c, o) = step(&mut e, &w);
            if o.wr_ready {
                taken.push(c);
                break;
            }
        }
    }
    let wr_ii = (taken[15] - taken[0]) as f64 / 15.0;
    for _ in 0..20 {
        step(&mut e, &base);
    }
    // One PktSend of 4096 bytes (epoch 1: the context's INIT).
    let s = In {
        send_valid: true,
        send: PktSend {
            flow: 5,
            seq: 0,
            len: 4096,
            probe: false,
            epoch: 1,
        },
        ..base
    };
    let (t_send, _) = loop {
        let (c, o) = step(&mut e, &s);
        if o.send_ready {
            break (c, o);
        }
    };
    let mut descs = Vec::new();
    while descs.len() < 4 && e.cycles() < t_send + 200 {
        let (c, o) = step(&mut e, &base);
        if o.desc_valid {
            descs.push(c);
        }
    }
    assert_eq!(descs.len(), 4, "bench_requester: descriptors");
    for _ in 0..20 {
        step(&mut e, &base);
    }
    // The ACK of the last packet (PSN 103) completes the first WRITE.
    let a = In {
        fb_valid: true,
        fb: CcFeedback {
            flow: 5,
            psn: 103,
            aeth: aeth(syndrome::ACK, 0),
            opcode: op::ACK,
            tlm: Default::default(),
        },
        ..base
    };
    let (t_ack, _) = loop {
        let (c, o) = step(&mut e, &a);
        if o.fb_ready {
            break (c, o);
        }
    };
    let (mut t_cmpl, mut t_ev) = (None, None);
    while (t_cmpl.is_none() || t_ev.is_none()) && e.cycles() < t_ack + 100 {
        let (c, o) = step(&mut e, &base);
        if o.cmpl_valid && t_cmpl.is_none() {
            t_cmpl = Some(c);
        }
        if o.ev_valid && t_ev.is_none() {
            t_ev = Some(c);
        }
    }
    f.insert("requester_wr_ii_cycles".into(), wr_ii);
    f.insert(
        "requester_send_to_first_desc_cycles".into(),
        (descs[0] - t_send) as f64,
    );
    f.insert(
        "requester_desc_ii_cycles".into(),
        (descs[3] - descs[0]) as f64 / 3.0,
    );
    f.insert(
        "requester_ack_to_cmpl_cycles".into(),
        (t_cmpl.expect("no completion") - t_ack) as f64,
    );
    f.insert(
        "requester_ack_to_sched_ack_cycles".into(),
        (t_ev.expect("no scheduler ACK") - t_ack) as f64,
    );
}
