"""Independent-peer check of the board's AXI4-Lite address split
(`axil_split`) on the emitted Verilog (Icarus Verilog, cocotb 2).

cocotbext-axi's models sit on all three ports: an AxiLiteMaster on
`s_axil` (the UART bridge's place), an AxiLiteRam of 0xC000 bytes on
`m_axil_a` (the NIC's registers) and one of 16 KiB on `m_axil_b` (the
host memory), each with random pauses on all five channels. Writes of 1
to 4 bytes (narrow writes: partial `wstrb`) and reads at random
addresses over the whole 16-bit space, several in flight from concurrent
coroutines, must land in the RAM the address selects, at the address
minus `HOST_MEM_BASE` for the second, and nowhere else; every read
returns what that RAM holds. `HOST_MEM_BASE` comes from the host script,
whose copy a spec test checks against `nic_spec::board`.

Run by scripts/cocotb.sh (part of `make test`):
    TOP=axil_split VERILOG=build/verilog/axil_split.v python3 testbench/cocotb/test_axil_split.py
"""

import os
import random
import sys
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiLiteRam
from cocotbext.axi.constants import AxiResp

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "boards" / "ecpix5"))
import hpcc_uart as proto  # noqa: E402

SEED = int(os.environ.get("SPLIT_SEED", "20261128"))
ROUNDS = int(os.environ.get("SPLIT_ROUNDS", "300"))
BASE = proto.HOST_MEM_BASE
MEM = 8 << proto.HOST_MEM_LOG_WORDS


def pauses(rng, p):
    while True:
        yield rng.random() < p


@cocotb.test()
async def split_by_address(dut):
    rng = random.Random(SEED)
    cocotb.start_soon(Clock(dut.clock, 10, unit="ns").start())
    master = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clock, dut.reset)
    ram_a = AxiLiteRam(AxiLiteBus.from_prefix(dut, "m_axil_a"), dut.clock, dut.reset, size=BASE)
    ram_b = AxiLiteRam(AxiLiteBus.from_prefix(dut, "m_axil_b"), dut.clock, dut.reset, size=MEM)
    assert BASE + MEM == 1 << 16
    for ch in (master.write_if.aw_channel, master.write_if.w_channel, master.write_if.b_channel,
               master.read_if.ar_channel, master.read_if.r_channel):
        ch.set_pause_generator(pauses(rng, 0.2))
    for ram in (ram_a, ram_b):
        for ch in (ram.write_if.aw_channel, ram.write_if.w_channel, ram.write_if.b_channel,
                   ram.read_if.ar_channel, ram.read_if.r_channel):
            ch.set_pause_generator(pauses(rng, 0.3))
    dut.reset.value = 1
    await ClockCycles(dut.clock, 4)
    dut.reset.value = 0
    await ClockCycles(dut.clock, 2)

    # The model: one byte array over the whole space.
    model = bytearray(1 << 16)
    tally = {"a_wr": 0, "b_wr": 0, "a_rd": 0, "b_rd": 0, "checked_rd": 0}
    # Per 32-bit word: incremented when a write starts and when it ends.
    gen = {}

    def where(addr):
        return ("a", ram_a, addr) if addr < BASE else ("b", ram_b, addr - BASE)

    def pick_addr():
        r = rng.random()
        if r < 0.2:
            return BASE - 8 + rng.randrange(16)  # around the boundary
        return rng.randrange(1 << 16)

    async def writer(k):
        for _ in range(ROUNDS):
            addr = pick_addr()
            n = rng.randrange(1, 5 - (addr % 4))  # within one 32-bit word
            data = bytes(rng.randrange(256) for _ in range(n))
            word = addr & ~3
            gen[word] = gen.get(word, 0) + 1
            resp = await master.write(addr, data)
            assert resp.resp == AxiResp.OKAY, resp
            model[addr:addr + n] = data
            gen[word] += 1
            tally[where(addr)[0] + "_wr"] += 1

    async def reader(k):
        for _ in range(ROUNDS):
            addr = pick_addr() & ~3
            g = gen.get(addr, 0)
            want = bytes(model[addr:addr + 4])
            resp = await master.read(addr, 4)
            assert resp.resp == AxiResp.OKAY, resp
            # Compared when no write to the word was in flight at any time
            # during the read (an even count that did not change).
            name, ram, local = where(addr)
            if g % 2 == 0 and gen.get(addr, 0) == g:
                assert resp.data == want, (hex(addr), resp.data, want)
                tally["checked_rd"] += 1
            tally[name + "_rd"] += 1

    tasks = [cocotb.start_soon(writer(k)) for k in range(2)] + [cocotb.start_soon(reader(k)) for k in range(2)]
    for t in tasks:
        await t
    await ClockCycles(dut.clock, 10)
    # Every byte of both RAMs is what the model says.
    assert ram_a.read(0, BASE) == bytes(model[:BASE]), "m_axil_a's RAM"
    assert ram_b.read(0, MEM) == bytes(model[BASE:]), "m_axil_b's RAM"
    assert min(tally.values()) > 20, tally
    dut._log.info("tally %s", tally)


def main():
    from icarus_run import run

    run("test_axil_split", os.environ["TOP"],
        "cocotbext-axi AxiLiteMaster and two AxiLiteRams around the split, every check passed")


if __name__ == "__main__":
    main()
