//! RoCEv2 as this NIC puts it on the wire (`docs/roce.md` §1–§3, §7, §8):
//! header lengths and offsets, the opcode table and its classes, AETH
//! syndromes, PSN arithmetic, and the receive path's drop reasons.
//!
//! The RTL (`nic-hdl`, as constants in its blocks), the golden models
//! (`nic-golden`), the environment and the docs all take these from here.

/// UDP destination port of RoCEv2.
pub const ROCE_PORT: u16 = 4791;
/// Largest payload of one packet (the largest MTU).
pub const MAX_PAYLOAD: usize = 4096;
/// READs a flow has in flight at most: the requester doorbells a READ
/// while fewer are open, and the dispatcher keeps this many landing
/// entries per flow (`RxFlowCtx.rd_idx`, a 4-bit counter: 3 bits of
/// entry, 1 of lap).
pub const READS_IN_FLIGHT: u32 = 8;
/// log2 of the READ requests the responder queues (`hdl/src/nic/read_queue.rs`
/// in `hpcc_nic_core`): 16, two peers' flows with every READ in flight. While
/// the READ responder sends one READ's responses, the dispatcher goes on
/// with the next packets; only a 17th waiting request holds it.
pub const READ_QUEUE_LOG2: usize = 4;
/// log2 of the feedback records (`CcFeedback`: received ACKs, NAKs, READ
/// responses, NOTIFYs) queued between the dispatcher and the requester
/// (`FbQueue` in `hpcc_nic_core`): 16. The requester takes feedback only
/// between operations of its own; the dispatcher goes on meanwhile, and
/// only a 17th waiting record holds it.
pub const FB_QUEUE_LOG2: usize = 4;
pub const ETH_LEN: usize = 14;
pub const IP_LEN: usize = 20;
pub const UDP_LEN: usize = 8;
pub const BTH_LEN: usize = 12;
pub const RETH_LEN: usize = 16;
pub const AETH_LEN: usize = 4;
pub const TLM_LEN: usize = 48;
pub const ICRC_LEN: usize = 4;
/// Offset of the IPv4 header, the UDP header and the BTH in a frame.
pub const IP_OFF: usize = ETH_LEN;
pub const UDP_OFF: usize = IP_OFF + IP_LEN;
pub const BTH_OFF: usize = UDP_OFF + UDP_LEN;
/// The shortest frame: Ethernet, IPv4, UDP, BTH, ICRC.
pub const MIN_FRAME: usize = BTH_OFF + BTH_LEN + ICRC_LEN;

/// Opcodes of §1.
pub mod op {
    pub const WRITE_FIRST: u8 = 0x06;
    pub const WRITE_MIDDLE: u8 = 0x07;
    pub const WRITE_LAST: u8 = 0x08;
    pub const WRITE_ONLY: u8 = 0x0A;
    pub const READ_REQ: u8 = 0x0C;
    pub const READ_RESP_FIRST: u8 = 0x0D;
    pub const READ_RESP_MIDDLE: u8 = 0x0E;
    pub const READ_RESP_LAST: u8 = 0x0F;
    pub const READ_RESP_ONLY: u8 = 0x10;
    pub const ACK: u8 = 0x11;
    pub const PROBE: u8 = 0xC0;
    pub const NOTIFY: u8 = 0xC1;
    /// HPCC ACK: an ACKNOWLEDGE (AETH, ACK or NAK by syndrome) that echoes
    /// a telemetry area. The responder sends it instead of `ACK` whenever
    /// its answer carries the area (the answer to a PROBE, and in
    /// every-packet mode the answer to a data packet), so that no standard
    /// opcode carries the area in probe mode.
    pub const ACK_TLM: u8 = 0xC2;
    /// RoCEv2 Congestion Notification Packet (the RoCEv2 annex, A17.9.3):
    /// BTH (PSN 0, BECN set, the destination QP is the QP that should
    /// react), 16 reserved bytes, ICRC. (InfiniBand's own CNP is 0x80;
    /// Wireshark names only that one, so `tools/wireshark/hpcc.lua` names
    /// this one.) DCQCN's notification point sends it; a
    /// switch may build it too (L3QCN). The 16 reserved bytes sit where a
    /// RETH would: [`has_reth`] counts them, and a receiver ignores them.
    pub const CNP: u8 = 0x81;
    /// All of them.
    pub const ALL: [u8; 14] = [
        WRITE_FIRST,
        WRITE_MIDDLE,
        WRITE_LAST,
        WRITE_ONLY,
        READ_REQ,
        READ_RESP_FIRST,
        READ_RESP_MIDDLE,
        READ_RESP_LAST,
        READ_RESP_ONLY,
        ACK,
        PROBE,
        NOTIFY,
        ACK_TLM,
        CNP,
    ];

    /// An opcode's name as Wireshark's InfiniBand dissector gives the
    /// standard RC ones, and the project's names for its own; `None` for
    /// an opcode of no table here.
    pub fn name(opc: u8) -> Option<&'static str> {
        Some(match opc {
            WRITE_FIRST => "RC RDMA WRITE First",
            WRITE_MIDDLE => "RC RDMA WRITE Middle",
            WRITE_LAST => "RC RDMA WRITE Last",
            WRITE_ONLY => "RC RDMA WRITE Only",
            READ_REQ => "RC RDMA READ Request",
            READ_RESP_FIRST => "RC RDMA READ response First",
            READ_RESP_MIDDLE => "RC RDMA READ response Middle",
            READ_RESP_LAST => "RC RDMA READ response Last",
            READ_RESP_ONLY => "RC RDMA READ response Only",
            ACK => "RC Acknowledge",
            PROBE => "HPCC PROBE",
            NOTIFY => "HPCC NOTIFY",
            ACK_TLM => "HPCC ACK",
            CNP => "RoCEv2 CNP",
            _ => return None,
        })
    }
}

/// Work requests and their completions (the requester's host side).
pub mod wr {
    /// Work-request opcodes (`WorkReq.opcode`).
    pub const WRITE: u8 = 0;
    pub const READ: u8 = 1;
    /// The largest length: a work request is 1 ..= `MAX_LEN` bytes.
    pub const MAX_LEN: u32 = (1 << 31) - 1;
    /// Completion status (`WrCompletion.status`). A work request that is
    /// not `Ok` sent nothing.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    #[repr(u8)]
    pub enum Status {
        /// Done: every byte acknowledged (WRITE) or arrived (READ).
        Ok = 0,
        /// The opcode is neither WRITE nor READ.
        BadOpcode = 1,
        /// Length 0 or above `MAX_LEN`.
        BadLen = 2,
        /// The flow is out of range or not active.
        BadFlow = 3,
        /// The flow's work-request ring is full, or its bytes outstanding
        /// would reach 2^31.
        Full = 4,
        /// The host interface could not fetch the work request from host
        /// memory: the DMA engine flagged the read (h2c `tuser`) or
        /// returned fewer words than asked. The completion's tag is the
        /// send-queue index of the entry (its contents are not trusted).
        DmaErr = 5,
        /// The responder answered NAK *invalid request* (syndrome 0x61):
        /// the request was malformed, or a later packet of a WRITE left
        /// its DMA length. The flow is now in error.
        RemoteInvalid = 6,
        /// The responder answered NAK *remote access error* (0x62): no
        /// region it holds grants the R_Key, domain, right and range
        /// (`nic_spec::mr`). The flow is now in error.
        RemoteAccess = 7,
        /// The responder answered NAK *remote operational error* (0x63),
        /// or a NAK code this NIC does not know. The flow is now in error.
        RemoteOp = 8,
        /// The flow went back (a timeout, or a NAK *PSN sequence error*)
        /// more times in a row without progress than its retry limit
        /// (`FLOW_RETRY`) allows. The flow is now in error.
        RetryExceeded = 9,
        /// Not executed: the flow was in error when the work request was
        /// posted, or it was still in the ring when the flow went into
        /// error. The driver resets the flow (`docs/driver.md`).
        Flushed = 10,
    }
    impl Status {
        pub const ALL: [Status; 11] = [
            Status::Ok,
            Status::BadOpcode,
            Status::BadLen,
            Status::BadFlow,
            Status::Full,
            Status::DmaErr,
            Status::RemoteInvalid,
            Status::RemoteAccess,
            Status::RemoteOp,
            Status::RetryExceeded,
            Status::Flushed,
        ];
        pub fn name(self) -> &'static str {
            match self {
                Status::Ok => "ok",
                Status::BadOpcode => "bad_opcode",
                Status::BadLen => "bad_len",
                Status::BadFlow => "bad_flow",
                Status::Full => "full",
                Status::DmaErr => "dma_err",
                Status::RemoteInvalid => "remote_invalid",
                Status::RemoteAccess => "remote_access",
                Status::RemoteOp => "remote_op",
                Status::RetryExceeded => "retry_exceeded",
                Status::Flushed => "flushed",
            }
        }
        /// The status a received NAK ends a work request with: `None` for
        /// a PSN sequence error (the requester goes back), else the fatal
        /// status of [`crate::roce::syndrome`]'s NAK codes.
        pub const fn of_nak(syndrome: u8) -> Option<Status> {
            match syndrome {
                crate::roce::syndrome::NAK_SEQ => None,
                crate::roce::syndrome::NAK_INVALID => Some(Status::RemoteInvalid),
                crate::roce::syndrome::NAK_ACCESS => Some(Status::RemoteAccess),
                _ => Some(Status::RemoteOp),
            }
        }
        /// The flow is in error after a completion with this status.
        pub const fn errors_flow(self) -> bool {
            matches!(
                self,
                Status::RemoteInvalid
                    | Status::RemoteAccess
                    | Status::RemoteOp
                    | Status::RetryExceeded
            )
        }
    }
    /// The largest retry limit (`FLOW_RETRY`, 3 bits as in InfiniBand).
    pub const RETRY_LIMIT_MAX: u8 = 7;
}

/// AETH syndromes (bits 31..24 of the AETH word).
pub mod syndrome {
    /// ACK, credit field "invalid".
    pub const ACK: u8 = 0x1F;
    /// NAK, PSN sequence error.
    pub const NAK_SEQ: u8 = 0x60;
    /// NAK, invalid request.
    pub const NAK_INVALID: u8 = 0x61;
    /// NAK, remote access error (a refused R_Key, domain, right or
    /// range: `nic_spec::mr`).
    pub const NAK_ACCESS: u8 = 0x62;
    /// NAK, remote operational error.
    pub const NAK_OPERATIONAL: u8 = 0x63;
    /// The syndromes this NIC's responder sends in an ACKNOWLEDGE (the
    /// Tx builder drops an ACK descriptor with another).
    pub const fn sent(s: u8) -> bool {
        matches!(s, ACK | NAK_SEQ | NAK_INVALID | NAK_ACCESS)
    }
}

/// The opcode is in §1's table.
pub const fn known_opcode(opcode: u8) -> bool {
    let mut i = 0;
    while i < op::ALL.len() {
        if op::ALL[i] == opcode {
            return true;
        }
        i += 1;
    }
    false
}

/// The opcode carries a RETH (WRITE FIRST/ONLY, READ REQUEST), or the
/// RETH-sized 16 reserved bytes of a CNP: 16 bytes after the BTH.
pub const fn has_reth(opcode: u8) -> bool {
    matches!(
        opcode,
        op::WRITE_FIRST | op::WRITE_ONLY | op::READ_REQ | op::CNP
    )
}

/// The opcode is a RoCEv2 CNP.
pub const fn is_cnp(opcode: u8) -> bool {
    opcode == op::CNP
}

/// The opcode carries an AETH (ACK, HPCC ACK, READ RESPONSE
/// FIRST/LAST/ONLY).
pub const fn has_aeth(opcode: u8) -> bool {
    matches!(
        opcode,
        op::ACK | op::ACK_TLM | op::READ_RESP_FIRST | op::READ_RESP_LAST | op::READ_RESP_ONLY
    )
}

/// The opcode is an acknowledgement (ACK, or HPCC ACK with telemetry).
pub const fn is_ack(opcode: u8) -> bool {
    matches!(opcode, op::ACK | op::ACK_TLM)
}

/// A switch on the path adds its hop to the opcode's telemetry area
/// (`docs/roce.md` §2): data (WRITE, READ RESPONSE) and PROBE carry the
/// area forward, toward the receiver. The answers that carry it back, the
/// HPCC ACK (0xC2, the receiver's echo) and the NOTIFY (0xC1, NewINT's
/// result), are feedback and are not stamped: the sender's CC acts on its
/// forward path only, as in HPCC (draft -00 Figure 1; ns-3's switches
/// stamp data packets only). Stamping the echo made each direction of two
/// hosts sending to each other read the other's data as its own load and
/// hold both at 0.75 of the link (issue 50).
pub const fn stamped_on_path(opcode: u8) -> bool {
    !matches!(opcode, op::ACK_TLM | op::NOTIFY)
}

/// The opcode of an acknowledgement: HPCC ACK when it carries the
/// telemetry area, the standard ACK otherwise.
pub const fn ack_opcode(tlm: bool) -> u8 {
    if tlm {
        op::ACK_TLM
    } else {
        op::ACK
    }
}

/// The opcode may carry a payload (WRITE and READ RESPONSE).
pub const fn carries_payload(opcode: u8) -> bool {
    is_write(opcode) || is_read_resp(opcode)
}

/// The opcode is a WRITE (any of the four).
pub const fn is_write(opcode: u8) -> bool {
    matches!(
        opcode,
        op::WRITE_FIRST | op::WRITE_MIDDLE | op::WRITE_LAST | op::WRITE_ONLY
    )
}

/// The opcode is a READ RESPONSE (any of the four).
pub const fn is_read_resp(opcode: u8) -> bool {
    matches!(
        opcode,
        op::READ_RESP_FIRST | op::READ_RESP_MIDDLE | op::READ_RESP_LAST | op::READ_RESP_ONLY
    )
}

/// A message in one packet (WRITE ONLY, READ RESPONSE ONLY): a payload
/// opcode whose payload may be empty. The other payload opcodes
/// (FIRST/MIDDLE/LAST) carry at least one byte.
pub const fn is_only(opcode: u8) -> bool {
    matches!(opcode, op::WRITE_ONLY | op::READ_RESP_ONLY)
}

/// The packet ends a message at the responder (WRITE LAST/ONLY, READ
/// REQUEST): the MSN advances.
pub const fn ends_message(opcode: u8) -> bool {
    matches!(opcode, op::WRITE_LAST | op::WRITE_ONLY | op::READ_REQ)
}

/// HPCC++'s own opcodes (PROBE, NOTIFY, HPCC ACK): they always carry
/// telemetry.
pub const fn is_hpcc(opcode: u8) -> bool {
    matches!(opcode, op::PROBE | op::NOTIFY | op::ACK_TLM)
}

/// The opcode of packet `first`/`last` of a multi-packet message: a
/// WRITE's (`read_resp` false) or a READ RESPONSE's (FIRST, MIDDLE,
/// LAST, or ONLY when it is both).
pub const fn segment_opcode(read_resp: bool, first: bool, last: bool) -> u8 {
    match (read_resp, first, last) {
        (false, true, true) => op::WRITE_ONLY,
        (false, true, false) => op::WRITE_FIRST,
        (false, false, true) => op::WRITE_LAST,
        (false, false, false) => op::WRITE_MIDDLE,
        (true, true, true) => op::READ_RESP_ONLY,
        (true, true, false) => op::READ_RESP_FIRST,
        (true, false, true) => op::READ_RESP_LAST,
        (true, false, false) => op::READ_RESP_MIDDLE,
    }
}

/// PSNs a packet uses (§1): READ REQUEST ceil(dlen/MTU), at least 1; ACK,
/// HPCC ACK, PROBE, NOTIFY, CNP 0; the others 1. `mtu` ≥ 1.
pub fn psn_span(opcode: u8, dlen: u32, mtu: u32) -> u32 {
    match opcode {
        op::READ_REQ => (dlen as u64).div_ceil(mtu.max(1) as u64).max(1) as u32,
        op::ACK | op::ACK_TLM | op::PROBE | op::NOTIFY | op::CNP => 0,
        _ => 1,
    }
}

/// Pad bytes after a payload of `n` bytes (BTH PadCnt).
pub fn pad_count(n: usize) -> usize {
    (4 - n % 4) % 4
}

/// PSNs are 24 bits.
pub const PSN_MASK: u32 = 0xFF_FFFF;
/// The dispatcher's out-of-sequence window (§8): a PSN at distance
/// 1 ≤ d < `PSN_WINDOW` ahead of the expected one is out of sequence (a
/// loss: NAK); at distance ≥ 2^24 − `PSN_WINDOW` behind, a duplicate
/// (re-ACK, or a READ executed again); anything else is a bad PSN.
pub const PSN_WINDOW: u32 = 1 << 12;

/// AETH bits 31..29: the syndrome's class (§8). 0 = ACK, 3 = NAK; the
/// others (RNR, reserved) are not handled.
pub const fn aeth_class(aeth: u32) -> u32 {
    aeth >> 29
}
pub const AETH_CLASS_ACK: u32 = 0;
pub const AETH_CLASS_NAK: u32 = 3;

/// The AETH word: syndrome << 24 | MSN.
pub const fn aeth(syndrome: u8, msn: u32) -> u32 {
    ((syndrome as u32) << 24) | (msn & PSN_MASK)
}

/// Why the Rx parser drops a frame (`nic_golden::roce::packet::decode`,
/// `hdl/src/roce/rx_parse.rs`), in the order the checks are made
/// (§7; `drop_full` is a property of the RTL's buffer, not of the frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Drop {
    BadFcs,
    Trunc,
    BadEth,
    BadIp,
    BadPort,
    BadOpcode,
    BadLen,
    BadTlm,
    BadIcrc,
}

impl Drop {
    pub const ALL: [Drop; 9] = [
        Drop::BadFcs,
        Drop::Trunc,
        Drop::BadEth,
        Drop::BadIp,
        Drop::BadPort,
        Drop::BadOpcode,
        Drop::BadLen,
        Drop::BadTlm,
        Drop::BadIcrc,
    ];
    /// The counter's name in §7 (`cnt_<name>`).
    pub fn name(self) -> &'static str {
        match self {
            Drop::BadFcs => "bad_fcs",
            Drop::Trunc => "trunc",
            Drop::BadEth => "bad_eth",
            Drop::BadIp => "bad_ip",
            Drop::BadPort => "bad_port",
            Drop::BadOpcode => "bad_opcode",
            Drop::BadLen => "bad_len",
            Drop::BadTlm => "bad_tlm",
            Drop::BadIcrc => "bad_icrc",
        }
    }
}

/// Why the receive path dropped a frame or a packet: the parser's reason
/// ([`Drop`]), or the dispatcher's (§8). Each is counted (`cnt_<name>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RxDrop {
    /// By the parser (§7).
    Parse(Drop),
    /// The opcode is not the dispatcher's, or an ACKNOWLEDGE's syndrome
    /// is neither an ACK nor a NAK.
    BadOp,
    /// QP ≥ 2^A, or a flow not created.
    UnknownFlow,
    /// Ahead of the expected PSN (a loss), or a READ RESPONSE whose PSN is
    /// not the one expected.
    Oos,
    /// Behind the expected PSN, within the window.
    Dup,
    /// Neither ahead nor behind within the window.
    BadPsn,
    /// Data would move to an address that is not 8-aligned.
    BadVa,
    /// The memory-region check refused the request (`RxMeta.mr` ≠ 0,
    /// `crate::mr`): answered with a NAK, remote access error or invalid
    /// request.
    Refused,
}

impl RxDrop {
    /// The dispatcher's reasons, in the order of its counters.
    pub const DISPATCH: [RxDrop; 7] = [
        RxDrop::BadOp,
        RxDrop::UnknownFlow,
        RxDrop::Oos,
        RxDrop::Dup,
        RxDrop::BadPsn,
        RxDrop::BadVa,
        RxDrop::Refused,
    ];
    /// The counter's name (`cnt_<name>`).
    pub fn name(self) -> &'static str {
        match self {
            RxDrop::Parse(d) => d.name(),
            RxDrop::BadOp => "bad_op",
            RxDrop::UnknownFlow => "unknown_flow",
            RxDrop::Oos => "oos",
            RxDrop::Dup => "dup",
            RxDrop::BadPsn => "bad_psn",
            RxDrop::BadVa => "bad_va",
            RxDrop::Refused => "refused",
        }
    }
}

/// The most 8-byte words a frame of MTU 2^`mtu_log2` takes in the receive
/// buffer: Ethernet, IPv4, UDP, BTH, RETH and the telemetry area (118
/// bytes), the payload, at most 3 bytes of pad and the ICRC (the FCS is
/// not stored).
pub const fn max_frame_words(mtu_log2: u32) -> u32 {
    ((1u32 << mtu_log2) + 125).div_ceil(8)
}

/// The largest `MTU_LOG2` (8..=12) a receive buffer of 2^`b` words takes:
/// the buffer (which holds at most 2^b − 1 words) must hold two maximum
/// frames and sixteen minimum frames (62 bytes, 8 words), so that one
/// frame can arrive while another leaves and small frames behind them are
/// not dropped. Below 8: a buffer
/// too small for any MTU. `MTU_LOG2` writes above it are refused
/// (`CoreStats.bad_cfg`).
pub const fn rx_buf_max_mtu_log2(b: u32) -> u32 {
    let mut m = 12;
    while m >= 8 && 2 * max_frame_words(m) + 16 * 8 > (1 << b) - 1 {
        m -= 1;
    }
    m
}

/// log2 of the receive parser's record FIFO (`hdl/src/roce/rx_parse.rs`):
/// 64 records, a record per frame waiting in the buffer. With 1 KiB
/// frames 16 records held only 2,300 words, less than a 1 µs link's
/// round trip at 100 Gb/s, so a paused link still overflowed them.
pub const RX_META_LOG2: u32 = 6;

/// The link pause's thresholds on the record FIFO
/// (`hdl/src/nic/rx_pause.rs`): an XOFF at this many records waiting (3/4
/// of the FIFO)…
pub const RX_META_XOFF: u32 = 3 << (RX_META_LOG2 - 2);
/// …and no XON while more than this many wait (1/2). Small frames fill
/// the FIFO before the buffer: the 16 records above `RX_META_XOFF` are
/// their headroom, so a host slower than minimum frames at line rate on a
/// long link can still see `drop_full`.
pub const RX_META_XON: u32 = 1 << (RX_META_LOG2 - 1);

/// Words (8 bytes a cycle) the pause path itself takes to act, beyond
/// the frames and the link: the core's pause decision (2 cycles), the
/// MAC's PAUSE frame (3 words, padded to 64 bytes with preamble and gap:
/// 11 cycles), the peer's receive MAC and its pause timer (about 12).
pub const PAUSE_REACTION_WORDS: u32 = 32;

/// The receive buffer's headroom above `RX_XOFF`, in words: what can
/// still arrive after the fill crosses it. Our PAUSE waits behind the
/// frame our MAC is sending (one maximum frame), the peer finishes the
/// frame it has started (another), the link's round trip carries
/// `link_rtt_words` words (its two delays, at 8 bytes a cycle), and the
/// pause path takes [`PAUSE_REACTION_WORDS`].
pub const fn rx_pause_headroom_words(mtu_log2: u32, link_rtt_words: u32) -> u32 {
    2 * max_frame_words(mtu_log2) + link_rtt_words + PAUSE_REACTION_WORDS
}

/// The largest `RX_XOFF` with the headroom of [`rx_pause_headroom_words`]
/// in a buffer of 2^`b` words (which holds at most 2^b − 1); 0 (pause
/// off) when the buffer has no room for that headroom.
pub const fn rx_xoff_max(b: u32, mtu_log2: u32, link_rtt_words: u32) -> u32 {
    let cap = (1u32 << b) - 1;
    let h = rx_pause_headroom_words(mtu_log2, link_rtt_words);
    if h >= cap {
        0
    } else {
        cap - h
    }
}

/// 8-byte words a control frame without the telemetry area takes on the
/// wire (FCS, preamble and gap included), the largest of them: the CNP
/// (BTH and 16 reserved bytes), against the ACK's 11.
pub const CTL_WIRE_WORDS_PLAIN: u32 =
    crate::mac::wire_bytes(BTH_OFF + BTH_LEN + RETH_LEN + ICRC_LEN).div_ceil(8) as u32;
/// The same with the area: the HPCC ACK (AETH and 48 bytes of
/// telemetry), against the NOTIFY's 17 (no AETH).
pub const CTL_WIRE_WORDS_TLM: u32 =
    crate::mac::wire_bytes(BTH_OFF + BTH_LEN + AETH_LEN + TLM_LEN + ICRC_LEN).div_ceil(8) as u32;

/// The control share's recommended `TX_CTL_SHARE` (`hdl/src/nic/tx_arb.rs`):
/// while data waits, control frames (ACK, NAK, CNP, NOTIFY) take at most
/// 2^-4 of the line, so data keeps at least 15/16 of it (above 0.9 at
/// any frame size). A control frame then waits at most
/// `CTL_WIRE_WORDS_TLM << 4` = 272 cycles for the budget behind the one
/// before it, and ACKs of a flow coalesce meanwhile (`AckCoalesce`).
pub const TX_CTL_SHARE_DEFAULT: u32 = 4;

/// Cycles the Tx arbiter's control budget charges a control frame of
/// `words` wire words under `TX_CTL_SHARE` = `share_log2` (0: no budget,
/// 0 cycles): `words << share_log2`.
pub const fn ctl_cost(words: u32, share_log2: u32) -> u32 {
    if share_log2 == 0 {
        0
    } else {
        words << share_log2
    }
}
