//! The record interfaces between the NIC's blocks, each declared once.
//!
//! A record is a set of named fields that moves between two blocks as one
//! transfer (the Rx meta record, a CC event, a Tx descriptor, …) or, for
//! the counters, a set of values a block holds. Each record below is a
//! macro that hands its field list to a generator chosen by the caller, so
//! the list is written here and nowhere else:
//!
//! - `nic-hdl` generates the rust-hdl bundles `<Name>Sink` / `<Name>Source`
//!   (a `LogicInterface` pair joined to each other), with the handshake of
//!   the record's kind;
//! - `nic-golden` generates the golden twin: a plain struct `<Name>` with
//!   the same field names;
//! - `nic-testbench` generates the mapping between the two, so a harness
//!   maps a bundle by its prefix;
//! - the docs generator and the host interface read the same list.
//!
//! # The generator's input
//! ```text
//! $gen! { <caller's tokens>
//!     name = RxMeta, sink = RxMetaSink, source = RxMetaSource,
//!     kind = ready,            // ready: valid + ready; strobe: valid only;
//!                              // level: no handshake (counters, nested records)
//!     generics = [A],          // const generics the widths use
//!     fields = [ opcode: 8 u8, …, ackreq: 1 bool, flow: A u32 ],
//!     records = [ tlm: Telemetry TelemetrySink TelemetrySource ],
//! }
//! ```
//! Each field is `name: width golden_type`; a width of 1 is a `Bit` in the
//! RTL (never `Bits<1>`, which rust-hdl emits as a scalar that cannot be
//! indexed) and a `bool` in the model. `records` nests another record
//! (of kind `level`) under a field name.
//!
//! # Naming in the emitted Verilog
//! A block's port holding a record is named `s_<name>` when the block
//! consumes it and `m_<name>` when it produces it; rust-hdl joins the
//! parts with `$` (`s_meta$tlm$hop0`), and the flat wrapper
//! (`hdl::top::with_flat_wrapper`) with `_` (`s_meta_tlm_hop0`).

/// Telemetry carried by a packet (`docs/roce.md` §5): whether the TLM area
/// is present (the BTH T bit) and its words, big-endian as on the wire: the
/// header word and five hop words. All 0 when `present` is 0.
#[macro_export]
macro_rules! telemetry_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = Telemetry, sink = TelemetrySink, source = TelemetrySource,
            kind = level, generics = [],
            fields = [
                present: 1 bool, hdr: 64 u64,
                hop0: 64 u64, hop1: 64 u64, hop2: 64 u64, hop3: 64 u64, hop4: 64 u64
            ],
            records = [],
        }
    };
}

/// The Rx meta record, parser → dispatcher (`docs/roce.md` §7): one per
/// accepted packet, ahead of its payload words.
/// `len` is the payload's byte count (pad removed); `va`, `rkey`, `dlen`
/// the RETH (else 0; a CNP's 16 reserved bytes as a RETH); `aeth` the AETH
/// (else 0); `ce` the IPv4 ECN field was CE (3); `mr` the memory-region
/// check's verdict (`nic_spec::mr::verdict`; 0 from the parser, set by
/// `MrCheck`).
#[macro_export]
macro_rules! rx_meta_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = RxMeta, sink = RxMetaSink, source = RxMetaSource,
            kind = ready, generics = [],
            fields = [
                opcode: 8 u8, qp: 24 u32, psn: 24 u32, ackreq: 1 bool, len: 13 u16,
                va: 64 u64, rkey: 32 u32, dlen: 32 u32, aeth: 32 u32, ce: 1 bool,
                mr: 2 u8
            ],
            records = [ tlm: Telemetry TelemetrySink TelemetrySource ],
        }
    };
}

/// An ACK, NAK or READ response header seen by the responder side,
/// dispatcher → requester (`docs/roce.md` §8): the flow it belongs to, its
/// PSN and AETH, and its telemetry.
#[macro_export]
macro_rules! ack_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = AckInfo, sink = AckInfoSink, source = AckInfoSource,
            kind = ready, generics = [A],
            fields = [ flow: A u32, psn: 24 u32, aeth: 32 u32 ],
            records = [ tlm: Telemetry TelemetrySink TelemetrySource ],
        }
    };
}

/// Feedback for the CC module, dispatcher → CC glue (`docs/roce.md` §8):
/// every accepted packet that carries telemetry or acknowledges data.
#[macro_export]
macro_rules! cc_feedback_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CcFeedback, sink = CcFeedbackSink, source = CcFeedbackSource,
            kind = ready, generics = [A],
            fields = [ flow: A u32, psn: 24 u32, aeth: 32 u32, opcode: 8 u8 ],
            records = [ tlm: Telemetry TelemetrySink TelemetrySource ],
        }
    };
}

/// A NAK received from the peer, dispatcher → requester of the same
/// NIC: the flow, the PSN it names (the peer's expected PSN for a
/// sequence error, the refused request's PSN otherwise) and its AETH
/// syndrome (`nic_spec::roce::syndrome`; `wr::Status::of_nak` says what
/// the requester does with it).
#[macro_export]
macro_rules! nak_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = NakReq, sink = NakReqSink, source = NakReqSource,
            kind = ready, generics = [A],
            fields = [ flow: A u32, psn: 24 u32, syndrome: 8 u8 ],
            records = [],
        }
    };
}

/// A READ request received from the peer, dispatcher → responder: what to
/// read (`va`, `rkey`, `len`) and where the response goes (`psn`, `msn`).
#[macro_export]
macro_rules! read_req_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = ReadReq, sink = ReadReqSink, source = ReadReqSource,
            kind = ready, generics = [A],
            fields = [ flow: A u32, psn: 24 u32, va: 64 u64, rkey: 32 u32, len: 32 u32, msn: 24 u32 ],
            records = [],
        }
    };
}

/// A write into host memory: one 64-bit word at `addr` (8-byte aligned)
/// with a byte-lane strobe.
#[macro_export]
macro_rules! host_write_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = HostWrite, sink = HostWriteSink, source = HostWriteSource,
            kind = ready, generics = [],
            fields = [ addr: 64 u64, data: 64 u64, strb: 8 u8 ],
            records = [],
        }
    };
}

/// A read request to host memory: `len` bytes from `addr`; the words come
/// back on a packet stream.
#[macro_export]
macro_rules! host_read_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = HostReadReq, sink = HostReadReqSink, source = HostReadReqSource,
            kind = ready, generics = [],
            fields = [ addr: 64 u64, len: 13 u16 ],
            records = [],
        }
    };
}

/// A Tx descriptor, requester/responder → Tx builder (`docs/roce.md` §6):
/// one packet to build. `psn` is 24 bits; `addr` is the payload's host
/// address (8-aligned), `len` its byte count (0..=4096); `va`, `rkey`,
/// `dlen` fill a RETH, `aeth` (syndrome << 24 | MSN) an AETH, when the
/// opcode has one; `tlm` the telemetry area as it goes on the wire.
#[macro_export]
macro_rules! tx_desc_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = TxDesc, sink = TxDescSink, source = TxDescSource,
            kind = ready, generics = [A],
            fields = [
                flow: A u32, opcode: 8 u8, psn: 24 u32, ackreq: 1 bool, len: 13 u16,
                addr: 64 u64, va: 64 u64, rkey: 32 u32, dlen: 32 u32, aeth: 32 u32
            ],
            records = [ tlm: Telemetry TelemetrySink TelemetrySource ],
        }
    };
}

/// A write of the memory-region table (`nic_spec::mr`), host → `MrCheck`:
/// entry `index`, and with `active` its region (`base`, `len`, `rkey`,
/// `pd`, `rights`: `nic_spec::mr::right`); without `active` the entry is
/// invalidated. With `clear`, every entry is invalidated (the other
/// fields are ignored).
#[macro_export]
macro_rules! mr_write_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = MrWrite, sink = MrWriteSink, source = MrWriteSource,
            kind = strobe, generics = [],
            fields = [
                index: 8 u8, active: 1 bool, clear: 1 bool, rights: 2 u8, pd: 16 u16, rkey: 32 u32,
                base: 64 u64, len: 64 u64
            ],
            records = [],
        }
    };
}

/// A flow's protection domain, host → `MrCheck` (at a flow's COMMIT).
#[macro_export]
macro_rules! flow_pd_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = FlowPd, sink = FlowPdSink, source = FlowPdSource,
            kind = strobe, generics = [A],
            fields = [ flow: A u32, pd: 16 u16 ],
            records = [],
        }
    };
}

/// The memory-region check's counters (32 bits, wrapping): records with a
/// RETH granted, and refused by reason (`nic_spec::mr::reason`, the first
/// that applies); `bad_mr` table writes refused (an index outside the
/// table, or a region past 2^64).
#[macro_export]
macro_rules! mr_check_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = MrCheckStats, sink = MrCheckStatsSink, source = MrCheckStatsSource,
            kind = level, generics = [],
            fields = [
                granted: 32 u32, bad_len: 32 u32, bad_key: 32 u32, bad_pd: 32 u32,
                bad_right: 32 u32, bad_range: 32 u32, bad_mr: 32 u32
            ],
            records = [],
        }
    };
}

/// A write of a flow's Tx context (its headers), host → Tx builder.
#[macro_export]
macro_rules! tx_flow_ctx_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = TxFlowCtx, sink = TxFlowCtxSink, source = TxFlowCtxSource,
            kind = strobe, generics = [A],
            fields = [
                flow: A u32, dmac: 48 u64, smac: 48 u64, sip: 32 u32, dip: 32 u32,
                sport: 16 u16, dqp: 24 u32, pkey: 16 u16, tos: 8 u8
            ],
            records = [],
        }
    };
}

/// A write of a flow's Rx context, host → dispatcher: `active` and the
/// expected PSN (the whole context: the READ tracking starts empty). With
/// `rd_only` it is the requester's write of one READ's landing entry
/// instead: entry `rd_idx` (mod [`crate::roce::READS_IN_FLIGHT`], its
/// bit 3 the lap) gets the READ's first response PSN `rd_psn` and its
/// local address `rd_addr`. `cnp_on_ce`: the flow runs DCQCN, so its
/// CE-marked packets go to the notification point.
#[macro_export]
macro_rules! rx_flow_ctx_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = RxFlowCtx, sink = RxFlowCtxSink, source = RxFlowCtxSource,
            kind = strobe, generics = [A],
            fields = [
                flow: A u32, active: 1 bool, epsn: 24 u32, rd_addr: 64 u64,
                rd_psn: 24 u32, rd_idx: 4 u32, rd_only: 1 bool, cnp_on_ce: 1 bool
            ],
            records = [],
        }
    };
}

/// A scheduler event (`docs/architecture.md` §5): `op` (INIT, DOORBELL,
/// UPDATE, ACK, REWIND, TRIM) on `flow` with two operands.
#[macro_export]
macro_rules! sched_event_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = SchedEvent, sink = SchedEventSink, source = SchedEventSource,
            kind = ready, generics = [],
            fields = [ op: 3 u8, flow: 16 u32, a: 32 u32, b: 32 u32 ],
            records = [],
        }
    };
}

/// PktSend(flow, seq, len), scheduler → requester: the next `len` bytes of
/// the flow's byte stream from `seq`, or a probe; `epoch` is the flow's
/// epoch when it was decided (set by INIT, REWIND and TRIM), so the
/// requester can tell a PktSend decided before its last REWIND or TRIM.
#[macro_export]
macro_rules! pkt_send_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = PktSend, sink = PktSendSink, source = PktSendSource,
            kind = ready, generics = [],
            fields = [ flow: 16 u32, seq: 32 u32, len: 16 u32, probe: 1 bool, epoch: 8 u8 ],
            records = [],
        }
    };
}

/// A CC event, into the CC module (draft -00 §7.2): `op` (EVENT, CREATE,
/// DESTROY), `variant` (0 NewAck, 1 NewINT: on CREATE the flow's variant,
/// on EVENT the variant the event is for: an ACK's telemetry at the
/// sender, or a data packet's at the receiver), for the sender the ACK's `seq` and the flow's `snd_nxt` (mod
/// 2^32), for the receiver the local time `now` (ns mod 2^32), and the
/// INT hops in the ns-3 format (`nhops` of them used; above 5 is dropped).
#[macro_export]
macro_rules! cc_event_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CcEvent, sink = CcEventSink, source = CcEventSource,
            kind = ready, generics = [],
            fields = [
                op: 2 u8, variant: 1 bool, flow: 16 u16, seq: 32 u32, snd_nxt: 32 u32, now: 32 u32, nhops: 4 u8,
                hop0: 64 u64, hop1: 64 u64, hop2: 64 u64, hop3: 64 u64, hop4: 64 u64
            ],
            records = [],
        }
    };
}

/// A CC update, out of the CC module: the flow's new window `w` (W, UQ24.8
/// bytes), rate `r` (R = W/T, UQ8.16 bytes per ns), utilisation `u` (U,
/// UQ8.24) and `inc_stage`, with what happened: `status` and `flags` (see
/// `nic_golden::cc::hpcc::{status, flag}`), `updated_wc` (sender: Wc
/// committed, ack.seq > lastUpdateSeq; receiver: T has passed since
/// lastUpdateTime and the window is to be sent back), and the event's
/// `variant` (the flow's, unless the status is `DROP_VARIANT`).
#[macro_export]
macro_rules! cc_update_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CcUpdate, sink = CcUpdateSink, source = CcUpdateSource,
            kind = strobe, generics = [],
            fields = [
                flow: 16 u16, status: 3 u8, flags: 3 u8, w: 32 u32, r: 24 u32, u: 32 u32,
                inc_stage: 3 u8, updated_wc: 1 bool, variant: 1 bool
            ],
            records = [],
        }
    };
}

/// An event for the DCQCN reaction point (`hdl/src/cc/dcqcn.rs`): `op`
/// ([`crate::dcqcn`]: CNP, SENT, CREATE, DESTROY), the `flow`, and for
/// SENT the packet's `bytes`.
#[macro_export]
macro_rules! rp_event_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = RpEvent, sink = RpEventSink, source = RpEventSource,
            kind = ready, generics = [],
            fields = [ op: 2 u8, flow: 16 u16, bytes: 16 u32 ],
            records = [],
        }
    };
}

/// The DCQCN reaction point's registers (`hdl/src/cc/dcqcn.rs`; the
/// driver is `nic_golden::cc::dcqcn_params::DcqcnParams::regs`): g =
/// 2^−`g_log2`; the α, rate-decrease and rate-increase periods in cycles
/// (24 bits, 0: that timer is off; a decrease period of 0 cuts on every
/// CNP); the byte counter's `byte_reset` (bytes, 0: off); `f`, the
/// fast-recovery stages; the rates R_ai, R_hai, R_min, the line rate and
/// the rate on the first CNP (UQ8.24 bytes/ns); α on the first CNP
/// (UQ1.20, above 1.0 reads as 1.0); the `window` every update carries
/// (UQ24.8 bytes; all ones: unlimited).
#[macro_export]
macro_rules! dcqcn_cfg_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = DcqcnCfg, sink = DcqcnCfgSink, source = DcqcnCfgSource,
            kind = level, generics = [],
            fields = [
                g_log2: 4 u8, alpha_period: 24 u32, dec_period: 24 u32, inc_period: 24 u32,
                byte_reset: 32 u32, f: 3 u8, r_ai: 32 u32, r_hai: 32 u32, r_min: 32 u32,
                r_line: 32 u32, r_first: 32 u32, alpha_init: 21 u32, window: 32 u32
            ],
            records = [],
        }
    };
}

/// A data packet of a DCQCN flow arrived with ECN CE (Rx → the DCQCN
/// notification point, `hdl/src/cc/dcqcn_np.rs`): its `flow`.
#[macro_export]
macro_rules! ce_mark_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CeMark, sink = CeMarkSink, source = CeMarkSource,
            kind = strobe, generics = [],
            fields = [ flow: 16 u16 ],
            records = [],
        }
    };
}

/// A CNP to send to the sender of `flow` (the notification point → Tx).
#[macro_export]
macro_rules! cnp_req_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CnpReq, sink = CnpReqSink, source = CnpReqSource,
            kind = ready, generics = [],
            fields = [ flow: 16 u16 ],
            records = [],
        }
    };
}

/// The DCQCN notification point's counters (32 bits, wrapping): CE
/// `marks` taken, `cnps` asked of the Tx, marks `suppressed` (a CNP for
/// the flow within the interval), `dropped_busy` (the Tx had not taken
/// the previous CNP request), `bad_flow` (flow id out of range).
#[macro_export]
macro_rules! np_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = NpStats, sink = NpStatsSink, source = NpStatsSource,
            kind = level, generics = [],
            fields = [
                marks: 32 u32, cnps: 32 u32, suppressed: 32 u32, dropped_busy: 32 u32,
                bad_flow: 32 u32
            ],
            records = [],
        }
    };
}

/// The DCQCN reaction point's counters (32 bits, wrapping): events
/// accepted, then per kind (`cnps`, `sents`, timer `visits`), what they
/// did (`cuts`, `increases`, `held`: a CNP whose cut waits for the next
/// decrease period, `recovered`: a flow back at line rate, leaving the
/// timers), and the odd cases (`coalesced`: a CNP merged into one of the
/// same flow still in the pipeline, `drop_flow`: a flow id out of range
/// or not created, `timer_late`: a visit that found more than one period
/// passed and applied one step).
#[macro_export]
macro_rules! dcqcn_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = DcqcnStats, sink = DcqcnStatsSink, source = DcqcnStatsSource,
            kind = level, generics = [],
            fields = [
                events: 32 u32, cnps: 32 u32, sents: 32 u32, visits: 32 u32, cuts: 32 u32,
                increases: 32 u32, held: 32 u32, recovered: 32 u32, coalesced: 32 u32,
                drop_flow: 32 u32, timer_late: 32 u32
            ],
            records = [],
        }
    };
}

/// The Rx parser's counters (32 bits, wrapping): accepted frames, then one
/// per drop reason, in the order of [`crate::roce::Drop`], then
/// `ce_dropped`: frames of IPv4 EtherType with ECN = CE that the parser
/// dropped (whatever the reason: a CE mark on a frame that is not a good
/// RoCEv2 packet is ignored, and counted here as well as by its reason).
#[macro_export]
macro_rules! rx_parse_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = RxParseStats, sink = RxParseStatsSink, source = RxParseStatsSource,
            kind = level, generics = [],
            fields = [
                ok: 32 u32, bad_fcs: 32 u32, trunc: 32 u32, bad_eth: 32 u32, bad_ip: 32 u32,
                bad_port: 32 u32, bad_opcode: 32 u32, bad_len: 32 u32, bad_tlm: 32 u32,
                bad_icrc: 32 u32, drop_full: 32 u32, ce_dropped: 32 u32
            ],
            records = [],
        }
    };
}

/// The Rx dispatcher's counters (32 bits, wrapping): accepted packets and
/// one per receive drop reason.
#[macro_export]
macro_rules! rx_dispatch_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = RxDispatchStats, sink = RxDispatchStatsSink, source = RxDispatchStatsSource,
            kind = level, generics = [],
            fields = [
                unknown_flow: 32 u32, oos: 32 u32, dup: 32 u32, bad_psn: 32 u32,
                accepted: 32 u32, bad_va: 32 u32, bad_op: 32 u32, refused: 32 u32
            ],
            records = [],
        }
    };
}

/// The Tx builder's counters (32 bits, wrapping): frames sent, bad
/// descriptors dropped, frames aborted (`tuser`: their payload's host
/// read came flagged).
#[macro_export]
macro_rules! tx_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = TxStats, sink = TxStatsSink, source = TxStatsSource,
            kind = level, generics = [],
            fields = [ frames: 32 u32, bad_req: 32 u32, aborted: 32 u32 ],
            records = [],
        }
    };
}

/// The flow scheduler's counters (32 bits, wrapping).
#[macro_export]
macro_rules! sched_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = SchedStats, sink = SchedStatsSink, source = SchedStatsSource,
            kind = level, generics = [],
            fields = [
                events: 32 u32, sends: 32 u32, probes: 32 u32, bad_flow: 32 u32, bad_op: 32 u32,
                bad_update: 32 u32, bad_ack: 32 u32, bad_rewind: 32 u32, bad_doorbell: 32 u32,
                bad_trim: 32 u32
            ],
            records = [],
        }
    };
}

/// The CC module's counters (32 bits, wrapping).
#[macro_export]
macro_rules! cc_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CcStats, sink = CcStatsSink, source = CcStatsSource,
            kind = level, generics = [],
            fields = [
                events: 32 u32, drop_flow: 32 u32, drop_hops: 32 u32, drop_rate: 32 u32, drop_variant: 32 u32,
                ts_stale: 32 u32, bytes_back: 32 u32, qlen_sat: 32 u32
            ],
            records = [],
        }
    };
}

/// A Congestion Notification Message (IEEE 802.1Qau; `crate::cnm`),
/// `CnmRx` → host/telemetry: `cn_tag` if the CNM carried the sampled
/// frame's CN-TAG and its `rpid` (else 0); the PDU's `version` (always 0
/// in a record), `qntz_fb`, `cpid`, `qoffset` and `qdelta` (16 bits, two's
/// complement on the wire), `encap_prio`, `encap_da` (48 bits, big-endian
/// as on the wire), `msdu_len`; and `qp`, the sampled frame's BTH
/// destination QP, with `qp_valid` when the encapsulated MSDU holds a
/// RoCEv2 frame's IPv4, UDP and BTH headers up to it (else 0).
#[macro_export]
macro_rules! cnm_info_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CnmInfo, sink = CnmInfoSink, source = CnmInfoSource,
            kind = ready, generics = [],
            fields = [
                cn_tag: 1 bool, rpid: 16 u16, version: 4 u8, qntz_fb: 6 u8, cpid: 64 u64,
                qoffset: 16 u16, qdelta: 16 u16, encap_prio: 16 u16, encap_da: 48 u64,
                msdu_len: 16 u16, qp_valid: 1 bool, qp: 24 u32
            ],
            records = [],
        }
    };
}

/// The CNM tap's counters (32 bits, wrapping): good CNMs (`cnms`, each
/// offered as a record), those whose sample named a RoCEv2 QP (`roce`),
/// and CNMs dropped, by the first failing reason: `bad_fcs` (`tuser` on
/// the last beat), `trunc` (the frame ends before the fixed fields, or
/// before the MSDU length it announces), `bad_version` (version ≠ 0),
/// `bad_len` (MSDU length > 64); and good CNMs `dropped` because the
/// consumer had not taken the previous record.
#[macro_export]
macro_rules! cnm_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CnmStats, sink = CnmStatsSink, source = CnmStatsSource,
            kind = level, generics = [],
            fields = [
                cnms: 32 u32, roce: 32 u32, bad_fcs: 32 u32, trunc: 32 u32,
                bad_version: 32 u32, bad_len: 32 u32, dropped: 32 u32
            ],
            records = [],
        }
    };
}

/// The 10G/1G MAC transmitter's counters (32 bits, wrapping): frames
/// sent whole (`frames`) and their bytes, padding and FCS included
/// (`bytes`); frames ended with `/E/` (`aborts`): `tuser` set on the last
/// beat, a last beat with `tkeep[0]` clear, or the stream running dry
/// inside a frame (underflow).
#[macro_export]
macro_rules! mac_tx_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = MacTxStats, sink = MacTxStatsSink, source = MacTxStatsSource,
            kind = level, generics = [],
            fields = [ frames: 32 u32, bytes: 32 u32, aborts: 32 u32 ],
            records = [],
        }
    };
}

/// The MAC receiver's counters (32 bits, wrapping). Each frame that
/// starts counts exactly once: good frames (`frames`, and their `bytes`
/// with the FCS), or by the first failing reason: `bad_preamble` (a
/// start whose preamble or SFD is wrong: nothing is passed on),
/// `errors` (a control character such as `/E/` inside the frame, or
/// `rx_er` on GMII), `oversize` (longer than the limit: cut there),
/// `runts` (shorter than 64 bytes), `bad_fcs`; and MAC control frames,
/// never passed on: `pause` (good PAUSE or PFC frames, acted on) and
/// `ctl_other` (other opcodes).
#[macro_export]
macro_rules! mac_rx_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = MacRxStats, sink = MacRxStatsSink, source = MacRxStatsSource,
            kind = level, generics = [],
            fields = [
                frames: 32 u32, bytes: 32 u32, bad_preamble: 32 u32, errors: 32 u32,
                oversize: 32 u32, runts: 32 u32, bad_fcs: 32 u32, pause: 32 u32,
                ctl_other: 32 u32
            ],
            records = [],
        }
    };
}

/// The MAC's pause control (transmit side, `tx_clk` counters, 32 bits,
/// wrapping): PAUSE frames sent on the core's request (`sent`), requests
/// replaced by a newer one before they went out (`superseded`), received
/// pause requests applied to the timer (`applied`: a quanta of 0
/// resumes), and cycles in which the timer held new frames off (`held`).
#[macro_export]
macro_rules! mac_pause_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = MacPauseStats, sink = MacPauseStatsSink, source = MacPauseStatsSource,
            kind = level, generics = [],
            fields = [ sent: 32 u32, superseded: 32 u32, applied: 32 u32, held: 32 u32 ],
            records = [],
        }
    };
}

/// A clock-crossing frame FIFO's counters (write side, 32 bits,
/// wrapping): frames stored whole (`frames`) and frames dropped
/// (`dropped`: no room when they arrived in drop mode, or longer than the
/// FIFO).
#[macro_export]
macro_rules! async_fifo_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = AsyncFifoStats, sink = AsyncFifoStatsSink, source = AsyncFifoStatsSource,
            kind = level, generics = [],
            fields = [ frames: 32 u32, dropped: 32 u32 ],
            records = [],
        }
    };
}

/// The vendor-MAC adapter's transmit counters (`AxisPad`, core clock,
/// 32 bits, wrapping): frames passed on (`frames`), those padded to 60
/// bytes (`padded`), and last beats with no byte (`tkeep[0]` clear:
/// `bad_keep`, sent flagged with `tuser`).
#[macro_export]
macro_rules! tx_pad_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = TxPadStats, sink = TxPadStatsSink, source = TxPadStatsSource,
            kind = level, generics = [],
            fields = [ frames: 32 u32, padded: 32 u32, bad_keep: 32 u32 ],
            records = [],
        }
    };
}

/// A work request, host → requester: an RDMA `opcode`
/// ([`crate::roce::wr::WRITE`] or [`crate::roce::wr::READ`]) of `len`
/// bytes between local address `laddr` and the peer's `va` (`rkey`), on
/// `flow`; `tag` comes back in its completion.
#[macro_export]
macro_rules! work_req_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = WorkReq, sink = WorkReqSink, source = WorkReqSource,
            kind = ready, generics = [],
            fields = [
                flow: 16 u32, opcode: 8 u8, laddr: 64 u64, va: 64 u64, rkey: 32 u32,
                len: 32 u32, tag: 32 u32
            ],
            records = [],
        }
    };
}

/// A completion, requester → host: the work request `tag` of `flow`
/// ended with `status` ([`crate::roce::wr::Status`]) after `bytes` bytes.
#[macro_export]
macro_rules! wr_completion_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = WrCompletion, sink = WrCompletionSink, source = WrCompletionSource,
            kind = ready, generics = [],
            fields = [ flow: 16 u32, tag: 32 u32, status: 8 u8, bytes: 32 u32 ],
            records = [],
        }
    };
}

/// A write of a flow's requester context, host → requester: `active`,
/// the first PSN, and where the flow's telemetry goes (`tlm_data`: in
/// every data packet; else in probes only), and the retry limit (0..=7
/// go-backs in a row without progress). Writing it discards the flow's
/// outstanding work requests and takes the flow out of error.
#[macro_export]
macro_rules! req_flow_ctx_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = ReqFlowCtx, sink = ReqFlowCtxSink, source = ReqFlowCtxSource,
            kind = ready, generics = [A],
            fields = [ flow: A u32, active: 1 bool, psn: 24 u32, tlm_data: 1 bool, retry_limit: 3 u8 ],
            records = [],
        }
    };
}

/// The requester's counters (32 bits, wrapping): work requests posted
/// and completed, the bad ones by reason (completed with that status),
/// stale PktSends dropped, TRIMs sent, timeouts, NAKs taken, and
/// acknowledgements dropped: ahead of every PSN ever sent (`ack_ahead`),
/// or for no flow, a flow in error, or not an ACK (`bad_fb`). The errors
/// that put a flow in error: fatal NAKs (`remote_err`), retry limits
/// spent (`retry_exceeded`); and the work requests completed `Flushed`.
#[macro_export]
macro_rules! req_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = ReqStats, sink = ReqStatsSink, source = ReqStatsSource,
            kind = level, generics = [],
            fields = [
                posted: 32 u32, completed: 32 u32, err_opcode: 32 u32, err_len: 32 u32,
                err_flow: 32 u32, err_full: 32 u32, stale: 32 u32, trims: 32 u32,
                timeouts: 32 u32, naks: 32 u32, ack_ahead: 32 u32, bad_fb: 32 u32,
                remote_err: 32 u32, retry_exceeded: 32 u32, flushed: 32 u32
            ],
            records = [],
        }
    };
}

/// A configuration write, host → NIC core (`nic_spec::regs`): register
/// `addr`, value `data`. Global registers take effect at once; per-flow
/// registers are staged until a write of `regs::COMMIT`.
#[macro_export]
macro_rules! cfg_write_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CfgWrite, sink = CfgWriteSink, source = CfgWriteSource,
            kind = ready, generics = [],
            fields = [ addr: 16 u16, data: 64 u64 ],
            records = [],
        }
    };
}

/// The NIC core's own counters (32 bits, wrapping): configuration writes
/// to no register (`bad_cfg`), flow commits (`commits`), CC updates
/// applied to the scheduler (`updates`) and dropped because the update
/// queue was full (`update_drops`), ACKs sent (`acks`), READ requests
/// served (`reads`) and READ responses sent (`read_resps`); NewINT:
/// receiver events to the CC (`int_events`), NOTIFYs queued and dropped
/// (`notifies`, `notify_drops`), NOTIFYs applied and without a valid W
/// (`notifies_applied`, `notifies_bad`); DCQCN's byte counter: packets
/// of DCQCN flows tapped for SENT events (`sent_pkts`) and those whose
/// bytes were dropped because another flow's SENT was still waiting
/// (`sent_drops`; `hdl/src/nic/sent_tap.rs`); ACKs replaced in their
/// flow's slot by a newer one before the Tx took them (`ack_coalesced`;
/// `hdl/src/nic/ack_coalesce.rs`); link pause on host back-pressure
/// (`hdl/src/nic/rx_pause.rs`): XOFF requests sent, first and refreshes
/// (`pause_xoff`), XON requests (`pause_xon`), and cycles with the pause
/// in force (`pause_cycles`); scheduler events merged (`ev_merged`);
/// NewINT receiver events replaced by a newer one before the CC took
/// them (`int_lost`; `hdl/src/nic/int_tap.rs`); the memory-region
/// check's (`MrCheckStats`, `hdl/src/roce/mr_check.rs`): requests granted
/// (`mr_granted`), refused by reason (`mr_bad_len`, `mr_bad_key`,
/// `mr_bad_pd`, `mr_bad_right`, `mr_bad_range`) and table writes refused
/// (`mr_bad_table`); `TxArb`'s control budget: grants it held from a
/// waiting control frame and gave to data (`ctl_held`,
/// `hdl/src/nic/tx_arb.rs`).
#[macro_export]
macro_rules! core_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CoreStats, sink = CoreStatsSink, source = CoreStatsSource,
            kind = level, generics = [],
            fields = [
                bad_cfg: 32 u32, commits: 32 u32, updates: 32 u32, update_drops: 32 u32,
                acks: 32 u32, reads: 32 u32, read_resps: 32 u32, int_events: 32 u32,
                notifies: 32 u32, notify_drops: 32 u32, notifies_applied: 32 u32,
                notifies_bad: 32 u32, sent_pkts: 32 u32, sent_drops: 32 u32,
                ack_coalesced: 32 u32, pause_xoff: 32 u32, pause_xon: 32 u32,
                pause_cycles: 32 u32, ev_merged: 32 u32, int_lost: 32 u32,
                mr_granted: 32 u32, mr_bad_len: 32 u32, mr_bad_key: 32 u32, mr_bad_pd: 32 u32,
                mr_bad_right: 32 u32, mr_bad_range: 32 u32, mr_bad_table: 32 u32,
                ctl_held: 32 u32
            ],
            records = [],
        }
    };
}

/// The AXI4-Lite signals a master drives into a slave port (the `In`
/// half of `hdl::hostif::AxiLite`, AMBA AXI4-Lite names, 16-bit
/// addresses, 32-bit data): a level record, for the twins and harnesses;
/// the RTL bundle is `AxiLite` itself (its test checks it against this
/// list and [`axil_out_record`]).
#[macro_export]
macro_rules! axil_in_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = AxilIn, sink = AxiLite, source = AxiLiteMaster,
            kind = level, generics = [],
            fields = [
                awaddr: 16 u16, awprot: 3 u8, awvalid: 1 bool, wdata: 32 u32, wstrb: 4 u8,
                wvalid: 1 bool, bready: 1 bool, araddr: 16 u16, arprot: 3 u8, arvalid: 1 bool,
                rready: 1 bool
            ],
            records = [],
        }
    };
}

/// The AXI4-Lite signals a slave port drives (the `Out` half of
/// `hdl::hostif::AxiLite`).
#[macro_export]
macro_rules! axil_out_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = AxilOut, sink = AxiLiteMaster, source = AxiLite,
            kind = level, generics = [],
            fields = [
                awready: 1 bool, wready: 1 bool, bresp: 2 u8, bvalid: 1 bool, arready: 1 bool,
                rdata: 32 u32, rresp: 2 u8, rvalid: 1 bool
            ],
            records = [],
        }
    };
}

/// A register access, AXI4-Lite slave → register decoder, and decoder →
/// the block that owns an address range (`docs/driver.md`): a read or a
/// write of the 32-bit register at `addr` (a byte address, or an index
/// local to the owner), `wstrb` the byte lanes written.
#[macro_export]
macro_rules! reg_req_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = RegReq, sink = RegReqSink, source = RegReqSource,
            kind = ready, generics = [],
            fields = [ write: 1 bool, addr: 16 u16, wdata: 32 u32, wstrb: 4 u8 ],
            records = [],
        }
    };
}

/// The answer to a [`reg_req_record`]: the register's value for a read,
/// and the AXI4-Lite response code (`nic_spec::hostif::resp`).
#[macro_export]
macro_rules! reg_resp_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = RegResp, sink = RegRespSink, source = RegRespSource,
            kind = strobe, generics = [],
            fields = [ rdata: 32 u32, resp: 2 u8 ],
            records = [],
        }
    };
}

/// A DMA descriptor, NIC → the host's DMA engine (the read and write
/// descriptor ports of verilog-axi's `axi_dma`): move `len` bytes at host
/// address `addr`; `tag` says who asked (`docs/driver.md`).
#[macro_export]
macro_rules! dma_desc_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = DmaDesc, sink = DmaDescSink, source = DmaDescSource,
            kind = ready, generics = [],
            fields = [ addr: 64 u64, len: 16 u16, tag: 8 u8 ],
            records = [],
        }
    };
}

/// A fetch of `count` send-queue entries of `flow`, from send-queue
/// index `idx` at host address `addr`: send-queue engine → DMA read mux.
#[macro_export]
macro_rules! wqe_fetch_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = WqeFetch, sink = WqeFetchSink, source = WqeFetchSource,
            kind = ready, generics = [],
            fields = [ flow: 16 u32, idx: 16 u16, count: 5 u8, addr: 64 u64 ],
            records = [],
        }
    };
}

/// One 8-byte word of a fetched send-queue entry, DMA read mux → WQE
/// unpacker: word `word` (0..=3) of entry `idx` of `flow`; `err` if the
/// DMA engine flagged it (h2c `tuser`) or it is padding for a short read.
#[macro_export]
macro_rules! wqe_beat_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = WqeBeat, sink = WqeBeatSink, source = WqeBeatSource,
            kind = ready, generics = [],
            fields = [ data: 64 u64, err: 1 bool, flow: 16 u32, idx: 16 u16, word: 2 u8 ],
            records = [],
        }
    };
}

/// A flow's send queue as a COMMIT sets it, register decoder → send-queue
/// engine: active, base address, log2 entries, completion queue.
#[macro_export]
macro_rules! sq_commit_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = SqCommit, sink = SqCommitSink, source = SqCommitSource,
            kind = strobe, generics = [],
            fields = [ flow: 16 u32, active: 1 bool, base: 64 u64, log_size: 4 u8, cq: 8 u8 ],
            records = [],
        }
    };
}

/// A completion for completion queue `cq`, send-queue engine → CQ engine.
#[macro_export]
macro_rules! cqe_req_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CqeReq, sink = CqeReqSink, source = CqeReqSource,
            kind = ready, generics = [],
            fields = [ cq: 8 u8, flow: 16 u32, tag: 32 u32, status: 8 u8, bytes: 32 u32 ],
            records = [],
        }
    };
}

/// A completion-queue entry to write, CQ engine → DMA write packer: its
/// 16 bytes (`lo` at `addr`, `hi` at `addr` + 8) and its queue.
#[macro_export]
macro_rules! cqe_write_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CqeWrite, sink = CqeWriteSink, source = CqeWriteSource,
            kind = ready, generics = [],
            fields = [ addr: 64 u64, lo: 64 u64, hi: 64 u64, cq: 8 u8 ],
            records = [],
        }
    };
}

/// A completion-queue event (a pulse, for an MSI-X vector): completion
/// queue `cq` has new entries. Also the DMA write packer's notice that a
/// completion of `cq` has left on the c2h stream.
#[macro_export]
macro_rules! cq_event_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = CqEvent, sink = CqEventSink, source = CqEventSource,
            kind = strobe, generics = [],
            fields = [ cq: 8 u8 ],
            records = [],
        }
    };
}

/// The host interface's counters (32 bits, wrapping): register reads and
/// writes answered, refused ones (`slverr`: misaligned, read-only or a
/// refused value; `decerr`: no register), writes to read-only registers;
/// doorbells taken and refused (beyond the ring, behind the consumer
/// index, inactive flow); send-queue fetches (DMA reads) issued, entries
/// handed to the requester, entries completed with `DMA_ERR`; h2c beats
/// flagged by the DMA engine (`tuser`), reads whose beat count differed
/// from the descriptor's; completions written, dropped (queue disabled),
/// events raised, consumer indices refused; DMA read and write
/// descriptors issued.
#[macro_export]
macro_rules! host_if_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = HostIfStats, sink = HostIfStatsSink, source = HostIfStatsSource,
            kind = level, generics = [],
            fields = [
                reads: 32 u32, writes: 32 u32, slverr: 32 u32, decerr: 32 u32, ro_writes: 32 u32,
                db_rings: 32 u32, db_refused: 32 u32, wqe_fetches: 32 u32, wqes: 32 u32,
                wqe_dma_err: 32 u32, h2c_err: 32 u32, h2c_len_err: 32 u32, cqes: 32 u32,
                cqe_drops: 32 u32, events: 32 u32, ci_refused: 32 u32, rd_descs: 32 u32,
                wr_descs: 32 u32
            ],
            records = [],
        }
    };
}

/// The UART register bridge's counters (`nic_spec::uart::STATS_NAMES`,
/// in that order; 32 bits, wrapping).
#[macro_export]
macro_rules! uart_bridge_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = UartBridgeStats, sink = UartBridgeStatsSink, source = UartBridgeStatsSource,
            kind = level, generics = [],
            fields = [
                requests: 32 u32, bad_crc: 32 u32, bad_cmd: 32 u32, truncated: 32 u32,
                framing: 32 u32, stray: 32 u32, overrun: 32 u32
            ],
            records = [],
        }
    };
}

/// The board host memory's DMA engine counters (`BramDma`,
/// `docs/board.md`; 32 bits, wrapping): descriptors taken, descriptors
/// outside the memory (served flagged or written nowhere), and write
/// bursts whose beat count is not the descriptor's.
#[macro_export]
macro_rules! bram_dma_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = BramDmaStats, sink = BramDmaStatsSink, source = BramDmaStatsSource,
            kind = level, generics = [],
            fields = [
                rd_descs: 32 u32, wr_descs: 32 u32, rd_range_err: 32 u32,
                wr_range_err: 32 u32, wr_len_err: 32 u32
            ],
            records = [],
        }
    };
}

/// The board's own counters, outside every block's record (32 bits,
/// wrapping): `lock_losses`, the PLL lock losses `LockReset` counted on
/// the oscillator's clock. Page `RESET` of the bridge's `STATS` command
/// (`nic_spec::board::STATS_PAGES`).
#[macro_export]
macro_rules! board_stats_record {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $gen! { $($ctx)*
            name = BoardStats, sink = BoardStatsSink, source = BoardStatsSource,
            kind = level, generics = [],
            fields = [ lock_losses: 32 u32 ],
            records = [],
        }
    };
}

/// Every record, for generators that want them all: calls
/// `$gen! { <ctx> <record> }` once per record, nested ones first.
#[macro_export]
macro_rules! all_records {
    ($gen:ident ! { $($ctx:tt)* }) => {
        $crate::telemetry_record!($gen! { $($ctx)* });
        $crate::rx_meta_record!($gen! { $($ctx)* });
        $crate::ack_record!($gen! { $($ctx)* });
        $crate::cc_feedback_record!($gen! { $($ctx)* });
        $crate::nak_record!($gen! { $($ctx)* });
        $crate::read_req_record!($gen! { $($ctx)* });
        $crate::host_write_record!($gen! { $($ctx)* });
        $crate::host_read_record!($gen! { $($ctx)* });
        $crate::tx_desc_record!($gen! { $($ctx)* });
        $crate::tx_flow_ctx_record!($gen! { $($ctx)* });
        $crate::rx_flow_ctx_record!($gen! { $($ctx)* });
        $crate::mr_write_record!($gen! { $($ctx)* });
        $crate::flow_pd_record!($gen! { $($ctx)* });
        $crate::mr_check_stats_record!($gen! { $($ctx)* });
        $crate::sched_event_record!($gen! { $($ctx)* });
        $crate::pkt_send_record!($gen! { $($ctx)* });
        $crate::cc_event_record!($gen! { $($ctx)* });
        $crate::cc_update_record!($gen! { $($ctx)* });
        $crate::rx_parse_stats_record!($gen! { $($ctx)* });
        $crate::rx_dispatch_stats_record!($gen! { $($ctx)* });
        $crate::tx_stats_record!($gen! { $($ctx)* });
        $crate::sched_stats_record!($gen! { $($ctx)* });
        $crate::cc_stats_record!($gen! { $($ctx)* });
        $crate::rp_event_record!($gen! { $($ctx)* });
        $crate::dcqcn_cfg_record!($gen! { $($ctx)* });
        $crate::dcqcn_stats_record!($gen! { $($ctx)* });
        $crate::ce_mark_record!($gen! { $($ctx)* });
        $crate::cnp_req_record!($gen! { $($ctx)* });
        $crate::np_stats_record!($gen! { $($ctx)* });
        $crate::cnm_info_record!($gen! { $($ctx)* });
        $crate::cnm_stats_record!($gen! { $($ctx)* });
        $crate::mac_tx_stats_record!($gen! { $($ctx)* });
        $crate::mac_rx_stats_record!($gen! { $($ctx)* });
        $crate::mac_pause_stats_record!($gen! { $($ctx)* });
        $crate::async_fifo_stats_record!($gen! { $($ctx)* });
        $crate::tx_pad_stats_record!($gen! { $($ctx)* });
        $crate::work_req_record!($gen! { $($ctx)* });
        $crate::wr_completion_record!($gen! { $($ctx)* });
        $crate::req_flow_ctx_record!($gen! { $($ctx)* });
        $crate::req_stats_record!($gen! { $($ctx)* });
        $crate::cfg_write_record!($gen! { $($ctx)* });
        $crate::core_stats_record!($gen! { $($ctx)* });
        $crate::axil_in_record!($gen! { $($ctx)* });
        $crate::axil_out_record!($gen! { $($ctx)* });
        $crate::reg_req_record!($gen! { $($ctx)* });
        $crate::reg_resp_record!($gen! { $($ctx)* });
        $crate::dma_desc_record!($gen! { $($ctx)* });
        $crate::wqe_fetch_record!($gen! { $($ctx)* });
        $crate::wqe_beat_record!($gen! { $($ctx)* });
        $crate::sq_commit_record!($gen! { $($ctx)* });
        $crate::cqe_req_record!($gen! { $($ctx)* });
        $crate::cqe_write_record!($gen! { $($ctx)* });
        $crate::cq_event_record!($gen! { $($ctx)* });
        $crate::host_if_stats_record!($gen! { $($ctx)* });
        $crate::uart_bridge_stats_record!($gen! { $($ctx)* });
        $crate::bram_dma_stats_record!($gen! { $($ctx)* });
        $crate::board_stats_record!($gen! { $($ctx)* });
    };
}

/// One field of a record as plain data: for docs, register maps and
/// tests of the lists themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    pub name: &'static str,
    /// Width in bits; 0 for a field whose width is a const generic.
    pub width: usize,
}

/// A record as plain data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordInfo {
    pub name: &'static str,
    /// `ready`, `strobe` or `level`.
    pub kind: &'static str,
    pub fields: &'static [FieldInfo],
    /// Nested records: (field name, record name).
    pub records: &'static [(&'static str, &'static str)],
}

#[doc(hidden)]
#[macro_export]
macro_rules! __width_of {
    ($w:literal) => {
        $w
    };
    ($w:ident) => {
        0
    };
}

macro_rules! record_info {
    ($v:ident;
     name = $name:ident, sink = $sink:ident, source = $source:ident,
     kind = $kind:ident, generics = [$($g:ident),*],
     fields = [ $($f:ident : $w:tt $t:ty),* $(,)? ],
     records = [ $($rf:ident : $rn:ident $rs:ident $rsrc:ident),* $(,)? ],
    ) => {
        $v.push(RecordInfo {
            name: stringify!($name),
            kind: stringify!($kind),
            fields: &[$(FieldInfo { name: stringify!($f), width: $crate::__width_of!($w) }),*],
            records: &[$((stringify!($rf), stringify!($rn))),*],
        });
    };
}

/// Every record as plain data, in [`all_records!`] order.
pub fn all() -> Vec<RecordInfo> {
    let mut v = Vec::new();
    all_records!(record_info! { v; });
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_nested_records_exist() {
        let all = all();
        for (i, r) in all.iter().enumerate() {
            assert!(
                all[..i].iter().all(|o| o.name != r.name),
                "{} twice",
                r.name
            );
            for (f, n) in r.records {
                let nested = all[..i]
                    .iter()
                    .find(|o| o.name == *n)
                    .expect("nested record declared first");
                assert_eq!(nested.kind, "level", "{}.{}", r.name, f);
            }
            for (j, f) in r.fields.iter().enumerate() {
                assert!(
                    r.fields[..j].iter().all(|o| o.name != f.name),
                    "{}.{} twice",
                    r.name,
                    f.name
                );
                assert!(
                    !["valid", "ready"].contains(&f.name),
                    "{}.{} is a handshake name",
                    r.name,
                    f.name
                );
                assert!(f.width <= 64);
            }
        }
    }

    #[test]
    fn stats_counters_add_up() {
        let n: usize = all()
            .iter()
            .filter(|r| r.name.ends_with("Stats"))
            .map(|r| r.fields.len())
            .sum();
        // parser (with ce_dropped), dispatcher, Tx, scheduler (with
        // bad_trim), CC (with drop_variant), requester, core, host
        // interface (the requester with remote_err, retry_exceeded and
        // flushed), DCQCN RP and NP, CNM tap (the core with SentTap's
        // sent_pkts and sent_drops, AckCoalesce's ack_coalesced,
        // RxPause's pause_xoff, pause_xon and pause_cycles, and
        // EvMerge's ev_merged, IntTap's int_lost, MrCheck's seven
        // mr_*, TxArb's ctl_held; the dispatcher with refused): 125 on the core's
        // register pages; MrCheckStats itself (7, inside the core);
        // then the MAC's Tx, Rx, pause control and clock-crossing FIFO
        // and the vendor-MAC adapter's padder, and the UART register
        // bridge, the board host memory's DMA engine and the board's
        // lock losses (outside the core: `STATS_UNMAPPED`)
        assert_eq!(
            n,
            12 + 8 + 3 + 10 + 8 + 15 + 28 + 18 + 11 + 5 + 7 + 7 + 3 + 9 + 4 + 2 + 3 + 7 + 5 + 1
        );
    }
}
