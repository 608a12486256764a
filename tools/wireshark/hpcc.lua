-- hpcc.lua: a Wireshark / tshark dissector for the HPCC++ SmartNIC's
-- additions to RoCEv2 (docs/roce.md §1-§2):
--   * the T bit (BTH byte 4, bit 0): a 48-byte telemetry area follows the
--     RoCE headers (BTH [+ RETH | AETH]) and precedes the payload;
--   * the telemetry area: an 8-byte header (ver, flags, nhop, maxhop, W)
--     and 5 hop slots, each the 64-bit ns-3 IntHop word (qlen, tx bytes,
--     timestamp, line-rate code);
--   * the opcodes HPCC PROBE (0xC0), HPCC NOTIFY (0xC1) and HPCC ACK (0xC2,
--     an ACKNOWLEDGE that echoes the telemetry area; its AETH is decoded here);
--   * the RoCEv2 CNP (0x81, DCQCN's congestion notification: BECN, 16
--     reserved bytes), which Wireshark's InfiniBand dissector leaves
--     "Unknown" (it names only InfiniBand's own CNP, 0x80).
-- Wireshark's InfiniBand dissector still decodes Ethernet .. BTH, RETH and
-- AETH; this one runs after it (a post-dissector) and adds an "HPCC++"
-- tree with the telemetry, the PROBE/NOTIFY/HPCC ACK names, the HPCC ACK's
-- AETH and their ICRC.
--
-- Install: tools/wireshark/README.md. Without installing:
--   tshark -X lua_script:tools/wireshark/hpcc.lua -r capture.pcap -V
--
-- The constants below are generated from the project's single source of
-- the wire format (nic-spec, and the golden model's encoders); a test
-- fails if they drift. Edit the code after the generated block only.

-- BEGIN GENERATED CONSTANTS (`hpccnic wireshark-constants --update`; do not edit)
local C = {
    roce_port = 4791,
    bth_len = 12,
    reth_len = 16,
    aeth_len = 4,
    tlm_len = 48,
    icrc_len = 4,
    -- BTH byte 4 (resv8a), the T bit: a telemetry area follows the RoCE headers
    t_byte = 4,
    t_mask = 0x01,
    op_probe = 0xC0,
    op_notify = 0xC1,
    op_ack_tlm = 0xC2,
    -- the RoCEv2 CNP (InfiniBand's own CNP is 0x80, which Wireshark names): BECN in BTH byte 4
    op_cnp = 0x81,
    becn_byte = 4,
    becn_mask = 0x40,
    known_op = { [0x06] = true, [0x07] = true, [0x08] = true, [0x0A] = true, [0x0C] = true, [0x0D] = true, [0x0E] = true, [0x0F] = true, [0x10] = true, [0x11] = true, [0xC0] = true, [0xC1] = true, [0xC2] = true, [0x81] = true },
    op_label = { [0x06] = "RC RDMA WRITE First", [0x07] = "RC RDMA WRITE Middle", [0x08] = "RC RDMA WRITE Last", [0x0A] = "RC RDMA WRITE Only", [0x0C] = "RC RDMA READ Request", [0x0D] = "RC RDMA READ response First", [0x0E] = "RC RDMA READ response Middle", [0x0F] = "RC RDMA READ response Last", [0x10] = "RC RDMA READ response Only", [0x11] = "RC Acknowledge", [0xC0] = "HPCC PROBE", [0xC1] = "HPCC NOTIFY", [0xC2] = "HPCC ACK", [0x81] = "RoCEv2 CNP" },
    has_reth = { [0x06] = true, [0x0A] = true, [0x0C] = true, [0x81] = true },
    has_aeth = { [0x0D] = true, [0x0F] = true, [0x10] = true, [0x11] = true, [0xC2] = true },
    -- the telemetry header word (big-endian 64 bits): {shift, bits}
    hdr_ver = { 60, 4 },
    hdr_flags = { 56, 4 },
    hdr_nhop = { 48, 8 },
    hdr_maxhop = { 40, 8 },
    hdr_w = { 0, 32 },
    tlm_ver = 1,
    tlm_maxhop = 5,
    tlm_hops = 5,
    -- flags bit 0: W (receiver-computed window, UQ24.8 bytes) valid
    flag_w_valid = 0x1,
    -- one ns-3 hop word (big-endian 64 bits): {shift, bits}
    hop_rate = { 0, 3 },
    hop_ts = { 3, 24 },
    hop_bytes = { 27, 20 },
    hop_qlen = { 47, 17 },
    -- bytes per qlen / tx-bytes unit, times the telemetry multi
    qlen_unit = 80,
    bytes_unit = 128,
    multi_default = 4,
    -- line-rate codes, Gb/s (other codes: unknown)
    rate_gbps = { [0] = 25, [1] = 50, [2] = 100, [3] = 200, [4] = 400 },
}
-- END GENERATED CONSTANTS

local hpcc = Proto("hpcc", "HPCC++ telemetry (RoCEv2 extension)")

-- Every opcode's name, for the tree (a standard one shows as Wireshark's
-- InfiniBand dissector names it); the Info column names only the project's
-- own, which InfiniBand does not know.
local op_names = C.op_label
local own_op = {
    [C.op_probe] = true,
    [C.op_notify] = true,
    [C.op_ack_tlm] = true,
    [C.op_cnp] = true,
}

local rate_names = {}
for code = 0, 7 do
    if C.rate_gbps[code] then
        rate_names[code] = string.format("%d Gb/s", C.rate_gbps[code])
    else
        rate_names[code] = "unknown"
    end
end

-- The header and hop fields are values taken out of their 64-bit word
-- (shown over the word's 8 bytes).
local f = {
    opcode = ProtoField.uint8("hpcc.opcode", "Opcode", base.HEX, op_names),
    t = ProtoField.bool("hpcc.t", "Telemetry area present (T)"),
    icrc = ProtoField.uint32("hpcc.icrc", "ICRC", base.HEX),
    aeth = ProtoField.uint32("hpcc.aeth", "AETH", base.HEX),
    syndrome = ProtoField.uint8("hpcc.aeth.syndrome", "Syndrome", base.HEX),
    msn = ProtoField.uint32("hpcc.aeth.msn", "MSN", base.DEC),
    tlm = ProtoField.bytes("hpcc.tlm", "Telemetry area"),
    hdr = ProtoField.uint64("hpcc.tlm.hdr", "Header", base.HEX),
    ver = ProtoField.uint8("hpcc.tlm.ver", "Version", base.DEC),
    flags = ProtoField.uint8("hpcc.tlm.flags", "Flags", base.HEX),
    w_valid = ProtoField.bool("hpcc.tlm.w_valid", "W valid (flags bit 0)"),
    nhop = ProtoField.uint8("hpcc.tlm.nhop", "Hops written", base.DEC),
    maxhop = ProtoField.uint8("hpcc.tlm.maxhop", "Hop slots", base.DEC),
    w = ProtoField.uint32("hpcc.tlm.w", "W (UQ24.8 bytes)", base.DEC),
    w_bytes = ProtoField.double("hpcc.tlm.w_bytes", "W, bytes"),
    hop = ProtoField.uint64("hpcc.hop", "Hop", base.HEX),
    hop_index = ProtoField.uint8("hpcc.hop.index", "Slot"),
    hop_written = ProtoField.bool("hpcc.hop.written", "Written (slot < nhop)"),
    qlen = ProtoField.uint32("hpcc.hop.qlen", "Queue length (units)", base.DEC),
    qlen_bytes = ProtoField.uint64("hpcc.hop.qlen_bytes", "Queue length, bytes", base.DEC),
    txb = ProtoField.uint32("hpcc.hop.tx_bytes", "Tx bytes (units, wrapping)", base.DEC),
    txb_bytes = ProtoField.uint64("hpcc.hop.tx_bytes_bytes", "Tx bytes, bytes (wrapping)", base.DEC),
    ts = ProtoField.uint32("hpcc.hop.ts", "Timestamp, ns (wrapping)", base.DEC),
    rate = ProtoField.uint8("hpcc.hop.rate", "Line-rate code", base.DEC, rate_names),
    rate_gbps = ProtoField.uint32("hpcc.hop.rate_gbps", "Line rate, Gb/s", base.DEC),
    becn = ProtoField.bool("hpcc.cnp.becn", "BECN"),
    cnp_reserved = ProtoField.bytes("hpcc.cnp.reserved", "Reserved (16 bytes)"),
}
hpcc.fields = {}
for _, v in pairs(f) do
    table.insert(hpcc.fields, v)
end

local e_bad_tlm = ProtoExpert.new("hpcc.tlm.bad", "Impossible telemetry area (dropped by the NIC: bad_tlm)",
    expert.group.MALFORMED, expert.severity.ERROR)
local e_short = ProtoExpert.new("hpcc.short", "Frame too short for its telemetry area",
    expert.group.MALFORMED, expert.severity.ERROR)
hpcc.experts = { e_bad_tlm, e_short }

hpcc.prefs.multi = Pref.uint("multi", C.multi_default,
    "Telemetry multi of the switches (1, 2, 4, 8 or 16): a qlen unit is " .. C.qlen_unit ..
    " x multi bytes, a tx-bytes unit " .. C.bytes_unit .. " x multi bytes")

local bth_opcode = Field.new("infiniband.bth.opcode")

local function field_of(word, fld)
    return word:rshift(fld[1]):band((UInt64.new(1):lshift(fld[2])) - 1):tonumber()
end

function hpcc.dissector(tvb, pinfo, tree)
    local op_fi = bth_opcode()
    if not op_fi then
        return
    end
    local bth = op_fi.offset
    if tvb:len() < bth + C.bth_len then
        return
    end
    local opcode = tvb(bth, 1):uint()
    local t = bit32.band(tvb(bth + C.t_byte, 1):uint(), C.t_mask) ~= 0
    local named = own_op[opcode] and op_names[opcode]
    if not t and not named then
        return
    end
    local root = tree:add(hpcc, tvb(bth, tvb:len() - bth), "HPCC++")
    root:add(f.opcode, tvb(bth, 1))
    root:add(f.t, tvb(bth + C.t_byte, 1), t)
    if named then
        local qp = tvb(bth + 5, 3):uint()
        local psn = tvb(bth + 9, 3):uint()
        pinfo.cols.info:set(string.format("%s QP=0x%06x PSN=%d", named, qp, psn))
        root:append_text(", " .. named)
    end
    if opcode == C.op_cnp then
        -- The RoCEv2 CNP (annex A17.9.3): BTH, 16 reserved bytes, ICRC.
        local off = bth + C.bth_len
        if tvb:len() < off + C.reth_len + C.icrc_len then
            root:add_proto_expert_info(e_short)
            return
        end
        local b = tvb(bth + C.becn_byte, 1)
        root:add(f.becn, b, bit32.band(b:uint(), C.becn_mask) ~= 0)
        root:add(f.cnp_reserved, tvb(off, C.reth_len))
        if not t then
            root:add_le(f.icrc, tvb(tvb:len() - C.icrc_len, C.icrc_len))
        end
    end
    if not t then
        return
    end
    local off = bth + C.bth_len
    if C.has_reth[opcode] then
        off = off + C.reth_len
    end
    if C.has_aeth[opcode] then
        if named then
            -- InfiniBand does not decode the AETH of an opcode it does not know.
            local a = root:add(f.aeth, tvb(off, C.aeth_len))
            a:add(f.syndrome, tvb(off, 1))
            a:add(f.msn, tvb(off + 1, 3))
        end
        off = off + C.aeth_len
    end
    if tvb:len() < off + C.tlm_len + C.icrc_len then
        root:add_proto_expert_info(e_short)
        return
    end
    local area = root:add(f.tlm, tvb(off, C.tlm_len))
    local hdr_r = tvb(off, 8)
    local hdr = hdr_r:uint64()
    local ver, nhop, maxhop = field_of(hdr, C.hdr_ver), field_of(hdr, C.hdr_nhop), field_of(hdr, C.hdr_maxhop)
    local flags = field_of(hdr, C.hdr_flags)
    local w = field_of(hdr, C.hdr_w)
    local h = area:add(f.hdr, hdr_r)
    h:add(f.ver, hdr_r, ver)
    h:add(f.flags, hdr_r, flags)
    h:add(f.w_valid, hdr_r, bit32.band(flags, C.flag_w_valid) ~= 0)
    h:add(f.nhop, hdr_r, nhop)
    h:add(f.maxhop, hdr_r, maxhop)
    h:add(f.w, hdr_r, w)
    h:add(f.w_bytes, hdr_r, w / 256.0)
    area:append_text(string.format(": %d of %d hops written", nhop, maxhop))
    if bit32.band(flags, C.flag_w_valid) ~= 0 then
        area:append_text(string.format(", W %.2f bytes", w / 256.0))
    end
    if ver ~= C.tlm_ver or maxhop ~= C.tlm_maxhop or nhop > maxhop then
        area:add_proto_expert_info(e_bad_tlm)
    end
    local multi = hpcc.prefs.multi
    for i = 0, C.tlm_hops - 1 do
        local r = tvb(off + 8 + 8 * i, 8)
        local w = r:uint64()
        local qlen, txb, ts, rate = field_of(w, C.hop_qlen), field_of(w, C.hop_bytes),
            field_of(w, C.hop_ts), field_of(w, C.hop_rate)
        local hi = area:add(f.hop, r)
        local written = i < nhop
        if written then
            hi:set_text(string.format("Hop %d: qlen %d B, tx bytes %d B, ts %d ns, %s", i,
                qlen * C.qlen_unit * multi, txb * C.bytes_unit * multi, ts, rate_names[rate]))
        else
            -- A slot past nhop holds no switch's stamp: its raw fields only,
            -- no bytes or rate derived from them.
            hi:set_text(string.format("Hop %d (not written)", i))
        end
        hi:add(f.hop_index, r, i):set_generated()
        hi:add(f.hop_written, r, written):set_generated()
        hi:add(f.qlen, r, qlen)
        hi:add(f.txb, r, txb)
        hi:add(f.ts, r, ts)
        hi:add(f.rate, r, rate)
        if written then
            hi:add(f.qlen_bytes, r, UInt64.new(qlen * C.qlen_unit * multi)):set_generated()
            hi:add(f.txb_bytes, r, UInt64.new(txb * C.bytes_unit * multi)):set_generated()
            if C.rate_gbps[rate] then
                hi:add(f.rate_gbps, r, C.rate_gbps[rate]):set_generated()
            end
        end
    end
    if named then
        -- InfiniBand shows everything after the BTH of an unknown opcode as
        -- vendor data: the ICRC is the last 4 bytes (least significant first).
        local e = tvb:len() - C.icrc_len
        root:add_le(f.icrc, tvb(e, C.icrc_len))
    end
    pinfo.cols.info:append(string.format(" [TLM %d/%d hops]", nhop, maxhop))
end

register_postdissector(hpcc)
