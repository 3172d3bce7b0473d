#!/bin/bash
# Race: random devices swapped off and on again in a loop while workers in a
# memcg swap anonymous memory (64K mTHP enabled) and verify every byte.
. "$(dirname "$0")/lib.sh"
duration=${SWAPQ_DURATION:-60}

swap_off_all
thp=/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled
[ -w "$thp" ] && echo always > "$thp"
for i in 0 1 2 3; do swap_on "$(ram $i)" 5 131072; done
cg=$(memcg churn 96M)

workers() {
	local end=$((SECONDS + duration)) n=0 rc=0
	while [ $SECONDS -lt $end ]; do
		in_memcg "$cg" "$FILL" --anon 128M --passes 2 --quiet || { rc=1; break; }
		n=$((n + 1))
	done
	echo "# worker runs: $n"
	return $rc
}
workers &
wpid=$!

cycles=0 fails=0
while kill -0 $wpid 2>/dev/null; do
	d=$(ram $((RANDOM % 4)))
	if swapoff "$d" && swap_on "$d" 5 131072; then
		cycles=$((cycles + 1))
	else
		fails=$((fails + 1))
		swap_on "$d" 5 131072 2>/dev/null
	fi
done
wait $wpid
wrc=$?
echo "# swapoff/swapon cycles: $cycles"
check "workers verified their data under churn" test $wrc -eq 0
check "swapoff/swapon cycles ran ($cycles, $fails failed)" test $cycles -gt 0 -a $fails -eq 0
rmdir "$cg"
[ -w "$thp" ] && echo never > "$thp"
swap_off_all
check "all devices swapped off" test "$(swap_count)" -eq 0
exit $((failures > 0))
