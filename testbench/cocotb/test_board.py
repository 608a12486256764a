"""Co-simulation of the ECPIX-5 board top (`boards/ecpix5/fpga.v` with the
emitted board core `ecpix5_core`) on Icarus Verilog (cocotb 2).

What runs is the board's own Verilog: fpga.v, the core, and, for the two
kinds of primitives it instantiates, behavioural models (the PLL,
`ecp5_pll_sim.v`; the DDR I/O registers, `ecp5_ddr_sim.v`). The only
change from the bitstream's netlist is one parameter: the UART runs at
f(core) / 2 instead of 1 Mbaud (2 cycles a bit, the bridge's least), so
that a register access takes 320 core cycles, not 7 000, and the 655 us
hold of the reset after lock is skipped (the hold counter is set near
its end once the lock is seen).

The host and the wire are models someone else wrote, or the project's
own host script:
- the host: cocotbext-uart's UartSource/UartSink on `uart_rx`/`uart_tx`,
  requests framed and responses parsed by `boards/ecpix5/hpcc_uart.py`,
  running the bring-up of `hpccnic board-setup` (`BOARD_SETUP`, JSON: the
  driver's register accesses from the Rust driver model, each with the
  answer it must get) and the host-memory layout it gives;
- the wire: cocotbext-eth's RgmiiSink on the transmit pins and
  RgmiiSource on the receive pins, joined by this test into a loop (the
  board sends to itself: QP 2 and QP 3 are each other's peer); every
  frame that crosses it is kept for `hpccnic rx-replay`
  (scripts/board_sim.sh replays them through the golden model's receive
  path).

Checks, in order (with BOARD_QUICK=1, as `make test` runs it: 1, a
register reads, 4's UART requests and 5; `make board-sim` runs them all):
1. the PLL never locks: no answer on the UART, `eth_rst_n` low, LD5 and
   LD6 dark; then it locks and the board leaves reset; `CAPS` gives the
   board core's parameters (16 flows, 8 work requests, 4 CQs, 2 hops);
2. bring-up: every access gets the answer the driver model expects (ID,
   VERSION, the core's globals, the completion queue, both flows, COMMIT);
3. a WRITE of 300 bytes from host memory to host memory through the
   wire (MTU 256: two packets and their ACKs): its completion (tag, OK,
   300 bytes, flow 2), and every destination byte equal to its source,
   the bytes around it untouched, all read back over the UART;
   and a copy of the first frame with an error on `rx_ctl` before it:
   counted by the MAC (`errors`), dropped by the NIC (`RxParseStats
   .bad_fcs`), the WRITE unharmed;
4. bad UART requests: one with a bad CRC is answered BAD_CRC and not
   executed; a truncated one gets no answer; both are counted by the
   bridge's STATS and ports;
5. every board counter (STATS pages 1-6: host memory, FIFOs, MAC, lock
   losses; three clock domains) read over the UART equals its port, an
   index past a page answers DECERR (the quick run first sends a frame
   with an error on rx_ctl and a good one, so the receive pages count).

Run by scripts/cocotb.sh (quick, part of `make test`) and
scripts/board_sim.sh (`make board-sim`):
    BOARD_QUICK=0 TOP=ecpix5_core VERILOG=build/verilog/ecpix5_core.v \\
    BOARD_SETUP=build/cocotb/board-setup.json HEADER=include/hpcc_nic.h \\
    python3 testbench/cocotb/test_board.py
"""

import json
import logging
import os
import random
import re
import struct
import sys
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer, with_timeout
from cocotbext.eth import GmiiFrame, RgmiiSink, RgmiiSource
from cocotbext.uart import UartSink, UartSource

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "boards" / "ecpix5"))
import hpcc_uart as proto  # noqa: E402

SEED = int(os.environ.get("BOARD_SEED", "20261128"))
CORE_PS = 24000            # CLKOS2: 500 MHz / 12
CLKS_PER_BIT = 2          # the bridge's least
BAUD = 1_000_000_000 // (CLKS_PER_BIT * CORE_PS // 1000)   # bit time 48 ns exactly
UART_TIMEOUT = 400         # core cycles (a character is 20)
# LockReset's hold (2^16 oscillator cycles): skipped once the lock is seen.
HOLD = 1 << 16
LEN = 300
# BOARD_QUICK=1 (scripts/cocotb.sh, `make test`): the PLL, the reset, a
# register read and the bad UART requests only; `make board-sim` runs all.
QUICK = os.environ.get("BOARD_QUICK", "0") == "1"


def header_constants(path):
    c = {}
    for line in Path(path).read_text().splitlines():
        m = re.match(r"#define (HPCC_NIC_\w+) (0x[0-9A-F]+|[0-9]+)u\b", line)
        if m:
            c[m.group(1)] = int(m.group(2), 0)
    return c


H = header_constants(os.environ.get("HEADER", str(ROOT / "include" / "hpcc_nic.h")))


class Host:
    """The host at the end of the UART: one request at a time."""

    def __init__(self, dut):
        self.dut = dut
        self.src = UartSource(dut.uart_rx, baud=BAUD, bits=8, stop_bits=1)
        self.sink = UartSink(dut.uart_tx, baud=BAUD, bits=8, stop_bits=1)
        self.src.log.setLevel(logging.WARNING)
        self.sink.log.setLevel(logging.WARNING)
        self.requests = 0

    async def _read_exact(self, n):
        buf = bytearray()
        while len(buf) < n:
            buf += await self.sink.read(1)
        return bytes(buf)

    async def transact(self, req, timeout_us=400):
        await self.src.write(req)
        resp = await with_timeout(self._read_exact(proto.RESP_LEN), timeout_us, "us")
        return proto.parse_response(resp)

    async def silence(self, cycles):
        """No byte comes back within `cycles` core cycles of the last byte
        sent."""
        await self.src.wait()
        await ClockCycles(self.dut.core.clk, cycles)
        assert self.sink.count() == 0, f"an answer: {self.sink.read_nowait().hex()}"

    async def read(self, addr, expect=proto.STATUS_OKAY):
        st, v = await self.transact(proto.request(proto.CMD_READ, addr))
        assert st == expect, f"read {addr:#06x}: status {st:#x}, not {expect:#x}"
        self.requests += 1
        return v

    async def write(self, addr, value, expect=proto.STATUS_OKAY):
        st, _ = await self.transact(proto.request(proto.CMD_WRITE, addr, value))
        assert st == expect, f"write {addr:#06x}: status {st:#x}, not {expect:#x}"
        self.requests += 1

    async def stats(self, name):
        st, v = await self.transact(proto.request(proto.CMD_STATS, proto.STATS_NAMES.index(name)))
        assert st == proto.STATUS_OKAY
        self.requests += 1
        return v

    def mem(self, a):
        return proto.HOST_MEM_BASE + a


class Wire:
    """RgmiiSink on the transmit pins → RgmiiSource on the receive pins;
    every frame kept. `poison` frames go first with an error on rx_ctl
    (a copy of the next real frame, one byte flagged)."""

    def __init__(self, dut):
        self.sink = RgmiiSink(dut.rgmii_txd, dut.rgmii_tx_ctl, dut.rgmii_tx_clk)
        self.source = RgmiiSource(dut.rgmii_rxd, dut.rgmii_rx_ctl, dut.rgmii_rx_clk)
        self.frames = []
        self.poison = 0
        cocotb.start_soon(self._run())

    async def _run(self):
        while True:
            f = await self.sink.recv()
            assert f.check_fcs(), "a frame from the board with a bad FCS"
            assert not (f.error and any(f.error)), "an error on tx_ctl"
            payload = bytes(f.get_payload())
            self.frames.append(payload)
            if self.poison:
                self.poison -= 1
                bad = GmiiFrame.from_payload(payload)
                bad.normalize()
                bad.error[30] = 1
                await self.source.send(bad)
            await self.source.send(GmiiFrame.from_payload(payload))


def write_pcap(path, frames):
    """Ethernet frames without FCS, libpcap format (for rx-replay)."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", i, 0, len(fr), len(fr)))
            f.write(fr)


async def start_clocks(dut):
    dut.rst_n.value = 1
    dut.uart_rx.value = 1
    dut.rgmii_rxd.value = 0
    dut.rgmii_rx_ctl.value = 0
    cocotb.start_soon(Clock(dut.clk100, 10000, unit="ps").start())
    cocotb.start_soon(Clock(dut.rgmii_rx_clk, 8016, unit="ps").start())


def leds(dut):
    """(LD5 lock, LD6 running) lit? The LEDs are active low."""
    v = int(dut.led.value)
    return (v & 1) == 0, (v & 2) == 0


@cocotb.test()
async def board(dut):
    rng = random.Random(SEED)
    setup = json.loads(Path(os.environ["BOARD_SETUP"]).read_text())
    await start_clocks(dut)
    host = Host(dut)

    # ---- 1. The PLL never locks: the board stays in reset.
    dut.pll.lock_allowed.value = 0
    await ClockCycles(dut.clk100, 300)
    await host.src.write(proto.request(proto.CMD_READ, H["HPCC_NIC_REG_ID"]))
    await host.silence(UART_TIMEOUT + 100)
    assert leds(dut) == (False, False), "LEDs lit without lock"
    assert int(dut.eth_rst_n.value) == 0, "the PHY out of reset without lock"
    assert int(dut.core.running.value) == 0
    dut._log.info("PLL not locked: no UART answer, PHY and core held in reset")

    # It locks: reset released 2^16 oscillator cycles (655 us) later.
    # The hold is skipped here (LockReset's own test times it exactly):
    # once the lock is seen, its counter is set 8 cycles short of the end.
    dut.pll.lock_allowed.value = 1
    lock_reset = dut.core.core.lock_reset
    await with_timeout(RisingEdge(lock_reset.locked), 20, "us")
    await RisingEdge(dut.clk100)
    assert int(lock_reset.rst.value) == 1
    lock_reset.held.q.value = HOLD - 8
    await with_timeout(RisingEdge(dut.core.running), 2, "us")
    await Timer(1, "ns")
    assert leds(dut) == (True, True) and int(dut.eth_rst_n.value) == 1
    dut._log.info("PLL locked: out of reset after the hold")
    wire = Wire(dut)

    # ---- 2. Bring-up, as the driver model wrote it (the host script's
    # procedure over the simulated line).
    # The board core's parameters as the host sees them (CAPS):
    # NicBoard1g<4, 3, 7, 10, 2, 4, 4, 2> = 16 flows, 8 work requests a
    # flow, 4 completion queues, rings up to 2^15, a CC of 2 hops.
    caps = await host.read(H["HPCC_NIC_REG_CAPS"])
    assert caps == 0x2_F234, f"CAPS 0x{caps:08x}"
    if QUICK:
        r = setup["regs"]
        assert await host.read(r["id"]) == H["HPCC_NIC_ID"]
        await host.write(r["scratch"], 0x11111111)
    else:
        n = await drive(host, proto.proc_setup(setup), dut, "bring-up")
        dut._log.info("bring-up: %d register accesses answered as the driver model expects", n)
        assert len(setup["flows"]) == 2, "the loopback setup"
        await write_through_the_wire(dut, host, wire, setup, rng)

    # ---- 4. Bad UART requests: a bad CRC is answered BAD_CRC and not
    # executed, a truncated one gets no answer; both counted.
    scratch = setup["regs"]["scratch"]
    await host.write(scratch, 0x11111111)
    req = bytearray(proto.request(proto.CMD_WRITE, scratch, 0x22222222))
    req[-1] ^= 0x01
    st, _ = await host.transact(bytes(req))
    assert st == proto.STATUS_BAD_CRC, st
    await host.src.write(proto.request(proto.CMD_WRITE, scratch, 0x33333333)[:5])
    await host.silence(UART_TIMEOUT + 100)
    assert await host.read(scratch) == 0x11111111, "a bad request was executed"
    assert await host.stats("bad_crc") == 1
    assert await host.stats("truncated") == 1
    # Every request answered is counted once, this one not yet (it counts
    # once its answer has left); the one sent while the PLL was unlocked
    # was never received.
    answered = host.requests
    requests = await host.stats("requests")
    assert requests == answered, (requests, answered)
    assert int(dut.core.m_stats_bridge_bad_crc.value) == 1
    assert int(dut.core.m_stats_bridge_truncated.value) == 1
    dut._log.info("UART: a bad CRC answered BAD_CRC, a truncated request dropped, both counted")

    await board_pages(dut, host, wire)

    if not QUICK:
        out = Path(os.environ["WIRE_PCAP"])
        write_pcap(out, wire.frames)
        dut._log.info("%d frames of the wire written to %s", len(wire.frames), out)


# The board core's counter ports of each STATS page (page 0, the
# bridge's, is checked above).
PAGE_PORTS = {
    "HOST_MEM": "m_stats_mem_",
    "TX_FIFO": "m_stats_tx_fifo_",
    "RX_FIFO": "m_stats_rx_fifo_",
    "MAC_TX": "m_stats_mac_tx_",
    "MAC_RX": "m_stats_mac_rx_",
    "RESET": "",
}


async def board_pages(dut, host, wire):
    """5. Every board counter read over the UART (STATS pages 1-6, from
    three clocks) equals its port; one past each page, and a page past
    the last, answer DECERR. In the quick run a good frame and one with
    an error on rx_ctl are sent first, so the receive pages count."""
    if QUICK:
        junk = b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x01" + b"\x88\xb5" + bytes(range(46))
        bad = GmiiFrame.from_payload(junk)
        bad.normalize()
        bad.error[20] = 1
        await wire.source.send(bad)
        await wire.source.send(GmiiFrame.from_payload(junk))
    await ClockCycles(dut.core.clk, 2000)
    got = {}
    for p, (page, names) in enumerate(proto.STATS_PAGES):
        if page == "BRIDGE":
            continue
        for k, name in enumerate(names):
            st, v = await host.transact(proto.request(proto.CMD_STATS, (p << 8) | k))
            host.requests += 1
            port = int(getattr(dut.core, PAGE_PORTS[page] + name).value)
            assert (st, v) == (proto.STATUS_OKAY, port), f"{page}.{name}: {(st, v)}, port {port}"
            got[f"{page}.{name}"] = v
        st, v = await host.transact(proto.request(proto.CMD_STATS, (p << 8) | len(names)))
        host.requests += 1
        assert (st, v) == (proto.STATUS_DECERR, 0), f"{page} past its last: {(st, v)}"
    st, v = await host.transact(proto.request(proto.CMD_STATS, len(proto.STATS_PAGES) << 8))
    host.requests += 1
    assert (st, v) == (proto.STATUS_DECERR, 0), f"a page past the last: {(st, v)}"
    assert got["MAC_RX.errors"] == 1, got
    assert got["MAC_RX.frames"] >= 1 and got["RX_FIFO.frames"] >= got["MAC_RX.frames"], got
    assert got["MAC_TX.frames"] == len(wire.frames), (got, len(wire.frames))
    assert got["RESET.lock_losses"] == 0, got
    dut._log.info("board counters over the UART equal their ports: %s",
                  {k: v for k, v in got.items() if v})


async def drive(host, proc, dut=None, what=""):
    """Run one of the host script's procedures over the simulated line."""
    n = 0
    try:
        req = next(proc)
        while True:
            if req[0] == "r":
                res = await host.transact(proto.request(proto.CMD_READ, req[1]))
            else:
                res = await host.transact(proto.request(proto.CMD_WRITE, req[1], req[2]))
            host.requests += 1
            n += 1
            if dut is not None and n % 16 == 0:
                dut._log.info("%s: %d accesses", what, n)
            req = proc.send(res)
    except StopIteration as e:
        return e.value


async def write_through_the_wire(dut, host, wire, setup, rng):
    """3. A WRITE of LEN bytes from QP 2 to QP 3 through the wire (MTU
    256: two packets, and ACKs), the first frame preceded by a copy with
    an error on rx_ctl."""
    flow = setup["flows"][0]
    src, dst = 0x0100, 0x0A00
    data = bytes(rng.getrandbits(8) for _ in range(LEN))
    await drive(host, proto.proc_mem_write(src, data))
    # The words around the destination hold a pattern that must survive.
    before, after = b"\xa5" * 8, b"\x5a" * 8
    await drive(host, proto.proc_mem_write(dst - 8, before))
    await drive(host, proto.proc_mem_write(dst + LEN, after))
    tag = 0x7A61
    wire.poison = 1
    await drive(host, proto.proc_post(setup, flow, 0, setup["opcodes"]["write"], src, dst, LEN, tag))
    c = await drive(host, proto.proc_reap(setup, 0, tries=200))
    assert c is not None, "no completion"
    assert (c["tag"], c["status"], c["bytes"], c["flow"]) == (tag, 0, LEN, flow["flow"]), c
    dut._log.info("completion: tag %#x, OK, %d bytes, flow %d", c["tag"], c["bytes"], c["flow"])
    got = await drive(host, proto.proc_mem_read(dst - 8, LEN + 16))
    assert got[8:8 + LEN] == data, "the destination differs from the source"
    assert got[:8] == before and got[8 + LEN:] == after, "a byte around the destination written"
    dut._log.info("WRITE of %d bytes landed byte-exact, the bytes around it untouched", LEN)
    # The frame with an error on rx_ctl: counted by the MAC, dropped by
    # the NIC as a bad frame; every other frame of the wire parsed.
    assert int(dut.core.m_stats_mac_rx_errors.value) == 1
    assert await host.read(H["HPCC_NIC_STAT_RX_PARSE_BAD_FCS"]) == 1
    ok = await host.read(H["HPCC_NIC_STAT_RX_PARSE_OK"])
    assert ok == len(wire.frames), f"{ok} frames parsed, {len(wire.frames)} on the wire"
    assert await host.read(H["HPCC_NIC_STAT_RX_DISPATCH_DUP"]) == 0
    assert int(dut.core.m_stats_rx_fifo_dropped.value) == 0
    dut._log.info("an error on rx_ctl: counted by the MAC, dropped by the NIC; %d frames on the wire",
                  len(wire.frames))


def main():
    from icarus_run import run
    from test_rgmii import with_models

    top = "fpga"
    build = Path(os.environ.get("BUILD_DIR", "build/cocotb/ecpix5_core")).resolve()
    core = with_models(os.environ["VERILOG"], build)
    sim = build / "board_sim.v"
    sim.write_text(core.read_text() + "\n" + (ROOT / "boards" / "ecpix5" / "fpga.v").read_text()
                   + "\n" + (Path(__file__).parent / "ecp5_pll_sim.v").read_text())
    os.environ["VERILOG"] = str(sim)
    setup = Path(os.environ["BOARD_SETUP"]).resolve()
    os.environ["BOARD_SETUP"] = str(setup)
    os.environ["HEADER"] = str(Path(os.environ.get("HEADER", ROOT / "include" / "hpcc_nic.h")).resolve())
    os.environ["WIRE_PCAP"] = str(build / "wire.pcap")
    summary = ("the board top, quick: held in reset while the PLL is unlocked, a register read "
               "and bad UART requests counted" if QUICK else
               "the board top: PLL lock, bring-up over the UART, a WRITE looped through the RGMII "
               "pins byte-exact, rx_ctl error and bad UART requests counted")
    run(
        "test_board",
        top,
        summary,
        extra_env={
            "BOARD_SETUP": str(setup),
            "HEADER": str(Path(os.environ.get("HEADER", ROOT / "include" / "hpcc_nic.h")).resolve()),
            "WIRE_PCAP": str(build / "wire.pcap"),
            "BOARD_QUICK": "1" if QUICK else "0",
        },
        parameters={"BAUD": BAUD, "UART_TIMEOUT": UART_TIMEOUT},
    )


if __name__ == "__main__":
    main()
