#!/bin/bash
# Swap files and 64K mTHP. A swap file takes no large folio, so every 64K
# anonymous folio is split at swap-out and its pages go to the file one by
# one, often into consecutive, aligned slots. Those slots are consecutive
# on disk only inside one extent of the file. A 64K folio read back from
# them as one I/O from the sector of its first slot (what 7.3 does on a
# synchronous device) reads whatever follows that extent on disk: other
# files, free blocks (zeros), file-system metadata. (Fixed by patch 1 of the
# series; tests/pristine runs this test on 7.3, where it must fail.)
#
# The swap file is fragmented on purpose: the file system is first filled
# with a file of which every sixth 4K block holds data and the other five
# are zero, then those zero blocks are punched out (fallocate --dig-holes),
# and the swap file is written into the holes: extents of five pages, so
# that nearly every 16-page run of slots crosses one. Anonymous memory is
# paged out with MADV_PAGEOUT and by memcg reclaim, with a brd device at a
# lower priority that must stay empty (strict priority), shmem with 64K
# mTHP too, and 64K mTHP off as the control. Every word is verified.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
T=/sys/kernel/mm/transparent_hugepage/hugepages-64kB
[ -d "$T" ] || { not_ok "64K mTHP supported by this kernel"; exit 1; }
fsdev=$(ram 6)
mnt=$(mktemp -d)
log_mark swapfile-mthp

swap_off_all
if ! mkfs.ext4 -q -F -b 4096 "$fsdev" > /dev/null 2>&1 || ! mount -t ext4 "$fsdev" "$mnt"; then
	not_ok "ext4 on $fsdev for the swap file"
	exit 1
fi
# Fill the file system: one data block, then five zero blocks, until full
python3 - "$mnt/filler" <<'EOF'
import os, sys
chunk = b'\xa5' * 4096 + bytes(5 * 4096)
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)
try:
    while os.write(fd, chunk) == len(chunk):
        pass
except OSError:
    pass
os.fsync(fd)
os.close(fd)
EOF
fallocate --dig-holes "$mnt/filler"
sync
swapfile=$mnt/swapfile
dd if=/dev/zero of="$swapfile" bs=1M count=96 conv=fsync status=none
chmod 600 "$swapfile"
extents=$(filefrag "$swapfile" | awk '{ print $2 }')
diag "swap file: 96 MiB in $extents extents"
check "swap file fragmented (more than 1000 extents)" test "${extents:-0}" -gt 1000
mkswap -f -U clear "$swapfile" > /dev/null && swapon -p 10 "$swapfile"
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
fb=$(stat64 swpout_fallback)
fill_verified "anon 64K, MADV_PAGEOUT" taskset -c 0 "$FILL" --anon 16M --pageout-step 64K --passes 2 --quiet
check "64K folios split at swap-out to the file" test $(($(stat64 swpout_fallback) - fb)) -ge 256
fill_verified "anon 4K, the 15 slots before them" resume $holder

# 2. memcg reclaim, a brd device at priority 0 below the file. Strict
# priority: while the file has room, a 64K folio is split for the file, as
# in 7.3, and never goes whole to the device below
swap_on "$(ram 5)" 0
cg=$(memcg swapfile-mthp 32M)
fb=$(stat64 swpout_fallback)
memcg_bg "$cg" "$FILL" --anon 64M --stop-after-fill --quiet
wait_stopped $worker
below=$(swap_used "$(ram 5)")
diag "filled: $(awk -v f="$swapfile" '$1 == f { print $4 }' /proc/swaps) KiB on the file, $below KiB on $(ram 5), 64K swpout_fallback +$(($(stat64 swpout_fallback) - fb))"
check "strict priority: nothing on $(ram 5) below the file ($below KiB)" test "$below" = 0
fill_verified "anon 64K, memcg reclaim, brd below" resume $worker
fill_verified "anon 64K, memcg reclaim, second run" in_memcg "$cg" "$FILL" --anon 64M --passes 2 --quiet
swapoff "$(ram 5)"

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
exit $((failures > 0))
