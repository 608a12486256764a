//! Twin of `hdl/src/cc/increase_step.rs`: DCQCN's rate increase step
//! ([`increase`]) in three stages, `rt` and `add` entering at stage 0 and
//! `rc` at stage 2. See the RTL's docs for the ports.

use crate::cc::dcqcn::increase;
use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    pub rt: u32,
    pub add: u32,
    pub r_line: u32,
    pub rc: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub rt_new: u32,
    pub rc_new: u32,
}

/// The three stages' registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IncreaseStep {
    /// Stage 1: Rt + add (33 bits).
    rt_plus_add: u64,
    /// Stage 2: Rt' capped by R_line.
    rt_capped: u32,
    /// Stage 3: the outputs.
    out: Out,
}

impl Cycle for IncreaseStep {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = self.out;
        // Rc' from the capped Rt': `increase` with nothing to add and no
        // cap below it is the rounding-up half sum.
        let (rc_new, _) = increase(i.rc, self.rt_capped, 0, u32::MAX);
        self.out = Out {
            rt_new: self.rt_capped,
            rc_new,
        };
        self.rt_capped = self.rt_plus_add.min(i.r_line as u64) as u32;
        self.rt_plus_add = i.rt as u64 + i.add as u64;
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An operation staged as the reaction point stages it gives
    /// [`increase`]'s result three cycles after its `rt`.
    #[test]
    fn staged_equals_increase() {
        let cases = [
            (99u32, 100u32, 0u32, 200u32),
            (50, 100, 150, 200),
            (u32::MAX, u32::MAX, u32::MAX, u32::MAX),
            (0, u32::MAX, 1, u32::MAX),
        ];
        for (rc, rt, add, r_line) in cases {
            let mut t = IncreaseStep::default();
            t.step(&In {
                rt,
                add,
                ..In::default()
            });
            t.step(&In {
                r_line,
                ..In::default()
            });
            t.step(&In {
                rc,
                ..In::default()
            });
            let o = t.step(&In::default());
            assert_eq!((o.rc_new, o.rt_new), increase(rc, rt, add, r_line));
        }
    }
}
