#!/bin/bash
# zram with discard: a small, discard-enabled zram device rewritten over and
# over goes through the discard paths; then the bounded synchronous discard
# (every free cluster waits for discard) is met on purpose; data verifies.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin
DBG=/sys/kernel/debug/swap/queue
z=/dev/zram0

swap_off_all
[ -e /sys/block/zram0 ] || { not_ok "zram0 present"; tap_end; exit; }
echo 1 > /sys/block/zram0/reset
echo 48M > /sys/block/zram0/disksize
mkswap -f -U clear $z >/dev/null
check "swapon --discard=pages zram0" swapon --discard=pages -p 2 $z
sd0=$(awk '$1 == "stat" && $2 == "sync_discards" { print $3 }' $DBG 2>/dev/null)
cg=$(memcg zram 32M)
in_memcg "$cg" "$FILL" --anon 72M --passes 6 --quiet
check "worker verified on discard-enabled zram" test $? -eq 0
sd1=$(awk '$1 == "stat" && $2 == "sync_discards" { print $3 }' $DBG 2>/dev/null)
diag "sync_discards ${sd0:-?} -> ${sd1:-?}, zram mm_stat: $(cat /sys/block/zram0/mm_stat)"
rmdir "$cg"

# The synchronous discard, met on purpose: a 16 MiB device holding 4 MiB,
# then one task fills the rest (12 MiB), unmaps it (its whole clusters go to
# the discard list, the discard work is queued on this CPU) and at once pages
# out 5 MiB more, more than the partly used clusters have free: the order-0
# allocation finds only clusters waiting for discard. swapq-fill unmaps and
# pages out as SCHED_FIFO, pinned to CPU 0 here, so the discard worker of CPU
# 0 cannot run first and the allocation must discard a cluster itself. A few
# tries: the worker gets the CPU if the task sleeps.
swap_off_all
echo 1 > /sys/block/zram0/reset
echo 16M > /sys/block/zram0/disksize
mkswap -f -U clear $z >/dev/null
swapon --discard=pages -p 2 $z
taskset -c 0 "$FILL" --anon 4M --pageout --stop-after-fill --quiet &
holder=$!
wait_stopped $holder
sd0=$(awk '$1 == "stat" && $2 == "sync_discards" { print $3 }' $DBG)
tries=0 rc=0
while [ $tries -lt 3 ] && [ $rc = 0 ]; do
	tries=$((tries + 1))
	taskset -c 0 "$FILL" --freed 12M --anon 5M --pageout --quiet || rc=$?
	sd1=$(awk '$1 == "stat" && $2 == "sync_discards" { print $3 }' $DBG)
	[ "$sd1" -gt "$sd0" ] && break
done
diag "sync_discards $sd0 -> $sd1 in $tries tries; $(tail -n 1 /proc/swaps)"
check "worker verified after freeing and reusing swap (status $rc)" test $rc -eq 0
check "order-0 allocation discarded a cluster synchronously ($sd0 -> $sd1)" test "$sd1" -gt "$sd0"
kill -CONT $holder
wait $holder
check "holder of the rest of the device verified" test $? -eq 0
swap_off_all
echo 1 > /sys/block/zram0/reset
tap_end
