#!/bin/bash
# Swap files and 64K mTHP. A swap file takes no large folio, so every 64K
# anonymous folio is split at swap-out and its pages go to the file one by
# one, often into consecutive, aligned slots. Those slots are consecutive
# on disk only inside one extent of the file. A 64K folio read back from
# them as one I/O from the sector of its first slot (what 7.3 does on a
# synchronous device) reads whatever follows that extent on disk: other
# files, free blocks (zeros), file-system metadata. (Fixed by patch 1 of the
# series; tests/control runs this test on kernels without it, where it
# must fail.)
#
# The swap file is fragmented on purpose (fragmented_fs in lib.sh): it is
# written into the holes of a file of which every sixth 4K block holds data
# (bytes 0xa5), in extents of five pages, so that nearly every 16-page run
# of slots crosses one. Anonymous memory is paged out with MADV_PAGEOUT
# (SWAPQ_ROUNDS runs, default 5) and by memcg reclaim, first with a brd
# device at a lower priority that must stay empty (strict priority), then
# with the file alone; shmem with 64K mTHP too, and 64K mTHP off as the
# control. Every word is verified.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin
T=$THP/hugepages-64kB
rounds=${SWAPQ_ROUNDS:-5}
[ -d "$T" ] || { not_ok "64K mTHP supported by this kernel"; tap_end; exit; }
fsdev=$(ram 6)
mnt=$(mktemp -d)
log_mark swapfile-mthp

swap_off_all
if ! fragmented_fs "$fsdev" "$mnt"; then
	not_ok "fragmented ext4 on $fsdev for the swap file"
	tap_end
	exit
fi
swapfile=$mnt/swapfile
swap_file "$swapfile" 96
extents=$(extents "$swapfile")
diag "swap file: 96 MiB in $extents extents"
check "swap file fragmented (more than 1000 extents)" test "${extents:-0}" -gt 1000
swapon -p 10 "$swapfile"
check "swap file swapped on" test "$(swap_count)" = 1

stat64() { cat "$T/stats/$1"; }
resume() { kill -CONT "$1" && wait "$1"; }
# fill_verified WHAT COMMAND...: a worker that fills, swaps and verifies;
# a TAP line for its data, the 64K folio counts it moved as a comment
fill_verified() {
	local what=$1 fb0 in0 rc
	shift
	fb0=$(stat64 swpout_fallback) in0=$(stat64 swpin)
	"$@"
	rc=$?
	diag "$what: 64K swpout_fallback +$(($(stat64 swpout_fallback) - fb0)), 64K swpin +$(($(stat64 swpin) - in0)), $(awk -v f="$swapfile" '$1 == f { print $4 }' /proc/swaps) KiB on the file"
	check "$what: data verified" test $rc -eq 0
}

# 1. MADV_PAGEOUT one 64K folio at a time: every folio is split, its pages
# get consecutive slots of the file. The swap header takes slot 0, so they
# would all be one slot off the 64K alignment that a large swap-in needs: a
# 60K worker on the same CPU takes 15 slots first
echo never > $T/enabled
taskset -c 0 "$FILL" --anon 60K --pageout --stop-after-fill --quiet &
holder=$!
wait_stopped $holder
echo always > $T/enabled
# the slots of one run are freed when it ends and the next run takes them
# again, still aligned
for r in $(seq 1 "$rounds"); do
	fb=$(stat64 swpout_fallback)
	fill_verified "anon 64K, MADV_PAGEOUT, run $r of $rounds" \
		taskset -c 0 "$FILL" --anon 16M --pageout-step 64K --passes 2 --quiet
	check "run $r: 64K folios split at swap-out to the file" test $(($(stat64 swpout_fallback) - fb)) -ge 256
done
fill_verified "anon 4K, the 15 slots before them" resume $holder

# 2. memcg reclaim, a brd device at priority 0 below the file. Strict
# priority: while the file has room, a 64K folio is split for the file, as
# in 7.3, and never goes whole to the device below. Then the file alone
swap_on "$(ram 5)" 0
cg=$(memcg swapfile-mthp 32M)
fb=$(stat64 swpout_fallback)
memcg_bg "$cg" "$FILL" --anon 64M --stop-after-fill --quiet
wait_stopped $worker
below=$(swap_used "$(ram 5)")
diag "filled: $(awk -v f="$swapfile" '$1 == f { print $4 }' /proc/swaps) KiB on the file, $below KiB on $(ram 5), 64K swpout_fallback +$(($(stat64 swpout_fallback) - fb))"
check "strict priority: nothing on $(ram 5) below the file ($below KiB)" test "$below" = 0
fill_verified "anon 64K, memcg reclaim, brd below" resume $worker
swapoff "$(ram 5)"
fill_verified "anon 64K, memcg reclaim, the file alone" in_memcg "$cg" "$FILL" --anon 64M --passes 2 --quiet

# 3. shmem (anonymous shared memory) with 64K mTHP
echo never > $T/enabled
echo always > $T/shmem_enabled
fill_verified "shmem 64K, MADV_PAGEOUT" "$FILL" --shared 16M --pageout --passes 2 --quiet
fill_verified "shmem 64K, memcg reclaim" in_memcg "$cg" "$FILL" --shared 48M --quiet
echo never > $T/shmem_enabled

# 4. control: 64K mTHP off, small folios only
fill_verified "anon 4K, memcg reclaim" in_memcg "$cg" "$FILL" --anon 64M --quiet

rmdir "$cg"
swap_off_all
umount "$mnt" && rmdir "$mnt"
check "no kernel splat" log_clean swapfile-mthp
tap_end
