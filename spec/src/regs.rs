//! The NIC core's configuration registers (`CfgWrite.addr`): one table
//! for the RTL (`hdl/src/nic/cfg_regs.rs`), its twin, the host models
//! and the docs.
//!
//! Registers are 64-bit words; a register narrower than that takes the
//! low bits of `CfgWrite.data`. Global registers take effect on the cycle
//! after the write; change them only while the NIC is idle (they are read
//! by blocks mid-operation). Per-flow registers are a staging set: a
//! write of [`COMMIT`] copies them into the flow's contexts (Tx headers,
//! Rx expected PSN, protection domain, requester, scheduler INIT through
//! the requester, CC CREATE or DESTROY). The memory-region registers
//! (`MR_*`) are a staging set too, written into the region table by
//! [`MR_COMMIT`]. A write to an address not in [`ALL`] is counted
//! (`CoreStats.bad_cfg`) and changes nothing.

/// One register: name, address, width in bits, meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reg {
    pub name: &'static str,
    pub addr: u16,
    pub width: u32,
    pub doc: &'static str,
}

macro_rules! regs {
    ($($name:ident = $addr:literal, $w:literal, $doc:literal;)*) => {
        $(#[doc = $doc] pub const $name: u16 = $addr;)*
        /// Every register, in address order.
        pub const ALL: &[Reg] = &[$(Reg { name: stringify!($name), addr: $addr, width: $w, doc: $doc }),*];
    };
}

regs! {
    MTU_LOG2 = 0x00, 4, "log2 of the path MTU in bytes, 8..=12 (clamped)";
    RTO = 0x01, 32, "retransmission timeout, cycles";
    PROBE_T = 0x02, 24, "probe interval, cycles (a PROBE per flow with data in flight)";
    SCHED_CAP = 0x03, 20, "scheduler credit cap, bytes (at least the MTU is used)";
    NS_PER_CYCLE = 0x04, 24, "the core clock's period, UQ8.16 ns: converts the CC's R (B/ns) to the scheduler's (B/cycle)";
    RX_XOFF = 0x05, 16, "receive buffer words (8 bytes) at which the NIC asks its link to pause (XOFF); 0: never. Refused above the buffer's 2^B - 1 words; leave headroom (nic_spec::roce::rx_xoff_max)";
    RX_XON = 0x06, 16, "receive buffer words at or below which a pause is released (XON); keep it below RX_XOFF";
    RX_PAUSE_QUANTA = 0x07, 16, "the quanta (512 bit times each) an XOFF asks for; sent again every quanta x 4 cycles while the pause holds; 0: never pause";
    TX_CTL_SHARE = 0x08, 3, "while data waits to be sent, control frames (ACK, NAK, CNP, NOTIFY) take at most 2^-s of the line; s = 0: no limit, control always first. Recommended 4 (nic_spec::roce::TX_CTL_SHARE_DEFAULT); ACKs of a flow coalesce while they wait";
    RX_PFC_CEV = 0x09, 8, "the class-enable vector of the NIC's pause requests: 0 sends 802.3x PAUSE frames; else 802.1Qbb PFC frames for the priorities whose bits are set (bit i = priority i; set the RoCE traffic's priority), the XOFF quanta as each one's time";
    MR_BASE = 0x0A, 64, "staged region: base VA (nic_spec::mr)";
    MR_LEN = 0x0B, 64, "staged region: length in bytes; base + length at most 2^64";
    MR_RKEY = 0x0C, 32, "staged region: its R_Key; bits 8.. name the table entry (nic_spec::mr::key_index), the low 8 bits are a tag to change at each registration";
    MR_ATTR = 0x0D, 18, "staged region: bits 15..0 its protection domain, bit 16 remote write, bit 17 remote read (nic_spec::mr::right << 16)";
    MR_COMMIT = 0x0E, 33, "bits 7..0: table entry; bit 32: active. Writes the staged region into the entry (active) or invalidates it (inactive). Refused, and counted in MrCheckStats.bad_mr, for an entry outside the table or a region past 2^64";
    MR_CLEAR = 0x0F, 1, "any write invalidates every region (a full reset writes it)";
    CC_T = 0x11, 24, "T, the base RTT, ns";
    CC_INV_T_M = 0x12, 32, "1/T mantissa (CcParams::regs)";
    CC_INV_T_S = 0x13, 8, "1/T shift (CcParams::regs)";
    CC_UQ_M = 0x14, 32, "queue scale mantissa (CcParams::regs)";
    CC_ETA = 0x15, 16, "eta, UQ0.16";
    CC_MAX_STAGE = 0x16, 3, "maxStage";
    CC_W_AI = 0x17, 32, "W_ai, UQ24.8 bytes";
    CC_W_MIN = 0x18, 32, "the smallest W, UQ24.8 bytes";
    CC_W_INIT = 0x19, 32, "W at flow creation, UQ24.8 bytes";
    CC_MLOG = 0x1A, 3, "log2 of the telemetry's byte multiplier";
    FLOW_DMAC = 0x20, 48, "staged: destination MAC";
    FLOW_SMAC = 0x21, 48, "staged: source MAC";
    FLOW_SIP = 0x22, 32, "staged: source IPv4 address";
    FLOW_DIP = 0x23, 32, "staged: destination IPv4 address";
    FLOW_SPORT = 0x24, 16, "staged: UDP source port";
    FLOW_DQP = 0x25, 24, "staged: the peer's QP number";
    FLOW_PKEY = 0x26, 16, "staged: P_Key";
    FLOW_TOS = 0x27, 8, "staged: IPv4 TOS";
    FLOW_SEND_PSN = 0x28, 24, "staged: the first PSN this flow sends";
    FLOW_RECV_PSN = 0x29, 24, "staged: the first PSN expected from the peer";
    FLOW_TLM_DATA = 0x2A, 1, "staged: 1 = telemetry in every data packet, 0 = in probes only";
    FLOW_CC_VARIANT = 0x2B, 2, "staged: the flow's congestion control: 0 HPCC++ NewAck (sender-based), 1 HPCC++ NewINT (receiver-based), 2 DCQCN (3 reads as 2)";
    FLOW_PD = 0x2C, 16, "staged: the flow's protection domain: the regions its peer may use (nic_spec::mr)";
    FLOW_RETRY = 0x2D, 3, "staged: the retry limit 0-7: go-backs (timeouts, NAK PSN sequence errors) in a row without progress before the work request completes retry_exceeded and the flow errs";
    COMMIT = 0x2F, 33, "bits 0..: flow id; bit 32: active. Copies the staged registers into the flow's contexts (the write completes when every block took it)";
    DCQCN_G_LOG2 = 0x30, 4, "DCQCN: g = 2^-g_log2 (DcqcnParams::regs)";
    DCQCN_ALPHA_PERIOD = 0x31, 24, "DCQCN: the alpha update period, cycles (0: off)";
    DCQCN_DEC_PERIOD = 0x32, 24, "DCQCN: the rate-decrease period, cycles (0: a cut on every CNP)";
    DCQCN_INC_PERIOD = 0x33, 24, "DCQCN: the rate-increase timer, cycles (0: off)";
    DCQCN_BYTE_RESET = 0x34, 32, "DCQCN: the byte counter, payload bytes sent per increase stage (0: off, no SENT events)";
    DCQCN_F = 0x35, 3, "DCQCN: F, the fast-recovery stages";
    DCQCN_R_AI = 0x36, 32, "DCQCN: R_ai, UQ8.24 bytes/ns";
    DCQCN_R_HAI = 0x37, 32, "DCQCN: R_hai, UQ8.24 bytes/ns";
    DCQCN_R_MIN = 0x38, 32, "DCQCN: the minimum rate, UQ8.24 bytes/ns";
    DCQCN_R_LINE = 0x39, 32, "DCQCN: the line rate (a flow's rate at creation), UQ8.24 bytes/ns";
    DCQCN_R_FIRST = 0x3A, 32, "DCQCN: the rate on a flow's first CNP, UQ8.24 bytes/ns";
    DCQCN_ALPHA_INIT = 0x3B, 21, "DCQCN: alpha on the first CNP, UQ1.20";
    DCQCN_WINDOW = 0x3C, 32, "DCQCN: the window a DCQCN flow's updates carry, UQ24.8 bytes";
    NP_INTERVAL = 0x3D, 24, "DCQCN notification point: at most one CNP per flow per this many cycles";
}

/// The register at `addr`, if any.
pub fn find(addr: u16) -> Option<&'static Reg> {
    ALL.iter().find(|r| r.addr == addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_unique_and_sorted() {
        for w in ALL.windows(2) {
            assert!(w[0].addr < w[1].addr, "{} / {}", w[0].name, w[1].name);
        }
        assert!(ALL.iter().all(|r| r.width >= 1 && r.width <= 64));
        assert_eq!(find(COMMIT).map(|r| r.name), Some("COMMIT"));
        assert_eq!(find(0x3F), None);
    }
}
