//! The host of the whole NIC (`hpcc_nic`): a driver that follows
//! `docs/driver.md`, the host's memory, and a DMA engine. Split by role:
//! - [`contract`]: the driver contract as operations: register accesses
//!   and their answers, the bring-up, the host memory layout, send-queue
//!   and completion entries, the counter reads;
//! - [`host`]: the host model of either top (`hpcc_nic`, and through
//!   `crate::driver_10g` `hpcc_nic_10g`): the driver, memory and DMA
//!   engine stepped against the NIC every cycle;
//! - [`run`]: a two-NIC run (`hpccnic sim`): its configuration, the loop
//!   and its result;
//! - [`host::recover`]-ed flows: the host model's recovery of a flow in
//!   error (`driver/host/recover.rs`).
//!
//! The host model:
//!
//! - **Registers** over AXI4-Lite, one access at a time, with random
//!   pauses on every channel (write address and data each asserted after
//!   its own random delay, so they arrive in either order or together;
//!   random `bready`/`rready`). Every answer is checked against the one
//!   the access must get (OKAY, SLVERR, DECERR) and reads against their
//!   value where it is known.
//! - **Bring-up** (`docs/driver.md`): ID and VERSION checked,
//!   SCRATCH written and read back; the core's global registers through
//!   the core window; each completion queue (base, size, moderation,
//!   enable); each flow's staged context, its send queue, its CQ, then
//!   COMMIT.
//! - **Work requests**: each is written as a send-queue entry into host
//!   memory at its flow's producer index, and the doorbell (the new
//!   producer index) is rung after a batch; a flow never has more entries
//!   posted and not completed than its send queue holds.
//! - **Completions**: on an event of completion queue c, the driver reads
//!   its entries from host memory while their phase bit is the current
//!   pass's, checks each against the work request it reports (status,
//!   bytes, exactly once), and writes the CQ's consumer index. An entry
//!   with status `DMA_ERR` (the fetch of the entry failed) is posted
//!   again.
//! - **DMA engine** (verilog-axi `axi_dma` style): read descriptors are
//!   served in order after `dma_latency` cycles as ceil(len/8) beats with
//!   `tlast`; with probability `dma_err` a read has one beat flagged
//!   (`tuser`). Write descriptors are taken in order and their c2h beats
//!   accepted only while the descriptor is held (so a completion's entry
//!   is in host memory before its event), written with their `tkeep`.
//! - **Bad host input** (`bad_input`): accesses the NIC must refuse
//!   (read-only and unmapped registers, misaligned addresses, a doorbell
//!   beyond the ring or on an unconfigured flow, a COMMIT of a flow out
//!   of range, a consumer index past the producer index), each expecting
//!   its error answer; bad work requests (opcode, length) expecting their
//!   error completions.
//! - **MAC side**: as the core's host (`core_env::CoreHost`).
//!
//! The NIC's inputs come from the host's state only, so a run's inputs can
//! be recorded and replayed on an RTL engine.

pub mod contract;
pub mod host;
pub mod run;

pub use contract::*;
pub use host::*;
pub use run::*;
