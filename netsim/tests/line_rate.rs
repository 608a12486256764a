//! The line-rate contract on two golden cores sending to each other at
//! once (`nic_netsim::line_rate`; the full set of runs is `make bench`'s
//! `line_rate_*` figures).

use nic_netsim::line_rate::{run, LineRateCfg};

/// A mix of 64 B, 1 KiB, 256 B and 16 KiB WRITEs both ways on 8 flows,
/// ACKs and telemetry on, each transmitter paced by the wire: both lines
/// stay full, nothing is dropped or sent again, and with the control
/// budget (`TX_CTL_SHARE` = 4) data keeps at least 0.9 of the line (0.889
/// with an ACK first at every boundary).
#[test]
fn both_directions_fill_the_line_and_drop_nothing() {
    let r = run(&LineRateCfg {
        flows: 8,
        sizes: vec![64, 1024, 256, 16384],
        messages: 100,
        link_delay: 100,
        dma_wr_share: 1.0,
        one_way: false,
        pause: false,
    });
    assert!(r.finished, "{r:?}");
    for d in &r.dir {
        assert_eq!((d.drop_full, d.timeouts, d.naks), (0, 0, 0), "{r:?}");
        assert_eq!(d.goodput, 1.0, "{r:?}");
        assert!(d.wire_fill >= 0.95, "{r:?}");
        assert!(d.data_fill >= 0.90, "{r:?}");
    }
}

/// 64-byte WRITEs one way: the share of the wire's frame rate they
/// reach, on 64 flows and on one (issue 50 asks ≥ 0.95 and ≥ 0.8; with
/// 32 work requests a flow both reach 1.000 in `make bench`'s 3,000-message
/// runs).
#[test]
fn small_writes_one_way() {
    for (flows, at_least) in [(1, 0.95), (64, 0.95)] {
        let r = run(&LineRateCfg {
            flows,
            sizes: vec![64],
            messages: 600,
            link_delay: 100,
            dma_wr_share: 1.0,
            one_way: true,
            pause: false,
        });
        eprintln!("{flows} flows: {:?}", r.dir[0]);
        assert!(r.finished);
        assert_eq!(r.dir[0].drop_full + r.dir[1].drop_full, 0);
        assert!(r.dir[0].data_fill >= at_least, "{flows} flows: {r:?}");
    }
}

/// One flow of 64-byte WRITEs both ways, ACKs and telemetry on: its 32
/// work requests are a window longer than its loop (data out, the peer's
/// ACK, the completion, the host's next work request and its fetch), so
/// the line stays full and data keeps 0.9 of it (issue 50). With 16 work
/// requests a flow the same run filled 0.83 of the wire, data 0.59
/// (`make bench`'s `line_rate_64B_1flows_ring16`).
#[test]
fn one_flow_of_small_writes_both_ways_fills_the_line() {
    let r = run(&LineRateCfg {
        flows: 1,
        sizes: vec![64],
        messages: 600,
        link_delay: 100,
        dma_wr_share: 1.0,
        one_way: false,
        pause: false,
    });
    assert!(r.finished, "{r:?}");
    for d in &r.dir {
        assert_eq!((d.drop_full, d.timeouts, d.naks), (0, 0, 0), "{r:?}");
        assert!(d.wire_fill >= 0.95, "{r:?}");
        assert!(d.data_fill >= 0.90, "{r:?}");
    }
}

/// Hosts that take DMA writes in half the cycles, the mix both ways:
/// each receiver sends XOFF and XON on its buffer's fill (`RX_XOFF`,
/// `RX_XON`), the sender holds new frames while paused, and nothing is
/// dropped or sent again. (Without the pause the same run drops 57
/// frames each way and finishes only after timeouts, 3 million cycles:
/// `make bench`'s `line_rate_mix_8flows_host_half` shows it.)
#[test]
fn a_slow_host_pauses_the_link_instead_of_dropping() {
    let r = run(&LineRateCfg {
        flows: 8,
        sizes: vec![64, 1024, 256, 16384],
        messages: 40,
        link_delay: 100,
        dma_wr_share: 0.5,
        one_way: false,
        pause: true,
    });
    eprintln!("pause: {:?}", r.dir);
    assert!(r.finished, "{r:?}");
    for d in &r.dir {
        assert_eq!((d.drop_full, d.timeouts, d.naks), (0, 0, 0), "{r:?}");
        assert_eq!(d.goodput, 1.0, "{r:?}");
        assert!(d.pauses >= 2 && d.pause_cycles > 0, "{r:?}");
    }
}
