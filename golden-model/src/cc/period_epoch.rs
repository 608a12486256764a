//! Twin of `hdl/src/cc/period_epoch.rs`: one timer of the DCQCN reaction
//! point, a prescaler counting `period` cycles into a 16-bit epoch. See
//! the RTL's docs for the ports.

use crate::Cycle;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// Cycles a period (24 bits; 0: stopped).
    pub period: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub epoch: u16,
}

/// The prescaler's count and the epoch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeriodEpoch {
    count: u32,
    epoch: u16,
}

impl PeriodEpoch {
    /// The epoch this cycle shows.
    pub fn epoch(&self) -> u16 {
        self.epoch
    }

    /// One cycle with the given period: the count goes on, or wraps and
    /// the epoch advances. Period 0: the count held at 0.
    pub fn tick(&mut self, period: u32) {
        let period = period & 0xff_ffff;
        if period == 0 {
            self.count = 0;
        } else if self.count + 1 >= period {
            self.count = 0;
            self.epoch = self.epoch.wrapping_add(1);
        } else {
            self.count += 1;
        }
    }
}

impl Cycle for PeriodEpoch {
    type In = In;
    type Out = Out;
    fn step(&mut self, i: &In) -> Out {
        let o = Out { epoch: self.epoch };
        self.tick(i.period);
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Period p: the epoch steps every p cycles, first at cycle p (shown
    /// from the cycle after the step).
    #[test]
    fn steps_every_period() {
        for p in [1u32, 2, 3, 7] {
            let mut t = PeriodEpoch::default();
            let seen: Vec<u16> = (0..3 * p + 1)
                .map(|_| t.step(&In { period: p }).epoch)
                .collect();
            for (c, e) in seen.iter().enumerate() {
                assert_eq!(*e as u32, c as u32 / p, "period {p}, cycle {c}");
            }
        }
    }

    /// Period 0 stops the timer and restarts its period.
    #[test]
    fn zero_stops() {
        let mut t = PeriodEpoch::default();
        for _ in 0..5 {
            t.step(&In { period: 4 });
        }
        assert_eq!(t.epoch(), 1);
        for _ in 0..10 {
            t.step(&In { period: 0 });
        }
        assert_eq!(t.epoch(), 1);
        for _ in 0..3 {
            t.step(&In { period: 4 });
        }
        assert_eq!(t.epoch(), 1, "a new period starts from 0");
        t.step(&In { period: 4 });
        assert_eq!(t.epoch(), 2);
    }
}
