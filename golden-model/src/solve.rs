//! The fixed-point solve of a composite twin (the NIC core, the host
//! interface, the NIC): its blocks' twins are Mealy machines (some
//! `ready`s and arbiters' outputs are combinational from their inputs),
//! so one cycle of the composite evaluates every block on a copy of its
//! state with the inputs the wiring gives from the other blocks' outputs,
//! until the inputs stop changing (the RTL has no combinational loop, so
//! this takes as many passes as the longest combinational chain), then
//! steps each block once with its final inputs.

use crate::Cycle;

/// Passes after which a solve gives up: the wiring would have a
/// combinational loop.
pub const MAX_PASSES: usize = 32;

/// One block in the fixed-point solve: its state, and the outputs of the
/// last evaluation (a copy of the state stepped with `last_in`).
#[derive(Clone)]
pub struct Node<M: Cycle> {
    pub m: M,
    last: Option<(M::In, M::Out)>,
}

impl<M> Node<M>
where
    M: Cycle + Clone,
    M::In: Copy + PartialEq,
    M::Out: Copy,
{
    pub fn new(m: M) -> Self {
        Self { m, last: None }
    }
    /// The outputs for `i` this cycle, without stepping.
    pub fn eval(&mut self, i: &M::In) -> M::Out {
        match self.last {
            Some((li, lo)) if li == *i => lo,
            _ => {
                let o = self.m.clone().step(i);
                self.last = Some((*i, o));
                o
            }
        }
    }
    pub fn commit(&mut self, i: &M::In) -> M::Out {
        self.last = None;
        self.m.step(i)
    }
}

/// One cycle's fixed point: from last cycle's inputs `ins`, evaluate the
/// blocks (`eval`) and re-derive every block's inputs from their outputs
/// (`wire`) until nothing changes. Returns the settled inputs and the
/// passes it took. Panics after [`MAX_PASSES`] (a combinational loop).
pub fn fixed_point<I: Copy + PartialEq, O>(
    mut ins: I,
    mut eval: impl FnMut(&I) -> O,
    wire: impl Fn(&O) -> I,
) -> (I, usize) {
    let mut passes = 0;
    loop {
        let next = wire(&eval(&ins));
        passes += 1;
        if next == ins {
            return (ins, passes);
        }
        assert!(
            passes < MAX_PASSES,
            "no fixed point after {MAX_PASSES} passes (a combinational loop)"
        );
        ins = next;
    }
}
