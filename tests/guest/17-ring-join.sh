#!/bin/bash
# A device joins a ring while a worker swaps: every CPU starts over in that
# ring at its CPU number modulo the ring size with a full quota (debugfs
# cpu lines), so the CPUs spread over the members at once instead of all
# staying on the device that was there first; then both devices take pages
# and the data survives. A second join spreads them again.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin
cpus=$(nproc)
[ "$cpus" -ge 2 ] || { skip "CPUs spread over a grown ring" "needs 2 CPUs, has $cpus"; tap_end; exit; }

# cpu_lines RING: "cpu position left" of every CPU in RING, per debugfs
cpu_lines() { awk -v r="$1" '$1 == "cpu" && $4 == r { print $2, $6, $8 }' $DBG; }
# spread_from_cpu WHAT NR QUOTA: each CPU c at position c % NR with QUOTA left
spread_from_cpu() {
	local what=$1 nr=$2 quota=$3 cpu pos left bad=0 n=0
	local -A at
	while read -r cpu pos left; do
		n=$((n + 1))
		at[$pos]=1
		if [ "$pos" != $((cpu % nr)) ] || [ "$left" != "$quota" ]; then
			diag "$what: cpu $cpu at position $pos with $left left, want $((cpu % nr)) with $quota"
			bad=1
		fi
	done < <(cpu_lines 0)
	check "$what: every CPU at its CPU number modulo $nr, full quota ($n CPUs)" test $bad = 0 -a $n -gt 0
	check "$what: CPUs spread over ${#at[@]} of $nr members" test ${#at[@]} -eq $((nr < cpus ? nr : cpus))
}

swap_off_all
swap_on "$(ram 0)" 7
cg=$(memcg ring-join 48M)
quota=$(cat $QUEUE/default_quota)

# A worker swaps through the ring of one; stop it, a second device joins
memcg_bg "$cg" "$FILL" --anon 160M --passes 3 --quiet
until [ "$(swap_used "$(ram 0)")" -gt $((32 * 1024)) ]; do
	kill -0 $worker 2>/dev/null || break
	sleep 0.2
done
kill -STOP $worker && wait_stopped $worker
diag "before: $(cpu_lines 0 | tr '\n' ';')"
swap_on "$(ram 1)" 7
diag "after $(ram 1) joined: $(cpu_lines 0 | tr '\n' ';')"
spread_from_cpu "ring of one grows to two" 2 "$quota"

# Swapping goes on through both; then a third device joins
kill -CONT $worker
a1=$(dev_attr "$(ram 1)" allocated)
until [ $(( $(dev_attr "$(ram 1)" allocated) - a1 )) -gt 4096 ]; do
	kill -0 $worker 2>/dev/null || break
	sleep 0.2
done
kill -STOP $worker && wait_stopped $worker
check "$(ram 1) takes pages after joining ($(( $(dev_attr "$(ram 1)" allocated) - a1 )) pages)" \
	test $(( $(dev_attr "$(ram 1)" allocated) - a1 )) -gt 4096
swap_on "$(ram 2)" 7
diag "after $(ram 2) joined: $(cpu_lines 0 | tr '\n' ';')"
spread_from_cpu "ring of two grows to three" 3 "$quota"

kill -CONT $worker
wait $worker
check "worker data verified across both joins" test $? -eq 0
check "queue interfaces consistent" consistent
rmdir "$cg"
swap_off_all
tap_end
