// Formal properties of a stream block of the emitted Verilog, kept out of
// the RTL: `axis_check` instantiates the block (DUT, a module with the
// ports of rust-hdl's named wrapper: s_axis_*, m_axis_*) and checks it,
// its inputs left free to the solver except for the source protocol.
// scripts/formal.sh runs it with SymbiYosys (yowasp-sby, Boolector).
//
// Defines: DUT (module name), DW (tdata bits), KW (tkeep bits),
// HAS_LEVEL (the block has a `level` output: beats held in its RAM),
// LEVEL_MAX, CAP (beats the block holds at most), ORDER (check order and
// counts: a FIFO; without it, only the output protocol).
//
// Checked, on every cycle of the bound:
// - m_axis: tvalid and every data field held until tready (AXI4-Stream);
// - with ORDER: beats out never outnumber beats in (no underflow), the
//   block holds at most CAP (no overflow), `level` <= LEVEL_MAX, and a
//   beat chosen by the solver (its index any constant) leaves as it came
//   in: nothing lost, duplicated or reordered.
// Assumed: s_axis follows AXI4-Stream (tvalid and data held until tready).
`default_nettype none
module axis_check (
    input wire clock,
    input wire [`DW-1:0] s_tdata,
    input wire [`KW-1:0] s_tkeep,
    input wire s_tlast,
    input wire s_tuser,
    input wire s_tvalid,
    input wire m_tready
);
    wire s_tready;
    wire [`DW-1:0] m_tdata;
    wire [`KW-1:0] m_tkeep;
    wire m_tlast, m_tuser, m_tvalid;
`ifdef HAS_LEVEL
    wire [15:0] level;
`endif
    `DUT dut (
        .clock(clock),
        .s_axis_tdata(s_tdata), .s_axis_tkeep(s_tkeep), .s_axis_tlast(s_tlast),
        .s_axis_tuser(s_tuser), .s_axis_tvalid(s_tvalid), .s_axis_tready(s_tready),
        .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
        .m_axis_tuser(m_tuser), .m_axis_tvalid(m_tvalid), .m_axis_tready(m_tready)
`ifdef HAS_LEVEL
        , .level(level)
`endif
`ifdef HAS_READY_NEXT
        , .ready_next()
`endif
    );

    reg past = 1'b0;
    always @(posedge clock) past <= 1'b1;

    wire [`DW+`KW+1:0] s_beat = {s_tdata, s_tkeep, s_tlast, s_tuser};
    wire [`DW+`KW+1:0] m_beat = {m_tdata, m_tkeep, m_tlast, m_tuser};

    // The source protocol (assumed).
    always @(posedge clock)
        if (past && $past(s_tvalid && !s_tready))
            assume (s_tvalid && s_beat == $past(s_beat));

    // The output protocol (asserted).
    always @(posedge clock)
        if (past && $past(m_tvalid && !m_tready))
            assert (m_tvalid && m_beat == $past(m_beat));

`ifdef ORDER
    reg [7:0] n_in = 8'd0;
    reg [7:0] n_out = 8'd0;
    always @(posedge clock) begin
        if (s_tvalid && s_tready) n_in <= n_in + 8'd1;
        if (m_tvalid && m_tready) n_out <= n_out + 8'd1;
    end
    wire [7:0] held = n_in - n_out;
    always @* begin
        assert (n_out <= n_in);          // no underflow
        assert (held <= `CAP);           // no overflow
        if (n_out == n_in) assert (!m_tvalid);
`ifdef HAS_LEVEL
        assert (level <= `LEVEL_MAX);
`endif
    end

    // Order: beat number `k` leaves as it came in.
    (* anyconst *) reg [7:0] k;
    reg [`DW+`KW+1:0] kept;
    reg kept_valid = 1'b0;
    always @(posedge clock)
        if (s_tvalid && s_tready && n_in == k) begin
            kept <= s_beat;
            kept_valid <= 1'b1;
        end
    always @*
        if (m_tvalid && m_tready && n_out == k)
            assert (kept_valid && m_beat == kept);
`endif
endmodule
