#!/usr/bin/env python3
"""RoCEv2 frames crafted with scapy against the memory-region check (issue 52).

    python3 scripts/mr_attacks.py QP FIRST_PSN

Prints one frame per line: a name, a space, the frame in hex (Ethernet
without FCS, as the core's `s_axis_rx` takes it). The frames are built by
scapy alone (Ether / IP / UDP 4791 / BTH from scapy.contrib.roce, the RETH
as raw bytes, the ICRC computed by scapy's BTH), not by the project's
encoder, for the region table `testbench/tests/nic/core.rs`
(`core_refuses_what_no_region_grants`) registers:

    entry 0: R_Key 0x005A, [0x10000, +0x1000), remote write, domain 1
    entry 1: R_Key 0x0111, [0x20000, +0x1000), remote read,  domain 1
    entry 2: R_Key 0x0222, [2^64 - 0x1000, 2^64), write and read, domain 1
    entry 3: R_Key 0x0333, [0x30000, +0x1000), write and read, domain 2

Every frame asks for an ACK. A refused request leaves the expected PSN
where it was, so the frames after it reuse its PSN. `scripts/deps.sh sim`
installs scapy.
"""
import logging
import struct
import sys

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)

from scapy.contrib.roce import BTH  # noqa: E402
from scapy.layers.inet import IP, UDP  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402

WRITE_FIRST, WRITE_LAST, WRITE_ONLY, READ_REQ = 0x06, 0x08, 0x0A, 0x0C
TOP = 1 << 64


def frame(qp, psn, opcode, va, rkey, dlen, payload_len):
    """One RoCEv2 frame with a RETH (none on a WRITE LAST); the payload
    bytes count up from 1."""
    reth = b"" if opcode == WRITE_LAST else struct.pack(">QII", va % TOP, rkey, dlen)
    payload = bytes((k + 1) & 0xFF for k in range(payload_len))
    # BTH's `icrc` is an FCS-style field: scapy puts it after the
    # payload and computes it (compute_icrc).
    p = (Ether(src="02:00:00:00:00:0a", dst="02:00:00:00:00:0b")
         / IP(src="10.0.0.1", dst="10.0.0.2", ttl=64)
         / UDP(sport=49152, dport=4791, chksum=0)
         / BTH(opcode=opcode, pkey=0xFFFF, dqpn=qp, ackreq=1, psn=psn)
         / Raw(reth + payload))
    return bytes(p)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    qp, psn = int(argv[1], 0), int(argv[2], 0)
    k0, k1, k2, k3 = 0x005A, 0x0111, 0x0222, 0x0333
    frames = [
        ("valid_write", frame(qp, psn, WRITE_ONLY, 0x10000, k0, 64, 64)),
        ("wrong_key", frame(qp, psn + 1, WRITE_ONLY, 0x10000, k0 ^ 0x80, 64, 64)),
        ("va_before", frame(qp, psn + 1, WRITE_ONLY, 0x10000 - 64, k0, 64, 64)),
        ("past_end", frame(qp, psn + 1, WRITE_FIRST, 0x11000 - 64, k0, 128, 64)),
        ("wraps_2_64", frame(qp, psn + 1, WRITE_FIRST, TOP - 64, k2, 128, 64)),
        ("write_read_only", frame(qp, psn + 1, WRITE_ONLY, 0x20000, k1, 64, 64)),
        ("read_write_only", frame(qp, psn + 1, READ_REQ, 0x10000, k0, 64, 0)),
        ("other_domain", frame(qp, psn + 1, WRITE_ONLY, 0x30000, k3, 64, 64)),
        ("past_dma_length", frame(qp, psn + 1, WRITE_FIRST, 0x10000, k0, 32, 64)),
        ("valid_write_2", frame(qp, psn + 1, WRITE_ONLY, 0x10040, k0, 64, 64)),
        ("last_bytes", frame(qp, psn + 2, WRITE_ONLY, TOP - 64, k2, 64, 64)),
        ("valid_read", frame(qp, psn + 3, READ_REQ, 0x20000, k1, 64, 0)),
        # A WRITE of two packets granted 128 bytes at its FIRST: a LAST
        # of 128 steps past them (invalid request); one of 64 lands.
        ("first_of_two", frame(qp, psn + 4, WRITE_FIRST, 0x10080, k0, 128, 64)),
        ("last_steps_outside", frame(qp, psn + 5, WRITE_LAST, 0, 0, 0, 128)),
        ("last_inside", frame(qp, psn + 5, WRITE_LAST, 0, 0, 0, 64)),
    ]
    for name, f in frames:
        print(name, f.hex())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
