"""Frame helpers shared by the MAC peer checks (test_xgmii, test_gmii,
test_rgmii): the 802.3x PAUSE frame they send or expect, and the kept
bytes of a frame received with `compact=False`."""

import struct


def pause_frame(quanta, src=bytes.fromhex("02aabbccddee")):
    """An 802.3x PAUSE frame without FCS (60 bytes)."""
    b = bytes.fromhex("0180c2000001") + src + struct.pack(">HHH", 0x8808, 0x0001, quanta)
    return b + bytes(60 - len(b))


def kept(frame):
    """The bytes of a received AXI4-Stream frame that `tkeep` marks."""
    return bytes(b for b, k in zip(frame.tdata, frame.tkeep) if k)
