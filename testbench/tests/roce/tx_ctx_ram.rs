//! `hdl/src/roce/tx_ctx_ram.rs` (the Tx's flow contexts) against
//! `nic_golden::roce::tx_ctx_ram`: every port every cycle on both
//! engines, with 16 flows so that reads meet writes; and the fields out
//! two cycles after each read against a plain statement: the last
//! context written to that flow before the read's cycle (zero if none),
//! held until the next `load`.

use crate::common::*;
use nic_golden::roce::tx_ctx_ram::{Ctx, In, TxCtxRam as Golden};
use nic_golden::roce::TxFlowCtx;
use nic_hdl::roce::tx_ctx_ram::TxCtxRam;
use proptest::prelude::*;

/// Writes in a third of the cycles, a read at any flow in every cycle,
/// `load` in half of them; every field any value (wider than its port).
fn stim() -> impl Strategy<Value = Vec<In>> {
    let cycle = (any::<[u64; 4]>(), any::<[u32; 4]>(), chance(33), chance(50)).prop_map(
        |(w, x, write, load)| In {
            ctx_valid: write,
            ctx: TxFlowCtx {
                flow: x[0] & 0xF,
                dmac: w[0],
                smac: w[1],
                sip: x[1],
                dip: x[2],
                sport: w[2] as u16,
                dqp: x[3],
                pkey: (w[2] >> 16) as u16,
                tos: (w[2] >> 32) as u8,
            },
            rd_flow: (w[3] & 0x1F) as u32,
            load,
        },
    );
    prop::collection::vec(cycle, 1..120)
}

proptest! {
    #![proptest_config(config(24))]
    /// Both engines, every port, every cycle; after each read with
    /// `load` a cycle later, the last context written before the read;
    /// without `load`, the fields held.
    #[test]
    fn tx_ctx_ram_matches_golden(s in stim()) {
        let out = both::<TxCtxRam<4>, Golden<4>>("roce_tx_ctx_ram", &s)?;
        let mut store = [Ctx::default(); 16];
        for t in 0..s.len() {
            if t + 2 < s.len() && s[t + 1].load {
                prop_assert_eq!(out[t + 2], store[(s[t].rd_flow & 0xF) as usize], "read at {}", t);
            }
            if t + 1 < s.len() && !s[t].load {
                prop_assert_eq!(out[t + 1], out[t], "held at {}", t);
            }
            if s[t].ctx_valid {
                store[(s[t].ctx.flow & 0xF) as usize] = Ctx::of(&s[t].ctx);
            }
        }
    }
}
