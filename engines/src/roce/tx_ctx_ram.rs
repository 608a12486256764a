//! Harness of `TxCtxRam`, the Tx's flow contexts.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::tx_ctx_ram::TxCtxRam;

harness! {
    impl<const A: usize> TxCtxRam<A> {
        type In = golden::roce::tx_ctx_ram::In;
        type Out = golden::roce::tx_ctx_ram::Ctx;
        clock = clock;
        inputs { ctx_valid: s_ctx.valid, rd_flow: rd_flow, load: load }
        outputs {
            dmac: dmac, smac: smac, sip: sip, dip: dip, sport: sport, pkey: pkey, dqp: dqp,
            tos: tos
        }
        records_in { ctx: s_ctx }
    }
}
