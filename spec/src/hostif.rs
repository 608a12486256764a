//! The host interface's contract (`docs/driver.md`): the AXI4-Lite
//! register map, the layouts of the work-queue and completion-queue
//! entries in host memory, and the response codes. One table for the RTL
//! (`hdl/src/hostif/`), its twins, the host driver model
//! (`netsim/src/driver.rs`), the docs and the generated C header
//! (`include/hpcc_nic.h`, `hpccnic c-header`).
//!
//! Every register is 32 bits wide at a 4-byte aligned byte address.
//! Registers are little-endian (byte lane k of `WDATA` is bits 8k+7..8k).

/// The value of the ID register: "HPCC" in ASCII.
pub const ID: u32 = 0x4850_4343;
/// The value of the VERSION register: major in bits 31..16, minor in 15..0.
pub const VERSION: u32 = 0x0001_0001;
/// Cycles a soft reset (`map::CONTROL` bit 0) holds the pipelines in
/// reset. Each block's reset takes one cycle; the rest is margin for
/// the blocks' neighbours to see the pipelines idle.
pub const SOFT_RESET_CYCLES: u32 = 8;
/// `map::CONTROL` bits.
pub mod control {
    /// Soft reset (`SOFT_RESET_CYCLES` cycles).
    pub const SOFT_RESET: u32 = 1;
    /// Full reset: every register the host can write, and every flow's
    /// and completion queue's state, back to its power-up value (the
    /// sweep of [`super::full_reset`]); the write is answered when it is
    /// done.
    pub const FULL_RESET: u32 = 2;
}

/// log2 of the completions (`WrCompletion`) queued between the core's
/// requester and the send-queue engine (`CmplQueue` in `hpcc_nic`): 8.
/// The engine takes an event every 4 cycles and a completion only in its
/// last stage; without the queue the requester waited for it in each ACK
/// it completed work with (4.4 cycles an ACK on 64 flows of 64-byte
/// WRITEs, which held the whole NIC to 0.963 of the line one way).
pub const CMPL_QUEUE_LOG2: usize = 3;

/// The full reset (`control::FULL_RESET`): a sweep of register writes the
/// register decoder makes itself, through the paths a host's writes take.
/// In order:
/// 1. the staged per-flow registers' and COMMIT's words of the core
///    window ([`STAGED_WORDS`]), written 0 (COMMIT's high word, its
///    active bit, before its low word: a COMMIT of flow 0, inactive);
/// 2. a COMMIT of every flow, 2^A − 1 down to 0, inactive, with the
///    staged send-queue registers 0: every flow's contexts, requester,
///    scheduler, CC and DCQCN state, and send queue as at power-up, and
///    no flow sends or accepts anything after its COMMIT;
/// 3. every word of the core window, each register's high word before
///    its low word, written 0 ([`CORE_WORDS`] writes; words that are no
///    register are skipped in a cycle): the core's globals (and the
///    staged registers again) at their power-up value 0;
/// 4. each completion queue's registers, [`CQ_OPS`] in order: disabled,
///    enabled (which empties it: indices, moderation state 0) and
///    disabled again, then its address, size and moderation 0.
///
/// The pipelines run during the sweep (so the blocks a COMMIT waits for
/// drain) and are reset for `SOFT_RESET_CYCLES` from its answer, as by
/// `control::SOFT_RESET`. The decoder's own registers (SCRATCH, the
/// staged send-queue registers, its counters) are 0 from the sweep's
/// start; the CONTROL write itself is counted once, when it is answered.
pub mod full_reset {
    use super::cq_reg;
    /// The first and last word of the staged per-flow registers (`FLOW_*`,
    /// core registers 0x20..=0x2E) and of COMMIT, written before the
    /// COMMITs of every flow.
    pub const STAGED_WORDS: (u32, u32) = (
        2 * crate::regs::FLOW_DMAC as u32,
        2 * crate::regs::COMMIT as u32 + 1,
    );
    // The register decoder launches the sweep's second write from
    // registers loaded with its first: there is a second staged word.
    const _: () = assert!(STAGED_WORDS.0 < STAGED_WORDS.1);
    /// Words of the core window the sweep writes (64 registers × 2).
    pub const CORE_WORDS: u32 = 128;
    /// The writes to each completion queue: (register offset, value).
    pub const CQ_OPS: [(u16, u32); 8] = [
        (cq_reg::CTRL, 0),
        (cq_reg::CTRL, 1),
        (cq_reg::CTRL, 0),
        (cq_reg::BASE_LO, 0),
        (cq_reg::BASE_HI, 0),
        (cq_reg::LOG_SIZE, 0),
        (cq_reg::MOD_COUNT, 0),
        (cq_reg::MOD_TIME, 0),
    ];
    /// The writes of the sweep for 2^a flows and 2^c completion queues.
    pub const fn writes(a: u32, c: u32) -> u32 {
        (STAGED_WORDS.1 - STAGED_WORDS.0 + 1)
            + (1 << a)
            + CORE_WORDS
            + (CQ_OPS.len() as u32) * (1 << c)
    }
}
/// AXI4-Lite address width, bits.
pub const ADDR_W: usize = 16;

/// AXI4-Lite response codes (`BRESP`, `RRESP`).
pub mod resp {
    /// The access was done.
    pub const OKAY: u8 = 0;
    /// The access was refused and changed nothing: misaligned, a write
    /// to a read-only register, or a value the register refuses.
    pub const SLVERR: u8 = 2;
    /// No register at that address; nothing changed.
    pub const DECERR: u8 = 3;
}

/// Who may write a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read-only: a write is refused (SLVERR) and counted (`ro_writes`).
    Ro,
    /// Read and write; a read returns what the register holds.
    Rw,
}

/// A register, or a window of registers, of the AXI4-Lite map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reg {
    pub name: &'static str,
    /// Byte address (of the first element, for an array).
    pub addr: u16,
    pub access: Access,
    /// Elements and their spacing in bytes (1 and 4 for a single register).
    pub count: u16,
    pub stride: u16,
    pub doc: &'static str,
}

macro_rules! map {
    ($($name:ident = $addr:literal, $acc:ident, $count:expr, $stride:literal, $doc:literal;)*) => {
        $(#[doc = $doc] pub const $name: u16 = $addr;)*
        /// Every register and window, in address order.
        pub const ALL: &[Reg] = &[$(Reg {
            name: stringify!($name), addr: $addr, access: Access::$acc,
            count: $count, stride: $stride, doc: $doc,
        }),*];
    };
}

/// The AXI4-Lite map (byte addresses). Arrays are indexed by flow, CQ,
/// core register or counter; their sizes for a given NIC are in `CAPS`.
pub mod map {
    use super::{Access, Reg};
    /// Flows at most (the largest NIC; `CAPS` gives this one's).
    pub const MAX_FLOWS: u16 = 4096;
    /// Completion queues at most.
    pub const MAX_CQS: u16 = 16;
    map! {
        ID = 0x0000, Ro, 1, 4, "constant 0x48504343 (\"HPCC\")";
        VERSION = 0x0004, Ro, 1, 4, "interface version: major << 16 | minor";
        SCRATCH = 0x0008, Rw, 1, 4, "scratch register for the driver (no effect)";
        CAPS = 0x000C, Ro, 1, 4, "bits 3:0 log2 flows, 7:4 log2 work requests outstanding per flow, 11:8 log2 completion queues, 15:12 log2 of the largest ring (15), 19:16 hops of telemetry the CC module tracks (H; events with more are dropped as DROP_HOPS)";
        CONTROL = 0x0010, Rw, 1, 4, "bit 0: soft reset. Writing 1 holds the receive and transmit pipelines and the payload reads in flight in reset (what the rst pin resets, but not the register interface) for SOFT_RESET_CYCLES cycles from the cycle the register decoder answers the write; reads 1 while the reset runs. Bit 1: full reset (takes precedence over bit 0). Writing 1 returns every register the host can write and every flow's and completion queue's state to its power-up value (the sweep of nic_spec::hostif::full_reset); the write is answered when it is done, and the pipelines are then reset as by bit 0. Other bits: written as anything, read 0";
        CORE = 0x0400, Rw, 64, 8, "core register r (nic_spec::regs) at CORE + 8r: low word at +0, high word at +4 (only for registers wider than 32 bits); writing the low word writes the 64-bit value to the core, writing the high word only holds it; a read returns the value last written";
        FLOW_SQ_BASE_LO = 0x0600, Rw, 1, 4, "staged: send queue base address, bits 31:0 (bits 4:0 read as 0: 32-byte aligned)";
        FLOW_SQ_BASE_HI = 0x0604, Rw, 1, 4, "staged: send queue base address, bits 63:32";
        FLOW_SQ_LOG_SIZE = 0x0608, Rw, 1, 4, "staged: log2 of the send queue's entries, 0..=15 (larger values read as 15)";
        FLOW_CQ = 0x060C, Rw, 1, 4, "staged: the completion queue of the flow's work requests (bits above log2 CQs read as 0)";
        CQ = 0x0800, Rw, MAX_CQS, 0x20, "completion queue c's registers (CQ_* offsets) at CQ + 0x20 c";
        STATS = 0x1000, Ro, 11, 0x100, "counter page p (STATS_PAGES) at STATS + 0x100 p, its counter k at + 4k; 32 bits, wrapping";
        SQ_DB = 0x8000, Rw, MAX_FLOWS, 4, "flow f's send queue doorbell at SQ_DB + 4f: write the producer index (bits 15:0); read: consumer index << 16 | producer index";
    }
    /// The entry of [`ALL`] that holds `addr`, and the element index.
    pub fn find(addr: u16) -> Option<(&'static Reg, u16)> {
        ALL.iter().find_map(|r| {
            let off = addr.checked_sub(r.addr)?;
            let k = off / r.stride;
            (k < r.count && off % r.stride == 0).then_some((r, k))
        })
    }
}

/// Completion queue registers: offsets in CQ c's block at
/// `map::CQ + 0x20 c`.
pub mod cq_reg {
    use super::{Access, Reg};
    map! {
        BASE_LO = 0x00, Rw, 1, 4, "ring base address, bits 31:0 (bits 3:0 read as 0: 16-byte aligned)";
        BASE_HI = 0x04, Rw, 1, 4, "ring base address, bits 63:32";
        LOG_SIZE = 0x08, Rw, 1, 4, "log2 of the ring's entries, 0..=15 (larger values read as 15)";
        CI = 0x0C, Rw, 1, 4, "consumer index (bits 15:0): the host writes how far it has read; a value past the producer index is refused (SLVERR) and counted";
        PI = 0x10, Ro, 1, 4, "producer index (bits 15:0): completions written";
        MOD_COUNT = 0x14, Rw, 1, 4, "event moderation: an event once this many completions wait (bits 15:0; 0 counts as 1)";
        MOD_TIME = 0x18, Rw, 1, 4, "event moderation: an event at most this many cycles after the first waiting completion (bits 23:0; 0: at once)";
        CTRL = 0x1C, Rw, 1, 4, "bit 0: enable. Writing 1 over 0 starts the ring empty (indices 0, no completion waiting); while 0, completions for this CQ are dropped and counted";
    }
}

/// The counter pages of `map::STATS`, in page order: the records of
/// `nic_spec::records` whose fields are the counters, in field order.
/// Pages are only ever appended, so a page's address never moves.
pub const STATS_PAGES: [&str; 11] = [
    "RxParseStats",
    "RxDispatchStats",
    "TxStats",
    "SchedStats",
    "CcStats",
    "ReqStats",
    "CoreStats",
    "HostIfStats",
    "DcqcnStats",
    "NpStats",
    "CnmStats",
];

/// Counter records that have no page: (record, why). Every other
/// `*Stats` record is a page.
pub const STATS_UNMAPPED: [(&str, &str); 9] = [
    (
        "MrCheckStats",
        "the memory-region check sits inside the core: its counters are CoreStats.mr_* (the core's page)",
    ),
    (
        "MacTxStats",
        "the MAC sits outside hpcc_nic: its counters are ports of mac_10g (tx_clk domain)",
    ),
    (
        "MacRxStats",
        "the MAC sits outside hpcc_nic: its counters are ports of mac_10g (rx_clk domain)",
    ),
    (
        "MacPauseStats",
        "the MAC sits outside hpcc_nic: its counters are ports of mac_10g (tx_clk domain)",
    ),
    (
        "AsyncFifoStats",
        "the clock-crossing FIFOs sit between the MAC and hpcc_nic: their counters are ports (write-side clock)",
    ),
    (
        "TxPadStats",
        "the vendor-MAC adapter sits between hpcc_nic and a vendor MAC: its counters are ports (core clock)",
    ),
    (
        "UartBridgeStats",
        "the UART register bridge sits in front of hpcc_nic's s_axil on a board: its counters are ports, and the host reads them with the bridge's STATS command",
    ),
    (
        "BramDmaStats",
        "the block-RAM host memory stands in for a host's PCIe DMA engine on a board: its counters are ports of the board top, and the host reads them with the bridge's STATS command (board::STATS_PAGES)",
    ),
    (
        "BoardStats",
        "the board's own counters (the PLL's lock losses) are outside hpcc_nic: the host reads them with the bridge's STATS command (board::STATS_PAGES)",
    ),
];

/// The byte address of counter `field` of the page named `page`.
pub fn stats_addr(page: &str, field: usize) -> Option<u16> {
    let p = STATS_PAGES.iter().position(|&n| n == page)?;
    Some(map::STATS + 0x100 * p as u16 + 4 * field as u16)
}

/// One field of an entry in host memory: its byte offset and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub offset: usize,
    /// Bytes: 1, 2, 4 or 8 (little-endian), or 0 for a flag bit (see `bit`).
    pub size: usize,
    /// For a flag: its bit in the byte at `offset`.
    pub bit: u8,
    pub doc: &'static str,
}

macro_rules! entry {
    ($($name:ident = $off:literal, $size:literal, $bit:literal, $doc:literal;)*) => {
        $(#[doc = $doc] pub const $name: usize = $off;)*
        /// Every field, in offset order.
        pub const FIELDS: &[super::Field] = &[$(super::Field {
            name: stringify!($name), offset: $off, size: $size, bit: $bit, doc: $doc,
        }),*];
    };
}

/// A send-queue entry (work request) in host memory: 32 bytes,
/// little-endian. Entry i of a flow's send queue is at
/// base + 32 · (i mod 2^log2 size).
pub mod wqe {
    /// Bytes per entry.
    pub const SIZE: usize = 32;
    entry! {
        LADDR = 0, 8, 0, "local host address (8-byte aligned)";
        VA = 8, 8, 0, "the peer's virtual address (8-byte aligned)";
        LEN = 16, 4, 0, "length in bytes, 1..=2^31-1";
        RKEY = 20, 4, 0, "the peer's R_Key";
        TAG = 24, 4, 0, "returned in the completion";
        OPCODE = 28, 1, 0, "0 RDMA WRITE, 1 RDMA READ (nic_spec::roce::wr)";
    }
}

/// A completion-queue entry in host memory: 16 bytes, little-endian.
/// Entry i of a CQ is at base + 16 · (i mod 2^log2 size).
pub mod cqe {
    /// Bytes per entry.
    pub const SIZE: usize = 16;
    entry! {
        TAG = 0, 4, 0, "the work request's tag (status DMA_ERR: its send-queue index)";
        BYTES = 4, 4, 0, "bytes moved (0 unless status 0)";
        FLOW = 8, 2, 0, "the flow";
        STATUS = 10, 1, 0, "nic_spec::roce::wr::Status";
        PHASE = 11, 0, 7, "owner bit: 1 on the ring's first pass, 0 on the second, and so on; the host zeroes the ring before enabling it";
    }
}

/// Bits of `map::CAPS` for a NIC of 2^a flows, 2^q work requests per
/// flow, 2^c completion queues and a CC module that tracks h hops of
/// telemetry.
pub const fn caps(a: u32, q: u32, c: u32, h: u32) -> u32 {
    a | q << 4 | c << 8 | MAX_LOG_SIZE << 12 | h << 16
}

/// The largest ring: 2^15 entries (indices are 16 bits).
pub const MAX_LOG_SIZE: u32 = 15;

#[cfg(test)]
mod tests {
    use super::*;

    fn check(all: &[Reg]) {
        for w in all.windows(2) {
            let end = w[0].addr as u32 + w[0].count as u32 * w[0].stride as u32;
            assert!(
                end <= w[1].addr as u32,
                "{} overlaps {}",
                w[0].name,
                w[1].name
            );
        }
        for r in all {
            assert_eq!(r.addr % 4, 0, "{}", r.name);
            assert!(r.stride >= 4 && r.stride % 4 == 0, "{}", r.name);
        }
    }

    #[test]
    fn maps_do_not_overlap_and_fit_the_address_width() {
        check(map::ALL);
        check(cq_reg::ALL);
        let last = map::ALL.last().unwrap();
        assert!(last.addr as u32 + last.count as u32 * last.stride as u32 <= 1 << ADDR_W);
        assert!(
            cq_reg::ALL.last().unwrap().addr + 4
                <= map::ALL.iter().find(|r| r.name == "CQ").unwrap().stride
        );
        assert_eq!(
            map::find(map::SQ_DB + 12).map(|(r, k)| (r.name, k)),
            Some(("SQ_DB", 3))
        );
        assert_eq!(
            map::find(map::CORE + 8 * 0x2F + 4).map(|(r, k)| (r.name, k)),
            None
        );
        assert_eq!(
            map::find(map::CORE + 8 * 0x2F).map(|(r, k)| (r.name, k)),
            Some(("CORE", 0x2F))
        );
        assert_eq!(
            map::find(map::CONTROL).map(|(r, k)| (r.name, k)),
            Some(("CONTROL", 0))
        );
        assert_eq!(map::find(0x0014), None);
    }

    #[test]
    fn caps_fields_are_four_bits_each_where_the_docs_say() {
        let c = caps(8, 4, 3, 5);
        assert_eq!(c, 0x5_F348);
        assert_eq!(
            [
                c & 0xF,
                (c >> 4) & 0xF,
                (c >> 8) & 0xF,
                (c >> 12) & 0xF,
                (c >> 16) & 0xF
            ],
            [8, 4, 3, MAX_LOG_SIZE, 5]
        );
        assert_eq!(caps(4, 3, 2, 2) >> 16, 2);
    }

    #[test]
    fn stats_pages_are_the_counter_records() {
        let all = crate::records::all();
        let stats: Vec<&str> = all
            .iter()
            .filter(|r| r.name.ends_with("Stats"))
            .map(|r| r.name)
            .collect();
        assert_eq!(stats.len(), STATS_PAGES.len() + STATS_UNMAPPED.len());
        for (name, _) in STATS_UNMAPPED {
            assert!(
                stats.contains(&name) && !STATS_PAGES.contains(&name),
                "{name}"
            );
        }
        for p in STATS_PAGES {
            let r = all.iter().find(|r| r.name == p).expect("a record");
            assert!(
                r.fields.len() <= 64 && r.fields.iter().all(|f| f.width == 32),
                "{p}"
            );
        }
        assert_eq!(stats_addr("TxStats", 1), Some(map::STATS + 0x204));
    }

    #[test]
    fn entries_are_packed_in_order() {
        for fields in [wqe::FIELDS, cqe::FIELDS] {
            for w in fields.windows(2) {
                assert!(w[0].offset + w[0].size <= w[1].offset, "{}", w[1].name);
            }
        }
        assert!(wqe::OPCODE < wqe::SIZE && cqe::PHASE < cqe::SIZE);
    }
}
