"""Independent-peer check of the clock-crossing frame FIFO on the emitted
Verilog (`axis_async_fifo_tx`: back-pressure; `axis_async_fifo_rx`: drop
when full), with unrelated clocks.

cocotbext-axi's AxiStreamSource (on `s_clk`) and AxiStreamSink (on
`m_clk`), written by someone else from the AXI4-Stream spec, bind by prefix
to the flat `s_axis_*` / `m_axis_*` ports. Checks:

- every frame that comes out is a sent frame, in order, unchanged (bytes,
  `tkeep`, `tuser` on its last beat);
- `_tx` (the core's clock into a MAC's): random gaps and back-pressure;
  every frame of 1 to 4096 bytes arrives, one longer than the FIFO (4096
  bytes, 512 words) is dropped and counted;
- `_rx` (a MAC's clock into the core's): the source never pauses (a MAC
  cannot be stalled) and the sink is slower; frames are dropped whole when
  there is no room, and `frames + dropped` equals the frames sent;
- a reset of either side alone in mid-traffic: what comes out around it is
  sent frames or a frame closed by the bad terminator beat, and the next
  batch arrives whole.

Run by scripts/cocotb.sh (part of `make test`) on Icarus Verilog:
    TOP=axis_async_fifo_tx VERILOG=build/verilog/axis_async_fifo_tx.v \\
        S_PS=10000 M_PS=6400 python3 testbench/cocotb/test_async_fifo.py
"""

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from mac_frames import gaps

TOP = os.environ.get("TOP", "axis_async_fifo_tx")
DROP = TOP.endswith("_rx")
S_PS = int(os.environ.get("S_PS", "10000"))
M_PS = int(os.environ.get("M_PS", "6400"))
SEED = int(os.environ.get("FIFO_SEED", "4242"))
CAP_BYTES = 512 * 8


async def setup(dut):
    cocotb.start_soon(Clock(dut.s_clk, S_PS, unit="ps").start())
    await Timer(1234, unit="ps")
    cocotb.start_soon(Clock(dut.m_clk, M_PS, unit="ps").start())
    dut.s_rst.value = 1
    dut.m_rst.value = 1
    dut.s_axis_tvalid.value = 0
    dut.m_axis_tready.value = 0
    for _ in range(4):
        await RisingEdge(dut.s_clk)
        await RisingEdge(dut.m_clk)
    dut.s_rst.value = 0
    dut.m_rst.value = 0
    for _ in range(12):
        await RisingEdge(dut.s_clk)
        await RisingEdge(dut.m_clk)


def make(rng, tag, length, bad):
    data = bytes([tag & 0xFF, tag >> 8]) + bytes(rng.getrandbits(8) for _ in range(max(0, length - 2)))
    data = data[:length]
    beats = (length + 7) // 8
    tuser = [0] * (8 * (beats - 1)) + [int(bad)] * (length - 8 * (beats - 1))
    return data, AxiStreamFrame(data, tuser=tuser)


def check(got, sent, k_next):
    """`got` is sent[i] for some i >= k_next, or (cut) a prefix of one closed
    by the terminator. Returns (i + 1, whole)."""
    keep = list(got.tkeep)
    data = bytes(b for b, m in zip(got.tdata, keep) if m)
    bad = int(got.tuser[-1])
    for i in range(k_next, len(sent)):
        s_data, s_bad = sent[i]
        if data == s_data and bad == s_bad:
            n = len(s_data)
            assert keep == [1] * n + [0] * (len(keep) - n), f"frame {i}: tkeep"
            return i + 1, True
    # The terminator: one zero byte, tuser set, after whole beats of a prefix.
    assert bad == 1 and data[-1] == 0 and keep[-8:] == [1] + [0] * 7, f"an unknown frame of {len(data)} bytes"
    prefix = data[:-1]
    for i in range(k_next, len(sent)):
        if sent[i][0].startswith(prefix):
            return i + 1, False
    raise AssertionError("a cut frame that matches no sent frame")


@cocotb.test()
async def frames_cross(dut):
    rng = random.Random(SEED)
    await setup(dut)
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.s_clk)
    snk = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.m_clk)
    if not DROP:
        src.set_pause_generator(gaps(rng, 0.2))
    snk.set_pause_generator(gaps(rng, 0.3))
    n = int(os.environ.get("FIFO_FRAMES", "150"))
    sent = []
    for k in range(n):
        length = rng.choice([1, 8, 9, 60, 64, 1514, rng.randint(1, 1514)])
        if not DROP and k % 37 == 5:
            length = CAP_BYTES + 8 * rng.randint(1, 20)
        data, frame = make(rng, k, length, rng.random() < 0.2)
        sent.append((data, int(frame.tuser[-1])))
        src.send_nowait(frame)
    await src.wait()
    got = []
    while True:
        try:
            got.append(await cocotb.triggers.with_timeout(snk.recv(compact=False), 200, "us"))
        except cocotb.triggers.SimTimeoutError:
            break
    k = whole = 0
    for g in got:
        k, w = check(g, sent, k)
        whole += w
    assert whole == len(got)
    frames, dropped = int(dut.m_stats_frames.value), int(dut.m_stats_dropped.value)
    assert frames == len(got), (frames, len(got))
    assert frames + dropped == n, (frames, dropped, n)
    if not DROP:
        long = sum(1 for d, _ in sent if len(d) > CAP_BYTES)
        assert dropped == long, (dropped, long)
    dut._log.info(
        "frames_cross: %d frames sent, %d came out unchanged and in order, %d dropped (s_clk %d ps, m_clk %d ps)",
        n, frames, dropped, S_PS, M_PS,
    )


@cocotb.test()
async def resets_in_traffic(dut):
    rng = random.Random(SEED + 1)
    await setup(dut)
    # The source shares s_rst and the sink m_rst (each drops the frame it
    # was moving when its reset comes).
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.s_clk, dut.s_rst)
    snk = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.m_clk, dut.m_rst)
    snk.set_pause_generator(gaps(rng, 0.3))
    if DROP:
        # Slower than the sink, so that the fresh batch is not dropped for
        # room (frames_cross checks that).
        src.set_pause_generator(gaps(rng, 0.6))
    sent = []
    got = []

    async def collect():
        while True:
            got.append(await snk.recv(compact=False))

    cocotb.start_soon(collect())
    for side, clk in (("s_rst", dut.s_clk), ("m_rst", dut.m_clk)):
        for k in range(40):
            data, frame = make(rng, len(sent), rng.randint(1, 300), False)
            sent.append((data, 0))
            src.send_nowait(frame)
        for _ in range(60):
            await RisingEdge(dut.m_clk)
        getattr(dut, side).value = 1
        for _ in range(rng.randint(1, 6)):
            await RisingEdge(clk)
        getattr(dut, side).value = 0
        await src.wait()
        for _ in range(400):
            await RisingEdge(dut.m_clk)
    # A fresh batch after the resets arrives whole.
    first_fresh = len(sent)
    for k in range(30):
        data, frame = make(rng, len(sent), rng.randint(1, 300), False)
        sent.append((data, 0))
        src.send_nowait(frame)
    await src.wait()
    for _ in range(3000):
        await RisingEdge(dut.m_clk)
    k = 0
    fresh = 0
    for g in got:
        k, w = check(g, sent, k)
        fresh += w and k > first_fresh
    assert fresh == 30, fresh
    dut._log.info("resets_in_traffic: %d frames out around two resets, all sent or cut and closed; the next 30 whole", len(got))


def main():
    from icarus_run import run

    run(
        "test_async_fifo",
        TOP,
        f"cocotbext-axi source ({S_PS} ps) and sink ({M_PS} ps) agree, resets on either side",
        extra_env={"TOP": TOP, "S_PS": str(S_PS), "M_PS": str(M_PS)},
    )


if __name__ == "__main__":
    main()
