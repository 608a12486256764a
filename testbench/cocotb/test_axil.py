"""Independent-peer check of the AXI4-Lite slave of `hpcc_nic` on the
emitted Verilog (Icarus Verilog, cocotb 2).

cocotbext-axi's AxiLiteMaster (written by someone else, from the AMBA
spec) binds by prefix to the flat `s_axil_*` ports of the `hpcc_nic`
wrapper and drives the register map as `docs/driver.md` documents it,
with the addresses taken from the generated C header
(`include/hpcc_nic.h`), with random pauses on all five channels:

- ID, VERSION, CAPS; SCRATCH written and read back many times;
- writes with partial `wstrb` (single bytes and half-words at their byte
  addresses, cocotbext-axi's narrow writes) and reads at byte offsets;
- every documented error: a write to a read-only register (ID, CAPS, a
  counter, a CQ's PI) and a misaligned write (driven by hand, strobes
  below the byte offset) answer SLVERR, an unmapped address (a hole, the
  high word of a 32-bit core register, a flow or CQ the NIC does not
  have) answers DECERR, a doorbell of an inactive flow and one beyond its
  ring SLVERR, a COMMIT of a flow out of range SLVERR, a CQ consumer index
  past its producer index SLVERR; nothing refused changes anything;
- the core window (a register's value read back), the staged send-queue
  registers (alignment and clamping), a CQ's registers, a COMMIT and a
  good doorbell (read back as consumer << 16 | producer);
- the host interface's own counters afterwards: reads, writes, SLVERR,
  DECERR and read-only writes equal the accesses made;
- the full reset (CONTROL bit 1) last: answered after its sweep, every
  register dirtied before reads its power-up value 0 after, the host
  counters restarted.

Run by scripts/cocotb.sh (part of `make test`):
    TOP=hpcc_nic VERILOG=build/verilog/hpcc_nic.v HEADER=include/hpcc_nic.h \\
        python3 testbench/cocotb/test_axil.py
"""

import os
import random
import re
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiLiteBus, AxiLiteMaster
from cocotbext.axi.constants import AxiResp

SEED = int(os.environ.get("AXIL_SEED", "20261125"))
ROUNDS = int(os.environ.get("AXIL_ROUNDS", "200"))


def header_constants(path):
    """Every `#define NAME 0x..u` / `NNu` of the generated header."""
    c = {}
    for line in Path(path).read_text().splitlines():
        m = re.match(r"#define (HPCC_NIC_\w+) (0x[0-9A-F]+|[0-9]+)u\b", line)
        if m:
            c[m.group(1)] = int(m.group(2), 0)
    return c


H = header_constants(os.environ.get("HEADER", "include/hpcc_nic.h"))


def reg(name):
    return H["HPCC_NIC_REG_" + name]


def core_lo(r):
    return reg("CORE") + H["HPCC_NIC_REG_CORE_STRIDE"] * H["HPCC_NIC_CORE_" + r]


def cq_at(c, r):
    return reg("CQ") + H["HPCC_NIC_REG_CQ_STRIDE"] * c + H["HPCC_NIC_CQ_" + r]


def stat(page, field):
    return H[f"HPCC_NIC_STAT_{page}_{field}"]


def pauses(rng, p):
    while True:
        yield rng.random() < p


class Tally:
    """The accesses made and their answers, to check the counters."""

    def __init__(self):
        self.reads = self.writes = self.slverr = self.decerr = self.ro = 0

    def count(self, write, resp, ro=False):
        if write:
            self.writes += 1
        else:
            self.reads += 1
        if resp == AxiResp.SLVERR:
            self.slverr += 1
        if resp == AxiResp.DECERR:
            self.decerr += 1
        if ro:
            self.ro += 1


async def misaligned_write(dut, addr, data, strb):
    """A write the master would never make: strobes below the byte offset.
    Driven by hand on the raw signals (a handshake is sampled at the
    rising edge, as cocotbext-axi samples it); returns BRESP."""
    dut.s_axil_awaddr.value = addr
    dut.s_axil_awprot.value = 0
    dut.s_axil_wdata.value = data
    dut.s_axil_wstrb.value = strb
    dut.s_axil_awvalid.value = 1
    dut.s_axil_wvalid.value = 1
    dut.s_axil_bready.value = 1
    aw = w = False
    while not (aw and w):
        await RisingEdge(dut.clk)
        if int(dut.s_axil_awready.value) == 1:
            aw = True
            dut.s_axil_awvalid.value = 0
        if int(dut.s_axil_wready.value) == 1:
            w = True
            dut.s_axil_wvalid.value = 0
    while True:
        await RisingEdge(dut.clk)
        if int(dut.s_axil_bvalid.value) == 1:
            resp = int(dut.s_axil_bresp.value)
            break
    dut.s_axil_bready.value = 0
    return resp


@cocotb.test()
async def register_map(dut):
    rng = random.Random(SEED)
    cocotb.start_soon(Clock(dut.clk, 6400, unit="ps").start())
    # Every input that is not the register port: idle, the DMA engine and
    # the MAC always ready.
    for name, v in [
        ("m_axis_read_desc_ready", 1), ("s_axis_h2c_tvalid", 0), ("s_axis_h2c_tdata", 0),
        ("s_axis_h2c_tkeep", 0), ("s_axis_h2c_tlast", 0), ("s_axis_h2c_tuser", 0),
        ("m_axis_write_desc_ready", 1), ("m_axis_c2h_tready", 1), ("m_axis_tx_tready", 1),
        ("s_axis_rx_tvalid", 0), ("s_axis_rx_tdata", 0), ("s_axis_rx_tkeep", 0),
        ("s_axis_rx_tlast", 0), ("s_axis_rx_tuser", 0),
        ("s_axil_awvalid", 0), ("s_axil_wvalid", 0), ("s_axil_arvalid", 0),
        ("s_axil_bready", 0), ("s_axil_rready", 0), ("s_axil_awaddr", 0),
        ("s_axil_wdata", 0), ("s_axil_wstrb", 0), ("s_axil_araddr", 0),
        ("s_axil_awprot", 0), ("s_axil_arprot", 0),
    ]:
        getattr(dut, name).value = v
    dut.rst.value = 1
    for _ in range(4):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    await RisingEdge(dut.clk)
    t = Tally()

    # A misaligned write, by hand, before the master owns the port.
    resp = await misaligned_write(dut, reg("SCRATCH") + 1, 0xFFFFFFFF, 0b0011)
    assert resp == AxiResp.SLVERR, f"misaligned write answered {resp}"
    t.count(True, AxiResp.SLVERR)

    axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
    for ch in (axil.write_if.aw_channel, axil.write_if.w_channel, axil.write_if.b_channel,
               axil.read_if.ar_channel, axil.read_if.r_channel):
        ch.set_pause_generator(pauses(rng, 0.3))

    async def rd(addr, want_resp=AxiResp.OKAY):
        r = await axil.read(addr, 4)
        assert r.resp == want_resp, f"read 0x{addr:04x}: {r.resp}, expected {want_resp}"
        t.count(False, r.resp)
        return int.from_bytes(r.data, "little")

    async def wr(addr, value, want_resp=AxiResp.OKAY, nbytes=4, ro=False):
        r = await axil.write(addr, value.to_bytes(nbytes, "little"))
        assert r.resp == want_resp, f"write 0x{addr:04x}: {r.resp}, expected {want_resp}"
        t.count(True, r.resp, ro)

    # ---- Fixed registers.
    assert await rd(reg("ID")) == H["HPCC_NIC_ID"]
    assert await rd(reg("VERSION")) == H["HPCC_NIC_VERSION"]
    caps = await rd(reg("CAPS"))
    flows, cqs = 1 << (caps & 0xF), 1 << ((caps >> 8) & 0xF)
    assert (caps >> 12) & 0xF == H["HPCC_NIC_MAX_LOG_SIZE"]
    # hpcc_nic's CC module tracks every hop word of a CC event (5).
    assert (caps >> 16) & 0xF == 5, f"CAPS hops {(caps >> 16) & 0xF}"
    assert caps >> 20 == 0, f"CAPS 0x{caps:08x}: bits above 19 set"
    assert await rd(reg("SCRATCH")) == 0, "the misaligned write changed SCRATCH"

    # ---- SCRATCH, full words and partial strobes.
    value = 0
    for _ in range(ROUNDS):
        k = rng.randrange(4)
        if k == 0:
            value = rng.getrandbits(32)
            await wr(reg("SCRATCH"), value)
        elif k == 1:
            lane = rng.randrange(4)
            b = rng.getrandbits(8)
            await wr(reg("SCRATCH") + lane, b, nbytes=1)
            value = (value & ~(0xFF << 8 * lane)) | b << 8 * lane
        elif k == 2:
            lane = rng.choice([0, 2])
            hw = rng.getrandbits(16)
            await wr(reg("SCRATCH") + lane, hw, nbytes=2)
            value = (value & ~(0xFFFF << 8 * lane)) | hw << 8 * lane
        else:
            # A read at a byte offset: the bytes from there to the word's end
            # (cocotbext-axi reads the word and keeps those bytes).
            off = rng.randrange(4)
            r = await axil.read(reg("SCRATCH") + off, 4 - off)
            assert r.resp == AxiResp.OKAY
            t.count(False, r.resp)
            got = int.from_bytes(r.data, "little")
            assert got == value >> 8 * off, f"SCRATCH+{off} 0x{got:08x}, expected 0x{value:08x}"
    # Several writes queued at once (the master keeps them in flight):
    # each answered, applied in order. A read issued meanwhile may pass
    # them (AXI orders nothing between reads and writes): it sees one of
    # the values.
    evs = [axil.init_write(reg("SCRATCH"), (0x1000 + i).to_bytes(4, "little")) for i in range(4)]
    rev = axil.init_read(reg("SCRATCH"), 4)
    for e in evs + [rev]:
        await e.wait()
    for e in evs:
        assert e.data.resp == AxiResp.OKAY
        t.count(True, e.data.resp)
    t.count(False, rev.data.resp)
    seen = int.from_bytes(rev.data.data, "little")
    assert seen in [value] + [0x1000 + i for i in range(4)], hex(seen)
    assert await rd(reg("SCRATCH")) == 0x1003

    # ---- CONTROL: 0 at rest; a soft reset (bit 0) runs
    # SOFT_RESET_CYCLES cycles from its write's answer (a read on its
    # heels may still see it), then reads 0; the register port is not
    # reset by it (this access and the tally go on).
    assert await rd(reg("CONTROL")) == 0
    await wr(reg("CONTROL"), 0)
    assert await rd(reg("CONTROL")) == 0
    await wr(reg("CONTROL"), H["HPCC_NIC_CONTROL_SOFT_RESET"])
    assert await rd(reg("CONTROL")) in (0, 1)
    for _ in range(H["HPCC_NIC_SOFT_RESET_CYCLES"] + 4):
        await RisingEdge(dut.clk)
    assert await rd(reg("CONTROL")) == 0

    # ---- Read-only registers: SLVERR, nothing changes.
    await wr(reg("ID"), 0, AxiResp.SLVERR, ro=True)
    await wr(reg("CAPS"), 0, AxiResp.SLVERR, ro=True)
    await wr(stat("TX", "FRAMES"), 5, AxiResp.SLVERR, ro=True)
    await wr(cq_at(0, "PI"), 5, AxiResp.SLVERR, ro=True)
    assert await rd(reg("ID")) == H["HPCC_NIC_ID"]
    assert await rd(cq_at(0, "PI")) == 0

    # ---- No register: DECERR.
    for addr in [0x0014, 0x0300, core_lo("MTU_LOG2") + 4, reg("SQ_DB") + 4 * flows,
                 reg("CQ") + H["HPCC_NIC_REG_CQ_STRIDE"] * cqs,
                 reg("STATS") + 4 * H["HPCC_NIC_STATS_RX_PARSE_COUNT"], 0xFFFC]:
        await rd(addr, AxiResp.DECERR)
        await wr(addr, 1, AxiResp.DECERR)

    # ---- The core window.
    await wr(core_lo("RTO"), 123456)
    assert await rd(core_lo("RTO")) == 123456
    mac = 0x0200_0000_0A0B
    await wr(core_lo("FLOW_DMAC") + 4, mac >> 32)
    await wr(core_lo("FLOW_DMAC"), mac & 0xFFFFFFFF)
    assert await rd(core_lo("FLOW_DMAC") + 4) == mac >> 32
    assert await rd(core_lo("FLOW_DMAC")) == mac & 0xFFFFFFFF

    # ---- Staged send-queue registers: alignment and clamping.
    await wr(reg("FLOW_SQ_BASE_LO"), 0x12345677)
    assert await rd(reg("FLOW_SQ_BASE_LO")) == 0x12345660
    await wr(reg("FLOW_SQ_LOG_SIZE"), 20)
    assert await rd(reg("FLOW_SQ_LOG_SIZE")) == 15
    await wr(reg("FLOW_SQ_LOG_SIZE"), 2)
    await wr(reg("FLOW_CQ"), 0xFF)
    assert await rd(reg("FLOW_CQ")) == cqs - 1
    await wr(reg("FLOW_CQ"), 1)

    # ---- A doorbell of an inactive flow.
    await wr(reg("SQ_DB") + 4 * 3, 1, AxiResp.SLVERR)
    # A COMMIT of flow 3 (active), then of a flow out of range.
    await wr(core_lo("COMMIT") + 4, 1)
    await wr(core_lo("COMMIT"), 3)
    await wr(core_lo("COMMIT"), flows, AxiResp.SLVERR)
    # Doorbells: beyond the ring (4 entries), then a good one.
    await wr(reg("SQ_DB") + 4 * 3, 5, AxiResp.SLVERR)
    assert await rd(reg("SQ_DB") + 4 * 3) == 0
    await wr(reg("SQ_DB") + 4 * 3, 2)
    db = await rd(reg("SQ_DB") + 4 * 3)
    assert db & 0xFFFF == 2, f"doorbell read 0x{db:08x}"
    # Behind the producer index: refused.
    await wr(reg("SQ_DB") + 4 * 3, 1, AxiResp.SLVERR)

    # ---- A completion queue's registers.
    await wr(cq_at(1, "BASE_LO"), 0xABCDE123)
    assert await rd(cq_at(1, "BASE_LO")) == 0xABCDE120
    await wr(cq_at(1, "LOG_SIZE"), 99)
    assert await rd(cq_at(1, "LOG_SIZE")) == 15
    await wr(cq_at(1, "MOD_TIME"), 0xFFFFFFFF)
    assert await rd(cq_at(1, "MOD_TIME")) == 0xFFFFFF
    await wr(cq_at(1, "CTRL"), 1)
    assert await rd(cq_at(1, "CTRL")) == 1
    await wr(cq_at(1, "CI"), 3, AxiResp.SLVERR)
    assert await rd(cq_at(1, "CI")) == 0
    await wr(cq_at(1, "CI"), 0)

    # ---- The counters of what was done (read before these reads count).
    got = {}
    for f in ["READS", "WRITES", "SLVERR", "DECERR", "RO_WRITES"]:
        got[f] = await rd(stat("HOST_IF", f))
    # Each counter read counts itself once it is answered: the k-th read
    # saw the reads before it.
    assert got["WRITES"] == t.writes, (got, t.writes)
    assert got["SLVERR"] == t.slverr, (got, t.slverr)
    assert got["DECERR"] == t.decerr, (got, t.decerr)
    assert got["RO_WRITES"] == t.ro, (got, t.ro)
    assert got["READS"] == t.reads - 5, (got, t.reads)
    dut._log.info("%d reads, %d writes, %d SLVERR, %d DECERR checked", t.reads, t.writes, t.slverr, t.decerr)

    # ---- CONTROL bit 1, the full reset (last: it restarts the counters).
    # Dirty what the host writes, then write it: the answer comes once the
    # sweep is done, and every register reads its power-up value 0, the
    # CQ emptied, the host counters restarted with the CONTROL write as
    # their one write.
    await wr(reg("SCRATCH"), 0x12345678)
    await wr(core_lo("RTO"), 777)
    await wr(core_lo("FLOW_DMAC") + 4, 0xBEEF)
    await wr(core_lo("COMMIT") + 4, 1)
    await wr(reg("FLOW_SQ_LOG_SIZE"), 5)
    await wr(cq_at(1, "MOD_COUNT"), 9)
    start = get_sim_time("ns")
    await wr(reg("CONTROL"), H["HPCC_NIC_CONTROL_FULL_RESET"])
    took = get_sim_time("ns") - start
    assert await rd(stat("HOST_IF", "WRITES")) == 1
    for a in [reg("SCRATCH"), core_lo("RTO"), core_lo("FLOW_DMAC") + 4, core_lo("COMMIT") + 4,
              reg("FLOW_SQ_LOG_SIZE"), cq_at(1, "BASE_LO"), cq_at(1, "LOG_SIZE"),
              cq_at(1, "MOD_TIME"), cq_at(1, "MOD_COUNT"), cq_at(1, "CTRL"), cq_at(1, "PI"),
              cq_at(1, "CI")]:
        assert await rd(a) == 0, f"0x{a:04x} after the full reset"
    dut._log.info("full reset answered %.0f ns after its write was started", took)


def main():
    from icarus_run import run

    # The simulator runs in the build directory: the header by its full path.
    os.environ["HEADER"] = str(Path(os.environ.get("HEADER", "include/hpcc_nic.h")).resolve())
    run("test_axil", os.environ["TOP"], "AXI4-Lite register map through cocotbext-axi AxiLiteMaster, every check passed")


if __name__ == "__main__":
    main()
