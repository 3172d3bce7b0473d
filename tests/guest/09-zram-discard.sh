#!/bin/bash
# zram with discard: a small, discard-enabled zram device rewritten over and
# over goes through the discard paths (including the bounded synchronous
# discard when every free cluster waits for discard); data still verifies.
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
swap_off_all
echo 1 > /sys/block/zram0/reset
exit $((failures > 0))
