//! Harness of `TxOut`, the Tx's ICRC stages and output slice.

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::tx_out::TxOut;

harness! {
    impl<> TxOut {
        type In = golden::roce::tx_out::In;
        type Out = golden::roce::tx_out::Out;
        clock = clock;
        inputs {
            reset: reset, produce: produce, word: word, crcm: crcm, word_j: word_j,
            rcrc: rcrc, err: err, out_tready: m_axis_tx.tready
        }
        outputs { adv: adv, frames: frames, aborted: aborted }
        records_out { out: m_axis_tx }
    }
}
