// Behavioural models of the two ECP5 DDR I/O registers the RGMII adapter
// uses, for simulation only (the emitted Verilog declares them as black
// boxes; nextpnr places the real primitives). Written from Lattice TN1265
// (ECP5 High-Speed I/O): ODDRX1F sends D0 after a rising edge of SCLK and
// D1 after the falling edge; IDDRX1F samples D on a rising edge (Q0) and
// on the falling edge after it (Q1), and presents both from the next
// rising edge. They match the `update` models of `OutputDDR`
// (rust-hdl-fpga-support) and `InputDdr` (hdl/src/mac/rgmii.rs).
// testbench/cocotb/test_rgmii.py swaps them in for the black boxes.
module ODDRX1F(input D0, input D1, input SCLK, input RST, output reg Q);
  reg d1_held;
  initial begin Q = 1'b0; d1_held = 1'b0; end
  always @(posedge SCLK) begin
    if (RST) begin Q <= 1'b0; d1_held <= 1'b0; end
    else begin Q <= D0; d1_held <= D1; end
  end
  always @(negedge SCLK) if (!RST) Q <= d1_held;
endmodule

module IDDRX1F(input D, input SCLK, input RST, output reg Q0, output reg Q1);
  reg rise, fall;
  initial begin Q0 = 1'b0; Q1 = 1'b0; rise = 1'b0; fall = 1'b0; end
  always @(posedge SCLK) begin
    if (RST) begin Q0 <= 1'b0; Q1 <= 1'b0; rise <= 1'b0; end
    else begin Q0 <= rise; Q1 <= fall; rise <= D; end
  end
  always @(negedge SCLK) fall <= D;
endmodule
