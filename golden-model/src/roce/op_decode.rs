//! Twin of `hdl/src/roce/op_decode.rs`: the opcode table's classes, from
//! `nic_spec::roce` (combinational, no state).

use crate::Cycle;
use nic_spec::roce::{self as spec, op};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub op: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub known: bool,
    pub reth: bool,
    pub aeth: bool,
    pub pay: bool,
    pub only: bool,
    pub write: bool,
    pub read_req: bool,
    pub read_resp: bool,
    pub ends_msg: bool,
    pub ack: bool,
    pub probe: bool,
    pub notify: bool,
    pub hpcc: bool,
    pub cnp: bool,
}

/// The classes of opcode `o` (all false outside the table).
pub fn decode(o: u8) -> Out {
    Out {
        known: spec::known_opcode(o),
        reth: spec::has_reth(o),
        aeth: spec::has_aeth(o),
        pay: spec::carries_payload(o),
        only: spec::is_only(o),
        write: spec::is_write(o),
        read_req: o == op::READ_REQ,
        read_resp: spec::is_read_resp(o),
        ends_msg: spec::ends_message(o),
        ack: spec::is_ack(o),
        probe: o == op::PROBE,
        notify: o == op::NOTIFY,
        hpcc: spec::is_hpcc(o),
        cnp: spec::is_cnp(o),
    }
}

#[derive(Clone, Debug, Default)]
pub struct OpDecode;

impl Cycle for OpDecode {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        decode(i.op)
    }
}
