#!/bin/bash
# make demo, inside the VM: swap devices at two priorities (brd and zram),
# unequal quotas, a swapping workload, and swapq's view before, during and
# after, including one swapoff under load.
# shellcheck source=guest/lib.sh
. "$(dirname "$0")/guest/lib.sh"

show() {
	echo
	echo "=== $* ==="
	if [ -d "$QUEUE" ] && [ -x "$SWAPQ" ]; then
		"$SWAPQ" status
	else
		swapon --show=NAME,TYPE,SIZE,USED,PRIO
	fi
}

echo 1G > /sys/block/zram0/disksize
swap_on "$(ram 0)" 10
swap_on "$(ram 1)" 10
swap_on /dev/zram0 10
# a swap file in the same ring, on an ext4 whose free space is fragmented
# (fragmented_fs in lib.sh), as on a file system that has been in use: it
# takes no large folio, so 64K folios headed for it are split, the others
# go whole
fs=$(mktemp -d)
fragmented_fs "$(ram 7)" "$fs" && swap_file "$fs/swapfile" 160 && swap_on "$fs/swapfile" 10 &&
	echo "swap file: $fs/swapfile, $(extents "$fs/swapfile") extents"
swap_on "$(ram 2)" 5
if [ -d "$QUEUE" ]; then
	echo 512 > "$QUEUE/devices/$(dev_type "$(ram 0)")/quota"
	echo 1536 > "$QUEUE/devices/$(dev_type "$(ram 1)")/quota"
	echo "quotas: $(ram 0) 512 pages, $(ram 1) 1536 pages, zram0 default"
fi
show "before: rings and quotas"

# 64K anonymous mTHP for the first passes, small folios after the swapoff
T=/sys/kernel/mm/transparent_hugepage/hugepages-64kB
echo always > $T/enabled
cg=$(memcg demo 96M)
in_memcg "$cg" "$FILL" --anon 384M --passes 4 --seed 42 &
pid=$!
sleep 8
show "during: the worker swaps 384M through a 96M memcg, 64K mTHP on"
# through a pipe, so watch prints its tables one after another
[ -x "$SWAPQ" ] && [ -d "$QUEUE" ] && { echo; "$SWAPQ" watch -i 1 -c 3 | cat; }
echo
echo "=== swapoff $(ram 1) under load ==="
swapoff "$(ram 1)" && echo "swapoff $(ram 1): done"
show "after swapoff: the ring lost a member"
echo never > $T/enabled
echo "64K mTHP off; 64K folios so far: swpout $(cat $T/stats/swpout), split at swap-out $(cat $T/stats/swpout_fallback), swpin $(cat $T/stats/swpin)"
[ -x "$SWAPQ" ] && [ -d "$QUEUE" ] && { echo; "$SWAPQ" cpus; }
wait $pid
rc=$?
echo "worker exit status: $rc"
show "after: the workload is done"
exit $rc
