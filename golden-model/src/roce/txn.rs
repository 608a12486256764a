//! Transaction-level models of the RoCEv2 pipelines (`docs/roce.md` §6–§8):
//! one descriptor or one frame at a time, no clock.
//!
//! - [`dispatch`]: [`RxDispatchModel`], the per-flow receive state and the
//!   dispatch rules of §8 (the transaction-level twin of
//!   `hdl/src/roce/rx_dispatch.rs`), and the events it produces ([`RxEvent`]).
//! - [`pipes`]: a NIC's Tx and Rx pipelines behind the traits [`TxPipe`]
//!   (one §6 descriptor in, one frame out) and [`RxPipe`] (one frame in,
//!   the §8 events out), so that an RTL engine can stand in for the golden
//!   implementations ([`GoldenTx`] = [`Packet::encode`](super::packet::Packet::encode),
//!   [`GoldenRx`] = [`decode`](super::packet::decode) + [`RxDispatchModel`]).
//!
//! The environment that drives them (requester, responder, link, host
//! memory, the `sim` scenarios) is the `nic-netsim` crate.

pub mod dispatch;
pub mod pipes;

pub use dispatch::{
    AckReq, CcEvent, DispatchCounters, FlowCfg, ReadReq, RxDispatchModel, RxDrop, RxEvent,
};
pub use pipes::{GoldenRx, GoldenTx, HostRead, RxPipe, TxContext, TxDesc, TxPipe};
