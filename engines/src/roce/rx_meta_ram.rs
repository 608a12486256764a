//! Harness of `RxMetaRam`, the parser's metadata queue storage.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::rx_meta_ram::RxMetaRam;

harness! {
    impl<const MA: usize> RxMetaRam<MA> {
        type In = golden::roce::rx_meta_ram::In;
        type Out = golden::roce::rx_meta_ram::Out;
        clock = clock;
        inputs {
            write_address: write_address, write_enable: write_enable,
            w_op: w_op, w_a: w_a, w_va: w_va, w_rd: w_rd, w_aeth: w_aeth,
            w_tlm_hdr: w_tlm_hdr, w_tlm_hop0: w_tlm_hop0, w_tlm_hop1: w_tlm_hop1,
            w_tlm_hop2: w_tlm_hop2, w_tlm_hop3: w_tlm_hop3, w_tlm_hop4: w_tlm_hop4,
            w_len: w_len, w_ps: w_ps, w_pay_end: w_pay_end, w_sh: w_sh, w_nz: w_nz, w_ce: w_ce,
            read_address: read_address
        }
        outputs {
            op: op, a: a, va: va, rd: rd, aeth: aeth, tlm_hdr: tlm_hdr, tlm_hop0: tlm_hop0,
            tlm_hop1: tlm_hop1, tlm_hop2: tlm_hop2, tlm_hop3: tlm_hop3, tlm_hop4: tlm_hop4,
            len: len, ps: ps, pay_end: pay_end, sh: sh, nz: nz, ce: ce
        }
    }
}
