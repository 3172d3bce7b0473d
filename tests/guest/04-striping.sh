#!/bin/bash
# Striping: four equal-priority devices share at least 256 MiB of swap
# evenly (each within 10 % of a quarter).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

swap_off_all
for i in 0 1 2 3; do swap_on "$(ram $i)" 7; done
cg=$(memcg stripe 64M)
run_stopped "$cg" 336M
sed 's/^/# /' /proc/swaps
total=0
for i in 0 1 2 3; do u[i]=$(swap_used "$(ram $i)"); total=$((total + u[i])); done
check "at least 256 MiB swapped ($total KiB)" test $total -ge $((256 * 1024))
for i in 0 1 2 3; do
	check "$(ram $i) share within 10% of even (${u[i]} of $total KiB)" within 10 "${u[i]}" $((total / 4))
done
finish_worker
rmdir "$cg"
swap_off_all
exit $((failures > 0))
