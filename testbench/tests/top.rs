//! `hdl/src/top.rs`: every top emits, with a flat wrapper whose ports are
//! `top`'s; the stream and record ports follow their declarations.

use nic_hdl::top::*;
use nic_testbench::verilator::parse_top_ports;
use rust_hdl::prelude::*;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// A top's Verilog with its flat wrapper, emitted once for all the
/// tests in this process.
fn flat(name: &str) -> String {
    static CACHE: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(v) = cache.lock().unwrap().get(name) {
        return v.clone();
    }
    let t = tops().into_iter().find(|t| t.name == name).expect("a top");
    let v = t.verilog_flat();
    cache.lock().unwrap().insert(name.to_string(), v.clone());
    v
}

/// The ports of a top's flat wrapper, in order.
fn wrapper_ports(top: &str) -> Vec<String> {
    let v = flat(top);
    let header = v
        .split_once(&format!("module {top}("))
        .unwrap_or_else(|| panic!("{top}: no wrapper module"))
        .1
        .split_once(");")
        .unwrap()
        .0;
    header.split(',').map(|p| p.trim().to_string()).collect()
}

/// Every top gets a flat wrapper with the same ports, none with `$`.
#[test]
fn every_top_has_a_flat_wrapper() {
    for t in tops().iter() {
        let v = flat(t.name);
        let raw = v
            .split_once(&format!("\n// {}: `top` with flat", t.name))
            .unwrap()
            .0;
        let ports = wrapper_ports(t.name);
        assert_eq!(ports.len(), parse_top_ports(raw).len(), "{}", t.name);
        assert!(ports.iter().all(|p| !p.contains('$')), "{}", t.name);
    }
}

/// The RoCE blocks' packet streams are `s_axis_<name>` / `m_axis_<name>`
/// with every AXI4-Stream signal, `tuser` included.
#[test]
fn roce_streams_are_axis_bundles_with_tuser() {
    for (top, streams) in [
        ("roce_tx", &["s_axis_rd", "m_axis_tx"][..]),
        ("roce_rx_parse", &["s_axis_rx", "m_axis_pay"][..]),
        ("roce_rx_dispatch", &["s_axis_pay"][..]),
        (
            "hpcc_nic_core",
            &["s_axis_rx", "m_axis_tx", "s_axis_h2c"][..],
        ),
        (
            "hpcc_nic",
            &["s_axis_rx", "m_axis_tx", "s_axis_h2c", "m_axis_c2h"][..],
        ),
    ] {
        let v = flat(top);
        let wrapper = v.split_once(&format!("module {top}(")).unwrap().1;
        for s in streams {
            for f in ["tdata", "tkeep", "tlast", "tuser", "tvalid", "tready"] {
                let p = format!("{s}_{f}");
                assert!(wrapper.contains(&format!(" {p};")), "{top}: no port {p}");
            }
        }
    }
}

/// The flat port names a record's fields get under `prefix`, from its
/// one declaration in `nic_spec::records` (handshake by kind, nested
/// records recursively).
fn record_ports(name: &str, prefix: &str, nested: bool, out: &mut Vec<String>) {
    let recs = nic_spec::records::all();
    let r = recs
        .iter()
        .find(|r| r.name == name)
        .expect("declared record");
    if !nested {
        match r.kind {
            "ready" => out.extend([format!("{prefix}_valid"), format!("{prefix}_ready")]),
            "strobe" => out.push(format!("{prefix}_valid")),
            _ => {}
        }
    }
    out.extend(r.fields.iter().map(|f| format!("{prefix}_{}", f.name)));
    for (field, rec) in r.records {
        record_ports(rec, &format!("{prefix}_{field}"), true, out);
    }
}

/// Every record port of every block top carries exactly the fields the
/// record's declaration lists, named `s_<name>_*` / `m_<name>_*`.
#[test]
fn record_ports_follow_their_declaration() {
    for (top, records) in [
        (
            "roce_rx_parse",
            &[("m_meta", "RxMeta"), ("m_stats", "RxParseStats")][..],
        ),
        (
            "roce_rx_dispatch",
            &[
                ("s_ctx", "RxFlowCtx"),
                ("s_meta", "RxMeta"),
                ("m_wr", "HostWrite"),
                ("m_ack", "AckInfo"),
                ("m_cc", "CcFeedback"),
                ("m_nak", "NakReq"),
                ("m_rdreq", "ReadReq"),
                ("m_stats", "RxDispatchStats"),
            ][..],
        ),
        (
            "roce_tx",
            &[
                ("s_ctx", "TxFlowCtx"),
                ("s_req", "TxDesc"),
                ("m_rdq", "HostReadReq"),
                ("m_stats", "TxStats"),
            ][..],
        ),
        (
            "dcqcn_rp",
            &[
                ("cfg", "DcqcnCfg"),
                ("s_event", "RpEvent"),
                ("m_update", "CcUpdate"),
                ("m_stats", "DcqcnStats"),
            ][..],
        ),
        (
            "dcqcn_np",
            &[
                ("s_ce", "CeMark"),
                ("m_cnp", "CnpReq"),
                ("m_stats", "NpStats"),
            ][..],
        ),
        (
            "cnm_rx",
            &[("m_cnm", "CnmInfo"), ("m_stats", "CnmStats")][..],
        ),
        (
            "flow_sched",
            &[
                ("s_ev", "SchedEvent"),
                ("m_send", "PktSend"),
                ("m_stats", "SchedStats"),
            ][..],
        ),
        (
            "hpcc_nic_core",
            &[
                ("s_cfg", "CfgWrite"),
                ("s_wr", "WorkReq"),
                ("m_cmpl", "WrCompletion"),
                ("m_dma_rd", "HostReadReq"),
                ("m_dma_wr", "HostWrite"),
                ("m_stats_parse", "RxParseStats"),
                ("m_stats_dispatch", "RxDispatchStats"),
                ("m_stats_tx", "TxStats"),
                ("m_stats_sched", "SchedStats"),
                ("m_stats_cc", "CcStats"),
                ("m_stats_req", "ReqStats"),
                ("m_stats_core", "CoreStats"),
            ][..],
        ),
        (
            "hpcc_cc",
            &[
                ("s_event", "CcEvent"),
                ("m_update", "CcUpdate"),
                ("m_stats", "CcStats"),
            ][..],
        ),
        ("uart_axil", &[("m_stats", "UartBridgeStats")][..]),
        (
            "bram_dma",
            &[
                ("s_axis_read_desc", "DmaDesc"),
                ("s_axis_write_desc", "DmaDesc"),
                ("s_req", "RegReq"),
                ("m_resp", "RegResp"),
                ("m_stats", "BramDmaStats"),
            ][..],
        ),
        (
            "hpcc_nic",
            &[
                ("m_axis_read_desc", "DmaDesc"),
                ("m_axis_write_desc", "DmaDesc"),
                ("m_event", "CqEvent"),
            ][..],
        ),
        (
            "host_if",
            &[
                ("m_axis_read_desc", "DmaDesc"),
                ("m_axis_write_desc", "DmaDesc"),
                ("m_event", "CqEvent"),
                ("m_cfg", "CfgWrite"),
                ("m_wr", "WorkReq"),
                ("s_cmpl", "WrCompletion"),
                ("s_dma_rd", "HostReadReq"),
                ("s_dma_wr", "HostWrite"),
            ][..],
        ),
    ] {
        let ports = wrapper_ports(top);
        for (prefix, rec) in records {
            let mut want = Vec::new();
            record_ports(rec, prefix, false, &mut want);
            let have: Vec<&str> = ports
                .iter()
                .map(String::as_str)
                .filter(|p| p.starts_with(&format!("{prefix}_")))
                .collect();
            assert_eq!(have, want, "{top}: ports of {prefix} ({rec})");
        }
    }
}

/// `join` wires a producer's record port to a consumer's, in the
/// emitted Verilog: the parser's `m_meta` to the dispatcher's `s_meta`.
#[test]
fn record_join_wires_producer_to_consumer() {
    use nic_hdl::roce::rx_dispatch::RoceRxDispatch;
    use nic_hdl::roce::rx_parse::RoceRxParse;
    use nic_hdl::roce::*;
    use nic_hdl::stream::{AxisSink, AxisSource};

    #[derive(LogicBlock, Default)]
    struct RxChain {
        clock: Signal<In, Clock>,
        reset: Signal<In, Bit>,
        cfg_mtu_log2: Signal<In, Bits<4>>,
        s_axis_rx: AxisSink<64, 8, 1>,
        s_ctx: RxFlowCtxSink<3>,
        m_wr: HostWriteSource,
        m_ack: AckInfoSource<3>,
        m_cc: CcFeedbackSource<3>,
        m_nak: NakReqSource<3>,
        m_rdreq: ReadReqSource<3>,
        m_cnp: nic_hdl::cc::RpEventSource,
        m_ce: nic_hdl::cc::CeMarkSource,
        parse: RoceRxParse<6>,
        dispatch: RoceRxDispatch<3>,
    }
    impl Logic for RxChain {
        #[hdl_gen]
        fn update(&mut self) {
            clock!(self, clock, parse, dispatch);
            self.parse.reset.next = self.reset.val();
            self.dispatch.reset.next = self.reset.val();
            self.dispatch.cfg_mtu_log2.next = self.cfg_mtu_log2.val();
            AxisSink::<64, 8, 1>::link(&mut self.s_axis_rx, &mut self.parse.s_axis_rx);
            RxFlowCtxSink::<3>::link(&mut self.s_ctx, &mut self.dispatch.s_ctx);
            HostWriteSource::link(&mut self.m_wr, &mut self.dispatch.m_wr);
            AckInfoSource::<3>::link(&mut self.m_ack, &mut self.dispatch.m_ack);
            CcFeedbackSource::<3>::link(&mut self.m_cc, &mut self.dispatch.m_cc);
            NakReqSource::<3>::link(&mut self.m_nak, &mut self.dispatch.m_nak);
            ReadReqSource::<3>::link(&mut self.m_rdreq, &mut self.dispatch.m_rdreq);
            nic_hdl::cc::RpEventSource::link(&mut self.m_cnp, &mut self.dispatch.m_cnp);
            nic_hdl::cc::CeMarkSource::link(&mut self.m_ce, &mut self.dispatch.m_ce);
            RxMetaSource::join(&mut self.parse.m_meta, &mut self.dispatch.s_meta);
            AxisSource::<64, 8, 1>::join(&mut self.parse.m_axis_pay, &mut self.dispatch.s_axis_pay);
        }
    }
    let mut chain = RxChain::default();
    chain.connect_all();
    let v = nic_hdl::verilog::generate_verilog(&chain);
    for f in ["valid", "opcode", "len", "tlm$hop4"] {
        let line = format!("always @(*) dispatch$s_meta${f} = parse$m_meta${f};");
        assert!(v.contains(&line), "no `{line}`");
    }
    assert!(v.contains("always @(*) parse$m_meta$ready = dispatch$s_meta$ready;"));
}

/// `mac_10g` has every core port of verilog-ethernet's `eth_mac_10g`
/// (64-bit XGMII), with its direction; the only other input is the
/// ignored `rx_axis_tready`.
#[test]
fn mac_10g_has_eth_mac_10g_ports() {
    let v = flat("mac_10g");
    let wrapper = v.split_once("module mac_10g(").unwrap().1;
    let inputs = [
        "rx_clk",
        "rx_rst",
        "tx_clk",
        "tx_rst",
        "tx_axis_tdata",
        "tx_axis_tkeep",
        "tx_axis_tvalid",
        "tx_axis_tlast",
        "tx_axis_tuser",
        "xgmii_rxd",
        "xgmii_rxc",
    ];
    let outputs = [
        "tx_axis_tready",
        "rx_axis_tdata",
        "rx_axis_tkeep",
        "rx_axis_tvalid",
        "rx_axis_tlast",
        "rx_axis_tuser",
        "xgmii_txd",
        "xgmii_txc",
        "rx_error_bad_frame",
        "rx_error_bad_fcs",
    ];
    let decl = |p: &str| {
        wrapper
            .lines()
            .map(str::trim)
            .find(|l| l.ends_with(&format!(" {p};")))
            .unwrap_or_else(|| panic!("mac_10g: no port {p}"))
            .to_string()
    };
    for p in inputs {
        assert!(decl(p).starts_with("input"), "{p}");
    }
    for p in outputs {
        assert!(decl(p).starts_with("output"), "{p}");
    }
    let extra_inputs: Vec<&str> = wrapper
        .split_once(");")
        .unwrap()
        .1
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("input"))
        .filter(|l| !inputs.iter().any(|p| l.ends_with(&format!(" {p};"))))
        .collect();
    assert_eq!(extra_inputs.len(), 1, "{extra_inputs:?}");
    assert!(extra_inputs[0].ends_with(" rx_axis_tready;"));
}

/// `hpcc_nic`'s clock, reset and AXI4-Lite ports have the names vendor
/// tools and cocotbext-axi expect, and they are the fields of the
/// AXI4-Lite records (`nic_spec::records`: `AxilIn`, `AxilOut`).
#[test]
fn the_nic_has_the_axi4_lite_port_names() {
    let ports = wrapper_ports("hpcc_nic");
    let want: Vec<String> = [
        "clk", "rst", "awaddr", "awprot", "awvalid", "awready", "wdata", "wstrb", "wvalid",
        "wready", "bresp", "bvalid", "bready", "araddr", "arprot", "arvalid", "arready", "rdata",
        "rresp", "rvalid", "rready",
    ]
    .iter()
    .map(|p| {
        if p.len() <= 3 {
            p.to_string()
        } else {
            format!("s_axil_{p}")
        }
    })
    .collect();
    assert_eq!(&ports[..want.len()], &want[..]);
    let recs = nic_spec::records::all();
    let mut fields: Vec<String> = ["AxilIn", "AxilOut"]
        .iter()
        .flat_map(|n| recs.iter().find(|r| r.name == *n).unwrap().fields.iter())
        .map(|f| format!("s_axil_{}", f.name))
        .collect();
    fields.sort();
    let mut have: Vec<String> = want[2..].to_vec();
    have.sort();
    assert_eq!(have, fields);
}
