"""Frame helpers shared by the MAC peer checks (test_xgmii, test_gmii,
test_rgmii, test_async_fifo, test_vendor_mac): the 802.3x PAUSE frame they
send or expect, the kept bytes of a frame received with `compact=False`,
and a random pause generator for cocotbext-axi sources and sinks."""

import struct


def pause_frame(quanta, src=bytes.fromhex("02aabbccddee")):
    """An 802.3x PAUSE frame without FCS (60 bytes)."""
    b = bytes.fromhex("0180c2000001") + src + struct.pack(">HHH", 0x8808, 0x0001, quanta)
    return b + bytes(60 - len(b))


def kept(frame):
    """The bytes of a received AXI4-Stream frame that `tkeep` marks."""
    return bytes(b for b, k in zip(frame.tdata, frame.tkeep) if k)


def gaps(rng, p):
    """A cocotbext-axi pause generator: pause in each cycle with
    probability `p`."""
    while True:
        yield rng.random() < p
