"""The one runner of the cocotb modules in this directory: build the
emitted Verilog of one top under Icarus Verilog (timescale 1 ps), run one
test module on it, and exit 1 if any test failed or errored.

    from icarus_run import run
    run("test_axis", top, "300 frames ... unchanged", extra_env={...})

`VERILOG` (the emitted file) and `BUILD_DIR` (default build/cocotb/<top>)
come from the environment, as scripts/cocotb.sh sets them; `parameters`
override the top module's Verilog parameters.
"""

import os
import sys
from pathlib import Path


def run(module, top, summary, extra_env=None, parameters=None):
    from cocotb_tools.runner import get_runner

    verilog = Path(os.environ["VERILOG"]).resolve()
    build = Path(os.environ.get("BUILD_DIR", f"build/cocotb/{top}")).resolve()
    runner = get_runner("icarus")
    runner.build(
        sources=[verilog],
        hdl_toplevel=top,
        build_dir=build,
        timescale=("1ps", "1ps"),
        parameters=parameters or {},
        always=True,
    )
    results = runner.test(
        hdl_toplevel=top,
        test_module=module,
        test_dir=Path(__file__).parent,
        build_dir=build,
        timescale=("1ps", "1ps"),
        results_xml=str(build / "results.xml"),
        extra_env=extra_env or {},
    )
    # The runner returns the results file; a failed test is recorded there.
    text = Path(results).read_text()
    if "<failure" in text or "<error" in text:
        print(f"cocotb: {top} FAILED (see {results})")
        sys.exit(1)
    print(f"cocotb: {top}: {summary}")
