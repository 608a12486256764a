###############################################################################
# AMD/Xilinx Alveo U250 (xcu250-figd2104-2L-e): constraints of the NIC's
# board top boards/alveo-u250/fpga.v (docs/board.md §7). Vivado 2023.2.
#
# NOT RUN: no Vivado on the machine this was written on. The pins are the
# card's (UG1289, "Alveo U200 and U250 Data Center Accelerator Cards User
# Guide", and Corundum's fpga/mqnic/AU250 constraints, which ran on the
# card); the clock and CDC constraints follow the design. Expect to adjust
# on the first run (docs/board.md §7 lists what to check).
###############################################################################

# ---- Configuration (the card's SPI flash, as its own designs set it)
set_property CFGBVS GND                             [current_design]
set_property CONFIG_VOLTAGE 1.8                     [current_design]
set_property BITSTREAM.GENERAL.COMPRESS true        [current_design]
set_property BITSTREAM.CONFIG.CONFIGRATE 63.8       [current_design]
set_property BITSTREAM.CONFIG.SPI_32BIT_ADDR YES    [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4        [current_design]
set_property BITSTREAM.CONFIG.SPI_FALL_EDGE YES     [current_design]
set_property BITSTREAM.CONFIG.UNUSEDPIN PULLUP      [current_design]

# ---- PCIe (XDMA, Gen3 x8 on lanes 0..7: quads 227 and 226)
set_property PACKAGE_PIN AM11 [get_ports pcie_refclk_p]   ;# MGTREFCLK0P_226, 100 MHz
set_property PACKAGE_PIN AM10 [get_ports pcie_refclk_n]
create_clock -period 10.000 -name pcie_refclk [get_ports pcie_refclk_p]
set_property -dict {PACKAGE_PIN BD21 IOSTANDARD LVCMOS12 PULLUP true} [get_ports pcie_reset_n]
set_false_path -from [get_ports pcie_reset_n]
set_property PACKAGE_PIN AF2 [get_ports {pcie_rx_p[0]}]   ;# MGTYRXP3_227
set_property PACKAGE_PIN AF7 [get_ports {pcie_tx_p[0]}]
set_property PACKAGE_PIN AG4 [get_ports {pcie_rx_p[1]}]   ;# MGTYRXP2_227
set_property PACKAGE_PIN AG9 [get_ports {pcie_tx_p[1]}]
set_property PACKAGE_PIN AH2 [get_ports {pcie_rx_p[2]}]   ;# MGTYRXP1_227
set_property PACKAGE_PIN AH7 [get_ports {pcie_tx_p[2]}]
set_property PACKAGE_PIN AJ4 [get_ports {pcie_rx_p[3]}]   ;# MGTYRXP0_227
set_property PACKAGE_PIN AJ9 [get_ports {pcie_tx_p[3]}]
set_property PACKAGE_PIN AK2 [get_ports {pcie_rx_p[4]}]   ;# MGTYRXP3_226
set_property PACKAGE_PIN AK7 [get_ports {pcie_tx_p[4]}]
set_property PACKAGE_PIN AL4 [get_ports {pcie_rx_p[5]}]   ;# MGTYRXP2_226
set_property PACKAGE_PIN AL9 [get_ports {pcie_tx_p[5]}]
set_property PACKAGE_PIN AM2 [get_ports {pcie_rx_p[6]}]   ;# MGTYRXP1_226
set_property PACKAGE_PIN AM7 [get_ports {pcie_tx_p[6]}]
set_property PACKAGE_PIN AN4 [get_ports {pcie_rx_p[7]}]   ;# MGTYRXP0_226
set_property PACKAGE_PIN AN9 [get_ports {pcie_tx_p[7]}]

# ---- QSFP28 cage 0, lane 0 as 10GBASE-R (Ethernet subsystem on quad 231)
set_property PACKAGE_PIN K11 [get_ports qsfp0_refclk_p]   ;# MGTREFCLK1P_231, SI5335, 156.25 MHz with FS = 0b01
set_property PACKAGE_PIN K10 [get_ports qsfp0_refclk_n]
create_clock -period 6.400 -name qsfp0_refclk [get_ports qsfp0_refclk_p]
set_property PACKAGE_PIN N4 [get_ports qsfp0_rx_p]        ;# MGTYRXP0_231, GTYE4_CHANNEL_X1Y44
set_property PACKAGE_PIN N9 [get_ports qsfp0_tx_p]        ;# MGTYTXP0_231
set_property -dict {PACKAGE_PIN BE16 IOSTANDARD LVCMOS12} [get_ports qsfp0_modsell]
set_property -dict {PACKAGE_PIN BE17 IOSTANDARD LVCMOS12} [get_ports qsfp0_resetl]
set_property -dict {PACKAGE_PIN BD18 IOSTANDARD LVCMOS12} [get_ports qsfp0_lpmode]
set_property -dict {PACKAGE_PIN AT22 IOSTANDARD LVCMOS12} [get_ports qsfp0_refclk_reset]
set_property -dict {PACKAGE_PIN AT20 IOSTANDARD LVCMOS12} [get_ports {qsfp0_fs[0]}]
set_property -dict {PACKAGE_PIN AU22 IOSTANDARD LVCMOS12} [get_ports {qsfp0_fs[1]}]
set_false_path -to [get_ports {qsfp0_modsell qsfp0_resetl qsfp0_lpmode qsfp0_refclk_reset qsfp0_fs[*]}]

# ---- LEDs
set_property -dict {PACKAGE_PIN BC21 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[0]}]
set_property -dict {PACKAGE_PIN BB21 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[1]}]
set_property -dict {PACKAGE_PIN BA20 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[2]}]
set_false_path -to [get_ports {led[*]}]

# ---- Clock crossings. Every crossing is a Xilinx clock-converter IP
# (AXI4-Lite, AXI4-Stream: they carry their own constraints), the
# emitted AxisAsyncFifo inside the vendor-MAC adapter (Gray-coded
# pointers through two flip-flops), or a two-flip-flop synchroniser of
# fpga.v (ASYNC_REG). The NIC's clock (clk_wiz, 125 MHz), XDMA's
# axi_aclk (250 MHz) and the Ethernet subsystem's tx_clk_out_0
# (156.25 MHz) are unrelated: no timing between them. (The Gray
# pointers' skew is then not bounded by a constraint: a set_max_delay
# -datapath_only on them is the refinement to add on the first run.)
set_clock_groups -asynchronous \
  -group [get_clocks -of_objects [get_pins clk_core_gen/clk_out1]] \
  -group [get_clocks -of_objects [get_pins xdma_i/axi_aclk]] \
  -group [get_clocks -of_objects [get_pins eth_i/tx_clk_out_0]]
