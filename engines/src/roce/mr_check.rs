//! Harness of `MrCheck` (docs/roce.md §8a).

use crate::harness;
use nic_golden as golden;
use nic_hdl::roce::mr_check::MrCheck;

harness! {
    impl<const A: usize, const R: usize> MrCheck<A, R> {
        type In = golden::roce::mr_check::In;
        type Out = golden::roce::mr_check::Out;
        clock = clock;
        inputs {
            reset: reset, mr_valid: s_mr.valid, pd_valid: s_pd.valid,
            meta_valid: s_meta.valid, out_ready: m_meta.ready
        }
        outputs { meta_ready: s_meta.ready, out_valid: m_meta.valid }
        records_in { mr: s_mr, pd: s_pd, meta: s_meta }
        records_out { out: m_meta, stats: m_stats }
    }
}
