#!/bin/bash
# Strict priority: the highest ring is the only one used until its devices
# are full, and its equal-priority devices share it; only then does
# allocation fall back to the next ring. Every worker's data verifies after
# swap-in.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin

swap_off_all
swap_on "$(ram 0)" 10 32768	# 32 MiB each in the top ring
swap_on "$(ram 1)" 10 32768
swap_on "$(ram 2)" 5
swap_on "$(ram 3)" -	# default priority, lowest ring
cg=$(memcg prio 48M)

# 40 MiB to swap: fits in the top ring alone
run_stopped "$cg" 88M
sed 's/^/# /' /proc/swaps
for i in 0 1; do used[i]=$(swap_used "$(ram $i)"); done
top=$((used[0] + used[1]))
check "top ring carries the swap ($top KiB)" test $top -gt $((20 * 1024))
# an even split gives each half: a device left out of the ring fails
for i in 0 1; do
	check "$(ram $i) carries a share of the top ring (${used[i]} of $top KiB)" test $((used[i] * 100)) -ge $((top * 25))
done
check "lower rings unused while the top ring has room" \
	test "$(swap_used "$(ram 2)")" -eq 0 -a "$(swap_used "$(ram 3)")" -eq 0
finish_worker

# 160 MiB to swap: the top ring (64 MiB) fills, the next ring takes the rest,
# the default-priority ring stays unused
run_stopped "$cg" 208M
sed 's/^/# /' /proc/swaps
for i in 0 1; do
	u=$(swap_used "$(ram $i)")
	check "$(ram $i) nearly full before fallback ($u of 32764 KiB)" test "$u" -ge $((32764 * 90 / 100))
done
check "second ring took the overflow ($(swap_used "$(ram 2)") KiB)" test "$(swap_used "$(ram 2)")" -gt $((50 * 1024))
check "default-priority ring still unused" test "$(swap_used "$(ram 3)")" -eq 0
finish_worker
rmdir "$cg"
swap_off_all
check "all devices swapped off" test "$(swap_count)" -eq 0
tap_end
