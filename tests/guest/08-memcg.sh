#!/bin/bash
# memcg: memory.swap.max is honoured and an allocation it refuses is counted
# as a swap fail event.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

swap_off_all
swap_on "$(ram 0)" 3
swap_on "$(ram 1)" 3
cg=$(memcg swapmax 48M)
echo 32M > "$cg/memory.swap.max"
echo 1 > "$cg/memory.oom.group"
fails0=$(awk '$1 == "fail" { print $2 }' "$cg/memory.swap.events")
# 120 MiB cannot fit in 48M + 32M: the worker must be OOM-killed, never
# exceeding the swap limit
in_memcg "$cg" "$FILL" --anon 120M --quiet
rc=$?
peak=$(cat "$cg/memory.swap.peak" 2>/dev/null || echo 0)
fails=$(awk '$1 == "fail" { print $2 }' "$cg/memory.swap.events")
diag "worker status $rc, swap.peak $peak, swap.events: $(tr '\n' ' ' < "$cg/memory.swap.events")"
check "worker could not exceed memory + swap limits (status $rc)" test $rc -ne 0
check "swap use never above memory.swap.max ($peak bytes)" test "$peak" -le $((32 << 20))
check "swap fail events counted ($fails0 -> $fails)" test "$fails" -gt "$fails0"
# Within the limit the same worker succeeds
echo max > "$cg/memory.swap.max"
in_memcg "$cg" "$FILL" --anon 120M --quiet
check "with swap.max lifted the worker verifies" test $? -eq 0
rmdir "$cg"
swap_off_all
exit $((failures > 0))
