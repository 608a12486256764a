//! The DCQCN reaction point's new state ([`DcqcnRp`](super::DcqcnRp),
//! stage S7): what an operation leaves in its flow's state words, the
//! cut made, registered into S8 (the L3QCN/DCQCN draft; the transaction
//! twin is `nic_golden::cc::dcqcn::DcqcnRp::apply`).
//!
//! # What it does
//! From the flow's state as read (`rate`, `ab`, `meta`, the three state
//! RAM words in `DcqcnRp`'s layout) and the parent's decisions, in this
//! order of precedence:
//! - `create`: Rc = Rt = R_line, stages, byte counter and flags 0,
//!   created, the epochs the current ones (α: `alpha_use`, α_init).
//! - `destroy`: everything 0.
//! - `cnp`: armed; a first CNP (`first`) clears the α period's CNP bit
//!   and takes the α epoch, a later one sets that bit; a CNP not cut now
//!   (`cnp_cut` low) sets the held-cut bit.
//! - `sent_acc` (a SENT counted by a reacting flow): past the byte
//!   threshold (`byte_pass`), the increase step (`inc_rc`, `inc_rt`),
//!   the byte counter 0 and the byte stage + 1 (saturating at 15); else
//!   the byte counter `bc33`'s low 32 bits.
//! - `vis_live` (a visit of a reacting flow): the α step (`vis_astep`)
//!   clears the α period's CNP bit and takes the α epoch; the increase
//!   step (`vis_inc`) as above, with the timer stage + 1 and the
//!   increase epoch.
//! - Then the cut (`cnp_cut` or `vis_cut`), over any of the above:
//!   Rt = `rc_base`, Rc = max(R_min, `rc_base` − `cut_d`), stages and
//!   byte counter 0, the increase and decrease epochs the current ones,
//!   the held-cut bit 0.
//!
//! α is `alpha_use` in every case but DESTROY (the parent's choice: the
//! old α, α_init or the α step).
//!
//! # Ports (clock `clock`; no reset: the outputs hold a value only while
//! an operation is in S8, and the parent reads them only then)
//! - In, the operation in S7 (the parent's registers): `rate` (64: Rc
//!   [31:0], Rt [63:32]), `ab` (53: α [20:0], byte counter [52:21]),
//!   `meta` (61: created 0, armed 2, cnp_a 3, cnp_d 4, t_stage [8:5],
//!   b_stage [12:9]); the decisions `create`, `destroy`, `cnp`, `first`,
//!   `cnp_cut`, `sent_acc`, `byte_pass`, `vis_live`, `vis_astep`,
//!   `vis_inc`, `vis_cut`; `alpha_use` (21, UQ1.20), `rc_base` (32, the
//!   rate cut from), `cut_d` (32, ⌊`rc_base`·α / 2^21⌋, the
//!   multiplier's product), `bc33` (33, the byte counter plus the SENT's
//!   bytes), `inc_rc`, `inc_rt` (32, `IncreaseStep`'s Rc' and Rt'),
//!   `cur_a`, `cur_d`, `cur_i` (16, the epochs at the issue), `r_line`,
//!   `r_min` (32, configuration).
//! - Out, flip-flops (S8): `rc`, `rt` (32), `alpha` (21), `bcount` (32),
//!   `t_stage`, `b_stage` (4), `created`, `armed`, `cnp_a`, `cnp_d`,
//!   `ep_a`, `ep_d`, `ep_i` (16), `stage_max` (3: min(max(stages), 7),
//!   the update's `inc_stage`) and `increased` (an increase step made).
//!
//! # Timing
//! One cycle. One 32-bit subtraction and its compare with R_min (the
//! cut), then a mux; `stage_max`'s 4-bit compares after the mux.
//!
//! # Bad input
//! None of its own: any decisions give defined outputs by the precedence
//! above. A cut below R_min is R_min; a subtraction that wraps (a
//! `cut_d` above `rc_base`, which α ≤ 1.0 rules out) is kept as it
//! comes, as the twin does.
//!
//! Golden twin: `nic_golden::cc::rp_new_state`.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct RpNewState {
    pub clock: Signal<In, Clock>,
    pub rate: Signal<In, Bits<64>>,
    pub ab: Signal<In, Bits<53>>,
    pub meta: Signal<In, Bits<61>>,
    pub create: Signal<In, Bit>,
    pub destroy: Signal<In, Bit>,
    pub cnp: Signal<In, Bit>,
    pub first: Signal<In, Bit>,
    pub cnp_cut: Signal<In, Bit>,
    pub sent_acc: Signal<In, Bit>,
    pub byte_pass: Signal<In, Bit>,
    pub vis_live: Signal<In, Bit>,
    pub vis_astep: Signal<In, Bit>,
    pub vis_inc: Signal<In, Bit>,
    pub vis_cut: Signal<In, Bit>,
    pub alpha_use: Signal<In, Bits<21>>,
    pub rc_base: Signal<In, Bits<32>>,
    pub cut_d: Signal<In, Bits<32>>,
    pub bc33: Signal<In, Bits<33>>,
    pub inc_rc: Signal<In, Bits<32>>,
    pub inc_rt: Signal<In, Bits<32>>,
    pub cur_a: Signal<In, Bits<16>>,
    pub cur_d: Signal<In, Bits<16>>,
    pub cur_i: Signal<In, Bits<16>>,
    pub r_line: Signal<In, Bits<32>>,
    pub r_min: Signal<In, Bits<32>>,
    pub rc: Signal<Out, Bits<32>>,
    pub rt: Signal<Out, Bits<32>>,
    pub alpha: Signal<Out, Bits<21>>,
    pub bcount: Signal<Out, Bits<32>>,
    pub t_stage: Signal<Out, Bits<4>>,
    pub b_stage: Signal<Out, Bits<4>>,
    pub created: Signal<Out, Bit>,
    pub armed: Signal<Out, Bit>,
    pub cnp_a: Signal<Out, Bit>,
    pub cnp_d: Signal<Out, Bit>,
    pub ep_a: Signal<Out, Bits<16>>,
    pub ep_d: Signal<Out, Bits<16>>,
    pub ep_i: Signal<Out, Bits<16>>,
    pub stage_max: Signal<Out, Bits<3>>,
    pub increased: Signal<Out, Bit>,
    r_rc: DFF<Bits<32>>,
    r_rt: DFF<Bits<32>>,
    r_alpha: DFF<Bits<21>>,
    r_bcount: DFF<Bits<32>>,
    r_t: DFF<Bits<4>>,
    r_b: DFF<Bits<4>>,
    r_created: DFF<Bit>,
    r_armed: DFF<Bit>,
    r_cnp_a: DFF<Bit>,
    r_cnp_d: DFF<Bit>,
    r_ep_a: DFF<Bits<16>>,
    r_ep_d: DFF<Bits<16>>,
    r_ep_i: DFF<Bits<16>>,
    r_stage_max: DFF<Bits<3>>,
    r_increased: DFF<Bit>,
    rc_cut_raw: Signal<Local, Bits<32>>,
    rc_cut: Signal<Local, Bits<32>>,
    l_rc: Signal<Local, Bits<32>>,
    l_rt: Signal<Local, Bits<32>>,
    l_al: Signal<Local, Bits<21>>,
    l_bc: Signal<Local, Bits<32>>,
    l_t: Signal<Local, Bits<4>>,
    l_b: Signal<Local, Bits<4>>,
    l_armed: Signal<Local, Bit>,
    l_created: Signal<Local, Bit>,
    l_cnpa: Signal<Local, Bit>,
    l_cnpd: Signal<Local, Bit>,
    l_epa: Signal<Local, Bits<16>>,
    l_epd: Signal<Local, Bits<16>>,
    l_epi: Signal<Local, Bits<16>>,
    l_inc: Signal<Local, Bit>,
    l_st: Signal<Local, Bits<4>>,
}

impl Logic for RpNewState {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r_rc,
            r_rt,
            r_alpha,
            r_bcount,
            r_t,
            r_b,
            r_created,
            r_armed,
            r_cnp_a,
            r_cnp_d,
            r_ep_a,
            r_ep_d,
            r_ep_i,
            r_stage_max,
            r_increased
        );
        self.rc.next = self.r_rc.q.val();
        self.rt.next = self.r_rt.q.val();
        self.alpha.next = self.r_alpha.q.val();
        self.bcount.next = self.r_bcount.q.val();
        self.t_stage.next = self.r_t.q.val();
        self.b_stage.next = self.r_b.q.val();
        self.created.next = self.r_created.q.val();
        self.armed.next = self.r_armed.q.val();
        self.cnp_a.next = self.r_cnp_a.q.val();
        self.cnp_d.next = self.r_cnp_d.q.val();
        self.ep_a.next = self.r_ep_a.q.val();
        self.ep_d.next = self.r_ep_d.q.val();
        self.ep_i.next = self.r_ep_i.q.val();
        self.stage_max.next = self.r_stage_max.q.val();
        self.increased.next = self.r_increased.q.val();

        // The cut: max(R_min, Rc − ⌊Rc·α / 2^21⌋).
        self.rc_cut_raw.next = (self.rc_base.val() - self.cut_d.val());
        if (self.rc_cut_raw.val() < self.r_min.val()) {
            self.rc_cut.next = self.r_min.val();
        } else {
            self.rc_cut.next = self.rc_cut_raw.val();
        }
        // The state as read.
        self.l_rc.next = self.rate.val().get_bits::<32>(0);
        self.l_rt.next = self.rate.val().get_bits::<32>(32);
        self.l_al.next = self.alpha_use.val();
        self.l_bc.next = self.ab.val().get_bits::<32>(21);
        self.l_created.next = self.meta.val().get_bit(0);
        self.l_armed.next = self.meta.val().get_bit(2);
        self.l_cnpa.next = self.meta.val().get_bit(3);
        self.l_cnpd.next = self.meta.val().get_bit(4);
        self.l_t.next = self.meta.val().get_bits::<4>(5);
        self.l_b.next = self.meta.val().get_bits::<4>(9);
        self.l_epa.next = self.meta.val().get_bits::<16>(13);
        self.l_epd.next = self.meta.val().get_bits::<16>(29);
        self.l_epi.next = self.meta.val().get_bits::<16>(45);
        self.l_inc.next = false;
        if self.create.val() {
            self.l_rc.next = self.r_line.val();
            self.l_rt.next = self.r_line.val();
            self.l_bc.next = 0.into();
            self.l_t.next = 0.into();
            self.l_b.next = 0.into();
            self.l_created.next = true;
            self.l_armed.next = false;
            self.l_cnpa.next = false;
            self.l_cnpd.next = false;
            self.l_epa.next = self.cur_a.val();
            self.l_epd.next = self.cur_d.val();
            self.l_epi.next = self.cur_i.val();
        } else if self.destroy.val() {
            self.l_rc.next = 0.into();
            self.l_rt.next = 0.into();
            self.l_al.next = 0.into();
            self.l_bc.next = 0.into();
            self.l_t.next = 0.into();
            self.l_b.next = 0.into();
            self.l_created.next = false;
            self.l_armed.next = false;
            self.l_cnpa.next = false;
            self.l_cnpd.next = false;
            self.l_epa.next = 0.into();
            self.l_epd.next = 0.into();
            self.l_epi.next = 0.into();
        } else if self.cnp.val() {
            self.l_armed.next = true;
            if self.first.val() {
                self.l_cnpa.next = false;
                self.l_epa.next = self.cur_a.val();
            } else {
                self.l_cnpa.next = true;
            }
            if !self.cnp_cut.val() {
                self.l_cnpd.next = true;
            }
        } else if self.sent_acc.val() {
            if self.byte_pass.val() {
                self.l_rc.next = self.inc_rc.val();
                self.l_rt.next = self.inc_rt.val();
                self.l_bc.next = 0.into();
                self.l_inc.next = true;
                if (self.meta.val().get_bits::<4>(9) != 15) {
                    self.l_b.next = (self.meta.val().get_bits::<4>(9) + 1);
                }
            } else {
                self.l_bc.next = self.bc33.val().get_bits::<32>(0);
            }
        } else if self.vis_live.val() {
            if self.vis_astep.val() {
                self.l_cnpa.next = false;
                self.l_epa.next = self.cur_a.val();
            }
            if self.vis_inc.val() {
                self.l_rc.next = self.inc_rc.val();
                self.l_rt.next = self.inc_rt.val();
                self.l_epi.next = self.cur_i.val();
                self.l_inc.next = true;
                if (self.meta.val().get_bits::<4>(5) != 15) {
                    self.l_t.next = (self.meta.val().get_bits::<4>(5) + 1);
                }
            }
        }
        // The cut, of a CNP or of a visit (after the branches above).
        if (self.cnp_cut.val() || self.vis_cut.val()) {
            self.l_rt.next = self.rc_base.val();
            self.l_rc.next = self.rc_cut.val();
            self.l_t.next = 0.into();
            self.l_b.next = 0.into();
            self.l_bc.next = 0.into();
            self.l_epi.next = self.cur_i.val();
            self.l_epd.next = self.cur_d.val();
            self.l_cnpd.next = false;
        }
        if (self.l_b.val() > self.l_t.val()) {
            self.l_st.next = self.l_b.val();
        } else {
            self.l_st.next = self.l_t.val();
        }
        if (self.l_st.val() > 7) {
            self.r_stage_max.d.next = 7.into();
        } else {
            self.r_stage_max.d.next = self.l_st.val().get_bits::<3>(0);
        }
        self.r_rc.d.next = self.l_rc.val();
        self.r_rt.d.next = self.l_rt.val();
        self.r_alpha.d.next = self.l_al.val();
        self.r_bcount.d.next = self.l_bc.val();
        self.r_t.d.next = self.l_t.val();
        self.r_b.d.next = self.l_b.val();
        self.r_created.d.next = self.l_created.val();
        self.r_armed.d.next = self.l_armed.val();
        self.r_cnp_a.d.next = self.l_cnpa.val();
        self.r_cnp_d.d.next = self.l_cnpd.val();
        self.r_ep_a.d.next = self.l_epa.val();
        self.r_ep_d.d.next = self.l_epd.val();
        self.r_ep_i.d.next = self.l_epi.val();
        self.r_increased.d.next = self.l_inc.val();
    }
}
