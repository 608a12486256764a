//! Harness of `ReadPsns`, the PSNs a READ REQUEST consumes.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::read_psns::ReadPsns;

harness! {
    impl<> ReadPsns {
        type In = golden::roce::read_psns::In;
        type Out = golden::roce::read_psns::Out;
        clock = clock;
        inputs { cfg_mtu_log2: cfg_mtu_log2, dlen: dlen }
        outputs { psns: psns }
    }
}
