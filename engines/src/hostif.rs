//! Harnesses of the host interface's blocks (`hdl/src/hostif/`), of
//! `HostIf` and of the whole NIC (`hdl/src/nic/nic.rs`).

use crate::harness;
use nic_golden::hostif as golden;
use nic_hdl::hostif::axil_slave::AxilSlave;
use nic_hdl::hostif::axil_split::AxilSplit;
use nic_hdl::hostif::bram_dma::BramDma;
use nic_hdl::hostif::cmpl_queue::CmplQueue;
use nic_hdl::hostif::cq_engine::CqEngine;
use nic_hdl::hostif::csr::Csr;
use nic_hdl::hostif::csr_decode::CsrDecode;
use nic_hdl::hostif::dma_rd_mux::DmaRdMux;
use nic_hdl::hostif::dma_wr_pack::DmaWrPack;
use nic_hdl::hostif::sq_engine::SqEngine;
use nic_hdl::hostif::stats_sel::*;
use nic_hdl::hostif::wqe_unpack::WqeUnpack;
use nic_hdl::hostif::HostIf;
use nic_hdl::hostif::HostIfStatsSink;
use nic_hdl::nic::{HpccNic, HpccNic10g};
use nic_hdl::roce::TxStatsSink;
use rust_hdl::prelude::*;

harness! {
    impl<const L: usize> CmplQueue<L> {
        type In = golden::cmpl_queue::In;
        type Out = golden::cmpl_queue::Out;
        clock = clock;
        inputs { cmpl_valid: s_cmpl.valid, out_ready: m_cmpl.ready }
        outputs { cmpl_ready: s_cmpl.ready, out_valid: m_cmpl.valid }
        records_in { cmpl: s_cmpl }
        records_out { out: m_cmpl }
    }
}

harness! {
    impl<const A: usize, const C: usize> CsrDecode<A, C> {
        type In = golden::csr_decode::In;
        type Out = golden::csr_decode::Out;
        clock = clock;
        inputs { load: load, addr: addr, write: write, strb: strb }
        outputs {
            a_id: a_id, a_version: a_version, a_caps: a_caps, a_stats: a_stats,
            a_scratch: a_scratch, a_control: a_control, a_base_lo: a_base_lo,
            a_base_hi: a_base_hi, a_log: a_log, a_flow_cq: a_flow_cq, g_core: g_core,
            g_cq: g_cq, g_db: g_db, c_ro: c_ro, c_slverr: c_slverr, c_decerr: c_decerr,
            is_control: is_control, is_base_lo: is_base_lo, is_base_hi: is_base_hi,
            is_log: is_log, is_flow_cq: is_flow_cq, core_r: core_r, core_hi: core_hi,
            stats_page: stats_page, stats_sel: stats_sel, cq_off: cq_off, db_flow: db_flow
        }
    }
}

harness! {
    impl<> AxilSlave {
        type In = golden::axil_slave::In;
        type Out = golden::axil_slave::Out;
        clock = clock;
        inputs { reset: reset, req_ready: m_req.ready, resp_valid: s_resp.valid }
        outputs { req_valid: m_req.valid }
        records_in { axil: s_axil, resp: s_resp }
        records_out { axil: s_axil, req: m_req }
    }
}

/// The counter selectors are combinational; the harness needs a clock,
/// so each is driven through a wrapper (the clock is unused), like
/// `Ns3HopParseTb`.
macro_rules! stats_sel_harness {
    ($($tb:ident = $blk:ident ($sink:ident) : $rec:ty),*) => {$(
        #[doc = concat!("`", stringify!($blk), "` with a clock for the harness.")]
        #[derive(LogicBlock, Default)]
        pub struct $tb {
            pub clock: Signal<In, Clock>,
            pub s_stats: $sink,
            pub sel: Signal<In, Bits<8>>,
            pub data: Signal<Out, Bits<32>>,
            pub hit: Signal<Out, Bit>,
            inner: $blk,
        }

        impl Logic for $tb {
            #[hdl_gen]
            fn update(&mut self) {
                $sink::link(&mut self.s_stats, &mut self.inner.s_stats);
                self.inner.sel.next = self.sel.val();
                self.data.next = self.inner.data.val();
                self.hit.next = self.inner.hit.val();
            }
        }

        harness! {
            impl<> $tb {
                type In = golden::stats_sel::In<$rec>;
                type Out = golden::stats_sel::Out;
                clock = clock;
                inputs { sel: sel }
                outputs { data: data, hit: hit }
                records_in { stats: s_stats }
            }
        }
    )*};
}
// The smallest and the largest record's selector (the register
// decoder's test covers all eight).
stats_sel_harness!(
    TxStatsSelTb = TxStatsSel(TxStatsSink): nic_golden::roce::TxStats,
    HostIfStatsSelTb = HostIfStatsSel(HostIfStatsSink): nic_golden::hostif::HostIfStats
);

harness! {
    impl<const A: usize, const Q: usize, const C: usize> Csr<A, Q, C> {
        type In = golden::csr::In;
        type Out = golden::csr::Out;
        clock = clock;
        inputs {
            reset: reset, req_valid: s_req.valid, cfg_ready: m_cfg.ready,
            sq_ready: m_sq.ready, sq_resp_valid: s_sq.valid,
            cq_ready: m_cq.ready, cq_resp_valid: s_cq.valid
        }
        outputs {
            req_ready: s_req.ready, resp_valid: m_resp.valid, cfg_valid: m_cfg.valid,
            commit_valid: m_commit.valid, sq_valid: m_sq.valid, cq_valid: m_cq.valid,
            reads: reads, writes: writes, slverr: slverr, decerr: decerr, ro_writes: ro_writes,
            soft_reset: soft_reset
        }
        records_in {
            req: s_req, sq_resp: s_sq, cq_resp: s_cq,
            stats_parse: s_stats_parse, stats_dispatch: s_stats_dispatch, stats_tx: s_stats_tx,
            stats_sched: s_stats_sched, stats_cc: s_stats_cc, stats_req: s_stats_req,
            stats_core: s_stats_core, stats_host: s_stats_host,
            stats_dcqcn: s_stats_dcqcn, stats_np: s_stats_np, stats_cnm: s_stats_cnm
        }
        records_out { resp: m_resp, cfg: m_cfg, commit: m_commit, sq: m_sq, cq: m_cq }
    }
}

harness! {
    impl<const A: usize, const Q: usize, const W: usize> SqEngine<A, Q, W> {
        type In = golden::sq_engine::In;
        type Out = golden::sq_engine::Out;
        clock = clock;
        inputs {
            reg_valid: s_reg.valid, commit_valid: s_commit.valid, cmpl_valid: s_cmpl.valid,
            err_valid: s_err.valid, wqe_freed: wqe_freed, fetch_ready: m_fetch.ready,
            cqe_ready: m_cqe.ready
        }
        outputs {
            reg_ready: s_reg.ready, resp_valid: m_reg.valid, cmpl_ready: s_cmpl.ready,
            err_ready: s_err.ready, fetch_valid: m_fetch.valid, cqe_valid: m_cqe.valid,
            db_rings: db_rings, db_refused: db_refused, wqe_fetches: wqe_fetches
        }
        records_in { reg: s_reg, commit: s_commit, cmpl: s_cmpl, err: s_err }
        records_out { resp: m_reg, fetch: m_fetch, cqe: m_cqe }
    }
}

harness! {
    impl<const W: usize> WqeUnpack<W> {
        type In = golden::wqe_unpack::In;
        type Out = golden::wqe_unpack::Out;
        clock = clock;
        inputs { beat_valid: s_beat.valid, wr_ready: m_wr.ready, err_ready: m_err.ready }
        outputs {
            beat_ready: s_beat.ready, wr_valid: m_wr.valid, err_valid: m_err.valid,
            wqe_freed: wqe_freed, wqes: wqes, wqe_dma_err: wqe_dma_err
        }
        records_in { beat: s_beat }
        records_out { wr: m_wr, err: m_err }
    }
}

harness! {
    impl<const C: usize, const N: usize> CqEngine<C, N> {
        type In = golden::cq_engine::In;
        type Out = golden::cq_engine::Out;
        clock = clock;
        inputs {
            reg_valid: s_reg.valid, cqe_valid: s_cqe.valid, write_ready: m_write.ready,
            done_valid: s_done.valid
        }
        outputs {
            reg_ready: s_reg.ready, resp_valid: m_reg.valid, cqe_ready: s_cqe.ready,
            write_valid: m_write.valid, event_valid: m_event.valid,
            cqes: cqes, cqe_drops: cqe_drops, events: events, ci_refused: ci_refused
        }
        records_in { reg: s_reg, cqe: s_cqe, done: s_done }
        records_out { resp: m_reg, write: m_write, event: m_event }
    }
}

harness! {
    impl<> DmaRdMux {
        type In = golden::dma_rd_mux::In;
        type Out = golden::dma_rd_mux::Out;
        clock = clock;
        inputs {
            reset: reset, core_valid: s_core.valid, fetch_valid: s_fetch.valid,
            desc_ready: m_axis_read_desc.ready,
            core_tready: m_axis_core.tready, beat_ready: m_beat.ready
        }
        outputs {
            core_ready: s_core.ready, fetch_ready: s_fetch.ready,
            desc_valid: m_axis_read_desc.valid, h2c_tready: s_axis_h2c.tready,
            beat_valid: m_beat.valid,
            rd_descs: rd_descs, h2c_err: h2c_err, h2c_len_err: h2c_len_err
        }
        records_in { core: s_core, fetch: s_fetch, h2c: s_axis_h2c }
        records_out { desc: m_axis_read_desc, beat: m_beat, core: m_axis_core }
    }
}

harness! {
    impl<> AxilSplit {
        type In = golden::axil_split::In;
        type Out = golden::axil_split::Out;
        clock = clock;
        inputs { reset: reset }
        outputs { }
        records_in { s: s_axil, a: m_axil_a, b: m_axil_b }
        records_out { s: s_axil, a: m_axil_a, b: m_axil_b }
    }
}

harness! {
    impl<const M: usize> BramDma<M> {
        type In = golden::bram_dma::In;
        type Out = golden::bram_dma::Out;
        clock = clock;
        inputs {
            reset: reset, read_desc_valid: s_axis_read_desc.valid, h2c_tready: m_axis_h2c.tready,
            write_desc_valid: s_axis_write_desc.valid,
            req_valid: s_req.valid
        }
        outputs {
            read_desc_ready: s_axis_read_desc.ready,
            write_desc_ready: s_axis_write_desc.ready, c2h_tready: s_axis_c2h.tready,
            req_ready: s_req.ready, resp_valid: m_resp.valid
        }
        records_in { read_desc: s_axis_read_desc, write_desc: s_axis_write_desc, req: s_req, c2h: s_axis_c2h }
        records_out { resp: m_resp, stats: m_stats, h2c: m_axis_h2c }
    }
}

harness! {
    impl<> DmaWrPack {
        type In = golden::dma_wr_pack::In;
        type Out = golden::dma_wr_pack::Out;
        clock = clock;
        inputs {
            core_valid: s_core.valid, cqe_valid: s_cqe.valid,
            desc_ready: m_axis_write_desc.ready, c2h_tready: m_axis_c2h.tready
        }
        outputs {
            core_ready: s_core.ready, cqe_ready: s_cqe.ready,
            desc_valid: m_axis_write_desc.valid,
            done_valid: m_done.valid, wr_descs: wr_descs
        }
        records_in { core: s_core, cqe: s_cqe }
        records_out { desc: m_axis_write_desc, done: m_done, c2h: m_axis_c2h }
    }
}

harness! {
    impl<const A: usize, const Q: usize, const C: usize, const N: usize, const W: usize> HostIf<A, Q, C, N, W> {
        type In = golden::host_if::In;
        type Out = golden::host_if::Out;
        clock = clock;
        inputs {
            reset: reset, read_desc_ready: m_axis_read_desc.ready,
            write_desc_ready: m_axis_write_desc.ready, c2h_tready: m_axis_c2h.tready,
            cfg_ready: m_cfg.ready, wr_ready: m_wr.ready, cmpl_valid: s_cmpl.valid,
            dma_rd_valid: s_dma_rd.valid, core_h2c_tready: m_axis_core_h2c.tready,
            dma_wr_valid: s_dma_wr.valid
        }
        outputs {
            read_desc_valid: m_axis_read_desc.valid, h2c_tready: s_axis_h2c.tready,
            write_desc_valid: m_axis_write_desc.valid,
            event_valid: m_event.valid, cfg_valid: m_cfg.valid, wr_valid: m_wr.valid,
            cmpl_ready: s_cmpl.ready, dma_rd_ready: s_dma_rd.ready,
            dma_wr_ready: s_dma_wr.ready,
            core_reset: core_reset
        }
        records_in {
            axil: s_axil, cmpl: s_cmpl, dma_rd: s_dma_rd, dma_wr: s_dma_wr,
            stats_parse: s_stats_parse, stats_dispatch: s_stats_dispatch, stats_tx: s_stats_tx,
            stats_sched: s_stats_sched, stats_cc: s_stats_cc, stats_req: s_stats_req,
            stats_core: s_stats_core, stats_dcqcn: s_stats_dcqcn, stats_np: s_stats_np,
            stats_cnm: s_stats_cnm, h2c: s_axis_h2c }
        records_out {
            axil: s_axil, read_desc: m_axis_read_desc, write_desc: m_axis_write_desc,
            event: m_event, cfg: m_cfg, wr: m_wr, c2h: m_axis_c2h, core_h2c: m_axis_core_h2c }
    }
}

harness! {
    impl<const A: usize, const Q: usize, const AQ: usize, const B: usize, const C: usize, const N: usize, const W: usize> HpccNic<A, Q, AQ, B, C, N, W> {
        type In = nic_golden::nic::nic::In;
        type Out = nic_golden::nic::nic::Out;
        clock = clk;
        inputs {
            rst: rst, read_desc_ready: m_axis_read_desc.ready,
            write_desc_ready: m_axis_write_desc.ready, c2h_tready: m_axis_c2h.tready,
            tx_tready: m_axis_tx.tready
        }
        outputs {
            read_desc_valid: m_axis_read_desc.valid, h2c_tready: s_axis_h2c.tready,
            write_desc_valid: m_axis_write_desc.valid,
            event_valid: m_event.valid,
            rx_tready: s_axis_rx.tready,
            pause_req: pause_req, pause_quanta: pause_quanta, pause_cev: pause_cev
        }
        records_in { axil: s_axil, h2c: s_axis_h2c, rx: s_axis_rx }
        records_out {
            axil: s_axil, read_desc: m_axis_read_desc, write_desc: m_axis_write_desc,
            event: m_event, c2h: m_axis_c2h, tx: m_axis_tx }
    }
}

harness! {
    impl<const A: usize, const Q: usize, const AQ: usize, const B: usize, const C: usize, const N: usize, const W: usize> HpccNic10g<A, Q, AQ, B, C, N, W> {
        type In = nic_golden::nic::nic_10g::In;
        type Out = nic_golden::nic::nic_10g::Out;
        clock = clk;
        inputs {
            rst: rst, read_desc_ready: m_axis_read_desc.ready,
            write_desc_ready: m_axis_write_desc.ready, c2h_tready: m_axis_c2h.tready,
            xgmii_rxd: xgmii_rxd, xgmii_rxc: xgmii_rxc, tx_pause_req: tx_pause_req,
            tx_pause_quanta: tx_pause_quanta, tx_pause_cev: tx_pause_cev,
            cfg_src_mac: cfg_src_mac
        }
        outputs {
            read_desc_valid: m_axis_read_desc.valid, h2c_tready: s_axis_h2c.tready,
            write_desc_valid: m_axis_write_desc.valid,
            event_valid: m_event.valid,
            xgmii_txd: xgmii_txd, xgmii_txc: xgmii_txc, tx_paused: tx_paused,
            rx_error_bad_frame: rx_error_bad_frame, rx_error_bad_fcs: rx_error_bad_fcs
        }
        records_in { axil: s_axil, h2c: s_axis_h2c }
        records_out {
            axil: s_axil, read_desc: m_axis_read_desc, write_desc: m_axis_write_desc,
            event: m_event, stats_mac_tx: m_stats_mac_tx, stats_mac_rx: m_stats_mac_rx,
            stats_mac_pause: m_stats_mac_pause, stats_tx_fifo: m_stats_tx_fifo, c2h: m_axis_c2h }
    }
}
