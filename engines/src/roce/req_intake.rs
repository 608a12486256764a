//! Harness of `ReqIntake`, the requester's input stages and choice.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::req_intake::ReqIntake;

harness! {
    impl<const A: usize> ReqIntake<A> {
        type In = golden::roce::req_intake::In;
        type Out = golden::roce::req_intake::Out;
        clock = clock;
        inputs {
            ctx_valid: s_ctx.valid, wr_valid: s_wr.valid, send_valid: s_send.valid,
            fb_valid: s_fb.valid, nak_valid: s_nak.valid,
            idle: idle, desc_full: desc_full, t_exp: t_exp, t_head: t_head
        }
        outputs {
            ctx_ready: s_ctx.ready, wr_ready: s_wr.ready, send_ready: s_send.ready,
            fb_ready: s_fb.ready, nak_ready: s_nak.ready,
            take_ctx: take_ctx, take_fb: take_fb, take_nak: take_nak, take_t: take_t,
            take_send: take_send, take_wr: take_wr, take: take,
            flow_in: flow_in, flow_next: flow_next, flow: flow,
            ctx_active: ctx_active, ctx_psn: ctx_psn, ctx_tlm_data: ctx_tlm_data,
            ctx_retry_limit: ctx_retry_limit,
            wr_opcode: wr_opcode, wr_laddr: wr_laddr, wr_va: wr_va, wr_rkey: wr_rkey,
            wr_len: wr_len, wr_tag: wr_tag,
            send_seq: send_seq, send_len: send_len, send_probe: send_probe,
            send_epoch: send_epoch,
            fb_psn: fb_psn, fb_aeth: fb_aeth, fb_opcode: fb_opcode, fb_tlm: fb_tlm,
            fb_hdr: fb_hdr, fb_hop0: fb_hop0, fb_hop1: fb_hop1, fb_hop2: fb_hop2,
            fb_hop3: fb_hop3, fb_hop4: fb_hop4, t_gen: t_gen
        }
        records_in { ctx: s_ctx, wr: s_wr, send: s_send, fb: s_fb, nak: s_nak }
    }
}
