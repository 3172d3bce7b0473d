#!/bin/bash
# The race tests on a kernel with the test-only fault injections of
# tests/inject/*.patch (never part of the series): they widen a race window
# so that the race is met in every run instead of by chance.
#
#   tests/inject/run.sh [inject|base-inject]
#
# inject: the patched tree, less the patches of tests/control/reverted
# (tests/control shows what each removes on this kernel), plus the
# injections (make check runs this);
# base-inject: pristine 7.3 plus the same injections, where 11 must fail.
# swapin-delay.patch: do_swap_page() leaves every large folio it has just
# read into the swap cache unlocked, not yet anon or mapped, for
# swapq_inject_swapin_delay_ms (SWAPQ_INJECT_DELAY, default 10) before it
# locks and maps it: swapoff's unuse_pte() meets it there.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
# shellcheck source=../lib/kernel.sh
. "$top/tests/lib/kernel.sh"
flavor=${1:-inject}
delay=${SWAPQ_INJECT_DELAY:-10}
out=$top/build/test-results/$flavor
mkdir -p "$out"
case $flavor in inject|base-inject) ;; *) echo "usage: $0 [inject|base-inject]" >&2; exit 2 ;; esac
tap_begin

if ! suite_kernel "$flavor" "$flavor" "$out/build.log"; then
	not_ok "$flavor kernel builds"
	tap_end
	exit
fi
ok "$flavor kernel builds (tests/inject: $(cd "$top/tests/inject" && echo *.patch))"
# every phase but the swap files': this kernel lacks patch 1, so 64K
# folios split to a swap file read back wrong (anon-file failed with 7680
# mismatched words); 12-races' swapfile-mthp-on and -off churn swap files
# beside brd devices on the series
export SWAPQ_PHASES=${SWAPQ_PHASES:-anon-brd anon-brd-bounce shmem-brd anon-zram shmem-zram}
# 20 s a phase: the injected delay makes the race meet every swapoff
export SWAPQ_DURATION=${SWAPQ_DURATION:-20}
bash "$top/scripts/run-vm.sh" -k "$flavor" -o "$out/vm" -t 1800 \
	-a "brd.rd_nr=8 brd.rd_size=262144 swapq_inject_swapin_delay_ms=$delay" -- \
	bash "$top/tests/guest/run.sh" 11-swapoff-mthp-race.sh > "$out/guest.tap" 2>&1
rc=$?
# the guest's results, as this suite's
tap_import "$out/guest.tap"
check "the guest run ended with status 0 (status $rc)" test "$rc" = 0
tap_end
