// Formal properties of the AXI4-Lite slave of an emitted top with an
// `s_axil` port (`host_if`: the slave, the register decoder and everything
// behind it; `hpcc_nic`: the whole NIC), kept out of the RTL:
// scripts/formal.sh makes the checker module with testbench/formal/wrap.py
// (every input of the top free to the solver, every output a wire, the
// handshake rule asserted on every output channel) and includes this file
// in its body, with `CLK and `RST naming the top's clock and reset.
//
// Assumed: the master follows AXI4-Lite (each of AW, W and AR holds valid
// and its payload until ready); no reset (the check starts from the
// power-up state). With LIVE, everything around the host interface makes
// progress: the master takes every answer (bready, rready), the core
// takes every configuration write, work request and payload beat
// (m_cfg_ready, m_wr_ready, m_axis_core_h2c_tready), and the DMA engine
// takes every descriptor and write beat and always has read data
// (m_axis_read_desc_ready, m_axis_write_desc_ready, m_axis_c2h_tready,
// s_axis_h2c_tvalid; the data, its length and its flags stay free). A
// doorbell is answered by the send-queue engine, which may be waiting
// for DMA data: without that progress no bound can hold.
//
// Asserted, on every cycle of the bound:
// - B and R hold valid and their payload until ready;
// - no answer without a request: B handshakes never outnumber the AW
//   handshakes nor the W handshakes, R handshakes never outnumber the AR
//   handshakes; a request accepted and not answered is at most one per
//   channel in the slave's register plus one outstanding;
// - (AXI4-Lite has no IDs: the k-th B answers the k-th write and the
//   k-th R the k-th read by definition. What can go wrong is an answer
//   lost, given twice or given to nothing: the counts catch the last two,
//   the bound below the first.)
// - with LIVE, every request is answered: a write whose address and data
//   were both offered gets its B, and a read offered gets its R, within
//   `BOUND cycles.

    reg past = 1'b0;
    always @(posedge `CLK) past <= 1'b1;

    always @* assume (!`RST);
    always @(posedge `CLK) if (past) begin
        if ($past(s_axil_awvalid && !s_axil_awready))
            assume (s_axil_awvalid && s_axil_awaddr == $past(s_axil_awaddr)
                    && s_axil_awprot == $past(s_axil_awprot));
        if ($past(s_axil_wvalid && !s_axil_wready))
            assume (s_axil_wvalid && s_axil_wdata == $past(s_axil_wdata)
                    && s_axil_wstrb == $past(s_axil_wstrb));
        if ($past(s_axil_arvalid && !s_axil_arready))
            assume (s_axil_arvalid && s_axil_araddr == $past(s_axil_araddr)
                    && s_axil_arprot == $past(s_axil_arprot));
    end
`ifdef LIVE
    always @* assume (s_axil_bready && s_axil_rready && m_cfg_ready && m_wr_ready
                      && m_axis_read_desc_ready && m_axis_write_desc_ready
                      && m_axis_c2h_tready && m_axis_core_h2c_tready && s_axis_h2c_tvalid);
`endif

    // The slave's answers hold until taken.
    always @(posedge `CLK) if (past) begin
        if ($past(s_axil_bvalid && !s_axil_bready))
            assert (s_axil_bvalid && s_axil_bresp == $past(s_axil_bresp));
        if ($past(s_axil_rvalid && !s_axil_rready))
            assert (s_axil_rvalid && s_axil_rdata == $past(s_axil_rdata)
                    && s_axil_rresp == $past(s_axil_rresp));
    end

    // Handshake counts.
    reg [7:0] n_aw = 8'd0, n_w = 8'd0, n_b = 8'd0, n_ar = 8'd0, n_r = 8'd0;
    always @(posedge `CLK) begin
        if (s_axil_awvalid && s_axil_awready) n_aw <= n_aw + 8'd1;
        if (s_axil_wvalid && s_axil_wready) n_w <= n_w + 8'd1;
        if (s_axil_bvalid && s_axil_bready) n_b <= n_b + 8'd1;
        if (s_axil_arvalid && s_axil_arready) n_ar <= n_ar + 8'd1;
        if (s_axil_rvalid && s_axil_rready) n_r <= n_r + 8'd1;
    end
    always @* begin
        assert (n_b <= n_aw && n_b <= n_w);
        assert (n_r <= n_ar);
        assert (n_aw - n_b <= 8'd2 && n_w - n_b <= 8'd2 && n_ar - n_r <= 8'd2);
    end

`ifdef LIVE
    // Cycles the oldest write (address and data both offered) and the
    // oldest read have waited for their answer.
    reg [7:0] wait_w = 8'd0, wait_r = 8'd0;
    wire w_pending = (n_aw > n_b || s_axil_awvalid) && (n_w > n_b || s_axil_wvalid);
    wire r_pending = n_ar > n_r || s_axil_arvalid;
    always @(posedge `CLK) begin
        wait_w <= (s_axil_bvalid && s_axil_bready) || !w_pending ? 8'd0 : wait_w + 8'd1;
        wait_r <= (s_axil_rvalid && s_axil_rready) || !r_pending ? 8'd0 : wait_r + 8'd1;
    end
    always @* begin
        assert (wait_w <= `BOUND);
        assert (wait_r <= `BOUND);
    end
`endif
