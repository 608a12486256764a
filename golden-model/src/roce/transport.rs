//! Transaction-level RoCEv2 transport between two NICs (`docs/roce.md` §9):
//! what the `sim` command runs.
//!
//! - [`dispatch`]: [`RxDispatchModel`], the per-flow receive state and the
//!   dispatch rules of §8 (the transaction-level twin of
//!   `hdl/src/roce/rx_dispatch.rs`), and the events it produces ([`RxEvent`]).
//! - [`pipes`]: the Tx and Rx pipelines of a NIC behind the traits
//!   [`TxPipe`] (one §6 descriptor in, one frame out) and [`RxPipe`] (one
//!   frame in, the §8 events out), so that an RTL engine can replace the
//!   golden implementations ([`GoldenTx`] = [`Packet::encode`](super::packet::Packet::encode),
//!   [`GoldenRx`] = [`decode`](super::packet::decode) + [`RxDispatchModel`]);
//!   host memory ([`HostMem`]).
//! - [`link`]: a full-duplex link (per-direction delay, Bernoulli loss with
//!   a seeded RNG, serialization at 8 bytes a cycle).
//! - [`sim`]: per NIC a requester (WRITE / READ work requests segmented at
//!   the MTU, PSNs, AckReq, telemetry, go-back-N on NAK, retransmission
//!   timer, probes) and a responder (ACK/NAK, READ responses from host
//!   memory); the named scenarios and the end-of-run data check.
//!
//! The time unit is the clock cycle of a 64-bit datapath.

pub mod dispatch;
pub mod link;
pub mod pipes;
pub mod sim;

pub use dispatch::{
    AckReq, CcEvent, DispatchCounters, FlowCfg, ReadReq, RxDispatchModel, RxDrop, RxEvent,
};
pub use link::{Link, LinkCfg};
pub use pipes::{GoldenRx, GoldenTx, HostMem, RxPipe, TxContext, TxDesc, TxPipe};
pub use sim::{run, run_with, Scenario, SimConfig, SimResult, WireFrame};
