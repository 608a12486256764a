#!/usr/bin/env python3
"""Check the RoCEv2 ICRC of every frame of a pcap with scapy's implementation.

    python3 scripts/icrc_scapy.py FILE.pcap
    python3 scripts/icrc_scapy.py --standard FILE.pcap

For each frame: dissect it with scapy (Ether / IP / UDP 4791 / BTH), and if
the BTH's T bit (bit 0 of byte 4) is set, first replace the 48-byte
telemetry area by 0xFF (docs/roce.md section 2: our ICRC masks it, the
standard one does not, and the two agree on the masked frame); then
recompute the ICRC with scapy.contrib.roce's BTH.compute_icrc and compare it
with the frame's last 4 bytes (at the end of the IPv4 packet). A RoCEv2 CNP
(opcode 0x81) must also be scapy's CNP: BECN set, its 16-byte padding
dissected as scapy's CNPPadding.

With --standard, check as an unmodified RoCEv2 receiver would: no
masking, and only the frames with a standard opcode (below 0xC0: the
HPCC PROBE / NOTIFY / ACK are ours and skipped), so a frame that carries the
telemetry area fails.

Exit status 0 if every frame is RoCEv2 and every ICRC matches, 1 otherwise
(each mismatch is printed), 2 on usage errors. `scripts/deps.sh sim`
installs scapy.
"""
import logging
import sys

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)

from scapy.layers.inet import IP, UDP  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402
from scapy.utils import rdpcap  # noqa: E402
from scapy.contrib.roce import BTH, CNPPadding, CNP_OPCODE  # noqa: E402

TLM_LEN = 48
RETH_OPCODES = {0x06, 0x0A, 0x0C}
# 0xC2: the HPCC ACK (an ACKNOWLEDGE echoing the telemetry area).
AETH_OPCODES = {0x0D, 0x0F, 0x10, 0x11, 0xC2}


def check(frame: bytes, standard: bool = False):
    """Return (reason or None if the ICRC matches, whether T is set)."""
    pkt = Ether(frame)
    if IP not in pkt or UDP not in pkt or pkt[UDP].dport != 4791:
        return "not RoCEv2 (Ether/IPv4/UDP 4791)", False
    ip = pkt[IP]
    bth_off = 14 + ip.ihl * 4 + 8
    end = 14 + ip.len
    if end > len(frame) or end < bth_off + 12 + 4:
        return "IPv4 total length inconsistent with the frame", False
    opcode = frame[bth_off]
    masked = bytearray(frame[:end])
    t = bool(frame[bth_off + 4] & 1)
    if t and not standard:
        tlm = bth_off + 12
        tlm += 16 if opcode in RETH_OPCODES else 0
        tlm += 4 if opcode in AETH_OPCODES else 0
        if tlm + TLM_LEN > end - 4:
            return "T set but no room for the telemetry area", t
        masked[tlm:tlm + TLM_LEN] = b"\xff" * TLM_LEN
    m = Ether(bytes(masked))
    if BTH not in m:
        return "scapy found no BTH", t
    if opcode == CNP_OPCODE and (CNPPadding not in m or not m[BTH].becn):
        return "a CNP that scapy does not read as its CNP (BECN, 16-byte padding)", t
    want = m[BTH].compute_icrc(None)
    got = frame[end - 4:end]
    if want != got:
        return f"ICRC {got.hex()} on the wire, scapy computes {want.hex()}", t
    return None, t


def main(argv):
    standard = len(argv) == 3 and argv[1] == "--standard"
    if len(argv) != 2 and not standard:
        print(__doc__, file=sys.stderr)
        return 2
    frames = rdpcap(argv[-1])
    if standard:
        def opcode(b):
            pkt = Ether(b)
            return b[14 + pkt[IP].ihl * 4 + 8] if IP in pkt else 0
        frames = [p for p in frames if opcode(bytes(p)) < 0xC0]
    bad = 0
    tlm = 0
    for i, p in enumerate(frames, 1):
        why, t = check(bytes(p), standard)
        if why:
            bad += 1
            print(f"frame {i}: {why}")
        elif t:
            tlm += 1
    n = len(frames)
    if n == 0:
        print("icrc_scapy: no frames")
        return 1
    what = "standard-opcode frames, unmodified ICRC" if standard else "frames"
    print(f"icrc_scapy: {n} {what} ({tlm} with telemetry), {n - bad} ICRCs match, {bad} do not")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
