"""Frame helpers shared by the MAC peer checks (test_xgmii, test_gmii,
test_rgmii, test_async_fifo, test_vendor_mac): the 802.3x PAUSE frame they
send or expect, the 802.1Qbb PFC frame built by scapy, the kept bytes of a frame received with `compact=False`,
and a random pause generator for cocotbext-axi sources and sinks."""

import logging
import struct

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
from scapy.contrib.mac_control import MACControlClassBasedFlowControl  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402


def pause_frame(quanta, src=bytes.fromhex("02aabbccddee")):
    """An 802.3x PAUSE frame without FCS (60 bytes)."""
    b = bytes.fromhex("0180c2000001") + src + struct.pack(">HHH", 0x8808, 0x0001, quanta)
    return b + bytes(60 - len(b))


def pfc_frame(cev, quanta, src=bytes.fromhex("02aabbccddee")):
    """An 802.1Qbb PFC frame without FCS (60 bytes), built by scapy: the
    classes whose bits are set in `cev` enabled with `quanta`, the others
    disabled with time 0."""
    fields = {}
    for c in range(8):
        if (cev >> c) & 1:
            fields[f"c{c}_enabled"] = 1
            fields[f"c{c}_pause_time"] = quanta
    b = bytes(Ether(dst="01:80:c2:00:00:01", src=src, type=0x8808) / MACControlClassBasedFlowControl(**fields))
    return b + bytes(60 - len(b))


def pfc_dissect(frame):
    """scapy's reading of a received PFC frame: (enabled classes as a
    vector, the eight times)."""
    p = Ether(frame)[MACControlClassBasedFlowControl]
    cev = sum(getattr(p, f"c{c}_enabled") << c for c in range(8))
    return cev, [getattr(p, f"c{c}_pause_time") for c in range(8)]


def kept(frame):
    """The bytes of a received AXI4-Stream frame that `tkeep` marks."""
    return bytes(b for b, k in zip(frame.tdata, frame.tkeep) if k)


def gaps(rng, p):
    """A cocotbext-axi pause generator: pause in each cycle with
    probability `p`."""
    while True:
        yield rng.random() < p
