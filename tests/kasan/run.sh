#!/bin/bash
# The races on a kernel that catches memory misuse as it happens: the
# patched tree built with the debug config plus configs/kasan.config
# (generic KASAN), running the race scenarios whose readers and writers meet
# a swapoff (12-races: sysfs and debugfs readers, quota writers, swap.max;
# tests/lib/kernel.sh's kasan_scenarios, which the debug kernel's run of
# 12-races skips) and the bounce phase of the swapoff/mTHP race (11), at 4
# vCPUs. A KASAN report is a splat, which fails the test that caused it.
#
#   tests/kasan/run.sh
#
# KASAN makes the guest about 2.5 times slower under QEMU TCG. A scenario
# waits for its workers' last run, which took over 4 minutes at the debug
# run's sizes, so the pass is short and small: SWAPQ_DURATION (default 20 s
# a scenario), SWAPQ_SLOWER (default 3, divides the floors of cycles),
# SWAPQ_SMALLER (default 4, divides the workers' sizes and memcg limits,
# but swap-max's, which a 6M memcg left no room to verify in),
# SWAPQ_PASSES (default 1: each worker run writes and verifies its memory
# once; a run of two passes lasted the whole of churn's two minutes) and
# SWAPQ_MEMCG_MAX (default 24M before that division: each worker swaps
# even when the slow kernel runs them one after the other). make check and
# make kasan run it.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
# shellcheck source=../lib/kernel.sh
. "$top/tests/lib/kernel.sh"
out=$top/build/test-results/kasan
mkdir -p "$out"
tap_begin

if ! suite_kernel patched kasan "$out/build.log"; then
	not_ok "kasan kernel builds"
	tap_end
	exit
fi
ok "kasan kernel builds (the series, debug.config + kasan.config)"
# the positive control: a read after free (which slub_debug cannot see) is
# reported by KASAN, and fails the run; KFENCE is off for this boot, as it
# reports the read first when it sampled the object
provoked kasan READ_AFTER_FREE "$out/vm-uaf" 'BUG: KASAN: slab-use-after-free' \
	"a read after free fails the run (BUG: KASAN: slab-use-after-free)" kfence.sample_interval=0
export SWAPQ_DURATION=${SWAPQ_DURATION:-20} SWAPQ_SLOWER=${SWAPQ_SLOWER:-3} SWAPQ_MEMCG_MAX=${SWAPQ_MEMCG_MAX:-24M}
export SWAPQ_SMALLER=${SWAPQ_SMALLER:-4} SWAPQ_PASSES=${SWAPQ_PASSES:-1}
export SWAPQ_SCENARIOS=${SWAPQ_SCENARIOS:-$kasan_scenarios}
export SWAPQ_PHASES=${SWAPQ_PHASES:-anon-brd-bounce}
bash "$top/scripts/run-vm.sh" -k kasan -s 4 -o "$out/vm" -t 1800 \
	-a "brd.rd_nr=8 brd.rd_size=262144" -- \
	bash "$top/tests/guest/run.sh" 12-races.sh 11-swapoff-mthp-race.sh > "$out/guest.tap" 2>&1
rc=$?
tap_import "$out/guest.tap"
check "the guest run ended with status 0 (status $rc)" test "$rc" = 0
tap_end
