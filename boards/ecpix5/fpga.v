// The ECPIX-5 (LFE5UM5G-85F, CABGA554) board top of the HPCC++ NIC:
// the pins of constraints/ecpix5.lpf, the PLL, and the board core emitted
// from Rust (`ecpix5_core`, hdl/src/board/nic_board_1g.rs), which holds
// everything else: the reset from the PLL's lock and its synchronisers,
// the UART register bridge, block RAM as host memory, the NIC and the 1G
// RGMII MAC (docs/board.md).
//
// Clocks (EHXPLLL from the 100 MHz oscillator: CLKI_DIV 4 -> 25 MHz at
// the phase detector, CLKFB_DIV 5 with feedback from CLKOP, VCO 500 MHz):
//   CLKOP  / 4  = 125 MHz        tx_clk    RGMII transmit
//   CLKOS  / 4  = 125 MHz, +90 deg tx_clk90 the forwarded rgmii_tx_clk
//                                (CPHASE one VCO cycle later: 2 ns)
//   CLKOS2 / 12 = 41.667 MHz     clk       the NIC, the bridge, the memory
// nextpnr derives each output's constraint from clk100's FREQUENCY.
// The receive side runs on the PHY's rgmii_rx_clk (125 MHz, its own
// FREQUENCY in the LPF).
//
// Written by hand: hand-instantiated primitives (EHXPLLL), the I/O
// inversions and the constants the core takes as ports.
`default_nettype none

module fpga #(
    // The core clock in Hz (CLKOS2) and the UART's baud rate.
    parameter integer CORE_HZ = 41666667,
    parameter integer BAUD = 1000000,
    // A UART request is dropped after this long without a byte: 1 ms.
    parameter integer UART_TIMEOUT = CORE_HZ / 1000
) (
    input  wire       clk100,
    input  wire       rst_n,
    input  wire       uart_rx,
    output wire       uart_tx,
    output wire       eth_rst_n,
    output wire       eth_mdc,
    inout  wire       eth_mdio,
    input  wire       rgmii_rx_clk,
    input  wire       rgmii_rx_ctl,
    input  wire [3:0] rgmii_rxd,
    output wire       rgmii_tx_clk,
    output wire       rgmii_tx_ctl,
    output wire [3:0] rgmii_txd,
    output wire [3:0] led
);

    // The bridge's settings, at its ports' widths.
    localparam [15:0] CLKS_PER_BIT = (CORE_HZ + BAUD / 2) / BAUD;
    localparam [23:0] TIMEOUT_CLKS = UART_TIMEOUT;

    wire tx_clk;
    wire tx_clk90;
    wire clk;
    wire pll_lock;

    (* FREQUENCY_PIN_CLKI="100" *)
    (* FREQUENCY_PIN_CLKOP="125" *)
    (* FREQUENCY_PIN_CLKOS="125" *)
    (* FREQUENCY_PIN_CLKOS2="41.666667" *)
    (* ICP_CURRENT="12" *) (* LPF_RESISTOR="8" *) (* MFG_ENABLE_FILTEROPAMP="1" *) (* MFG_GMCREF_SEL="2" *)
    EHXPLLL #(
        .PLLRST_ENA("DISABLED"),
        .INTFB_WAKE("DISABLED"),
        .STDBY_ENABLE("DISABLED"),
        .DPHASE_SOURCE("DISABLED"),
        .OUTDIVIDER_MUXA("DIVA"),
        .OUTDIVIDER_MUXB("DIVB"),
        .OUTDIVIDER_MUXC("DIVC"),
        .OUTDIVIDER_MUXD("DIVD"),
        .CLKI_DIV(4),
        .CLKOP_ENABLE("ENABLED"),
        .CLKOP_DIV(4),
        .CLKOP_CPHASE(3),
        .CLKOP_FPHASE(0),
        .CLKOS_ENABLE("ENABLED"),
        .CLKOS_DIV(4),
        .CLKOS_CPHASE(4),
        .CLKOS_FPHASE(0),
        .CLKOS2_ENABLE("ENABLED"),
        .CLKOS2_DIV(12),
        .CLKOS2_CPHASE(11),
        .CLKOS2_FPHASE(0),
        .FEEDBK_PATH("CLKOP"),
        .CLKFB_DIV(5)
    ) pll (
        .RST(1'b0),
        .STDBY(1'b0),
        .CLKI(clk100),
        .CLKOP(tx_clk),
        .CLKOS(tx_clk90),
        .CLKOS2(clk),
        .CLKFB(tx_clk),
        .CLKINTFB(),
        .PHASESEL0(1'b0),
        .PHASESEL1(1'b0),
        .PHASEDIR(1'b1),
        .PHASESTEP(1'b1),
        .PHASELOADREG(1'b1),
        .PLLWAKESYNC(1'b0),
        .ENCLKOP(1'b0),
        .LOCK(pll_lock)
    );

    wire locked;
    wire running;
    wire phy_rst_n;
    wire cq_event;

    ecpix5_core core (
        .clk100(clk100),
        .pll_lock(pll_lock),
        .button(~rst_n),
        .clk(clk),
        .tx_clk(tx_clk),
        .tx_clk90(tx_clk90),
        .uart_rx(uart_rx),
        .uart_tx(uart_tx),
        .cfg_clks_per_bit(CLKS_PER_BIT),
        .cfg_timeout(TIMEOUT_CLKS),
        .rgmii_txd(rgmii_txd),
        .rgmii_tx_ctl(rgmii_tx_ctl),
        .rgmii_txc(rgmii_tx_clk),
        .rgmii_rxc(rgmii_rx_clk),
        .rgmii_rxd(rgmii_rxd),
        .rgmii_rx_ctl(rgmii_rx_ctl),
        .locked(locked),
        .running(running),
        .phy_rst_n(phy_rst_n),
        .cq_event(cq_event),
        .lock_losses(),
        .m_stats_mem_rd_descs(), .m_stats_mem_wr_descs(), .m_stats_mem_rd_range_err(),
        .m_stats_mem_wr_range_err(), .m_stats_mem_wr_len_err(),
        .m_stats_bridge_requests(), .m_stats_bridge_bad_crc(), .m_stats_bridge_bad_cmd(),
        .m_stats_bridge_truncated(), .m_stats_bridge_framing(), .m_stats_bridge_stray(),
        .m_stats_bridge_overrun(),
        .m_stats_tx_fifo_frames(), .m_stats_tx_fifo_dropped(),
        .m_stats_rx_fifo_frames(), .m_stats_rx_fifo_dropped(),
        .m_stats_mac_tx_frames(), .m_stats_mac_tx_bytes(), .m_stats_mac_tx_aborts(),
        .m_stats_mac_rx_frames(), .m_stats_mac_rx_bytes(), .m_stats_mac_rx_bad_preamble(),
        .m_stats_mac_rx_errors(), .m_stats_mac_rx_oversize(), .m_stats_mac_rx_runts(),
        .m_stats_mac_rx_bad_fcs(), .m_stats_mac_rx_pause(), .m_stats_mac_rx_ctl_other()
    );

    // The PHY: held in reset with the board; strapped, so no MDIO.
    assign eth_rst_n = phy_rst_n;
    assign eth_mdc = 1'b0;
    assign eth_mdio = 1'bz;

    // LEDs (active low, the green channel of LD5..LD8): LD5 the PLL's
    // lock, LD6 the core out of reset, LD7 toggles on each completion
    // event, LD8 blinks from the core clock (about 1.2 Hz).
    reg event_led = 1'b0;
    reg [24:0] blink = 25'd0;
    always @(posedge clk) begin
        if (cq_event) event_led <= ~event_led;
        blink <= blink + 25'd1;
    end
    assign led = ~{blink[24], event_led, running, locked};

endmodule

`default_nettype wire
