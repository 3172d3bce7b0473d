#!/bin/bash
# Race: swapoff against large-folio (64K mTHP) swap-in. A worker in a memcg
# swaps 64K folios out and faults them back in while a loop swaps a random
# one of four equal-priority devices off and on again, so swapoff's
# try_to_unuse() keeps meeting folios that the fault path has just put in the
# swap cache and not yet mapped. Three phases: anonymous memory on brd, shmem
# (memfd) on brd, anonymous and shmem on zram. Each phase starts worker runs
# for SWAPQ_DURATION seconds (default 30; the whole test takes about 100 s
# when the host is idle) and swaps devices off and on while the last run
# lasts, or stops once the kernel log shows a splat.
. "$(dirname "$0")/lib.sh"
duration=${SWAPQ_DURATION:-30}
T=/sys/kernel/mm/transparent_hugepage
ZC=/sys/class/zram-control
splat_check=$SWAPQ_REPO/scripts/splat-check.sh
[ -w $T/hugepages-64kB/enabled ] || { not_ok "64K mTHP supported by this kernel"; exit 1; }

# log_clean SINCE: no splat in the kernel log after its first SINCE lines
log_clean() {
	dmesg | tail -n +$(($1 + 1)) > /tmp/11-dmesg
	bash "$splat_check" /tmp/11-dmesg 2>&1 | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}

# race NAME SIZE_KIB DEV... -- WORKER-ARGS...: swap on DEV... at one
# priority, run swapq-fill WORKER-ARGS in a 96M memcg over and over, and
# meanwhile swap a random DEV off and on again
race() {
	local name=$1 size=$2 devs=() d
	shift 2
	while [ "$1" != -- ]; do devs+=("$1"); shift; done
	shift
	swap_off_all
	for d in "${devs[@]}"; do swap_on "$d" 5 $size || not_ok "$name: swapon $d"; done
	local cg mark stop=/tmp/11-stop.$name
	cg=$(memcg swapoff-mthp 96M)
	mark=$(dmesg | wc -l)
	rm -f $stop
	local sw0 sh0
	sw0=$(cat $T/hugepages-64kB/stats/swpin 2>/dev/null || echo 0)
	sh0=$(cat $T/hugepages-64kB/stats/shmem_alloc 2>/dev/null || echo 0)

	local end=$((SECONDS + duration))
	(
		n=0 rc=0
		while [ $SECONDS -lt $end ] && [ ! -e $stop ]; do
			in_memcg "$cg" "$FILL" --passes 2 --quiet "$@" || { rc=1; break; }
			n=$((n + 1))
		done
		echo "# $name: worker runs: $n"
		exit $rc
	) &
	# churn as long as the worker runs; it starts no new run after the
	# deadline or once the kernel log shows a splat
	local wpid=$! cycles=0 fails=0 clean=1 last=$SECONDS
	while kill -0 $wpid 2>/dev/null && [ ! -e $stop ]; do
		d=${devs[RANDOM % ${#devs[@]}]}
		if swapoff "$d" && swap_on "$d" 5 $size; then
			cycles=$((cycles + 1))
		else
			fails=$((fails + 1))
			swap_on "$d" 5 $size 2>/dev/null
		fi
		# stop early once the kernel complained: the rest is fallout
		if [ $clean = 1 ] && [ $((SECONDS - last)) -ge 2 ]; then
			last=$SECONDS
			if dmesg | tail -n +$((mark + 1)) | grep -qE 'BUG:|WARNING:|Oops|Bad page'; then
				clean=0
				diag "$name: kernel splat after $cycles cycles, stopping early"
				touch $stop
			fi
		fi
	done
	local t=$SECONDS
	wait $wpid
	local wrc=$?
	diag "$name: $cycles swapoff/swapon cycles in $((t - end + duration))s, worker done $((SECONDS - t))s after, 64K swpin $sw0 -> $(cat $T/hugepages-64kB/stats/swpin 2>/dev/null), 64K shmem_alloc $sh0 -> $(cat $T/hugepages-64kB/stats/shmem_alloc 2>/dev/null)"
	check "$name: worker verified its data under swapoff churn" test $wrc -eq 0
	check "$name: swapoff/swapon cycles ran ($cycles, $fails failed)" test $cycles -gt 0 -a $fails -eq 0
	check "$name: kernel log clean" log_clean "$mark"
	rmdir "$cg"
	rm -f $stop
	swap_off_all
}

echo always > $T/hugepages-64kB/enabled
brd=("$(ram 0)" "$(ram 1)" "$(ram 2)" "$(ram 3)")
race anon-brd 131072 "${brd[@]}" -- --anon 128M
echo never > $T/hugepages-64kB/enabled

# memfd lives on the internal tmpfs mount, whose huge setting follows the
# top-level shmem_enabled; hugepages-64kB/shmem_enabled covers anon shmem.
old_shmem=$(sed 's/.*\[\(.*\)\].*/\1/' $T/shmem_enabled)
echo always > $T/shmem_enabled
echo always > $T/hugepages-64kB/shmem_enabled
race shmem-brd 131072 "${brd[@]}" -- --shmem 128M

# zram: one device by default, add three more
echo always > $T/hugepages-64kB/enabled
zram=() added=()
for i in 0 1 2 3; do
	if [ ! -e /sys/block/zram$i ]; then
		n=$(cat $ZC/hot_add 2>/dev/null) || break
		added+=("$n")
	fi
	echo 1 > /sys/block/zram$i/reset
	echo 128M > /sys/block/zram$i/disksize
	zram+=("/dev/zram$i")
done
check "four zram devices (${#zram[@]})" test ${#zram[@]} -eq 4
race anon-shmem-zram "" "${zram[@]}" -- --anon 64M --shmem 64M
for z in "${zram[@]}"; do echo 1 > /sys/block/${z#/dev/}/reset; done
for n in "${added[@]}"; do echo "$n" > $ZC/hot_remove; done

echo never > $T/hugepages-64kB/enabled
echo never > $T/hugepages-64kB/shmem_enabled
echo "$old_shmem" > $T/shmem_enabled
check "all devices swapped off" test "$(swap_count)" -eq 0
exit $((failures > 0))
