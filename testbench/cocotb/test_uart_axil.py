"""Independent-peer check of the UART register bridge (`uart_axil`) on
the emitted Verilog (Icarus Verilog, cocotb 2).

Two models someone else wrote sit on its two sides:
- cocotbext-uart's UartSource and UartSink on `uart_rx` / `uart_tx`, with
  a 50 MHz clock: at 5 Mbaud (`cfg_clks_per_bit` = 10) in `make test`,
  at the ECPIX-5's 1 Mbaud (50) with COCOTB_FULL=1 (`make test-full`) or
  UART_CLKS_PER_BIT=50; the bridge's idle timeout is 40 bit times;
- cocotbext-axi's AxiLiteRam on the `m_axil_*` master port, with random
  pauses on its channels.

The requests are built and the responses parsed by the host script's own
framing functions (`boards/ecpix5/hpcc_uart.py`), so the script is
checked against the RTL too. It runs:
- random WRITEs and READs: every WRITE lands in the RAM (and only it),
  every READ returns what the RAM holds, every status is OKAY;
- requests with one bit flipped after the command: answered BAD_CRC,
  nothing accessed;
- a truncated request and an unknown command: no response within the
  idle timeout and more, nothing accessed;
- STATS: the bridge's counters (and its `m_stats_*` ports) equal the
  tally; an index past the last counter answers DECERR; the first and
  last counters of every board page (`STATS_PAGES`) come from the
  `ext_stat_*` port (a board model here), one past them answers DECERR.

Run by scripts/cocotb.sh (part of `make test`):
    TOP=uart_axil VERILOG=build/verilog/uart_axil.v python3 testbench/cocotb/test_uart_axil.py
"""

import os
import random
import sys
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotbext.axi import AxiLiteBus, AxiLiteRam
from cocotbext.uart import UartSink, UartSource

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "boards" / "ecpix5"))
import hpcc_uart as proto  # noqa: E402

SEED = int(os.environ.get("UART_SEED", "20261128"))
ROUNDS = int(os.environ.get("UART_ROUNDS", "60"))
CLK_NS = 20
# The bit time in clock cycles: the logic is the same at any bit time, and
# the simulation's length is proportional to it (138 s of Icarus at 50).
CLKS_PER_BIT = int(os.environ.get("UART_CLKS_PER_BIT", "10"))
BAUD = 1_000_000_000 // (CLK_NS * CLKS_PER_BIT)
TIMEOUT_CYCLES = 40 * CLKS_PER_BIT


def pauses(rng, p):
    while True:
        yield rng.random() < p


async def read_exact(sink, n):
    # UartSink.read(n) raises when fewer than n bytes are queued yet: take
    # them one at a time.
    buf = bytearray()
    while len(buf) < n:
        buf += await sink.read(1)
    return bytes(buf)


async def transact(src, sink, req):
    await src.write(req)
    resp = await with_timeout(read_exact(sink, proto.RESP_LEN), 200, "us")
    return proto.parse_response(resp)


async def expect_silence(dut, src, sink):
    """No response byte within the idle timeout and two characters more,
    counted from the last byte sent (UartSource.write only queues)."""
    await src.wait()
    await ClockCycles(dut.clock, TIMEOUT_CYCLES + 40 * CLKS_PER_BIT)
    assert sink.count() == 0, f"a response to a dropped request: {sink.read_nowait().hex()}"


@cocotb.test()
async def bridge_against_cocotbext_uart_and_axil_ram(dut):
    rng = random.Random(SEED)
    cocotb.start_soon(Clock(dut.clock, CLK_NS, unit="ns").start())
    dut.reset.value = 1
    dut.uart_rx.value = 1
    dut.cfg_clks_per_bit.value = CLKS_PER_BIT
    dut.cfg_timeout.value = TIMEOUT_CYCLES
    dut.ext_stat_hit.value = 0
    dut.ext_stat_data.value = 0
    cocotb.start_soon(board_pages(dut))
    ram = AxiLiteRam(AxiLiteBus.from_prefix(dut, "m_axil"), dut.clock, dut.reset, size=2**16)
    ram.write_if.aw_channel.set_pause_generator(pauses(rng, 0.3))
    ram.write_if.w_channel.set_pause_generator(pauses(rng, 0.3))
    ram.write_if.b_channel.set_pause_generator(pauses(rng, 0.3))
    ram.read_if.ar_channel.set_pause_generator(pauses(rng, 0.3))
    ram.read_if.r_channel.set_pause_generator(pauses(rng, 0.3))
    src = UartSource(dut.uart_rx, baud=BAUD, bits=8, stop_bits=1)
    sink = UartSink(dut.uart_tx, baud=BAUD, bits=8, stop_bits=1)
    await ClockCycles(dut.clock, 8)
    dut.reset.value = 0
    await ClockCycles(dut.clock, 8)

    model = {}
    tally = {n: 0 for n in proto.STATS_NAMES}

    def word(addr):
        return int.from_bytes(ram.read(addr, 4), "little")

    for _ in range(ROUNDS):
        op = rng.random()
        addr = rng.randrange(0, 0x10000, 4)
        if op < 0.4:
            v = rng.getrandbits(32)
            st, val = await transact(src, sink, proto.request(proto.CMD_WRITE, addr, v))
            assert (st, val) == (proto.STATUS_OKAY, 0), (st, val)
            model[addr] = v
            assert word(addr) == v, f"WRITE {addr:#06x}: RAM holds {word(addr):#x}, not {v:#x}"
            tally["requests"] += 1
        elif op < 0.75:
            if model and rng.random() < 0.7:
                addr = rng.choice(list(model))
            st, val = await transact(src, sink, proto.request(proto.CMD_READ, addr))
            assert st == proto.STATUS_OKAY, st
            assert val == model.get(addr, 0), f"READ {addr:#06x}: {val:#x}, not {model.get(addr, 0):#x}"
            tally["requests"] += 1
        elif op < 0.85:
            wr = rng.random() < 0.5
            req = bytearray(proto.request(proto.CMD_WRITE, addr, rng.getrandbits(32)) if wr
                            else proto.request(proto.CMD_READ, addr))
            k = rng.randrange(2, len(req))
            req[k] ^= 1 << rng.randrange(8)
            before = dict(model)
            st, val = await transact(src, sink, bytes(req))
            assert (st, val) == (proto.STATUS_BAD_CRC, 0), (st, val)
            tally["bad_crc"] += 1
            assert all(word(a) == v for a, v in before.items())
        elif op < 0.92:
            req = proto.request(proto.CMD_WRITE, addr, rng.getrandbits(32))
            await src.write(req[: rng.randrange(1, proto.WRITE_LEN)])
            await expect_silence(dut, src, sink)
            assert word(addr) == model.get(addr, 0), "a truncated WRITE wrote"
            tally["truncated"] += 1
        else:
            req = bytearray(proto.request(proto.CMD_WRITE, addr, rng.getrandbits(32)))
            req[1] = rng.choice([c for c in range(256) if c not in (1, 2, 3)])
            await src.write(bytes(req))
            await expect_silence(dut, src, sink)
            assert word(addr) == model.get(addr, 0), "an unknown command wrote"
            tally["bad_cmd"] += 1

    for k, name in enumerate(proto.STATS_NAMES):
        st, val = await transact(src, sink, proto.request(proto.CMD_STATS, k))
        assert st == proto.STATUS_OKAY
        assert val == tally[name], f"STATS {name}: {val}, tally {tally[name]}"
        tally["requests"] += 1
    st, val = await transact(src, sink, proto.request(proto.CMD_STATS, len(proto.STATS_NAMES)))
    assert (st, val) == (proto.STATUS_DECERR, 0), (st, val)
    tally["requests"] += 1
    # Pages past 0 come from `ext_stat_*`: here a board model that answers
    # the pages of proto.STATS_PAGES, a value made from the index, a
    # cycle after the index.
    for p, (page, names) in enumerate(proto.STATS_PAGES[1:], start=1):
        for k in (0, len(names) - 1, len(names)):
            idx = (p << 8) | k
            st, val = await transact(src, sink, proto.request(proto.CMD_STATS, idx))
            want = (proto.STATUS_OKAY, board_stat(idx)) if k < len(names) else (proto.STATUS_DECERR, 0)
            assert (st, val) == want, f"STATS {idx:#06x}: {(st, val)}, not {want}"
            tally["requests"] += 1
    await RisingEdge(dut.clock)
    for name in proto.STATS_NAMES:
        got = int(getattr(dut, f"m_stats_{name}").value)
        assert got == tally[name], f"m_stats_{name} = {got}, tally {tally[name]}"
    dut._log.info("tally %s", tally)


def board_stat(idx):
    return ((idx * 0x9E3779B1) ^ 0xB0A2D000) & 0xFFFFFFFF


async def board_pages(dut):
    """The board side of `ext_stat_*`, registered."""
    while True:
        await RisingEdge(dut.clock)
        idx = int(dut.ext_stat_index.value)
        page, k = idx >> 8, idx & 0xFF
        hit = 1 <= page < len(proto.STATS_PAGES) and k < len(proto.STATS_PAGES[page][1])
        dut.ext_stat_hit.value = int(hit)
        dut.ext_stat_data.value = board_stat(idx)


def main():
    from icarus_run import run

    run("test_uart_axil", os.environ["TOP"],
        "cocotbext-uart UartSource/UartSink and cocotbext-axi AxiLiteRam around the bridge, every check passed")


if __name__ == "__main__":
    main()
