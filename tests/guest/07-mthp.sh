#!/bin/bash
# mTHP: with 64K anonymous mTHP enabled, large folios swap out whole
# (hugepages-64kB swpout rises) and verify; on fragmented devices the split
# fallback still verifies.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin
T=/sys/kernel/mm/transparent_hugepage/hugepages-64kB
[ -d "$T" ] || { not_ok "64K mTHP supported by this kernel"; tap_end; exit; }

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

# Fragment: fill a 24 MiB device with 4K pages (mTHP off), then bring every
# 8th page back: free slots scattered over clusters that order 0 owns and no
# free cluster, so a 64K folio finds no place and must be split; its 4K
# pieces go into the holes
swap_off_all
swap_on "$(ram 2)" 4 24576
echo never > $T/enabled
memcg_bg "$cg" "$FILL" --anon 23M --pageout --holes 8 --stop-after-fill --quiet
small=$worker
wait_stopped $small
diag "fragmented: $(tail -n 1 /proc/swaps)"
echo always > $T/enabled
fb=$(cat $T/stats/swpout_fallback)
out=$(awk '$1 == "pswpout" { print $2 }' /proc/vmstat)
in_memcg "$cg" "$FILL" --anon 2M --pageout --quiet
check "worker with 64K folios verified on a fragmented device" test $? -eq 0
fb=$(($(cat $T/stats/swpout_fallback) - fb))
out=$(($(awk '$1 == "pswpout" { print $2 }' /proc/vmstat) - out))
diag "64K swpout_fallback +$fb, pswpout +$out pages"
check "64K folios split to swap out (swpout_fallback +$fb)" test $fb -gt 0
check "their 4K pieces swapped out into the holes (pswpout +$out)" test $out -ge 256
kill -CONT $small
wait $small
check "4K worker verified after its holes were reused" test $? -eq 0
echo never > $T/enabled
rmdir "$cg"
swap_off_all
tap_end
