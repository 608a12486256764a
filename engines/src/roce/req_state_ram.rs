//! Harness of `ReqStateRam`, the requester's flow state.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::req_state_ram::ReqStateRam;

harness! {
    impl<const A: usize> ReqStateRam<A> {
        type In = golden::roce::req_state_ram::In;
        type Out = golden::roce::req_state_ram::Out;
        clock = clock;
        inputs {
            write_address: write_address, write_enable: write_enable, read_address: read_address,
            w_active: w_active,
            w_tlm_data: w_tlm_data,
            w_armed: w_armed,
            w_rd_open: w_rd_open,
            w_rd_post: w_rd_post,
            w_err: w_err,
            w_retries: w_retries,
            w_retry_limit: w_retry_limit,
            w_head: w_head,
            w_send_ix: w_send_ix,
            w_db: w_db,
            w_tail: w_tail,
            w_gen: w_gen,
            w_epoch: w_epoch,
            w_seq_tail: w_seq_tail,
            w_una: w_una,
            w_seq_exp: w_seq_exp,
            w_rd_k: w_rd_k,
            w_psn_tail: w_psn_tail,
            w_psn_next: w_psn_next,
            w_psn_max: w_psn_max
        }
        outputs {
            active: active, tlm_data: tlm_data, armed: armed, rd_open: rd_open, rd_post: rd_post, err: err, retries: retries, retry_limit: retry_limit, head: head, send_ix: send_ix, db: db, tail: tail, gen: gen, epoch: epoch, seq_tail: seq_tail, una: una, seq_exp: seq_exp, rd_k: rd_k, psn_tail: psn_tail, psn_next: psn_next, psn_max: psn_max
        }
    }
}
