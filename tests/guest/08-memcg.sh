#!/bin/bash
# memcg: memory.swap.max is honoured, a swap-out it refuses is counted as a
# swap max and fail event, and a worker that does not fit is OOM-killed.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin

swap_off_all
swap_on "$(ram 0)" 3
swap_on "$(ram 1)" 3
cg=$(memcg swapmax 48M)
echo 32M > "$cg/memory.swap.max"
echo 1 > "$cg/memory.oom.group"
ooms0=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events")
# 120 MiB cannot fit in 48M + 32M: the worker must be OOM-killed, never
# exceeding the swap limit
in_memcg "$cg" "$FILL" --anon 120M --quiet
rc=$?
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
# Within the limit the same worker succeeds
echo max > "$cg/memory.swap.max"
in_memcg "$cg" "$FILL" --anon 120M --quiet
check "with swap.max lifted the worker verifies" test $? -eq 0
rmdir "$cg"

# Reclaim under a memcg limit stops scanning anonymous memory once the
# group's swap is used up, so it may never be refused: MADV_PAGEOUT is not
# stopped, and pushes 16M against a 4M swap.max. The 12M refused must be
# counted and stay in memory, intact.
cg=$(memcg swapfail 64M)
echo 4M > "$cg/memory.swap.max"
event() { awk -v e="$1" '$1 == e { print $2 }' "$cg/memory.swap.events"; }
max0=$(event max)
fails0=$(event fail)
in_memcg "$cg" "$FILL" --anon 16M --pageout --quiet
rc=$?
max=$(event max)
fails=$(event fail)
check "worker verified what swap.max kept in memory (status $rc)" test "$rc" -eq 0
peak=$(cat "$cg/memory.swap.peak")
check "swap use never above memory.swap.max (${peak:-no memory.swap.peak})" \
	test "${peak:-0}" -gt 0 -a "${peak:-0}" -le $((4 << 20))
check "swap max events counted (${max0:-missing} -> ${max:-missing})" \
	test "${max:-0}" -gt "${max0:-0}"
check "swap fail events counted (${fails0:-missing} -> ${fails:-missing})" \
	test "${fails:-0}" -gt "${fails0:-0}"
rmdir "$cg"
swap_off_all
tap_end
