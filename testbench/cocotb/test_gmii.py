"""Independent-peer check of `mac_1g` on its emitted Verilog.

cocotbext-eth's GmiiSource / GmiiSink (written by someone else, from
IEEE 802.3 clause 35) drive and take the GMII pins; cocotbext-axi's
AxiStreamSource / AxiStreamSink the 64-bit frame streams (`tx_axis_*`,
`rx_axis_*`, the NIC core's width: the 64 <-> 8 converters are inside the
top). Checks:

- transmit: frames of every size from 1 to 1514 bytes leave with a
  preamble and an FCS the peer accepts, padded to 60 bytes; back-to-back
  64-byte frames start every 84 byte times (line rate);
- receive: frames of every size from 60 to 1514 bytes come out unchanged
  without the FCS; a bad FCS, `rx_er` in mid-frame, a runt and a frame
  without its SFD are flagged (on `tuser` where a frame comes out, and on
  `rx_error_bad_fcs` / `rx_error_bad_frame`), and the next good frame
  goes through;
- pause: a PAUSE frame from the peer (rx_clk) stops new frames on the
  transmit side (tx_clk, an unrelated clock) for its quanta (64 tx_clk
  cycles each at 1 Gb/s); `tx_pause_req` sends a PAUSE frame the peer
  accepts byte for byte.

Run by scripts/cocotb.sh (part of `make test`) on Icarus Verilog:
    TOP=mac_1g VERILOG=build/verilog/mac_1g.v python3 testbench/cocotb/test_gmii.py
"""

import os
import random
import struct
import zlib

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from cocotbext.eth import GmiiFrame, GmiiSink, GmiiSource
from mac_frames import kept, pause_frame, pfc_dissect, pfc_frame

TOP = os.environ.get("TOP", "mac_1g")
SEED = int(os.environ.get("GMII_SEED", "4321"))
STEP = int(os.environ.get("GMII_STEP", "1"))
TX_PS = 8000
SRC_MAC = 0x021B2C3D4E5F



async def setup(dut):
    cocotb.start_soon(Clock(dut.tx_clk, TX_PS, unit="ps").start())
    cocotb.start_soon(Clock(dut.rx_clk, 8012, unit="ps").start())
    dut.tx_rst.value = 1
    dut.rx_rst.value = 1
    dut.gmii_rxd.value = 0
    dut.gmii_rx_dv.value = 0
    dut.gmii_rx_er.value = 0
    dut.tx_pause_req.value = 0
    dut.tx_pause_quanta.value = 0
    dut.tx_pause_cev.value = 0
    dut.cfg_src_mac.value = SRC_MAC
    for _ in range(4):
        await RisingEdge(dut.tx_clk)
        await RisingEdge(dut.rx_clk)
    dut.tx_rst.value = 0
    dut.rx_rst.value = 0
    for _ in range(4):
        await RisingEdge(dut.tx_clk)



def peers(dut):
    tx_src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "tx_axis"), dut.tx_clk, dut.tx_rst)
    tx_snk = GmiiSink(dut.gmii_txd, dut.gmii_tx_er, dut.gmii_tx_en, dut.tx_clk, dut.tx_rst)
    rx_src = GmiiSource(dut.gmii_rxd, dut.gmii_rx_er, dut.gmii_rx_dv, dut.rx_clk, dut.rx_rst)
    rx_snk = AxiStreamSink(AxiStreamBus.from_prefix(dut, "rx_axis"), dut.rx_clk, dut.rx_rst)
    return tx_src, tx_snk, rx_src, rx_snk


async def transmit(dut, src, snk):
    rng = random.Random(SEED)
    # GmiiSink does not store the byte in which it sees tx_en rise (the
    # first preamble byte), so that byte is checked here, on the pins.
    first = []

    async def first_bytes():
        en = 0
        while True:
            await RisingEdge(dut.tx_clk)
            now = int(dut.gmii_tx_en.value)
            if now and not en:
                first.append(int(dut.gmii_txd.value))
            en = now

    cocotb.start_soon(first_bytes())
    lens = list(range(1, 60)) + list(range(60, 1515, STEP)) + [1514]
    for n in lens:
        data = bytes(rng.getrandbits(8) for _ in range(n))
        await src.send(AxiStreamFrame(data))
        got = await snk.recv()
        assert got.get_preamble() == b"\x55" * 6 + b"\xd5", f"{n}: preamble {got.get_preamble()!r}"
        assert first[-1] == 0x55, f"{n}: first preamble byte {first[-1]:#x}"
        assert got.check_fcs(), f"{n}: the peer rejects the FCS"
        assert not (got.error and any(got.error)), f"{n}: tx_er on the wire"
        assert bytes(got.get_payload()) == data + bytes(max(0, 60 - n)), f"{n}: payload differs"
    assert len(first) == len(lens)
    dut._log.info("transmit: %d frames (1..1514 bytes) accepted by GmiiSink, 7 x 0x55 + SFD each", len(lens))

    n = 100
    for _ in range(n):
        src.send_nowait(AxiStreamFrame(bytes(rng.getrandbits(8) for _ in range(60))))
    frames = [await snk.recv() for _ in range(n)]
    assert all(f.check_fcs() for f in frames)
    t = [f.sim_time_start for f in frames]
    per = (t[-1] - t[5]) / (n - 6) / TX_PS
    dut._log.info("transmit: back-to-back 64-byte frames every %.3f byte times", per)
    assert abs(per - 84.0) < 1e-6, per


async def receive(dut, src, snk):
    rng = random.Random(SEED + 1)
    bad_fcs = bad_frame = 0

    async def count():
        nonlocal bad_fcs, bad_frame
        while True:
            await RisingEdge(dut.rx_clk)
            bad_fcs += int(dut.rx_error_bad_fcs.value)
            bad_frame += int(dut.rx_error_bad_frame.value)

    cocotb.start_soon(count())
    lens = list(range(60, 1515, STEP)) + [1514]
    rng.shuffle(lens)
    for n in lens:
        data = bytes(rng.getrandbits(8) for _ in range(n))
        await src.send(GmiiFrame.from_payload(data))
        got = await snk.recv(compact=False)
        assert kept(got) == data, f"{n}: data differs"
        assert int(got.tuser[-1]) == 0, f"{n}: flagged bad"
    dut._log.info("receive: %d frames (60..1514 bytes) from GmiiSource unchanged", len(lens))

    good = bytes(range(100))
    # A bad FCS.
    raw = bytearray(good + struct.pack("<L", zlib.crc32(good) ^ 1))
    await src.send(GmiiFrame.from_raw_payload(raw))
    got = await snk.recv(compact=False)
    assert int(got.tuser[-1]) == 1, "bad FCS not flagged"
    # rx_er in mid-frame.
    f = GmiiFrame.from_payload(good)
    f.normalize()
    f.error[50] = 1
    await src.send(f)
    got = await snk.recv(compact=False)
    assert int(got.tuser[-1]) == 1, "rx_er not flagged"
    # A runt (40 bytes with a good FCS).
    await src.send(GmiiFrame.from_payload(good[:40], min_len=0))
    got = await snk.recv(compact=False)
    assert int(got.tuser[-1]) == 1, "runt not flagged"
    # A missing SFD: nothing comes out.
    f = GmiiFrame.from_payload(good)
    f.data[7] = 0x55
    await src.send(f)
    # The next good frame goes through (and is the next thing out).
    await src.send(GmiiFrame.from_payload(good))
    got = await snk.recv(compact=False)
    assert kept(got) == good and int(got.tuser[-1]) == 0
    for _ in range(4):
        await RisingEdge(dut.rx_clk)
    assert (bad_fcs, bad_frame) == (1, 3), (bad_fcs, bad_frame)
    assert int(dut.m_stats_rx_bad_preamble.value) == 1
    dut._log.info("receive: bad FCS, rx_er, a runt and a missing SFD flagged; the next frame good")


@cocotb.test()
async def transmit_and_receive(dut):
    """The two directions at once (they are independent; the run takes
    half the time)."""
    await setup(dut)
    tx_src, tx_snk, rx_src, rx_snk = peers(dut)
    tx = cocotb.start_soon(transmit(dut, tx_src, tx_snk))
    rx = cocotb.start_soon(receive(dut, rx_src, rx_snk))
    await tx
    await rx


@cocotb.test()
async def pause(dut):
    """A received PAUSE holds the transmitter off for its quanta; a
    requested one is sent."""
    rng = random.Random(SEED + 2)
    await setup(dut)
    src, snk, peer, rx = peers(dut)

    async def gaps(n_frames, pause=None, at=5):
        for _ in range(n_frames):
            src.send_nowait(AxiStreamFrame(bytes(rng.getrandbits(8) for _ in range(60))))
        starts = []
        for k in range(n_frames):
            f = await snk.recv()
            assert f.check_fcs()
            starts.append(f.sim_time_start)
            if k == at and pause is not None:
                await peer.send(pause)
        await src.wait()
        return max(b - a for a, b in zip(starts, starts[1:])) / TX_PS

    base = await gaps(20)
    assert abs(base - 84) <= 1, base
    for q in (1, 20, 100):
        g = await gaps(12 + q // 2, GmiiFrame.from_payload(pause_frame(q)))
        # The timer holds 64q cycles from the request's arrival. A frame
        # may be under way when it arrives, and the next one may already be
        # committed: TxPause hands a frame's first beat to AxisNarrow
        # while the previous frame's last beat (8 bytes) is still going
        # out, then come the FCS (4) and the gap (12). So with 60-byte
        # frames a start can follow the timer's load by up to 24 cycles,
        # within 802.3's reaction limit (2 quanta, 128 byte times), and the
        # timer counts those cycles.
        assert 64 * q - 24 <= g <= 64 * q + 2 * 84 + 8, (q, g)
        dut._log.info("pause: %d quanta: the transmitter stopped for %.1f cycles (64q = %d)", q, g, 64 * q)
    assert rx.empty(), "a MAC control frame was passed on"

    for q in (0x1234, 0):
        await RisingEdge(dut.tx_clk)
        dut.tx_pause_quanta.value = q
        dut.tx_pause_req.value = 1
        await RisingEdge(dut.tx_clk)
        dut.tx_pause_req.value = 0
        f = await snk.recv()
        assert f.check_fcs(), "the peer rejects the PAUSE frame's FCS"
        assert bytes(f.get_payload()) == pause_frame(q, SRC_MAC.to_bytes(6, "big")), f.get_payload().hex()
    # A PFC frame for priority 3: scapy builds the expected one and reads it.
    await RisingEdge(dut.tx_clk)
    dut.tx_pause_quanta.value = 0x0123
    dut.tx_pause_cev.value = 0x08
    dut.tx_pause_req.value = 1
    await RisingEdge(dut.tx_clk)
    dut.tx_pause_req.value = 0
    dut.tx_pause_cev.value = 0
    f = await snk.recv()
    assert f.check_fcs(), "the peer rejects the PFC frame's FCS"
    got = bytes(f.get_payload())
    assert got == pfc_frame(0x08, 0x0123, SRC_MAC.to_bytes(6, "big")), got.hex()
    assert pfc_dissect(got) == (0x08, [0, 0, 0, 0x0123, 0, 0, 0, 0])
    for _ in range(8):
        await RisingEdge(dut.tx_clk)
    assert int(dut.m_stats_pause_sent.value) == 3
    assert int(dut.m_stats_pause_applied.value) == 3
    assert int(dut.m_stats_rx_pause.value) == 3
    dut._log.info("pause: two PAUSE frames and a PFC frame sent on request, accepted by GmiiSink byte for byte")


def main():
    from icarus_run import run

    run(
        "test_gmii",
        TOP,
        f"cocotbext-eth GmiiSource/GmiiSink and cocotbext-axi agree (sizes 1..1514, step {STEP})",
        extra_env={"TOP": TOP, "GMII_STEP": str(STEP)},
    )


if __name__ == "__main__":
    main()
