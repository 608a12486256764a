//! Twin of `hdl/src/roce/host_write_skid.rs` (`HostWriteSkid`): the
//! dispatcher's host write register and its skid register (see the
//! RTL's docs).

use crate::roce::HostWrite;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    pub push: bool,
    pub addr: u64,
    pub data: u64,
    pub strb: u8,
    pub last: bool,
    pub wr_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub wr_valid: bool,
    /// Zero while not valid.
    pub wr: HostWrite,
    pub ready: bool,
    pub wr_last: bool,
}

/// A register: the word and its `last`, `None` when empty.
type Slot = Option<(HostWrite, bool)>;

#[derive(Clone, Debug, Default)]
pub struct HostWriteSkid {
    /// The output register's word and `last` (kept when emptied: the
    /// RTL's `wr_last` holds).
    main: (HostWrite, bool),
    main_v: bool,
    skid: Slot,
}

impl Cycle for HostWriteSkid {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = Out {
            wr_valid: self.main_v,
            wr: if self.main_v {
                self.main.0
            } else {
                HostWrite::default()
            },
            ready: self.skid.is_none(),
            wr_last: self.main.1,
        };
        let take = self.main_v && i.wr_ready;
        let word = (
            HostWrite {
                addr: i.addr,
                data: i.data,
                strb: i.strb,
            },
            i.last,
        );
        if i.reset {
            self.main_v = false;
            self.skid = None;
        } else if let Some(s) = self.skid {
            if take {
                self.main = s;
                self.skid = None;
            }
        } else if i.push {
            if !self.main_v || take {
                self.main = word;
                self.main_v = true;
            } else {
                self.skid = Some(word);
            }
        } else if take {
            self.main_v = false;
        }
        o
    }
}
