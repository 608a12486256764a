# Non-project Vivado flow for the HPCC++ NIC on the Alveo U250
# (xcu250-figd2104-2L-e): XDMA (PCIe Gen3 x8, AXI4-Stream with descriptor
# bypass, an AXI4-Lite master for the registers), the 10G/25G Ethernet
# subsystem at 10GBASE-R on QSFP28 cage 0 lane 0, and the emitted board
# core `alveo_core` (hpcc_nic + the vendor-MAC adapter). Written for
# Vivado 2023.2; docs/board.md §7 walks through it.
#
# NOT RUN: no Vivado on the machine this was written on. What has been
# checked is the emitted Verilog (lint, simulation, the yosys
# synth_xilinx estimate of `alveo_core`); the IP configurations, the
# glue in fpga.v and these constraints have not met Vivado yet.
#
#   make board-alveo-tcl             (emits build/verilog/alveo_core.v; prints the command)
#   vivado -mode batch -source boards/alveo-u250/build.tcl -tclargs build/verilog/alveo_core.v build/alveo-u250
#
# Every IP is created here by TCL (no .xci in the repository); the run
# writes build/alveo-u250/fpga.bit and the timing and utilisation
# reports beside it.

set here [file dirname [file normalize [info script]]]
set root [file normalize "$here/../.."]
set core_v [file normalize [lindex $argv 0]]
set out [file normalize [expr {[llength $argv] > 1 ? [lindex $argv 1] : "$root/build/alveo-u250"}]]
set part xcu250-figd2104-2L-e
file mkdir $out
set_part $part

# ---- IP, created in memory (set_part above; no project)
file mkdir $out/ip

# XDMA: Gen3 x8 (256-bit AXI at 250 MHz), AXI4-Stream, one H2C and one
# C2H channel with descriptor bypass (the NIC issues its own
# descriptors: docs/driver.md §6), an AXI4-Lite master on BAR 0 (64 KiB:
# the NIC's register map), 8 user interrupts (one per completion queue).
create_ip -name xdma -vendor xilinx.com -library ip -module_name xdma_0 -dir $out/ip
set_property -dict [list \
  CONFIG.mode_selection {Advanced} \
  CONFIG.pl_link_cap_max_link_width {X8} \
  CONFIG.pl_link_cap_max_link_speed {8.0_GT/s} \
  CONFIG.axi_data_width {256_bit} \
  CONFIG.axisten_freq {250} \
  CONFIG.pf0_device_id {903F} \
  CONFIG.xdma_axi_intf_mm {AXI_Stream} \
  CONFIG.xdma_rnum_chnl {1} \
  CONFIG.xdma_wnum_chnl {1} \
  CONFIG.xdma_sts_ports {false} \
  CONFIG.xdma_dsc_bypass {true} \
  CONFIG.axilite_master_en {true} \
  CONFIG.axilite_master_size {64} \
  CONFIG.axilite_master_scale {Kilobytes} \
  CONFIG.xdma_num_usr_irq {8} \
  CONFIG.pcie_blk_locn {PCIE4C_X1Y0} \
  CONFIG.select_quad {GTY_Quad_227} \
  CONFIG.plltype {QPLL1} \
  CONFIG.ref_clk_freq {100_MHz} \
] [get_ips xdma_0]

# The 10G/25G Ethernet subsystem: one core, 10GBASE-R, MAC + PCS, 64-bit
# AXI4-Stream with the user FIFO (rx_core_clk = tx_clk_out), FCS inserted
# on transmit and removed on receive (fpga.v drives the ctl_* inputs).
create_ip -name xxv_ethernet -vendor xilinx.com -library ip -module_name xxv_eth_0 -dir $out/ip
set_property -dict [list \
  CONFIG.LINE_RATE {10} \
  CONFIG.NUM_OF_CORES {1} \
  CONFIG.BASE_R_KR {BASE-R} \
  CONFIG.CORE {Ethernet MAC+PCS/PMA 64-bit} \
  CONFIG.DATA_PATH_INTERFACE {AXI Stream} \
  CONFIG.INCLUDE_USER_FIFO {1} \
  CONFIG.INCLUDE_AXI4_INTERFACE {0} \
  CONFIG.INCLUDE_STATISTICS_COUNTERS {0} \
  CONFIG.GT_REF_CLK_FREQ {156.25} \
  CONFIG.GT_DRP_CLK {100} \
  CONFIG.GT_GROUP_SELECT {Quad_X1Y11} \
  CONFIG.LANE1_GT_LOC {X1Y44} \
] [get_ips xxv_eth_0]

# The NIC's clock: 125 MHz from XDMA's 250 MHz axi_aclk.
create_ip -name clk_wiz -vendor xilinx.com -library ip -module_name clk_core -dir $out/ip
set_property -dict [list \
  CONFIG.PRIM_IN_FREQ {250.000} \
  CONFIG.CLKOUT1_REQUESTED_OUT_FREQ {125.000} \
  CONFIG.USE_RESET {true} \
  CONFIG.RESET_TYPE {ACTIVE_HIGH} \
  CONFIG.USE_LOCKED {true} \
] [get_ips clk_core]

# AXI4-Lite from XDMA (250 MHz) to the NIC (125 MHz).
create_ip -name axi_clock_converter -vendor xilinx.com -library ip -module_name axil_cdc -dir $out/ip
set_property -dict [list \
  CONFIG.PROTOCOL {AXI4LITE} CONFIG.ADDR_WIDTH {16} CONFIG.DATA_WIDTH {32} \
  CONFIG.ACLK_ASYNC {1} \
] [get_ips axil_cdc]

# Streams between XDMA's 256-bit, 250 MHz side and the NIC's 64-bit,
# 125 MHz side: width converters at 250 MHz, clock converters at 64 bits.
create_ip -name axis_dwidth_converter -vendor xilinx.com -library ip -module_name axis_256_to_64 -dir $out/ip
set_property -dict [list CONFIG.S_TDATA_NUM_BYTES {32} CONFIG.M_TDATA_NUM_BYTES {8} \
  CONFIG.HAS_TLAST {1} CONFIG.HAS_TKEEP {1}] [get_ips axis_256_to_64]
create_ip -name axis_dwidth_converter -vendor xilinx.com -library ip -module_name axis_64_to_256 -dir $out/ip
set_property -dict [list CONFIG.S_TDATA_NUM_BYTES {8} CONFIG.M_TDATA_NUM_BYTES {32} \
  CONFIG.HAS_TLAST {1} CONFIG.HAS_TKEEP {1}] [get_ips axis_64_to_256]
create_ip -name axis_clock_converter -vendor xilinx.com -library ip -module_name axis_cdc_64 -dir $out/ip
set_property -dict [list CONFIG.TDATA_NUM_BYTES {8} CONFIG.HAS_TLAST {1} CONFIG.HAS_TKEEP {1} \
  CONFIG.IS_ACLK_ASYNC {1}] [get_ips axis_cdc_64]
# Descriptors (address 64, length 16, tag 8 bits, in 16 bytes).
create_ip -name axis_clock_converter -vendor xilinx.com -library ip -module_name axis_cdc_desc -dir $out/ip
set_property -dict [list CONFIG.TDATA_NUM_BYTES {16} CONFIG.IS_ACLK_ASYNC {1}] [get_ips axis_cdc_desc]

generate_target all [get_ips]
synth_ip [get_ips]

# ---- Sources: the emitted board core and the hand-written top.
read_verilog $core_v
read_verilog $here/fpga.v
read_xdc $root/constraints/alveo-u250.xdc

# ---- Synthesis, implementation, bitstream.
synth_design -top fpga -part $part
report_utilization -file $out/post_synth_utilization.rpt
opt_design
place_design
phys_opt_design
route_design
report_timing_summary -file $out/timing_summary.rpt
report_utilization -file $out/utilization.rpt
report_clock_interaction -file $out/clock_interaction.rpt
write_bitstream -force $out/fpga.bit
puts "alveo-u250: $out/fpga.bit (timing: $out/timing_summary.rpt)"
