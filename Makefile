# swapq: swap device priority queues for Linux 7.3, their admin tools and
# the harness that builds, boots and tests them. See README.md.

FLAVOR ?= debug
B := build
SCRIPTS := scripts

.PHONY: all deps source tree kernel kernel-base tools initramfs check demo \
	series refresh stress inject control kasan bench clean distclean

all: kernel tools

deps:
	@bash $(SCRIPTS)/deps.sh

tree: deps
	@bash $(SCRIPTS)/prepare-tree.sh

# The patched kernel (FLAVOR=debug|vm|bench) and the pristine one.
kernel: tree
	@bash $(SCRIPTS)/build-kernel.sh $(FLAVOR)

kernel-base: deps
	@bash $(SCRIPTS)/prepare-tree.sh pristine
	@bash $(SCRIPTS)/build-kernel.sh base$(if $(filter debug,$(FLAVOR)),,-$(FLAVOR))

# Programs the tests and the demo run in the guest, collected in build/tests.
tools: deps
	@mkdir -p $(B)/tests
	@$(MAKE) -s -C tests/helpers
	@cp tests/helpers/swapq-fill tests/helpers/swapq-churn $(B)/tests/
	@if [ -f tools/swapq/Makefile ]; then $(MAKE) -s -C tools/swapq && cp tools/swapq/swapq $(B)/tests/; fi

initramfs: deps
	@bash $(SCRIPTS)/mkinitramfs.sh

check: kernel tools initramfs
	@bash tests/run -k $(FLAVOR)

# The race suite (tests/guest/12-races.sh), every scenario churning for
# DURATION seconds (default 120; make check runs it at 40). The test and VM
# timeouts grow with DURATION; the TAP stream is kept in build/stress.
DURATION ?= 120
stress: kernel tools initramfs
	@mkdir -p $(B)/stress
	@bash -c 'set -o pipefail; \
		SWAPQ_DURATION=$(DURATION) SWAPQ_TEST_TIMEOUT=$$(($(DURATION) * 12 + 600)) \
		bash $(SCRIPTS)/run-vm.sh -k $(FLAVOR) -t $$(($(DURATION) * 12 + 900)) -o $(B)/stress/vm \
			-a "brd.rd_nr=8 brd.rd_size=262144" -- bash tests/guest/run.sh 12-races.sh | \
		tee $(B)/stress/tap.txt' && ! grep -q '^not ok' $(B)/stress/tap.txt

demo:
	@$(MAKE) -s kernel tools initramfs FLAVOR=vm
	@bash $(SCRIPTS)/run-vm.sh -k vm -t 900 -a "brd.rd_nr=8 brd.rd_size=262144" -- bash tests/demo.sh

# The race tests on the patched (INJECT=inject) or pristine
# (INJECT=base-inject) kernel with the test-only fault injections of
# tests/inject, which make the races they widen happen every time; make check
# runs the first, the second shows what the series fixes.
INJECT ?= inject
inject: tools initramfs
	@mkdir -p $(B)/test-results
	@bash -c 'set -o pipefail; bash tests/inject/run.sh $(INJECT) | tee $(B)/test-results/$(INJECT).tap' && \
		! grep -q '^not ok' $(B)/test-results/$(INJECT).tap

# Tests on a kernel without the patch they test, where they must fail:
# CONTROL=inject (the series without the patches of tests/control/reverted,
# plus tests/inject: as make check runs it; tests 16 and 18) or
# CONTROL=base (pristine 7.3; tests 16 and 04).
CONTROL ?= inject
control: tools initramfs
	@mkdir -p $(B)/test-results
	@bash -c 'set -o pipefail; bash tests/control/run.sh $(CONTROL) | tee $(B)/test-results/control-$(CONTROL).tap' && \
		! grep -q '^not ok' $(B)/test-results/control-$(CONTROL).tap

# The races that meet a swapoff, on the KASAN kernel (tests/kasan), as make
# check runs them last; the kernel is a cold build of its own, which make
# check starts in the background. Settings: SWAPQ_DURATION,
# SWAPQ_SCENARIOS, SWAPQ_SLOWER, SWAPQ_SMALLER, SWAPQ_PASSES,
# SWAPQ_MEMCG_MAX (see tests/kasan/run.sh).
kasan: tools initramfs
	@bash tests/kasan/run.sh

# Pristine against patched 7.3, alternating boots: build/bench/report.md.
# Settings: RUNS=5 LOCKSTAT=1 BENCH_* (see scripts/bench.sh).
bench: deps
	@bash $(SCRIPTS)/bench.sh

# The series as a reviewer gets it: build/series/*.patch, checkpatch-ed.
series: tree
	@bash $(SCRIPTS)/series.sh

# Turn commits made in build/linux back into patches/ and the new files.
refresh:
	@bash $(SCRIPTS)/refresh.sh

clean:
	rm -rf $(B)/obj-* $(B)/*/obj-* $(B)/mod-* $(B)/tests $(B)/test-results $(B)/vm.* $(B)/series
	-$(MAKE) -s -C tests/helpers clean
	-[ -f tools/swapq/Makefile ] && $(MAKE) -s -C tools/swapq clean

distclean:
	rm -rf $(B)
