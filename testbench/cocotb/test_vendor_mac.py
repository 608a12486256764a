"""Independent-peer check of the vendor-MAC adapter (`vendor_mac_adapter`)
on the emitted Verilog, at three unrelated clocks: the core's
(`core_clk`), and a vendor MAC's transmit and receive user clocks
(`tx_clk`, `rx_clk`).

cocotbext-axi's AxiStreamSource and AxiStreamSink (written by someone else
from the AXI4-Stream spec) bind by prefix to the flat ports:
`s_axis_tx_*` (core -> adapter), `m_axis_mac_tx_*` (adapter -> the vendor
MAC's `tx_axis_*`), `s_axis_mac_rx_*` (the vendor MAC's `rx_axis_*` ->
adapter), `m_axis_rx_*` (adapter -> core). Checks:

- transmit, the core's source pausing at random inside frames and the
  MAC's sink applying back-pressure: every frame reaches the MAC side in
  order, its bytes zero-padded to 60, `tuser` (abort) kept; `tkeep` is all
  ones on every beat but the last and contiguous from lane 0 on it; and
  `tvalid` never falls inside a frame (a vendor MAC would end the frame as
  an underflow). A last beat with no byte (`tkeep[0]` clear) comes out
  flagged and is counted in `bad_keep`; a frame longer than the FIFO
  (4096 bytes) is dropped whole and counted;
- receive, the MAC's source never pausing (a vendor `rx_axis` has no
  `tready`) into a slower, back-pressuring core: every frame out is a sent
  frame, unchanged, in order, `tuser` (bad frame) kept; frames that find
  no room are dropped whole; `frames + dropped` equals the frames sent.

Run by scripts/cocotb.sh (part of `make test`) on Icarus Verilog:
    TOP=vendor_mac_adapter VERILOG=build/verilog/vendor_mac_adapter.v \\
        python3 testbench/cocotb/test_vendor_mac.py
"""

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from mac_frames import gaps

TOP = os.environ.get("TOP", "vendor_mac_adapter")
CORE_PS = int(os.environ.get("CORE_PS", "6400"))
TX_PS = int(os.environ.get("TX_PS", "6206"))
RX_PS = int(os.environ.get("RX_PS", "6212"))
SEED = int(os.environ.get("VENDOR_SEED", "1717"))
CAP_BYTES = 512 * 8
MIN_NO_FCS = 60


async def setup(dut):
    cocotb.start_soon(Clock(dut.core_clk, CORE_PS, unit="ps").start())
    await Timer(1111, unit="ps")
    cocotb.start_soon(Clock(dut.tx_clk, TX_PS, unit="ps").start())
    await Timer(2345, unit="ps")
    cocotb.start_soon(Clock(dut.rx_clk, RX_PS, unit="ps").start())
    for r in ("core_rst", "tx_rst", "rx_rst"):
        getattr(dut, r).value = 1
    dut.s_axis_tx_tvalid.value = 0
    dut.s_axis_mac_rx_tvalid.value = 0
    dut.m_axis_mac_tx_tready.value = 0
    dut.m_axis_rx_tready.value = 0
    for _ in range(6):
        await RisingEdge(dut.core_clk)
    for r in ("core_rst", "tx_rst", "rx_rst"):
        getattr(dut, r).value = 0
    for _ in range(16):
        await RisingEdge(dut.core_clk)


def padded(data, bad, no_byte):
    """What the MAC side must see of a frame (bytes, tuser)."""
    if no_byte:
        data = data[: 8 * ((len(data) - 1) // 8)] + b"\x00"
        bad = True
    if len(data) < MIN_NO_FCS:
        data = data + bytes(MIN_NO_FCS - len(data))
    return data, int(bad)


async def watch_underflow(dut, stats):
    """Count cycles where `tvalid` is low inside a frame on the MAC side."""
    inside = False
    while True:
        await RisingEdge(dut.tx_clk)
        v = int(dut.m_axis_mac_tx_tvalid.value)
        if inside and not v:
            stats["underflow"] += 1
        if v and int(dut.m_axis_mac_tx_tready.value):
            inside = not int(dut.m_axis_mac_tx_tlast.value)


@cocotb.test()
async def transmit(dut):
    rng = random.Random(SEED)
    await setup(dut)
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_tx"), dut.core_clk)
    snk = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis_mac_tx"), dut.tx_clk)
    src.set_pause_generator(gaps(rng, 0.3))
    snk.set_pause_generator(gaps(rng, 0.2))
    stats = {"underflow": 0}
    cocotb.start_soon(watch_underflow(dut, stats))
    n = int(os.environ.get("VENDOR_FRAMES", "120"))
    want = []
    too_long = no_bytes = padded_want = 0
    for k in range(n):
        length = rng.choice([1, 7, 8, 9, 52, 56, 57, 59, 60, 61, 64, 1514, rng.randint(1, 1514)])
        if k % 41 == 7:
            length = CAP_BYTES + 8 * rng.randint(1, 10)
        data = bytes([k & 0xFF]) + bytes(rng.getrandbits(8) for _ in range(length - 1))
        bad = rng.random() < 0.15
        no_byte = k % 23 == 4
        beats = (length + 7) // 8
        tkeep = [1] * length
        if no_byte:
            tkeep[8 * (beats - 1)] = 0
        tuser = [0] * (8 * (beats - 1)) + [int(bad)] * (length - 8 * (beats - 1))
        src.send_nowait(AxiStreamFrame(data, tkeep=tkeep, tuser=tuser))
        # Padded: it ends before the 8th beat, or in it with under 4 bytes.
        n_last = 0 if no_byte else length - 8 * (beats - 1)
        padded_want += beats <= 7 or (beats == 8 and n_last < 4)
        if length > CAP_BYTES:
            too_long += 1
            continue
        no_bytes += no_byte
        want.append(padded(data, bad, no_byte))
    await src.wait()
    got = []
    for _ in want:
        f = await cocotb.triggers.with_timeout(snk.recv(compact=False), 500, "us")
        keep = list(f.tkeep)
        nb = len(keep)
        n_last = nb - 8 * ((nb - 1) // 8)
        assert keep[: nb - n_last] == [1] * (nb - n_last), "tkeep all ones before the last beat"
        tail = keep[nb - n_last :]
        k1 = sum(tail)
        assert k1 >= 1 and tail[:k1] == [1] * k1, "last tkeep contiguous from lane 0"
        data = bytes(b for b, m in zip(f.tdata, keep) if m)
        got.append((data, int(f.tuser[-1])))
    for _ in range(200):
        await RisingEdge(dut.tx_clk)
    assert snk.empty(), "no frame beyond the expected ones"
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"frame {i}: got {len(g[0])} bytes tuser {g[1]}, want {len(w[0])} bytes tuser {w[1]}"
    assert stats["underflow"] == 0, f"tvalid fell inside a frame {stats['underflow']} times"
    assert int(dut.m_stats_pad_frames.value) == n
    assert int(dut.m_stats_pad_bad_keep.value) == no_bytes, (int(dut.m_stats_pad_bad_keep.value), no_bytes)
    assert int(dut.m_stats_pad_padded.value) == padded_want, (int(dut.m_stats_pad_padded.value), padded_want)
    assert int(dut.m_stats_tx_fifo_frames.value) == len(want)
    assert int(dut.m_stats_tx_fifo_dropped.value) == too_long
    dut._log.info(
        "transmit: %d frames, %d padded to 60 bytes as expected, %d flagged for no byte, %d too long dropped; "
        "no underflow at the MAC side",
        n, int(dut.m_stats_pad_padded.value), no_bytes, too_long,
    )


@cocotb.test()
async def receive(dut):
    rng = random.Random(SEED + 1)
    await setup(dut)
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_mac_rx"), dut.rx_clk)
    snk = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis_rx"), dut.core_clk)
    snk.set_pause_generator(gaps(rng, 0.5))
    n = int(os.environ.get("VENDOR_FRAMES", "120"))
    sent = []
    for k in range(n):
        length = rng.choice([60, 64, 1514, rng.randint(60, 1514)])
        data = bytes([k & 0xFF, k >> 8]) + bytes(rng.getrandbits(8) for _ in range(length - 2))
        bad = rng.random() < 0.2
        beats = (length + 7) // 8
        tuser = [0] * (8 * (beats - 1)) + [int(bad)] * (length - 8 * (beats - 1))
        src.send_nowait(AxiStreamFrame(data, tuser=tuser))
        sent.append((data, int(bad)))
    await src.wait()
    got = []
    while True:
        try:
            f = await cocotb.triggers.with_timeout(snk.recv(compact=False), 200, "us")
        except cocotb.triggers.SimTimeoutError:
            break
        got.append((bytes(b for b, m in zip(f.tdata, f.tkeep) if m), int(f.tuser[-1])))
    k = 0
    for g in got:
        while k < len(sent) and sent[k] != g:
            k += 1
        assert k < len(sent), "a frame out that is not a sent frame, or out of order"
        k += 1
    frames = int(dut.m_stats_rx_fifo_frames.value)
    dropped = int(dut.m_stats_rx_fifo_dropped.value)
    assert frames == len(got), (frames, len(got))
    assert frames + dropped == n, (frames, dropped, n)
    assert dropped > 0, "the slow core should have made the FIFO drop some frames"
    dut._log.info("receive: %d frames sent without pause, %d out unchanged and in order, %d dropped whole", n, frames, dropped)


def main():
    from icarus_run import run

    run(
        "test_vendor_mac",
        TOP,
        f"cocotbext-axi: transmit padded and never underflows, receive drops whole (core {CORE_PS} ps, tx {TX_PS} ps, rx {RX_PS} ps)",
        extra_env={"TOP": TOP, "CORE_PS": str(CORE_PS), "TX_PS": str(TX_PS), "RX_PS": str(RX_PS)},
    )


if __name__ == "__main__":
    main()
