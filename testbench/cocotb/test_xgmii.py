"""Independent-peer check of `mac_10g` on its emitted Verilog.

cocotbext-eth's XgmiiSource / XgmiiSink (written by someone else, from
IEEE 802.3 clause 46) drive and take the XGMII pins; cocotbext-axi's
AxiStreamSource / AxiStreamSink the frame streams, bound by the flat
port names `eth_mac_10g` has (`tx_axis_*`, `rx_axis_*`, `xgmii_*`,
`rx_clk`/`rx_rst`, `tx_clk`/`tx_rst`). Checks:

- transmit: frames of every size from 1 to 1514 bytes (and 9000 on the
  jumbo top) leave with a preamble and an FCS the peer accepts, padded to
  60 bytes; back-to-back 64-byte frames average 10.5 words (84 bytes);
- receive: frames of every size from 60 to 1514 bytes (9000 on the jumbo
  top) from the peer come out unchanged without the FCS; a bad FCS, an
  `/E/` in mid-frame and a runt are flagged on `tuser` and on
  `rx_error_bad_fcs` / `rx_error_bad_frame`, and the next good frame goes
  through;
- pause: a PAUSE frame from the peer (rx_clk) stops new frames on the
  transmit side (tx_clk, an unrelated clock) for its quanta (8 tx_clk
  cycles each), a PAUSE of 0 quanta resumes at once, and a PAUSE with a
  bad FCS is ignored and flagged; on `mac_10g_pause`, `tx_pause_req`
  sends an 802.3x PAUSE frame that the peer accepts, byte for byte.

Run by scripts/cocotb.sh (part of `make test`) on Icarus Verilog:
    TOP=mac_10g VERILOG=build/verilog/mac_10g.v python3 testbench/cocotb/test_xgmii.py
"""

import os
import random
import struct
import zlib

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from cocotbext.eth import XgmiiFrame, XgmiiSink, XgmiiSource
from mac_frames import kept, pause_frame, pfc_dissect, pfc_frame

TOP = os.environ.get("TOP", "mac_10g")
JUMBO = TOP.endswith("jumbo")
SEED = int(os.environ.get("XGMII_SEED", "1234"))
# Every size from 60 to 1514 in the full run; XGMII_STEP thins it out.
STEP = int(os.environ.get("XGMII_STEP", "1"))
TX_PS = 6400
SRC_MAC = 0x021B2C3D4E5F



async def setup(dut):
    cocotb.start_soon(Clock(dut.tx_clk, 6400, unit="ps").start())
    cocotb.start_soon(Clock(dut.rx_clk, 6206, unit="ps").start())
    dut.tx_rst.value = 1
    dut.rx_rst.value = 1
    dut.xgmii_rxd.value = 0x0707070707070707
    dut.xgmii_rxc.value = 0xFF
    if hasattr(dut, "tx_pause_req"):
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



def sizes(rng):
    s = list(range(60, 1515, STEP)) + [1514]
    if JUMBO:
        s += [9000, 4000, 8999]
    rng.shuffle(s)
    return s


@cocotb.test()
async def transmit(dut):
    rng = random.Random(SEED)
    await setup(dut)
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "tx_axis"), dut.tx_clk, dut.tx_rst)
    snk = XgmiiSink(dut.xgmii_txd, dut.xgmii_txc, dut.tx_clk, dut.tx_rst)
    lens = list(range(1, 60)) + sizes(rng)
    for n in lens:
        data = bytes(rng.getrandbits(8) for _ in range(n))
        await src.send(AxiStreamFrame(data))
        got = await snk.recv()
        assert got.get_preamble() == b"\x55" * 7 + b"\xd5", f"{n}: preamble {got.get_preamble()!r}"
        assert got.check_fcs(), f"{n}: the peer rejects the FCS"
        want = data + bytes(max(0, 60 - n))
        assert bytes(got.get_payload()) == want, f"{n}: payload differs"
    dut._log.info("transmit: %d frames (1..1514%s bytes) accepted by XgmiiSink", len(lens), ", 9000" if JUMBO else "")

    # Line rate: 64-byte frames (60 + FCS) back to back.
    n = 200
    for _ in range(n):
        src.send_nowait(AxiStreamFrame(bytes(rng.getrandbits(8) for _ in range(60))))
    frames = [await snk.recv() for _ in range(n)]
    assert all(f.check_fcs() for f in frames)
    t = [f.sim_time_start for f in frames]
    words = (t[-1] - t[10]) / (n - 11) / 6400
    dut._log.info("transmit: back-to-back 64-byte frames every %.3f words (%.1f bytes)", words, 8 * words)
    assert abs(words - 10.5) < 1e-6, words


@cocotb.test()
async def receive(dut):
    rng = random.Random(SEED + 1)
    await setup(dut)
    src = XgmiiSource(dut.xgmii_rxd, dut.xgmii_rxc, dut.rx_clk, dut.rx_rst)
    snk = AxiStreamSink(AxiStreamBus.from_prefix(dut, "rx_axis"), dut.rx_clk, dut.rx_rst)
    bad_fcs = bad_frame = 0

    async def count():
        nonlocal bad_fcs, bad_frame
        while True:
            await RisingEdge(dut.rx_clk)
            bad_fcs += int(dut.rx_error_bad_fcs.value)
            bad_frame += int(dut.rx_error_bad_frame.value)

    cocotb.start_soon(count())
    lens = sizes(rng)
    for n in lens:
        data = bytes(rng.getrandbits(8) for _ in range(n))
        await src.send(XgmiiFrame.from_payload(data))
        got = await snk.recv(compact=False)
        assert kept(got) == data, f"{n}: data differs"
        assert int(got.tuser[-1]) == 0, f"{n}: flagged bad"
    dut._log.info("receive: %d frames (60..1514%s bytes) from XgmiiSource unchanged", len(lens), ", 9000" if JUMBO else "")

    good = bytes(range(100))
    # A bad FCS.
    raw = bytearray(good + struct.pack("<L", zlib.crc32(good) ^ 1))
    await src.send(XgmiiFrame.from_raw_payload(raw))
    got = await snk.recv(compact=False)
    assert int(got.tuser[-1]) == 1, "bad FCS not flagged"
    # /E/ in mid-frame.
    f = XgmiiFrame.from_payload(good)
    f.normalize()
    f.data[50] = 0xFE
    f.ctrl[50] = 1
    await src.send(f)
    got = await snk.recv(compact=False)
    assert int(got.tuser[-1]) == 1, "/E/ not flagged"
    # A runt (40 bytes with a good FCS).
    await src.send(XgmiiFrame.from_payload(good[:40], min_len=0))
    got = await snk.recv(compact=False)
    assert int(got.tuser[-1]) == 1, "runt not flagged"
    # The next good frame goes through.
    await src.send(XgmiiFrame.from_payload(good))
    got = await snk.recv(compact=False)
    assert kept(got) == good and int(got.tuser[-1]) == 0
    for _ in range(4):
        await RisingEdge(dut.rx_clk)
    assert (bad_fcs, bad_frame) == (1, 2), (bad_fcs, bad_frame)
    dut._log.info("receive: bad FCS, /E/ and a runt flagged; the next frame good")


@cocotb.test()
async def pause_received(dut):
    """A received PAUSE holds the transmitter off for its quanta."""
    rng = random.Random(SEED + 2)
    await setup(dut)
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "tx_axis"), dut.tx_clk, dut.tx_rst)
    snk = XgmiiSink(dut.xgmii_txd, dut.xgmii_txc, dut.tx_clk, dut.tx_rst)
    peer = XgmiiSource(dut.xgmii_rxd, dut.xgmii_rxc, dut.rx_clk, dut.rx_rst)
    rx = AxiStreamSink(AxiStreamBus.from_prefix(dut, "rx_axis"), dut.rx_clk, dut.rx_rst)

    async def gaps(n_frames, pause=None, at=20):
        """Send n_frames back to back; after `at` of them leave, the peer
        sends `pause` (a raw frame with FCS). The largest gap between frame
        starts, in tx_clk cycles."""
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

    base = await gaps(60)
    assert abs(base - 10.5) <= 0.5, base
    for q in (1, 50, 300):
        g = await gaps(80 + q // 8, XgmiiFrame.from_payload(pause_frame(q)))
        # The timer holds 8q cycles from the request's arrival; a frame may
        # be under way when it arrives, and the next start waits for the
        # gap and the grant.
        assert 8 * q <= g <= 8 * q + 2 * 10.5 + 4, (q, g)
        dut._log.info("pause_received: %d quanta: the transmitter stopped for %.1f cycles (8q = %d)", q, g, 8 * q)
    # XOFF then XON: the second PAUSE (0 quanta) resumes at once.
    for _ in range(60):
        src.send_nowait(AxiStreamFrame(bytes(60)))
    starts = []
    for k in range(60):
        f = await snk.recv()
        starts.append(f.sim_time_start)
        if k == 10:
            await peer.send(XgmiiFrame.from_payload(pause_frame(0xFFFF)))
            await peer.send(XgmiiFrame.from_payload(pause_frame(0)))
    await src.wait()
    g_xon = max(b - a for a, b in zip(starts, starts[1:])) / TX_PS
    assert g_xon < 200, g_xon
    # A PAUSE with a bad FCS is flagged and ignored.
    raw = bytearray(pause_frame(2000) + struct.pack("<L", zlib.crc32(pause_frame(2000)) ^ 1))
    g = await gaps(40, XgmiiFrame.from_raw_payload(raw), at=10)
    assert g <= 11, g
    assert rx.empty(), "a MAC control frame was passed on"
    dut._log.info(
        "pause_received: XOFF then XON: largest gap %.1f cycles; after a bad-FCS PAUSE: %.1f", g_xon, g
    )
    for _ in range(8):
        await RisingEdge(dut.tx_clk)
    assert int(dut.m_stats_pause_applied.value) == 5, int(dut.m_stats_pause_applied.value)
    assert int(dut.m_stats_rx_pause.value) == 5
    assert int(dut.m_stats_rx_bad_fcs.value) == 1


@cocotb.test()
async def pause_sent(dut):
    """`tx_pause_req` sends a PAUSE frame, or with `tx_pause_cev` a PFC
    frame (mac_10g_pause only)."""
    if not hasattr(dut, "tx_pause_req"):
        dut._log.info("pause_sent: %s has no tx_pause_req (the drop-in ports)", TOP)
        return
    await setup(dut)
    snk = XgmiiSink(dut.xgmii_txd, dut.xgmii_txc, dut.tx_clk, dut.tx_rst)
    for q in (0x1234, 0, 0xFFFF):
        await RisingEdge(dut.tx_clk)
        dut.tx_pause_quanta.value = q
        dut.tx_pause_req.value = 1
        await RisingEdge(dut.tx_clk)
        dut.tx_pause_req.value = 0
        f = await snk.recv()
        assert f.check_fcs(), "the peer rejects the PAUSE frame's FCS"
        assert bytes(f.get_payload()) == pause_frame(q, SRC_MAC.to_bytes(6, "big")), f.get_payload().hex()
    # PFC: scapy builds the expected frame and reads the received one.
    for cev, q in ((0x08, 0x1234), (0x81, 0xFFFF), (0x08, 0)):
        await RisingEdge(dut.tx_clk)
        dut.tx_pause_quanta.value = q
        dut.tx_pause_cev.value = cev
        dut.tx_pause_req.value = 1
        await RisingEdge(dut.tx_clk)
        dut.tx_pause_req.value = 0
        dut.tx_pause_cev.value = 0
        f = await snk.recv()
        assert f.check_fcs(), "the peer rejects the PFC frame's FCS"
        got = bytes(f.get_payload())
        assert got == pfc_frame(cev, q, SRC_MAC.to_bytes(6, "big")), got.hex()
        assert pfc_dissect(got) == (cev, [q if (cev >> c) & 1 else 0 for c in range(8)])
    assert int(dut.m_stats_pause_sent.value) == 6
    dut._log.info(
        "pause_sent: three PAUSE and three PFC frames accepted by XgmiiSink, byte for byte; scapy reads the PFC classes and times"
    )


def main():
    from icarus_run import run

    sizes = f"sizes 1..1514{', 9000' if JUMBO else ''}, step {STEP}"
    run(
        "test_xgmii",
        TOP,
        f"cocotbext-eth XgmiiSource/XgmiiSink and cocotbext-axi agree ({sizes})",
        extra_env={"TOP": TOP, "XGMII_STEP": str(STEP)},
    )


if __name__ == "__main__":
    main()
