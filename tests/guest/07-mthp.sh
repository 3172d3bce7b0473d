#!/bin/bash
# mTHP: with 64K anonymous mTHP enabled, large folios swap out whole
# (hugepages-64kB swpout rises) and verify; on fragmented devices the split
# fallback still verifies.
. "$(dirname "$0")/lib.sh"
T=/sys/kernel/mm/transparent_hugepage/hugepages-64kB
[ -d "$T" ] || { not_ok "64K mTHP supported by this kernel"; exit 1; }

swap_off_all
echo always > $T/enabled
swap_on "$(ram 0)" 4
swap_on "$(ram 1)" 4
cg=$(memcg mthp 64M)
before=$(cat $T/stats/swpout)
run_stopped "$cg" 192M
after=$(cat $T/stats/swpout)
diag "64K swpout $before -> $after, fallback $(cat $T/stats/swpout_fallback)"
check "64K folios swapped out whole ($((after - before)))" test $((after - before)) -gt 100
finish_worker

# Fragment: fill a small device with 4K pages from many short-lived workers,
# then let large folios find only scattered free slots
swap_off_all
swap_on "$(ram 2)" 4 24576
echo never > $T/enabled
memcg_bg "$cg" "$FILL" --anon 80M --stop-after-fill --quiet
small=$worker
wait_stopped $small
echo always > $T/enabled
fb=$(cat $T/stats/swpout_fallback)
in_memcg "$cg" "$FILL" --anon 48M --quiet
check "worker with 64K folios verified on a fragmented device" test $? -eq 0
diag "64K swpout_fallback $fb -> $(cat $T/stats/swpout_fallback)"
kill -CONT $small
wait $small
rc=$?
# the memcg may OOM-kill the stopped 4K worker (137) once the device is
# full; what must never happen is a mismatch (1)
check "4K worker saw no mismatch (status $rc)" test $rc -ne 1 -a $rc -ne 2
echo never > $T/enabled
rmdir "$cg"
swap_off_all
exit $((failures > 0))
