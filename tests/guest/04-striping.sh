#!/bin/bash
# Striping: four equal-priority devices share at least 256 MiB of swap
# evenly (each within 10 % of a quarter). Then one CPU's turns, which tell
# the queue from 7.3: a task pinned to CPU 0 pages out 144 pages over two
# devices of quota 32; CPU 0 must take 32 pages from each in turn (the two
# within one quota of each other wherever its turn began, and exactly as
# its debugfs turn predicts), and that turn must move on by exactly the 144
# pages. 7.3 puts all 144 pages in CPU 0's current cluster, on one device:
# make control CONTROL=base runs this file there.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin

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

# One CPU's turns: order-0 pages only, so that each page is one allocation
anon64=/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled
old64=$(thp_mode "$anon64")
echo never > "$anon64"
quota=32 pages=144
swap_on "$(ram 0)" 7
swap_on "$(ram 1)" 7
if [ -d "$QUEUE" ]; then
	for i in 0 1; do echo $quota > "$QUEUE/devices/$(dev_type "$(ram $i)")/quota"; done
else
	diag "no $QUEUE: this kernel has no swap device queue"
fi
# cpu_turn: "TYPE LEFT", the device CPU 0 allocates from next in ring 0 and
# the pages left in its turn
cpu_turn() {
	awk '$1 == "cpu" && $2 == 0 && $4 == 0 { p = $6; l = $8 }
	     $1 == "device" && $4 == 0 { t[$6] = $2 }
	     END { if (p != "") print t[p], l }' "$DBG" 2>/dev/null
}
read -r type0 left0 < <(cpu_turn)
taskset -c 0 "$FILL" --anon $((pages * 4))K --pageout --stop-after-fill --quiet &
worker=$!
wait_stopped $worker
u0=$(($(swap_used "$(ram 0)") / 4)) u1=$(($(swap_used "$(ram 1)") / 4))
diag "CPU 0 paged out $pages pages: $(ram 0) $u0, $(ram 1) $u1"
check "CPU 0 took $quota pages from each device in turn: within $quota of each other ($u0 and $u1)" \
	test "$u0" -gt 0 -a "$u1" -gt 0 -a $((u0 - u1)) -le $quota -a $((u1 - u0)) -le $quota
if [ -n "$type0" ]; then
	# where the queue says CPU 0's pages go and its turn ends, from type0
	t0=$(dev_type "$(ram 0)") t1=$(dev_type "$(ram 1)")
	type=$type0 left=$left0 e0=0 e1=0
	for ((n = 0; n < pages; n++)); do
		if [ "$type" = "$t0" ]; then e0=$((e0 + 1)); else e1=$((e1 + 1)); fi
		left=$((left - 1))
		if [ $left -le 0 ]; then
			if [ "$type" = "$t0" ]; then type=$t1; else type=$t0; fi
			left=$quota
		fi
	done
	read -r type1 left1 < <(cpu_turn)
	check "CPU 0's pages went where its turn said: $e0 and $e1 (got $u0 and $u1)" \
		test "$u0" -eq $e0 -a "$u1" -eq $e1
	check "CPU 0's turn moved by $pages pages: type $type0 left $left0 -> type $type left $left (debugfs: type $type1 left $left1)" \
		test "$type1" = "$type" -a "$left1" = "$left"
else
	not_ok "CPU 0's turn moved by $pages pages: no cpu 0 line in $DBG"
fi
finish_worker
echo "$old64" > "$anon64"
swap_off_all
tap_end
