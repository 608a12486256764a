#!/usr/bin/env python3
"""Host side of the UART register bridge (`hdl/src/uart/uart_axil.rs`,
`docs/board.md`): read and write the NIC's AXI4-Lite registers over a
serial line, and read the bridge's own counters.

The protocol's values are `nic_spec::uart` (spec/src/uart.rs); the
spec's tests check that the constants below equal them. The framing
functions (`request`, `parse_response`, `crc8`) have no dependency and
are what the cocotb check (testbench/cocotb/test_uart_axil.py) drives the
emitted Verilog with; `Bridge` adds the line (pyserial).

    python3 boards/ecpix5/hpcc_uart.py --port /dev/ttyUSB1 read 0x0000
    python3 boards/ecpix5/hpcc_uart.py --port /dev/ttyUSB1 write 0x0008 0x12345678
    python3 boards/ecpix5/hpcc_uart.py --port /dev/ttyUSB1 stats

On the ECPIX-5 the FT2232H's channel B is the UART (`/dev/ttyUSB1`
usually); the line runs at 1 Mbaud, 8N1.
"""

import argparse
import sys
import time

# ---- nic_spec::uart and nic_spec::board (checked against the spec by `cargo test -p nic-spec`)
SYNC = 0x5A
CMD_READ = 0x01
CMD_WRITE = 0x02
CMD_STATS = 0x03
READ_LEN = 5
WRITE_LEN = 9
STATS_LEN = 5
RESP_LEN = 7
STATUS_OKAY = 0x00
STATUS_SLVERR = 0x02
STATUS_DECERR = 0x03
STATUS_BAD_CRC = 0x80
CRC8_POLY = 0x07
STATS_NAMES = ["requests", "bad_crc", "bad_cmd", "truncated", "framing", "stray", "overrun"]
# The board's address space (nic_spec::board): registers below, host memory from here.
HOST_MEM_BASE = 0xC000
HOST_MEM_LOG_WORDS = 11
# ----

STATUS_TEXT = {
    STATUS_OKAY: "OKAY",
    0x01: "EXOKAY",
    STATUS_SLVERR: "SLVERR",
    STATUS_DECERR: "DECERR",
    STATUS_BAD_CRC: "BAD_CRC",
}


class BridgeError(Exception):
    """A response that is missing, malformed, or not OKAY."""


def crc8(data):
    """CRC-8/SMBUS: x^8 + x^2 + x + 1, MSB first, initial 0."""
    c = 0
    for b in data:
        c ^= b
        for _ in range(8):
            c = ((c << 1) ^ CRC8_POLY) & 0xFF if c & 0x80 else (c << 1) & 0xFF
    return c


def request(cmd, addr, value=None):
    """The bytes of one request: SYNC, command, address (high byte first),
    the value of a WRITE (high byte first), CRC-8 of all after SYNC."""
    if not 0 <= addr <= 0xFFFF:
        raise ValueError(f"address {addr:#x} is not 16 bits")
    body = bytes([cmd, addr >> 8, addr & 0xFF])
    if cmd == CMD_WRITE:
        body += (value & 0xFFFFFFFF).to_bytes(4, "big")
    return bytes([SYNC]) + body + bytes([crc8(body)])


def parse_response(resp):
    """(status, value) of a RESP_LEN-byte response; BridgeError if its
    SYNC or CRC is wrong."""
    resp = bytes(resp)
    if len(resp) != RESP_LEN:
        raise BridgeError(f"response of {len(resp)} bytes, not {RESP_LEN}: {resp.hex()}")
    if resp[0] != SYNC:
        raise BridgeError(f"response without SYNC: {resp.hex()}")
    if crc8(resp[1:]) != 0:
        raise BridgeError(f"response with a wrong CRC-8: {resp.hex()}")
    return resp[1], int.from_bytes(resp[2:6], "big")


class Bridge:
    """The bridge on a serial port (pyserial). A request is retried on a
    BAD_CRC answer or a missing response (`retries` times), since a
    request lost on the line has done nothing."""

    def __init__(self, port, baud=1_000_000, timeout=0.2, retries=3):
        import serial  # pyserial: only needed on a real line

        self.line = serial.Serial(port, baud, bytesize=8, parity="N", stopbits=1, timeout=timeout)
        self.retries = retries

    def _transact(self, req):
        for _ in range(self.retries + 1):
            self.line.reset_input_buffer()
            self.line.write(req)
            resp = self.line.read(RESP_LEN)
            if len(resp) < RESP_LEN:
                # Truncated on the way in: the bridge drops it after its
                # idle timeout; wait that out before retrying.
                time.sleep(0.01)
                continue
            status, value = parse_response(resp)
            if status == STATUS_BAD_CRC:
                continue
            return status, value
        raise BridgeError(f"no good response after {self.retries + 1} tries")

    def read(self, addr):
        status, value = self._transact(request(CMD_READ, addr))
        if status != STATUS_OKAY:
            raise BridgeError(f"read {addr:#06x}: {STATUS_TEXT.get(status, hex(status))}")
        return value

    def write(self, addr, value):
        status, _ = self._transact(request(CMD_WRITE, addr, value))
        if status != STATUS_OKAY:
            raise BridgeError(f"write {addr:#06x}: {STATUS_TEXT.get(status, hex(status))}")

    def stats(self):
        out = {}
        for k, name in enumerate(STATS_NAMES):
            status, value = self._transact(request(CMD_STATS, k))
            if status != STATUS_OKAY:
                raise BridgeError(f"stats {k}: {STATUS_TEXT.get(status, hex(status))}")
            out[name] = value
        return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyUSB1")
    ap.add_argument("--baud", type=int, default=1_000_000, help="default 1000000")
    sub = ap.add_subparsers(dest="op", required=True)
    r = sub.add_parser("read", help="read a register")
    r.add_argument("addr", type=lambda s: int(s, 0))
    w = sub.add_parser("write", help="write a register")
    w.add_argument("addr", type=lambda s: int(s, 0))
    w.add_argument("value", type=lambda s: int(s, 0))
    sub.add_parser("stats", help="the bridge's own counters")
    a = ap.parse_args(argv)
    b = Bridge(a.port, a.baud)
    try:
        if a.op == "read":
            print(f"{a.addr:#06x}: {b.read(a.addr):#010x}")
        elif a.op == "write":
            b.write(a.addr, a.value)
        else:
            for k, v in b.stats().items():
                print(f"{k:10} {v}")
    except BridgeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
