//! The harnesses of the generated record register slices
//! (`<Record>::Slice`, `hdl/src/record.rs`) and input stages
//! (`<Record>::Stage`) that the tests run against their twins,
//! `nic_golden::record::{Slice, Stage}`: one record with a nested record
//! and a generic width, one plain.

use nic_golden::record::{SliceIn, SliceOut};

crate::harness! {
    impl<const A: usize> nic_hdl::roce::AckInfo::Slice<A> {
        type In = SliceIn<nic_golden::roce::AckInfo>;
        type Out = SliceOut<nic_golden::roce::AckInfo>;
        clock = clock;
        inputs { s_valid: s.valid, m_ready: m.ready }
        outputs { s_ready: s.ready, m_valid: m.valid }
        records_in { s: s }
        records_out { m: m }
    }
}

crate::harness! {
    impl<> nic_hdl::sched::SchedEvent::Slice {
        type In = SliceIn<nic_golden::sched::SchedEvent>;
        type Out = SliceOut<nic_golden::sched::SchedEvent>;
        clock = clock;
        inputs { s_valid: s.valid, m_ready: m.ready }
        outputs { s_ready: s.ready, m_valid: m.valid }
        records_in { s: s }
        records_out { m: m }
    }
}

// The generated input stages (`<Record>::Stage`) against their twin,
// `nic_golden::record::Stage`: the same two records.
crate::harness! {
    impl<const A: usize> nic_hdl::roce::AckInfo::Stage<A> {
        type In = SliceIn<nic_golden::roce::AckInfo>;
        type Out = SliceOut<nic_golden::roce::AckInfo>;
        clock = clock;
        inputs { s_valid: s.valid, m_ready: m.ready }
        outputs { s_ready: s.ready, m_valid: m.valid }
        records_in { s: s }
        records_out { m: m }
    }
}

crate::harness! {
    impl<> nic_hdl::sched::SchedEvent::Stage {
        type In = SliceIn<nic_golden::sched::SchedEvent>;
        type Out = SliceOut<nic_golden::sched::SchedEvent>;
        clock = clock;
        inputs { s_valid: s.valid, m_ready: m.ready }
        outputs { s_ready: s.ready, m_valid: m.valid }
        records_in { s: s }
        records_out { m: m }
    }
}
