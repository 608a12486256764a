"""Independent-peer check of `mac_1g_rgmii` (the 1G MAC behind the RGMII
adapter) on its emitted Verilog.

cocotbext-eth's RgmiiSource / RgmiiSink (written by someone else, from the
RGMII v2.0 specification) drive and take the RGMII pins: the source
clocks `rgmii_rxc` data half a cycle ahead of each edge, the sink samples
`rgmii_txd`/`rgmii_tx_ctl` on the edges of the forwarded `rgmii_txc`
(from `tx_clk90`, 2 ns after `tx_clk`). The ECP5 DDR primitives, black
boxes in the emitted file, are replaced by the behavioural models of
`ecp5_ddr_sim.v` (see its header). Checks:

- transmit: frames of 1 to 1514 bytes (a sample) leave with the preamble
  and an FCS the peer accepts; back-to-back 64-byte frames every 84 byte
  times;
- receive: frames of 60 to 1514 bytes come out unchanged; an error on
  `rx_ctl` in mid-frame (`rx_er`) is flagged and counted, and the next
  good frame goes through.

Run by scripts/cocotb.sh (part of `make test`) on Icarus Verilog:
    TOP=mac_1g_rgmii VERILOG=build/verilog/mac_1g_rgmii.v python3 testbench/cocotb/test_rgmii.py
"""

import os
import random
import re
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from cocotbext.eth import GmiiFrame, RgmiiSink, RgmiiSource
from mac_frames import kept

TOP = os.environ.get("TOP", "mac_1g_rgmii")
SEED = int(os.environ.get("RGMII_SEED", "77"))
STEP = int(os.environ.get("RGMII_STEP", "37"))
TX_PS = 8000


async def setup(dut):
    cocotb.start_soon(Clock(dut.tx_clk, TX_PS, unit="ps").start())
    cocotb.start_soon(Clock(dut.rgmii_rxc, 8016, unit="ps").start())

    async def clk90():
        await Timer(TX_PS // 4, unit="ps")
        await Clock(dut.tx_clk90, TX_PS, unit="ps").start()

    cocotb.start_soon(clk90())
    dut.tx_rst.value = 1
    dut.rx_rst.value = 1
    dut.rgmii_rxd.value = 0
    dut.rgmii_rx_ctl.value = 0
    dut.tx_pause_req.value = 0
    dut.tx_pause_quanta.value = 0
    dut.tx_pause_cev.value = 0
    dut.cfg_src_mac.value = 0
    for _ in range(6):
        await RisingEdge(dut.tx_clk)
        await RisingEdge(dut.rgmii_rxc)
    dut.tx_rst.value = 0
    dut.rx_rst.value = 0
    for _ in range(4):
        await RisingEdge(dut.tx_clk)



@cocotb.test()
async def transmit(dut):
    rng = random.Random(SEED)
    await setup(dut)
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "tx_axis"), dut.tx_clk, dut.tx_rst)
    snk = RgmiiSink(dut.rgmii_txd, dut.rgmii_tx_ctl, dut.rgmii_txc, dut.tx_rst)
    lens = list(range(1, 61, 7)) + list(range(60, 1515, STEP)) + [1514]
    for n in lens:
        data = bytes(rng.getrandbits(8) for _ in range(n))
        await src.send(AxiStreamFrame(data))
        got = await snk.recv()
        assert got.check_fcs(), f"{n}: the peer rejects the FCS"
        assert not (got.error and any(got.error)), f"{n}: an error on tx_ctl"
        assert bytes(got.get_payload()) == data + bytes(max(0, 60 - n)), f"{n}: payload differs"
    dut._log.info("transmit: %d frames (1..1514 bytes) accepted by RgmiiSink", len(lens))
    n = 40
    for _ in range(n):
        src.send_nowait(AxiStreamFrame(bytes(rng.getrandbits(8) for _ in range(60))))
    frames = [await snk.recv() for _ in range(n)]
    assert all(f.check_fcs() for f in frames)
    t = [f.sim_time_start for f in frames]
    per = (t[-1] - t[5]) / (n - 6) / TX_PS
    dut._log.info("transmit: back-to-back 64-byte frames every %.3f byte times", per)
    assert abs(per - 84.0) < 1e-6, per


@cocotb.test()
async def receive(dut):
    rng = random.Random(SEED + 1)
    await setup(dut)
    src = RgmiiSource(dut.rgmii_rxd, dut.rgmii_rx_ctl, dut.rgmii_rxc, dut.rx_rst)
    snk = AxiStreamSink(AxiStreamBus.from_prefix(dut, "rx_axis"), dut.rgmii_rxc, dut.rx_rst)
    lens = list(range(60, 1515, STEP)) + [1514]
    for n in lens:
        data = bytes(rng.getrandbits(8) for _ in range(n))
        await src.send(GmiiFrame.from_payload(data))
        got = await snk.recv(compact=False)
        assert kept(got) == data, f"{n}: data differs"
        assert int(got.tuser[-1]) == 0, f"{n}: flagged bad"
    dut._log.info("receive: %d frames (60..1514 bytes) from RgmiiSource unchanged", len(lens))
    good = bytes(range(100))
    f = GmiiFrame.from_payload(good)
    f.normalize()
    f.error[40] = 1
    await src.send(f)
    got = await snk.recv(compact=False)
    assert int(got.tuser[-1]) == 1, "an error on rx_ctl not flagged"
    await src.send(GmiiFrame.from_payload(good))
    got = await snk.recv(compact=False)
    assert kept(got) == good and int(got.tuser[-1]) == 0
    for _ in range(4):
        await RisingEdge(dut.rgmii_rxc)
    assert int(dut.m_stats_rx_errors.value) == 1
    assert int(dut.m_stats_rx_frames.value) == len(lens) + 1
    dut._log.info("receive: an error on rx_ctl flagged and counted; the next frame good")


def with_models(verilog, build):
    """The emitted file with the DDR black boxes replaced by the models."""
    text = Path(verilog).read_text()
    for cell in ("ODDRX1F", "IDDRX1F"):
        text, n = re.subn(r"\(\*\s*blackbox\s*\*\)\s*module\s+" + cell + r"\b.*?endmodule", "", text, flags=re.S)
        assert n >= 1, f"no black-box {cell} in {verilog}"
    text += "\n" + (Path(__file__).parent / "ecp5_ddr_sim.v").read_text()
    build.mkdir(parents=True, exist_ok=True)
    out = build / f"{TOP}_sim.v"
    out.write_text(text)
    return out


def main():
    from icarus_run import run

    build = Path(os.environ.get("BUILD_DIR", f"build/cocotb/{TOP}")).resolve()
    os.environ["VERILOG"] = str(with_models(os.environ["VERILOG"], build))
    run(
        "test_rgmii",
        TOP,
        f"cocotbext-eth RgmiiSource/RgmiiSink and cocotbext-axi agree (sizes 1..1514, step {STEP})",
        extra_env={"TOP": TOP, "RGMII_STEP": str(STEP)},
    )


if __name__ == "__main__":
    main()
