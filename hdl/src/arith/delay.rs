//! Fixed delay line: `q` is `d` from L cycles ago (L ≥ 1 registers).
//!
//! Ports (clock `clock`): in `d`: `Bits<W>`; out `q`: `Bits<W>`.
//! Latency L, II 1; starts at 0. Used to carry operands alongside the
//! long arithmetic pipelines. Golden twin: `nic_golden::arith::delay`.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Delay<const W: usize, const L: usize> {
    pub clock: Signal<In, Clock>,
    pub d: Signal<In, Bits<W>>,
    pub q: Signal<Out, Bits<W>>,
    r: [DFF<Bits<W>>; L],
}

impl<const W: usize, const L: usize> Default for Delay<W, L> {
    fn default() -> Self {
        assert!(L >= 1, "Delay needs L >= 1");
        Self {
            clock: Default::default(),
            d: Default::default(),
            q: Default::default(),
            r: std::array::from_fn(|_| Default::default()),
        }
    }
}

impl<const W: usize, const L: usize> Logic for Delay<W, L> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..L {
            self.r[i].clock.next = self.clock.val();
        }
        self.r[0].d.next = self.d.val();
        for i in 1..L {
            self.r[i].d.next = self.r[i - 1].q.val();
        }
        for i in (L - 1)..L {
            self.q.next = self.r[i].q.val();
        }
    }
}
