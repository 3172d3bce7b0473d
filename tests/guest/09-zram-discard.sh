#!/bin/bash
# zram with discard: a small, discard-enabled zram device rewritten over and
# over goes through the discard paths; then the bounded synchronous discard
# (every free cluster waits for discard) is met on purpose; data verifies.
. "$(dirname "$0")/lib.sh"
DBG=/sys/kernel/debug/swap/queue
z=/dev/zram0

swap_off_all
[ -e /sys/block/zram0 ] || { not_ok "zram0 present"; exit 1; }
echo 1 > /sys/block/zram0/reset
echo 48M > /sys/block/zram0/disksize
mkswap -f $z >/dev/null
check "swapon --discard=pages zram0" swapon --discard=pages -p 2 $z
sd0=$(awk '$1 == "stat" && $2 == "sync_discards" { print $3 }' $DBG 2>/dev/null)
cg=$(memcg zram 32M)
in_memcg "$cg" "$FILL" --anon 72M --passes 6 --quiet
check "worker verified on discard-enabled zram" test $? -eq 0
sd1=$(awk '$1 == "stat" && $2 == "sync_discards" { print $3 }' $DBG 2>/dev/null)
diag "sync_discards ${sd0:-?} -> ${sd1:-?}, zram mm_stat: $(cat /sys/block/zram0/mm_stat)"
rmdir "$cg"

# The synchronous discard, met on purpose: a full 16 MiB device, then one
# task unmaps 4 MiB of swapped-out memory (its clusters go to the discard
# list and the discard work is queued on this CPU) and at once pages out
# 3 MiB more, which finds only clusters waiting for discard. The task runs
# SCHED_FIFO on CPU 0, so the discard worker of CPU 0 cannot run first and
# the allocation must discard a cluster itself. A few tries: the worker
# gets the CPU if the task sleeps.
swap_off_all
echo 1 > /sys/block/zram0/reset
echo 16M > /sys/block/zram0/disksize
mkswap -f $z >/dev/null
swapon --discard=pages -p 2 $z
"$FILL" --anon 12M --pageout --stop-after-fill --quiet &
holder=$!
wait_stopped $holder
sd0=$(awk '$1 == "stat" && $2 == "sync_discards" { print $3 }' $DBG)
tries=0 rc=0
while [ $tries -lt 5 ] && [ $rc = 0 ]; do
	tries=$((tries + 1))
	taskset -c 0 chrt -f 10 "$FILL" --freed 4M --anon 3M --pageout --quiet || rc=$?
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
exit $((failures > 0))
