#!/bin/bash
# End-to-end harness check: three equal-priority brd devices plus one lower,
# a worker far beyond its memcg limit; its data must verify, swap must be
# spread over the three equal devices and the lower one left unused.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin

swap_off_all
for i in 0 1 2; do swap_on "$(ram $i)" 5; done
swap_on "$(ram 3)" 1
cg=$(memcg harness 48M)

memcg_bg "$cg" "$FILL" --anon 128M --seed 7 --stop-after-fill
pid=$worker
if wait_stopped $pid; then
	sed 's/^/# /' /proc/swaps
	total=0
	for i in 0 1 2; do u[i]=$(swap_used "$(ram $i)"); total=$((total + u[i])); done
	check "swap used beyond the limit (${total} KiB on the equal devices)" \
		test "$total" -ge $((60 * 1024))
	for i in 0 1 2; do
		check "$(ram $i) carries a share of the equal ring (${u[i]} of $total KiB)" \
			test $((u[i] * 100)) -ge $((total * 15))
	done
	check "lower-priority $(ram 3) unused ($(swap_used "$(ram 3)") KiB)" \
		test "$(swap_used "$(ram 3)")" -eq 0
	kill -CONT $pid
else
	not_ok "worker filled memory and stopped"
fi
wait $pid
check "worker data verified after swap-in" test $? -eq 0
rmdir "$cg"
swap_off_all
check "all devices swapped off" test "$(swap_count)" -eq 0
tap_end
