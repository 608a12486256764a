// A behavioural model of the ECP5 PLL (EHXPLLL) for the board
// co-simulation (testbench/cocotb/test_board.py), simulation only: yosys
// and nextpnr use the real primitive. Written from Lattice TN1263 (ECP5
// sysCLOCK PLL): with feedback from CLKOP, f(CLKOP) = f(CLKI) / CLKI_DIV
// * CLKFB_DIV, the VCO runs at f(CLKOP) * CLKOP_DIV, output k at
// f(VCO) / CLKk_DIV, and CLKk_CPHASE - (CLKk_DIV - 1) VCO cycles late.
// The model measures CLKI's period on its first edges, then runs CLKOP,
// CLKOS and CLKOS2 (CLKOS3 unused) and raises LOCK after LOCK_CYCLES
// input cycles, but only while `lock_allowed` is 1: a test clears it
// (hierarchically) to play a PLL that never locks.
`timescale 1ps / 1ps
module EHXPLLL #(
    parameter PLLRST_ENA = "DISABLED",
    parameter INTFB_WAKE = "DISABLED",
    parameter STDBY_ENABLE = "DISABLED",
    parameter DPHASE_SOURCE = "DISABLED",
    parameter OUTDIVIDER_MUXA = "DIVA",
    parameter OUTDIVIDER_MUXB = "DIVB",
    parameter OUTDIVIDER_MUXC = "DIVC",
    parameter OUTDIVIDER_MUXD = "DIVD",
    parameter integer CLKI_DIV = 1,
    parameter CLKOP_ENABLE = "ENABLED",
    parameter integer CLKOP_DIV = 8,
    parameter integer CLKOP_CPHASE = 0,
    parameter integer CLKOP_FPHASE = 0,
    parameter CLKOS_ENABLE = "DISABLED",
    parameter integer CLKOS_DIV = 8,
    parameter integer CLKOS_CPHASE = 0,
    parameter integer CLKOS_FPHASE = 0,
    parameter CLKOS2_ENABLE = "DISABLED",
    parameter integer CLKOS2_DIV = 8,
    parameter integer CLKOS2_CPHASE = 0,
    parameter integer CLKOS2_FPHASE = 0,
    parameter FEEDBK_PATH = "CLKOP",
    parameter integer CLKFB_DIV = 1,
    parameter integer LOCK_CYCLES = 32
) (
    input wire CLKI, input wire CLKFB, input wire RST, input wire STDBY,
    input wire PHASESEL0, input wire PHASESEL1, input wire PHASEDIR,
    input wire PHASESTEP, input wire PHASELOADREG, input wire PLLWAKESYNC,
    input wire ENCLKOP, input wire ENCLKOS, input wire ENCLKOS2, input wire ENCLKOS3,
    output reg CLKOP, output reg CLKOS, output reg CLKOS2, output reg CLKOS3,
    output reg LOCK, output wire INTLOCK, output wire REFCLK, output wire CLKINTFB
);
    reg lock_allowed = 1'b1;
    integer t_in = 0;
    integer t_vco = 0;
    integer n_in = 0;
    time last = 0;
    assign INTLOCK = LOCK;
    assign REFCLK = CLKI;
    assign CLKINTFB = CLKOP;
    initial begin CLKOP = 0; CLKOS = 0; CLKOS2 = 0; CLKOS3 = 0; LOCK = 0; end

    always @(posedge CLKI) begin
        if (n_in == 1) begin
            t_in = $time - last;
            t_vco = t_in * CLKI_DIV / (CLKFB_DIV * CLKOP_DIV);
        end
        last = $time;
        n_in = n_in + 1;
        LOCK <= lock_allowed && (n_in > LOCK_CYCLES);
    end

    // Output k: half period DIV * t_vco / 2, first rising edge
    // (CPHASE - (DIV - 1)) VCO cycles after the common start.
    task automatic run_out(input integer div, input integer cphase, input integer which);
        integer half;
        begin
            half = div * t_vco / 2;
            #((cphase - (div - 1)) * t_vco);
            forever begin
                case (which)
                    0: CLKOP = ~CLKOP;
                    1: CLKOS = ~CLKOS;
                    2: CLKOS2 = ~CLKOS2;
                endcase
                #(half);
            end
        end
    endtask

    initial begin
        wait (n_in == 3);
        fork
            run_out(CLKOP_DIV, CLKOP_CPHASE, 0);
            run_out(CLKOS_DIV, CLKOS_CPHASE, 1);
            run_out(CLKOS2_DIV, CLKOS2_CPHASE, 2);
        join
    end
endmodule
