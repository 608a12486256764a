// The Alveo U250 board top of the HPCC++ NIC, for Vivado
// (boards/alveo-u250/build.tcl; constraints/alveo-u250.xdc;
// docs/board.md §7). NOT RUN: written without Vivado; the emitted core
// it instantiates (`alveo_core`) is the checked part.
//
//   PCIe ─ XDMA (Gen3 x8, 250 MHz, 256-bit) ─┬─ AXI4-Lite master ─ axil_cdc ──────────────► core s_axil
//                                            ├─ H2C bypass ◄─ axis_cdc_desc ◄──────────── core m_axis_read_desc
//                                            ├─ H2C stream ─ axis_256_to_64 ─ axis_cdc_64 ► core s_axis_h2c
//                                            ├─ C2H bypass ◄─ axis_cdc_desc ◄──────────── core m_axis_write_desc
//                                            ├─ C2H stream ◄ axis_64_to_256 ◄ axis_cdc_64 ◄ core m_axis_c2h
//                                            └─ usr_irq ◄── IRQ synchronisers ◄────────── core m_event
//   QSFP0 lane 0 ─ xxv_eth_0 (10GBASE-R, tx_clk_out_0 156.25 MHz) ◄─► core m_axis_mac_tx / s_axis_mac_rx
//
// Clocks: XDMA's axi_aclk (250 MHz); the core's `clk` 125 MHz from a
// clk_wiz on axi_aclk; the Ethernet subsystem's tx_clk_out_0 for both
// MAC sides (its user FIFO puts the receive stream on rx_core_clk_0 =
// tx_clk_out_0). Resets: axi_aresetn and the clk_wiz lock, each taken
// into the domain that uses it through two flip-flops (ASYNC_REG).
//
// XDMA descriptor bypass (PG195): a descriptor is loaded by
// `*_dsc_byp_load` in a cycle with `*_dsc_byp_ready`; its control word
// has EOP (bit 4) set, so each read's data ends with tlast on H2C and
// each C2H burst is one packet. Reads are served in order, as the NIC's
// descriptor contract asks (docs/driver.md §6); the NIC's `tag` is not
// needed back.
`default_nettype none

module fpga (
    input  wire        pcie_refclk_p,
    input  wire        pcie_refclk_n,
    input  wire        pcie_reset_n,
    input  wire [7:0]  pcie_rx_p,
    input  wire [7:0]  pcie_rx_n,
    output wire [7:0]  pcie_tx_p,
    output wire [7:0]  pcie_tx_n,
    input  wire        qsfp0_refclk_p,
    input  wire        qsfp0_refclk_n,
    input  wire        qsfp0_rx_p,
    input  wire        qsfp0_rx_n,
    output wire        qsfp0_tx_p,
    output wire        qsfp0_tx_n,
    output wire        qsfp0_modsell,
    output wire        qsfp0_resetl,
    output wire        qsfp0_lpmode,
    output wire        qsfp0_refclk_reset,
    output wire [1:0]  qsfp0_fs,
    output wire [2:0]  led
);
    // The QSFP module: selected, out of reset, high power; SI5335 at
    // 156.25 MHz (FS = 0b01).
    assign qsfp0_modsell = 1'b0;
    assign qsfp0_resetl = 1'b1;
    assign qsfp0_lpmode = 1'b0;
    assign qsfp0_refclk_reset = 1'b0;
    assign qsfp0_fs = 2'b01;

    // ---- PCIe reference clock and XDMA
    wire sys_clk, sys_clk_gt, dclk;
    IBUFDS_GTE4 #(.REFCLK_HROW_CK_SEL(2'b00)) pcie_refclk_buf (
        .I(pcie_refclk_p), .IB(pcie_refclk_n), .CEB(1'b0), .O(sys_clk_gt), .ODIV2(sys_clk));
    // 100 MHz, free running: the Ethernet subsystem's DRP/init clock.
    BUFG_GT dclk_buf (.I(sys_clk), .CE(1'b1), .CEMASK(1'b0), .CLR(1'b0), .CLRMASK(1'b0),
                      .DIV(3'd0), .O(dclk));

    wire axi_aclk, axi_aresetn, user_lnk_up;
    wire [31:0]  x_awaddr, x_araddr, x_wdata, x_rdata;
    wire [2:0]   x_awprot, x_arprot;
    wire [3:0]   x_wstrb;
    wire [1:0]   x_bresp, x_rresp;
    wire         x_awvalid, x_awready, x_wvalid, x_wready, x_bvalid, x_bready;
    wire         x_arvalid, x_arready, x_rvalid, x_rready;
    wire [255:0] h2c_tdata, c2h_tdata;
    wire [31:0]  h2c_tkeep, c2h_tkeep;
    wire         h2c_tlast, h2c_tvalid, h2c_tready, c2h_tlast, c2h_tvalid, c2h_tready;
    wire         h2c_byp_ready, c2h_byp_ready;
    wire [63:0]  h2c_byp_addr, c2h_byp_addr;
    wire [15:0]  h2c_byp_len, c2h_byp_len;
    wire         h2c_byp_valid, c2h_byp_valid;
    wire [7:0]   irq_req, irq_ack;

    xdma_0 xdma_i (
        .sys_clk(sys_clk), .sys_clk_gt(sys_clk_gt), .sys_rst_n(pcie_reset_n),
        .pci_exp_txp(pcie_tx_p), .pci_exp_txn(pcie_tx_n),
        .pci_exp_rxp(pcie_rx_p), .pci_exp_rxn(pcie_rx_n),
        .axi_aclk(axi_aclk), .axi_aresetn(axi_aresetn), .user_lnk_up(user_lnk_up),
        .usr_irq_req(irq_req), .usr_irq_ack(irq_ack), .msi_enable(), .msi_vector_width(),
        .m_axil_awaddr(x_awaddr), .m_axil_awprot(x_awprot), .m_axil_awvalid(x_awvalid),
        .m_axil_awready(x_awready), .m_axil_wdata(x_wdata), .m_axil_wstrb(x_wstrb),
        .m_axil_wvalid(x_wvalid), .m_axil_wready(x_wready), .m_axil_bvalid(x_bvalid),
        .m_axil_bresp(x_bresp), .m_axil_bready(x_bready), .m_axil_araddr(x_araddr),
        .m_axil_arprot(x_arprot), .m_axil_arvalid(x_arvalid), .m_axil_arready(x_arready),
        .m_axil_rdata(x_rdata), .m_axil_rresp(x_rresp), .m_axil_rvalid(x_rvalid),
        .m_axil_rready(x_rready),
        .m_axis_h2c_tdata_0(h2c_tdata), .m_axis_h2c_tkeep_0(h2c_tkeep),
        .m_axis_h2c_tlast_0(h2c_tlast), .m_axis_h2c_tvalid_0(h2c_tvalid),
        .m_axis_h2c_tready_0(h2c_tready),
        .s_axis_c2h_tdata_0(c2h_tdata), .s_axis_c2h_tkeep_0(c2h_tkeep),
        .s_axis_c2h_tlast_0(c2h_tlast), .s_axis_c2h_tvalid_0(c2h_tvalid),
        .s_axis_c2h_tready_0(c2h_tready),
        .h2c_dsc_byp_ready_0(h2c_byp_ready), .h2c_dsc_byp_src_addr_0(h2c_byp_addr),
        .h2c_dsc_byp_dst_addr_0(64'd0), .h2c_dsc_byp_len_0({12'd0, h2c_byp_len}),
        .h2c_dsc_byp_ctl_0(16'h0010), .h2c_dsc_byp_load_0(h2c_byp_valid && h2c_byp_ready),
        .c2h_dsc_byp_ready_0(c2h_byp_ready), .c2h_dsc_byp_src_addr_0(64'd0),
        .c2h_dsc_byp_dst_addr_0(c2h_byp_addr), .c2h_dsc_byp_len_0({12'd0, c2h_byp_len}),
        .c2h_dsc_byp_ctl_0(16'h0010), .c2h_dsc_byp_load_0(c2h_byp_valid && c2h_byp_ready)
    );

    // ---- The core's clock and the resets
    wire clk, clk_locked;
    clk_core clk_core_gen (.clk_in1(axi_aclk), .reset(!axi_aresetn), .clk_out1(clk),
                           .locked(clk_locked));
    (* ASYNC_REG = "TRUE" *) reg [1:0] rst_core_sync = 2'b11;
    always @(posedge clk or negedge clk_locked)
        if (!clk_locked) rst_core_sync <= 2'b11;
        else rst_core_sync <= {rst_core_sync[0], 1'b0};
    wire rst = rst_core_sync[1];

    // ---- Ethernet subsystem
    wire eth_clk, eth_tx_rst, eth_rx_rst, eth_rx_status;
    wire [63:0] mtx_tdata, mrx_tdata;
    wire [7:0]  mtx_tkeep, mrx_tkeep;
    wire        mtx_tvalid, mtx_tready, mtx_tlast, mtx_tuser;
    wire        mrx_tvalid, mrx_tlast, mrx_tuser;
    xxv_eth_0 eth_i (
        .gt_refclk_p(qsfp0_refclk_p), .gt_refclk_n(qsfp0_refclk_n),
        .gt_rxp_in_0(qsfp0_rx_p), .gt_rxn_in_0(qsfp0_rx_n),
        .gt_txp_out_0(qsfp0_tx_p), .gt_txn_out_0(qsfp0_tx_n),
        .sys_reset(!axi_aresetn), .dclk(dclk),
        .tx_clk_out_0(eth_clk), .rx_core_clk_0(eth_clk), .rx_clk_out_0(),
        .gt_loopback_in_0(3'b000), .txoutclksel_in_0(3'b101), .rxoutclksel_in_0(3'b101),
        .rx_reset_0(1'b0), .tx_reset_0(1'b0),
        .user_tx_reset_0(eth_tx_rst), .user_rx_reset_0(eth_rx_rst),
        .gtwiz_reset_tx_datapath_0(1'b0), .gtwiz_reset_rx_datapath_0(1'b0),
        .tx_axis_tdata_0(mtx_tdata), .tx_axis_tkeep_0(mtx_tkeep), .tx_axis_tvalid_0(mtx_tvalid),
        .tx_axis_tready_0(mtx_tready), .tx_axis_tlast_0(mtx_tlast), .tx_axis_tuser_0(mtx_tuser),
        .tx_preamblein_0(56'd0), .tx_unfout_0(),
        .rx_axis_tdata_0(mrx_tdata), .rx_axis_tkeep_0(mrx_tkeep), .rx_axis_tvalid_0(mrx_tvalid),
        .rx_axis_tlast_0(mrx_tlast), .rx_axis_tuser_0(mrx_tuser), .rx_preambleout_0(),
        .ctl_tx_enable_0(1'b1), .ctl_tx_fcs_ins_enable_0(1'b1), .ctl_tx_ignore_fcs_0(1'b0),
        .ctl_tx_send_idle_0(1'b0), .ctl_tx_send_lfi_0(1'b0), .ctl_tx_send_rfi_0(1'b0),
        .ctl_tx_test_pattern_0(1'b0),
        .ctl_rx_enable_0(1'b1), .ctl_rx_delete_fcs_0(1'b1), .ctl_rx_ignore_fcs_0(1'b0),
        .ctl_rx_check_preamble_0(1'b1), .ctl_rx_check_sfd_0(1'b1), .ctl_rx_force_resync_0(1'b0),
        .ctl_rx_max_packet_len_0(15'd1522), .ctl_rx_min_packet_len_0(8'd64),
        .ctl_rx_process_lfi_0(1'b0), .ctl_rx_test_pattern_0(1'b0),
        .stat_rx_status_0(eth_rx_status)
    );
    (* ASYNC_REG = "TRUE" *) reg [1:0] eth_tx_rst_sync = 2'b11, eth_rx_rst_sync = 2'b11;
    always @(posedge eth_clk) begin
        eth_tx_rst_sync <= {eth_tx_rst_sync[0], eth_tx_rst};
        eth_rx_rst_sync <= {eth_rx_rst_sync[0], eth_rx_rst};
    end

    // ---- AXI4-Lite: XDMA (250 MHz) → the core (125 MHz), 16-bit addresses
    wire [15:0] c_awaddr, c_araddr;
    wire [2:0]  c_awprot, c_arprot;
    wire [31:0] c_wdata, c_rdata;
    wire [3:0]  c_wstrb;
    wire [1:0]  c_bresp, c_rresp;
    wire c_awvalid, c_awready, c_wvalid, c_wready, c_bvalid, c_bready;
    wire c_arvalid, c_arready, c_rvalid, c_rready;
    axil_cdc axil_cdc_i (
        .s_axi_aclk(axi_aclk), .s_axi_aresetn(axi_aresetn),
        .s_axi_awaddr(x_awaddr[15:0]), .s_axi_awprot(x_awprot), .s_axi_awvalid(x_awvalid),
        .s_axi_awready(x_awready), .s_axi_wdata(x_wdata), .s_axi_wstrb(x_wstrb),
        .s_axi_wvalid(x_wvalid), .s_axi_wready(x_wready), .s_axi_bresp(x_bresp),
        .s_axi_bvalid(x_bvalid), .s_axi_bready(x_bready), .s_axi_araddr(x_araddr[15:0]),
        .s_axi_arprot(x_arprot), .s_axi_arvalid(x_arvalid), .s_axi_arready(x_arready),
        .s_axi_rdata(x_rdata), .s_axi_rresp(x_rresp), .s_axi_rvalid(x_rvalid),
        .s_axi_rready(x_rready),
        .m_axi_aclk(clk), .m_axi_aresetn(!rst),
        .m_axi_awaddr(c_awaddr), .m_axi_awprot(c_awprot), .m_axi_awvalid(c_awvalid),
        .m_axi_awready(c_awready), .m_axi_wdata(c_wdata), .m_axi_wstrb(c_wstrb),
        .m_axi_wvalid(c_wvalid), .m_axi_wready(c_wready), .m_axi_bresp(c_bresp),
        .m_axi_bvalid(c_bvalid), .m_axi_bready(c_bready), .m_axi_araddr(c_araddr),
        .m_axi_arprot(c_arprot), .m_axi_arvalid(c_arvalid), .m_axi_arready(c_arready),
        .m_axi_rdata(c_rdata), .m_axi_rresp(c_rresp), .m_axi_rvalid(c_rvalid),
        .m_axi_rready(c_rready)
    );

    // ---- Descriptors: the core (125 MHz) → XDMA's bypass (250 MHz)
    wire [63:0] rd_addr, wr_addr;
    wire [15:0] rd_len, wr_len;
    wire [7:0]  rd_tag, wr_tag;
    wire rd_valid, rd_ready, wr_valid, wr_ready;
    wire [127:0] h2c_byp_word, c2h_byp_word;
    axis_cdc_desc rd_desc_cdc (
        .s_axis_aclk(clk), .s_axis_aresetn(!rst),
        .s_axis_tdata({40'd0, rd_tag, rd_len, rd_addr}), .s_axis_tvalid(rd_valid),
        .s_axis_tready(rd_ready),
        .m_axis_aclk(axi_aclk), .m_axis_aresetn(axi_aresetn),
        .m_axis_tdata(h2c_byp_word), .m_axis_tvalid(h2c_byp_valid), .m_axis_tready(h2c_byp_ready)
    );
    assign h2c_byp_addr = h2c_byp_word[63:0];
    assign h2c_byp_len = h2c_byp_word[79:64];
    axis_cdc_desc wr_desc_cdc (
        .s_axis_aclk(clk), .s_axis_aresetn(!rst),
        .s_axis_tdata({40'd0, wr_tag, wr_len, wr_addr}), .s_axis_tvalid(wr_valid),
        .s_axis_tready(wr_ready),
        .m_axis_aclk(axi_aclk), .m_axis_aresetn(axi_aresetn),
        .m_axis_tdata(c2h_byp_word), .m_axis_tvalid(c2h_byp_valid), .m_axis_tready(c2h_byp_ready)
    );
    assign c2h_byp_addr = c2h_byp_word[63:0];
    assign c2h_byp_len = c2h_byp_word[79:64];

    // ---- H2C data: 256 bits at 250 MHz → 64 bits → 125 MHz
    wire [63:0] h64_tdata, h_tdata;
    wire [7:0]  h64_tkeep, h_tkeep;
    wire h64_tvalid, h64_tready, h64_tlast, h_tvalid, h_tready, h_tlast;
    axis_256_to_64 h2c_width (
        .aclk(axi_aclk), .aresetn(axi_aresetn),
        .s_axis_tdata(h2c_tdata), .s_axis_tkeep(h2c_tkeep), .s_axis_tlast(h2c_tlast),
        .s_axis_tvalid(h2c_tvalid), .s_axis_tready(h2c_tready),
        .m_axis_tdata(h64_tdata), .m_axis_tkeep(h64_tkeep), .m_axis_tlast(h64_tlast),
        .m_axis_tvalid(h64_tvalid), .m_axis_tready(h64_tready)
    );
    axis_cdc_64 h2c_cdc (
        .s_axis_aclk(axi_aclk), .s_axis_aresetn(axi_aresetn),
        .s_axis_tdata(h64_tdata), .s_axis_tkeep(h64_tkeep), .s_axis_tlast(h64_tlast),
        .s_axis_tvalid(h64_tvalid), .s_axis_tready(h64_tready),
        .m_axis_aclk(clk), .m_axis_aresetn(!rst),
        .m_axis_tdata(h_tdata), .m_axis_tkeep(h_tkeep), .m_axis_tlast(h_tlast),
        .m_axis_tvalid(h_tvalid), .m_axis_tready(h_tready)
    );

    // ---- C2H data: 64 bits at 125 MHz → 250 MHz → 256 bits
    wire [63:0] c_tdata, c64_tdata;
    wire [7:0]  c_tkeep, c64_tkeep;
    wire c_tvalid, c_tready, c_tlast, c_tuser, c64_tvalid, c64_tready, c64_tlast;
    axis_cdc_64 c2h_cdc (
        .s_axis_aclk(clk), .s_axis_aresetn(!rst),
        .s_axis_tdata(c_tdata), .s_axis_tkeep(c_tkeep), .s_axis_tlast(c_tlast),
        .s_axis_tvalid(c_tvalid), .s_axis_tready(c_tready),
        .m_axis_aclk(axi_aclk), .m_axis_aresetn(axi_aresetn),
        .m_axis_tdata(c64_tdata), .m_axis_tkeep(c64_tkeep), .m_axis_tlast(c64_tlast),
        .m_axis_tvalid(c64_tvalid), .m_axis_tready(c64_tready)
    );
    axis_64_to_256 c2h_width (
        .aclk(axi_aclk), .aresetn(axi_aresetn),
        .s_axis_tdata(c64_tdata), .s_axis_tkeep(c64_tkeep), .s_axis_tlast(c64_tlast),
        .s_axis_tvalid(c64_tvalid), .s_axis_tready(c64_tready),
        .m_axis_tdata(c2h_tdata), .m_axis_tkeep(c2h_tkeep), .m_axis_tlast(c2h_tlast),
        .m_axis_tvalid(c2h_tvalid), .m_axis_tready(c2h_tready)
    );

    // ---- Completion-queue events → XDMA user interrupts: a toggle per
    // queue crosses to axi_aclk; the request is held until its ack.
    wire       ev_valid;
    wire [7:0] ev_cq;
    reg  [7:0] ev_toggle = 8'd0;
    always @(posedge clk) if (ev_valid) ev_toggle[ev_cq[2:0]] <= ~ev_toggle[ev_cq[2:0]];
    (* ASYNC_REG = "TRUE" *) reg [7:0] ev_meta = 8'd0, ev_sync = 8'd0;
    reg [7:0] ev_seen = 8'd0, irq_pending = 8'd0;
    always @(posedge axi_aclk) begin
        ev_meta <= ev_toggle;
        ev_sync <= ev_meta;
        ev_seen <= ev_sync;
        irq_pending <= (irq_pending | (ev_sync ^ ev_seen)) & ~irq_ack;
    end
    assign irq_req = irq_pending;

    // ---- The board core: the NIC and the vendor-MAC adapter
    alveo_core core (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(c_awaddr), .s_axil_awprot(c_awprot), .s_axil_awvalid(c_awvalid),
        .s_axil_awready(c_awready), .s_axil_wdata(c_wdata), .s_axil_wstrb(c_wstrb),
        .s_axil_wvalid(c_wvalid), .s_axil_wready(c_wready), .s_axil_bresp(c_bresp),
        .s_axil_bvalid(c_bvalid), .s_axil_bready(c_bready), .s_axil_araddr(c_araddr),
        .s_axil_arprot(c_arprot), .s_axil_arvalid(c_arvalid), .s_axil_arready(c_arready),
        .s_axil_rdata(c_rdata), .s_axil_rresp(c_rresp), .s_axil_rvalid(c_rvalid),
        .s_axil_rready(c_rready),
        .m_axis_read_desc_addr(rd_addr), .m_axis_read_desc_len(rd_len),
        .m_axis_read_desc_tag(rd_tag), .m_axis_read_desc_valid(rd_valid),
        .m_axis_read_desc_ready(rd_ready),
        .s_axis_h2c_tdata(h_tdata), .s_axis_h2c_tkeep(h_tkeep), .s_axis_h2c_tlast(h_tlast),
        .s_axis_h2c_tuser(1'b0), .s_axis_h2c_tvalid(h_tvalid), .s_axis_h2c_tready(h_tready),
        .m_axis_write_desc_addr(wr_addr), .m_axis_write_desc_len(wr_len),
        .m_axis_write_desc_tag(wr_tag), .m_axis_write_desc_valid(wr_valid),
        .m_axis_write_desc_ready(wr_ready),
        .m_axis_c2h_tdata(c_tdata), .m_axis_c2h_tkeep(c_tkeep), .m_axis_c2h_tlast(c_tlast),
        .m_axis_c2h_tuser(c_tuser), .m_axis_c2h_tvalid(c_tvalid), .m_axis_c2h_tready(c_tready),
        .m_event_cq(ev_cq), .m_event_valid(ev_valid),
        .tx_clk(eth_clk), .tx_rst(eth_tx_rst_sync[1]),
        .m_axis_mac_tx_tdata(mtx_tdata), .m_axis_mac_tx_tkeep(mtx_tkeep),
        .m_axis_mac_tx_tlast(mtx_tlast), .m_axis_mac_tx_tuser(mtx_tuser),
        .m_axis_mac_tx_tvalid(mtx_tvalid), .m_axis_mac_tx_tready(mtx_tready),
        .rx_clk(eth_clk), .rx_rst(eth_rx_rst_sync[1]),
        .s_axis_mac_rx_tdata(mrx_tdata), .s_axis_mac_rx_tkeep(mrx_tkeep),
        .s_axis_mac_rx_tlast(mrx_tlast), .s_axis_mac_rx_tuser(mrx_tuser),
        .s_axis_mac_rx_tvalid(mrx_tvalid), .s_axis_mac_rx_tready(),
        .m_stats_pad_frames(), .m_stats_pad_padded(), .m_stats_pad_bad_keep(),
        .m_stats_tx_fifo_frames(), .m_stats_tx_fifo_dropped(),
        .m_stats_rx_fifo_frames(), .m_stats_rx_fifo_dropped()
    );

    // ---- LEDs: PCIe link up, Ethernet link (block lock and status), a
    // heartbeat of the core clock.
    reg [26:0] beat = 27'd0;
    always @(posedge clk) beat <= beat + 27'd1;
    assign led = {beat[26], eth_rx_status, user_lnk_up};

endmodule

`default_nettype wire
