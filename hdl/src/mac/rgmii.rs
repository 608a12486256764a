//! The RGMII adapter: the 1G MAC's GMII to RGMII pins (4 data bits and a
//! control bit on both clock edges), on the ECP5's DDR I/O registers.
//!
//! What it does, per RGMII v2.0:
//! - transmit (`tx_clk`, 125 MHz): `rgmii_txd` carries `gmii_txd[3:0]`
//!   from the rising edge and `gmii_txd[7:4]` from the falling edge;
//!   `rgmii_tx_ctl` carries `gmii_tx_en`, then `gmii_tx_en ^ gmii_tx_er`.
//!   Each pin is an `ODDRX1F` (`rust-hdl-fpga-support`'s [`OutputDDR`]).
//!   `rgmii_txc` is forwarded by one more `ODDRX1F` (1 then 0) clocked by
//!   `tx_clk90`, the same clock shifted by 90° (2 ns), so the PHY samples
//!   each half in its middle; with a PHY that adds the transmit delay
//!   itself (RGMII-ID), tie `tx_clk90` to `tx_clk`;
//! - receive (`rgmii_rxc`): each pin is an `IDDRX1F` ([`InputDdr`]); the
//!   rising-edge sample gives `gmii_rxd[3:0]` and `gmii_rx_dv`, the
//!   falling-edge one `gmii_rxd[7:4]` and `gmii_rx_er` = `dv ^ ctl`. The
//!   GMII side runs on `rgmii_rxc` (the MAC's `rx_clk`). The receive clock
//!   must reach the IDDRs 90° after the data (the PHY's RGMII-ID delay, or
//!   a `DELAYG` on the board).
//!
//! Ports: `tx_clk`, `tx_clk90`, `tx_rst`, `gmii_txd`, `gmii_tx_en`,
//! `gmii_tx_er`, `rgmii_txd[3:0]`, `rgmii_tx_ctl`, `rgmii_txc`;
//! `rgmii_rxc`, `rx_rst` (synchronous to `rgmii_rxc`), `rgmii_rxd[3:0]`,
//! `rgmii_rx_ctl`, `gmii_rxd`, `gmii_rx_dv`, `gmii_rx_er`.
//!
//! Latency: a GMII byte registered on `tx_clk` edge t is on the pins from
//! that edge (low half) and the falling edge after it (high half); a
//! received byte whose halves are sampled on the `rgmii_rxc` edges of
//! cycle t − 1 is on `gmii_rxd` from edge t. Throughput: a byte a cycle.
//!
//! Bad input: none to define at this level: an error on `rx_ctl`
//! (`dv ^ ctl` = 1 with `dv` set) reaches the MAC as `gmii_rx_er`, which
//! flags and counts the frame (`errors`); with `dv` clear it is ignored
//! (carrier extension, false carrier).
//!
//! Simulation: the emitted Verilog declares `ODDRX1F` and `IDDRX1F` as
//! black boxes (the primitives nextpnr places). The cocotb run
//! (`testbench/cocotb/test_rgmii.py`) swaps in behavioural models of both
//! (`testbench/cocotb/ecp5_ddr_sim.v`), written from Lattice TN1265 and
//! matching this file's `update` models. No golden twin: the block is
//! primitives and one XOR, and its peer check is cocotbext-eth's
//! `RgmiiSource`/`RgmiiSink` through the whole 1G MAC.

use rust_hdl::prelude::*;
use rust_hdl_fpga_support::lattice::ecp5::oddr::OutputDDR;

/// The ECP5 input DDR register (`IDDRX1F`): `q[0]` is `d` sampled on a
/// rising edge of `clock`, `q[1]` on the falling edge after it, both
/// presented from the next rising edge. `reset` clears it.
#[derive(LogicBlock, Default)]
pub struct InputDdr {
    pub d: Signal<In, Bit>,
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub q: Signal<Out, Bits<2>>,
    _rise: bool,
    _fall: bool,
}

impl Logic for InputDdr {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = ((self._rise as u64) | ((self._fall as u64) << 1)).into();
            self._rise = self.d.val();
        }
        if self.clock.neg_edge() {
            self._fall = self.d.val();
        }
        if self.reset.val() {
            self._rise = false;
            self._fall = false;
            self.q.next = 0.into();
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Wrapper(Wrapper {
            code: "IDDRX1F inst_IDDRX1F(.D(d), .SCLK(clock), .RST(reset), .Q0(q[0]), .Q1(q[1]));"
                .into(),
            cores: r##"
(* blackbox *)
module IDDRX1F(input D, input SCLK, input RST, output Q0, output Q1);
endmodule
"##
            .into(),
        })
    }
}

#[derive(LogicBlock, Default)]
pub struct RgmiiPhy {
    pub tx_clk: Signal<In, Clock>,
    pub tx_clk90: Signal<In, Clock>,
    pub tx_rst: Signal<In, Bit>,
    pub gmii_txd: Signal<In, Bits<8>>,
    pub gmii_tx_en: Signal<In, Bit>,
    pub gmii_tx_er: Signal<In, Bit>,
    pub rgmii_txd: Signal<Out, Bits<4>>,
    pub rgmii_tx_ctl: Signal<Out, Bit>,
    pub rgmii_txc: Signal<Out, Bit>,
    pub rgmii_rxc: Signal<In, Clock>,
    pub rx_rst: Signal<In, Bit>,
    pub rgmii_rxd: Signal<In, Bits<4>>,
    pub rgmii_rx_ctl: Signal<In, Bit>,
    pub gmii_rxd: Signal<Out, Bits<8>>,
    pub gmii_rx_dv: Signal<Out, Bit>,
    pub gmii_rx_er: Signal<Out, Bit>,
    out_d0: OutputDDR,
    out_d1: OutputDDR,
    out_d2: OutputDDR,
    out_d3: OutputDDR,
    out_ctl: OutputDDR,
    out_clk: OutputDDR,
    in_d0: InputDdr,
    in_d1: InputDdr,
    in_d2: InputDdr,
    in_d3: InputDdr,
    in_ctl: InputDdr,
    pin0: Signal<Local, Bits<1>>,
    pin1: Signal<Local, Bits<1>>,
    pin2: Signal<Local, Bits<1>>,
    pin3: Signal<Local, Bits<1>>,
    rxd_rise: Signal<Local, Bits<4>>,
    rxd_fall: Signal<Local, Bits<4>>,
}

impl Logic for RgmiiPhy {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Transmit: rising edge = low nibble / tx_en, falling = high / en ^ er
        self.out_d0.clock.next = self.tx_clk.val();
        self.out_d1.clock.next = self.tx_clk.val();
        self.out_d2.clock.next = self.tx_clk.val();
        self.out_d3.clock.next = self.tx_clk.val();
        self.out_ctl.clock.next = self.tx_clk.val();
        self.out_clk.clock.next = self.tx_clk90.val();
        self.out_d0.reset.next = self.tx_rst.val();
        self.out_d1.reset.next = self.tx_rst.val();
        self.out_d2.reset.next = self.tx_rst.val();
        self.out_d3.reset.next = self.tx_rst.val();
        self.out_ctl.reset.next = self.tx_rst.val();
        self.out_clk.reset.next = self.tx_rst.val();
        self.out_d0.d.next = ((bit_cast::<2, 1>(self.gmii_txd.val().get_bits::<1>(4)) << 1)
            | bit_cast::<2, 1>(self.gmii_txd.val().get_bits::<1>(0)));
        self.out_d1.d.next = ((bit_cast::<2, 1>(self.gmii_txd.val().get_bits::<1>(5)) << 1)
            | bit_cast::<2, 1>(self.gmii_txd.val().get_bits::<1>(1)));
        self.out_d2.d.next = ((bit_cast::<2, 1>(self.gmii_txd.val().get_bits::<1>(6)) << 1)
            | bit_cast::<2, 1>(self.gmii_txd.val().get_bits::<1>(2)));
        self.out_d3.d.next = ((bit_cast::<2, 1>(self.gmii_txd.val().get_bits::<1>(7)) << 1)
            | bit_cast::<2, 1>(self.gmii_txd.val().get_bits::<1>(3)));
        // Bit 0 (rising edge) = tx_en, bit 1 (falling edge) = tx_en ^ tx_er.
        if self.gmii_tx_en.val() {
            if self.gmii_tx_er.val() {
                self.out_ctl.d.next = 1.into();
            } else {
                self.out_ctl.d.next = 3.into();
            }
        } else if self.gmii_tx_er.val() {
            self.out_ctl.d.next = 2.into();
        } else {
            self.out_ctl.d.next = 0.into();
        }
        self.out_clk.d.next = 1.into();
        self.pin0.next = 0.into();
        if self.out_d0.q.val() {
            self.pin0.next = 1.into();
        }
        self.pin1.next = 0.into();
        if self.out_d1.q.val() {
            self.pin1.next = 1.into();
        }
        self.pin2.next = 0.into();
        if self.out_d2.q.val() {
            self.pin2.next = 1.into();
        }
        self.pin3.next = 0.into();
        if self.out_d3.q.val() {
            self.pin3.next = 1.into();
        }
        self.rgmii_txd.next = (bit_cast::<4, 1>(self.pin0.val())
            | (bit_cast::<4, 1>(self.pin1.val()) << 1)
            | (bit_cast::<4, 1>(self.pin2.val()) << 2)
            | (bit_cast::<4, 1>(self.pin3.val()) << 3));
        self.rgmii_tx_ctl.next = self.out_ctl.q.val();
        self.rgmii_txc.next = self.out_clk.q.val();

        // ---- Receive
        self.in_d0.clock.next = self.rgmii_rxc.val();
        self.in_d1.clock.next = self.rgmii_rxc.val();
        self.in_d2.clock.next = self.rgmii_rxc.val();
        self.in_d3.clock.next = self.rgmii_rxc.val();
        self.in_ctl.clock.next = self.rgmii_rxc.val();
        self.in_d0.reset.next = self.rx_rst.val();
        self.in_d1.reset.next = self.rx_rst.val();
        self.in_d2.reset.next = self.rx_rst.val();
        self.in_d3.reset.next = self.rx_rst.val();
        self.in_ctl.reset.next = self.rx_rst.val();
        self.in_d0.d.next = self.rgmii_rxd.val().get_bit(0);
        self.in_d1.d.next = self.rgmii_rxd.val().get_bit(1);
        self.in_d2.d.next = self.rgmii_rxd.val().get_bit(2);
        self.in_d3.d.next = self.rgmii_rxd.val().get_bit(3);
        self.in_ctl.d.next = self.rgmii_rx_ctl.val();
        self.rxd_rise.next = (bit_cast::<4, 1>(self.in_d0.q.val().get_bits::<1>(0))
            | (bit_cast::<4, 1>(self.in_d1.q.val().get_bits::<1>(0)) << 1)
            | (bit_cast::<4, 1>(self.in_d2.q.val().get_bits::<1>(0)) << 2)
            | (bit_cast::<4, 1>(self.in_d3.q.val().get_bits::<1>(0)) << 3));
        self.rxd_fall.next = (bit_cast::<4, 1>(self.in_d0.q.val().get_bits::<1>(1))
            | (bit_cast::<4, 1>(self.in_d1.q.val().get_bits::<1>(1)) << 1)
            | (bit_cast::<4, 1>(self.in_d2.q.val().get_bits::<1>(1)) << 2)
            | (bit_cast::<4, 1>(self.in_d3.q.val().get_bits::<1>(1)) << 3));
        self.gmii_rxd.next =
            ((bit_cast::<8, 4>(self.rxd_fall.val()) << 4) | bit_cast::<8, 4>(self.rxd_rise.val()));
        self.gmii_rx_dv.next = self.in_ctl.q.val().get_bit(0);
        self.gmii_rx_er.next = (self.in_ctl.q.val().get_bit(0) ^ self.in_ctl.q.val().get_bit(1));
    }
}
