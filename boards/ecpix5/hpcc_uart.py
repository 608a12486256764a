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

And the NIC behind it, with the bring-up that `hpccnic board-setup`
writes (the Rust driver model's register accesses, the host-memory
layout, the entry formats: one source for the script, the board
co-simulation and the RTL's tests):

    cargo run --release -- board-setup --out setup.json   # or --peer-mac ...
    python3 boards/ecpix5/hpcc_uart.py --port /dev/ttyUSB1 setup setup.json
    python3 boards/ecpix5/hpcc_uart.py --port /dev/ttyUSB1 post-write setup.json \
        --src 0x100 --dst 0xa00 --len 300 --fill random

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
# The STATS pages (nic_spec::board::STATS_PAGES): STATS address (page << 8) | k
# reads counter k of the page; page 0 is STATS_NAMES.
STATS_PAGES = [
    ("BRIDGE", ["requests", "bad_crc", "bad_cmd", "truncated", "framing", "stray", "overrun"]),
    ("HOST_MEM", ["rd_descs", "wr_descs", "rd_range_err", "wr_range_err", "wr_len_err"]),
    ("TX_FIFO", ["frames", "dropped"]),
    ("RX_FIFO", ["frames", "dropped"]),
    ("MAC_TX", ["frames", "bytes", "aborts"]),
    ("MAC_RX", ["frames", "bytes", "bad_preamble", "errors", "oversize", "runts", "bad_fcs", "pause", "ctl_other"]),
    ("RESET", ["lock_losses"]),
]
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


def stats_index(page, name):
    """The STATS address of counter `name` of the page named `page`."""
    for p, (pname, names) in enumerate(STATS_PAGES):
        if pname == page:
            return (p << 8) | names.index(name)
    raise KeyError(page)


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
        """Every counter of every page: {"PAGE.name": value}."""
        out = {}
        for page, names in STATS_PAGES:
            for name in names:
                k = stats_index(page, name)
                status, value = self._transact(request(CMD_STATS, k))
                if status != STATUS_OKAY:
                    raise BridgeError(f"stats {k:#06x}: {STATUS_TEXT.get(status, hex(status))}")
                out[f"{page}.{name}"] = value
        return out


# ---- The NIC behind the bridge: procedures over register accesses.
#
# Each procedure is a generator that yields ("r", addr) or ("w", addr,
# value) and is sent back (status, value) for each; `run` drives one over
# a `Bridge`, and the board co-simulation drives the same generators over
# cocotbext-uart (testbench/cocotb/test_board.py). `setup` is the JSON of
# `hpccnic board-setup`; memory addresses are the DMA's (0 = the board
# memory's first byte, at HOST_MEM_BASE on the bridge).


def _checked(st, what):
    if st != STATUS_OKAY:
        raise BridgeError(f"{what}: {STATUS_TEXT.get(st, hex(st))}")


def proc_setup(setup):
    """The bring-up: every access of `setup["ops"]`, each checked against
    the answer (and, for reads, the value) the driver model expects."""
    for op in setup["ops"]:
        if op["write"]:
            st, _ = yield ("w", op["addr"], op["data"])
        else:
            st, v = yield ("r", op["addr"])
            if st == op["expect"] and op["value"] is not None and v != op["value"]:
                raise BridgeError(f"read {op['addr']:#06x}: {v:#x}, not {op['value']:#x}")
        if st != op["expect"]:
            raise BridgeError(f"{'write' if op['write'] else 'read'} {op['addr']:#06x}: "
                              f"{STATUS_TEXT.get(st, hex(st))}, not {STATUS_TEXT.get(op['expect'])}")
    return len(setup["ops"])


def proc_mem_read(addr, n):
    """n bytes of board memory from addr."""
    first = addr & ~3
    out = bytearray()
    for a in range(first, addr + n, 4):
        st, v = yield ("r", HOST_MEM_BASE + a)
        _checked(st, f"memory read {a:#x}")
        out += v.to_bytes(4, "little")
    return bytes(out[addr - first:addr - first + n])


def proc_mem_write(addr, data):
    """data into board memory at addr; the bytes around it in its first
    and last words are kept (read, then written back)."""
    first = addr & ~3
    end = addr + len(data)
    last = (end + 3) & ~3
    buf = bytearray(last - first)
    if first != addr or last != end:
        head = yield from proc_mem_read(first, 4)
        tail = yield from proc_mem_read(last - 4, 4)
        buf[:4] = head
        buf[-4:] = tail
    buf[addr - first:end - first] = data
    for k in range(0, len(buf), 4):
        st, _ = yield ("w", HOST_MEM_BASE + first + k, int.from_bytes(buf[k:k + 4], "little"))
        _checked(st, f"memory write {first + k:#x}")


def wqe_bytes(setup, opcode, laddr, va, length, rkey, tag):
    """A send-queue entry, laid out as `setup["wqe"]` says."""
    f = setup["wqe"]["fields"]
    b = bytearray(setup["wqe"]["size"])
    for name, v in (("laddr", laddr), ("va", va), ("len", length), ("rkey", rkey),
                    ("tag", tag), ("opcode", opcode)):
        b[f[name]["offset"]:f[name]["offset"] + f[name]["size"]] = v.to_bytes(f[name]["size"], "little")
    return bytes(b)


def proc_post(setup, flow, pi, opcode, laddr, va, length, tag, rkey=0):
    """Post one work request on `flow` (its entry of `setup["flows"]`) at
    producer index pi and ring the doorbell; returns the next pi."""
    slot = flow["sq_base"] + setup["wqe"]["size"] * (pi % (1 << flow["sq_log"]))
    yield from proc_mem_write(slot, wqe_bytes(setup, opcode, laddr, va, length, rkey, tag))
    nxt = (pi + 1) & 0xFFFF
    r = setup["regs"]
    st, _ = yield ("w", r["sq_db"] + r["sq_db_stride"] * flow["flow"], nxt)
    _checked(st, f"doorbell of flow {flow['flow']}")
    return nxt


def proc_reap(setup, ci, tries=1000):
    """Wait (polling) for completion-queue entry ci of CQ 0, release it
    (CI = ci + 1) and return it as a dict; None after `tries` polls."""
    cq = setup["cq"][0]
    size = setup["cqe"]["size"]
    f = setup["cqe"]["fields"]
    at = cq["base"] + size * (ci % (1 << cq["log_size"]))
    want = 1 - ((ci >> cq["log_size"]) & 1)
    for _ in range(tries):
        raw = yield from proc_mem_read(at + f["phase"]["offset"], 1)
        if (raw[0] >> f["phase"]["bit"]) & 1 == want:
            break
    else:
        return None
    e = yield from proc_mem_read(at, size)
    out = {k: int.from_bytes(e[v["offset"]:v["offset"] + v["size"]], "little")
           for k, v in f.items() if v["size"]}
    r = setup["regs"]
    st, _ = yield ("w", r["cq"] + r["cq_ci"], (ci + 1) & 0xFFFF)
    _checked(st, "CQ consumer index")
    return out


def run(proc, bridge):
    """Drive a procedure over a Bridge; its return value."""
    try:
        req = next(proc)
        while True:
            if req[0] == "r":
                req = proc.send(bridge._transact(request(CMD_READ, req[1])))
            else:
                req = proc.send(bridge._transact(request(CMD_WRITE, req[1], req[2])))
    except StopIteration as e:
        return e.value


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
    sub.add_parser("stats", help="every board counter: the bridge's, the host memory's, the FIFOs', the MAC's, lock losses")
    su = sub.add_parser("setup", help="bring the NIC up (the JSON of `hpccnic board-setup`)")
    su.add_argument("json")
    pw = sub.add_parser("post-write", help="post an RDMA WRITE on the first flow and wait for it")
    pw.add_argument("json")
    pw.add_argument("--src", type=lambda s: int(s, 0), required=True, help="local address (8-byte aligned)")
    pw.add_argument("--dst", type=lambda s: int(s, 0), required=True,
                    help="the peer's address (8-byte aligned; in loopback, this board's)")
    pw.add_argument("--len", type=int, required=True)
    pw.add_argument("--tag", type=lambda s: int(s, 0), default=1)
    pw.add_argument("--pi", type=int, default=0, help="the flow's producer index (0 after setup)")
    pw.add_argument("--ci", type=int, default=0, help="the CQ's consumer index (0 after setup)")
    pw.add_argument("--fill", choices=["none", "random"], default="none",
                    help="random: fill the source first, and in loopback compare the destination")
    a = ap.parse_args(argv)
    b = Bridge(a.port, a.baud)
    try:
        if a.op == "read":
            print(f"{a.addr:#06x}: {b.read(a.addr):#010x}")
        elif a.op == "write":
            b.write(a.addr, a.value)
        elif a.op == "setup":
            import json
            n = run(proc_setup(json.load(open(a.json))), b)
            print(f"setup: {n} register accesses answered as expected")
        elif a.op == "post-write":
            import json
            import os
            setup = json.load(open(a.json))
            flow = setup["flows"][0]
            data = None
            if a.fill == "random":
                data = os.urandom(a.len)
                run(proc_mem_write(a.src, data), b)
            run(proc_post(setup, flow, a.pi, setup["opcodes"]["write"], a.src, a.dst, a.len, a.tag), b)
            c = run(proc_reap(setup, a.ci), b)
            if c is None:
                print("post-write: no completion", file=sys.stderr)
                return 1
            print(f"completion: tag {c['tag']:#x}, status {c['status']}, {c['bytes']} bytes, flow {c['flow']}")
            if data is not None and len(setup["flows"]) == 2:
                got = run(proc_mem_read(a.dst, a.len), b)
                print("destination: " + ("byte-exact" if got == data else "DIFFERS"))
                return 0 if got == data and c["status"] == 0 else 1
            return 0 if c["status"] == 0 else 1
        else:
            for k, v in b.stats().items():
                print(f"{k:20} {v}")
    except BridgeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
