#!/bin/bash
# memcg: memory.swap.max is honoured and an allocation it refuses is counted
# as a swap fail event; a worker that does not fit is OOM-killed.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

swap_off_all
swap_on "$(ram 0)" 3
swap_on "$(ram 1)" 3
cg=$(memcg swapmax 48M)
echo 32M > "$cg/memory.swap.max"
echo 1 > "$cg/memory.oom.group"
fails0=$(awk '$1 == "fail" { print $2 }' "$cg/memory.swap.events")
ooms0=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events")
# 120 MiB cannot fit in 48M + 32M: the worker must be OOM-killed, never
# exceeding the swap limit
in_memcg "$cg" "$FILL" --anon 120M --quiet
rc=$?
fails=$(awk '$1 == "fail" { print $2 }' "$cg/memory.swap.events")
ooms=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events")
diag "worker status $rc, swap.events: $(tr '\n' ' ' < "$cg/memory.swap.events")"
# the OOM killer's SIGKILL: 128 + 9 (swapq-fill itself exits 0, 1 or 2)
check "worker could not exceed memory + swap limits: killed by SIGKILL (status $rc)" test "$rc" -eq 137
check "memory.events counts the OOM kill (oom_kill ${ooms0:-missing} -> ${ooms:-missing})" \
	test "${ooms:-0}" -gt "${ooms0:-0}"
if peak=$(cat "$cg/memory.swap.peak"); then
	check "swap use never above memory.swap.max ($peak bytes)" test "$peak" -le $((32 << 20))
else
	not_ok "swap use never above memory.swap.max: no memory.swap.peak"
fi
check "swap fail events counted ($fails0 -> $fails)" test "$fails" -gt "$fails0"
# Within the limit the same worker succeeds
echo max > "$cg/memory.swap.max"
in_memcg "$cg" "$FILL" --anon 120M --quiet
check "with swap.max lifted the worker verifies" test $? -eq 0
rmdir "$cg"
swap_off_all
exit $((failures > 0))
