//! Twin of `hdl/src/hostif/wqe_unpack.rs`: fetched send-queue entries →
//! work requests, or `DMA_ERR` completions.

use crate::hostif::WqeBeat;
use crate::mem::fifo::FifoOf;
use crate::roce::{WorkReq, WrCompletion};
use crate::Cycle;
use nic_spec::roce::wr::Status;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub beat_valid: bool,
    pub beat: WqeBeat,
    pub wr_ready: bool,
    pub err_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub beat_ready: bool,
    pub wr_valid: bool,
    pub wr: WorkReq,
    pub err_valid: bool,
    pub err: WrCompletion,
    pub wqe_freed: bool,
    pub wqes: u32,
    pub wqe_dma_err: u32,
}

/// A buffered entry: its four words, flow, send-queue index, flagged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    w: [u64; 4],
    flow: u16,
    idx: u16,
    err: bool,
}

/// The work request an entry's four words describe
/// (`nic_spec::hostif::wqe`).
pub fn work_req(flow: u32, w: [u64; 4]) -> WorkReq {
    WorkReq {
        flow,
        opcode: (w[3] >> 32) as u8,
        laddr: w[0],
        va: w[1],
        len: w[2] as u32,
        rkey: (w[2] >> 32) as u32,
        tag: w[3] as u32,
    }
}

#[derive(Clone, Debug)]
pub struct WqeUnpack<const W: usize> {
    w: [u64; 3],
    err_acc: bool,
    /// An entry left the buffer in the cycle before (`wqe_freed`).
    freed: bool,
    entries: FifoOf<Entry, W>,
    held: u32,
    n_wqes: u32,
    n_err: u32,
}

impl<const W: usize> Default for WqeUnpack<W> {
    fn default() -> Self {
        Self {
            w: [0; 3],
            err_acc: false,
            freed: false,
            entries: FifoOf::default(),
            held: 0,
            n_wqes: 0,
            n_err: 0,
        }
    }
}

impl<const W: usize> Cycle for WqeUnpack<W> {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let room = self.held < 1 << W;
        let take = i.beat_valid && room;
        let mut push = None;
        let b = &i.beat;
        if take {
            match b.word & 3 {
                0 => {
                    self.w[0] = b.data;
                    self.err_acc = b.err;
                }
                1 => {
                    self.w[1] = b.data;
                    self.err_acc |= b.err;
                }
                2 => {
                    self.w[2] = b.data;
                    self.err_acc |= b.err;
                }
                _ => {
                    push = Some(Entry {
                        w: [self.w[0], self.w[1], self.w[2], b.data],
                        flow: b.flow as u16,
                        idx: b.idx,
                        err: self.err_acc || b.err,
                    });
                }
            }
        }
        let head = self.entries.head();
        let e = head.unwrap_or_default();
        let wr_valid = head.is_some() && !e.err;
        let err_valid = head.is_some() && e.err;
        let pop = (wr_valid && i.wr_ready) || (err_valid && i.err_ready);
        let out = Out {
            beat_ready: room,
            wr_valid,
            wr: work_req(e.flow as u32, e.w),
            err_valid,
            err: WrCompletion {
                flow: e.flow as u32,
                tag: e.idx as u32,
                status: Status::DmaErr as u8,
                bytes: 0,
            },
            wqe_freed: self.freed,
            wqes: self.n_wqes,
            wqe_dma_err: self.n_err,
        };
        self.freed = pop;
        self.entries.step(push, pop);
        if wr_valid && i.wr_ready {
            self.n_wqes = self.n_wqes.wrapping_add(1);
        }
        if err_valid && i.err_ready {
            self.n_err = self.n_err.wrapping_add(1);
        }
        match (push.is_some(), pop) {
            (true, false) => self.held += 1,
            (false, true) => self.held -= 1,
            _ => {}
        }
        out
    }
}
