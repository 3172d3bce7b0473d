#!/bin/bash
# Tests on a kernel without the patch they test, where they must fail, so
# that make check shows every run that they can.
#
#   tests/control/run.sh [inject|base]
#
# inject: the kernel of tests/inject, the series without the patches of
# tests/control/reverted plus the test-only injections (make check runs
# this, after the inject suite has built that kernel); base: pristine 7.3
# (make control CONTROL=base), where test 16 applies and test 04 must find
# that one CPU's pages do not follow the quota turns.
# 16-swapfile-mthp (patch 1): 64K folios split at swap-out to a fragmented
# swap file read back wrong (every MADV_PAGEOUT run fails, the memcg
# runs often); its shmem, 4K and strict-priority checks pass on both
# kernels.
# 18-reclaim-populate (patch 10): with swap table allocations failing, the
# device walk restarts, and the data is still right.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
# shellcheck source=../lib/kernel.sh
. "$top/tests/lib/kernel.sh"
flavor=${1:-inject}
case $flavor in
inject) what="the series without patches 1 and 10"; prep=inject; tests=(16-swapfile-mthp.sh 18-reclaim-populate.sh) ;;
base) what="pristine 7.3"; prep=pristine; tests=(16-swapfile-mthp.sh 04-striping.sh) ;;
*) echo "usage: $0 [inject|base]" >&2; exit 2 ;;
esac
out=$top/build/test-results/control-$flavor
mkdir -p "$out"
tap_begin

if ! suite_kernel "$prep" "$flavor" "$out/build.log"; then
	not_ok "$flavor kernel builds"
	tap_end
	exit
fi
ok "$flavor kernel builds ($what)"
bash "$top/scripts/run-vm.sh" -k "$flavor" -o "$out/vm" -t 900 -a "brd.rd_nr=8 brd.rd_size=262144" -- \
	bash "$top/tests/guest/run.sh" "${tests[@]}" > "$out/guest.tap" 2>&1
# the guest's own stream, as comments: its results are what must fail
grep -v MISMATCH "$out/guest.tap" | sed 's/^#* */# '"$flavor"': /'
# The MADV_PAGEOUT run is built to meet the bug every time (all its 64K
# folios come back through one large swap-in each); the memcg runs meet it
# only when reclaim happens to lay a folio out aligned, so they are counted
runs=$(grep -c '^\(not \)\?ok [0-9]* - anon 64K, MADV_PAGEOUT.*data verified' "$out/guest.tap")
lost=$(grep -c '^not ok [0-9]* - anon 64K, MADV_PAGEOUT.*data verified' "$out/guest.tap")
if [ "$runs" -gt 0 ] && [ "$lost" = "$runs" ]; then
	ok "16-swapfile-mthp finds the data loss on $what (anonymous 64K, MADV_PAGEOUT: $lost of $runs runs)"
else
	not_ok "16-swapfile-mthp finds the data loss on $what (anonymous 64K, MADV_PAGEOUT: $lost of $runs runs)"
fi
# what the wrong words held (swapq-fill shows the first 10 of each run):
# the filler's bytes that follow an extent on disk, zeros, or other data
grep -o 'MISMATCH.*' "$out/guest.tap" | awk '
	/ got a5a5a5a5a5a5a5a5/ { f++; next } / got 0000000000000000/ { z++; next } { o++ }
	END { printf "# wrong words shown: %d the filler'"'"'s bytes (0xa5), %d zero, %d other\n", f, z, o }'
runs=$(grep -c '^\(not \)\?ok [0-9]* - anon 64K, memcg.*data verified' "$out/guest.tap")
lost=$(grep -c '^not ok [0-9]* - anon 64K, memcg.*data verified' "$out/guest.tap")
echo "# anonymous 64K under memcg reclaim lost data in $lost of $runs runs on $what"
# what that kernel does right must pass: shmem, 4K folios, strict priority
others=$(grep -c '^\(not \)\?ok [0-9]* - \(shmem 64K\|anon 4K\).*data verified\|^\(not \)\?ok [0-9]* - strict priority' "$out/guest.tap")
bad=$(grep -c '^not ok [0-9]* - \(shmem 64K\|anon 4K\).*data verified\|^not ok [0-9]* - strict priority' "$out/guest.tap")
if [ "$others" -gt 0 ] && [ "$bad" = 0 ]; then
	ok "its shmem, 4K and strict-priority checks pass on $what ($others)"
else
	not_ok "its shmem, 4K and strict-priority checks pass on $what ($bad of $others fail)"
fi
if [ "$flavor" = base ]; then
	# 7.3 puts one CPU's pages in its current cluster, on one device
	if grep -q '^not ok [0-9]* - CPU 0 took [0-9]* pages from each device in turn' "$out/guest.tap"; then
		ok "04-striping tells the queue from $what: one CPU's pages do not take turns there"
	else
		not_ok "04-striping tells the queue from $what: one CPU's pages do not take turns there"
	fi
	tap_end
	exit
fi
# Without patch 10 reclaim sleeps for the table: the lock is dropped, the
# walk restarts; allocations must have failed for that to mean anything.
if grep -q '^not ok [0-9]* - reclaim never restarted its device walk' "$out/guest.tap" &&
   grep -q '^ok [0-9]* - allocations under folio_alloc_swap() failed' "$out/guest.tap"; then
	ok "18-reclaim-populate sees the device walk restart on $what"
else
	not_ok "18-reclaim-populate sees the device walk restart on $what"
fi
if grep -q '^ok [0-9]* - worker data verified' "$out/guest.tap"; then
	ok "18-reclaim-populate: the data is right on $what"
else
	not_ok "18-reclaim-populate: the data is right on $what"
fi
tap_end
