// A deliberately broken FIFO, kept for `make formal`: the ports of the
// emitted `axis_fifo8_d4`, 4 beats, but `s_axis_tready` tests "full" one
// beat too late (count == 5), so a fifth beat overwrites the oldest.
// The formal checks must fail on it (scripts/formal.sh expects FAIL).
`default_nettype none
module broken_fifo (
    input wire clock,
    input wire [7:0] s_axis_tdata, input wire s_axis_tkeep, input wire s_axis_tlast,
    input wire s_axis_tuser, input wire s_axis_tvalid, output wire s_axis_tready,
    output wire [7:0] m_axis_tdata, output wire m_axis_tkeep, output wire m_axis_tlast,
    output wire m_axis_tuser, output wire m_axis_tvalid, input wire m_axis_tready,
    output wire [15:0] level
);
    reg [10:0] mem [0:3];
    reg [1:0] wr = 2'd0, rd = 2'd0;
    reg [2:0] count = 3'd0;
    assign s_axis_tready = (count != 3'd5);   // the bug: should be count != 4
    assign m_axis_tvalid = (count != 3'd0);
    assign {m_axis_tdata, m_axis_tkeep, m_axis_tlast, m_axis_tuser} = mem[rd];
    assign level = {13'd0, count};
    wire push = s_axis_tvalid && s_axis_tready;
    wire pop = m_axis_tvalid && m_axis_tready;
    always @(posedge clock) begin
        if (push) begin
            mem[wr] <= {s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser};
            wr <= wr + 2'd1;
        end
        if (pop) rd <= rd + 2'd1;
        count <= count + {2'd0, push} - {2'd0, pop};
    end
endmodule
