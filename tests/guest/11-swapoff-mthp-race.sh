#!/bin/bash
# Race: swapoff against large-folio (64K mTHP) swap-in. Workers swap 64K
# folios out and fault them back in while a loop swaps a random one of four
# equal-priority devices off and on again, so that swapoff's try_to_unuse()
# keeps meeting folios that the fault path has put in the swap cache and not
# yet mapped. Phases:
#   anon-brd         128M written twice in a 96M memcg by four processes, so
#                    that every swapoff crosses four fault fronts
#   anon-brd-bounce  eight processes each page out one 64K folio and fault it
#                    back in, over and over: most of the time the folio is
#                    between swap cache and mapping
#   anon-file        as anon-brd on two swap files on a fragmented ext4 and
#                    two brd devices: folios split at swap-out to a file
#   anon-file-4k     the same with 64K mTHP off
#   shmem-brd        the same with shmem (memfd) folios
#   anon-zram, shmem-zram  on zram instead of brd
# On a kernel with tests/inject/swapin-delay.patch every large anonymous
# folio a fault reads in waits unlocked in the swap cache before the fault
# maps it, and pristine 7.3 then fails the bounce phase within seconds (make
# inject INJECT=base-inject).
# Each phase starts worker runs for SWAPQ_DURATION seconds (default 30) and
# swaps devices off and on while the last run lasts; a phase stops early once
# the kernel log shows a splat. SWAPQ_PHASES="NAME ..." selects phases.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin
duration=${SWAPQ_DURATION:-30}
T=/sys/kernel/mm/transparent_hugepage
ZC=/sys/class/zram-control
[ -w $T/hugepages-64kB/enabled ] || { not_ok "64K mTHP supported by this kernel"; tap_end; exit; }
inject=/sys/module/kernel/parameters/swapq_inject_swapin_delay_ms
[ -r $inject ] && diag "injected large-folio swap-in delay: $(cat $inject) ms"

# race NAME MEMCG_MAX WORKERS SIZE_KIB DEV... -- WORKER-ARGS...: swap on
# DEV... at one priority (SIZE_KIB of each, "" for all), run WORKERS
# swapq-fill WORKER-ARGS at a time in a memcg over and over, and meanwhile
# swap a random DEV off and on again
race() {
	local name=$1 max=$2 nw=$3 size=$4 devs=() d
	shift 4
	# SWAPQ_PHASES="NAME ...": only these phases
	case " ${SWAPQ_PHASES:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	while [ "$1" != -- ]; do devs+=("$1"); shift; done
	shift
	swap_off_all
	for d in "${devs[@]}"; do swap_on "$d" 5 "$size" || not_ok "$name: swapon $d"; done
	local cg mark stop=/tmp/11-stop.$name
	cg=$(memcg swapoff-mthp "$max")
	mark=11-$name
	log_mark "$mark"
	rm -f "$stop"
	local sw0 sh0
	sw0=$(cat $T/hugepages-64kB/stats/swpin 2>/dev/null || echo 0)
	sh0=$(cat $T/hugepages-64kB/stats/shmem_alloc 2>/dev/null || echo 0)

	local end=$((SECONDS + duration))
	(
		n=0 rc=0
		while [ $SECONDS -lt "$end" ] && [ ! -e "$stop" ]; do
			pids=()
			for _ in $(seq "$nw"); do
				in_memcg "$cg" "$FILL" --passes 2 --quiet "$@" &
				pids+=($!)
			done
			for p in "${pids[@]}"; do wait "$p" || rc=1; done
			[ $rc = 0 ] || break
			n=$((n + 1))
		done
		echo "# $name: worker runs: $n"
		exit $rc
	) &
	# churn as long as the worker runs; it starts no new run after the
	# deadline or once the kernel log shows a splat
	local wpid=$! cycles=0 fails=0 clean=1 last=$SECONDS
	while kill -0 "$wpid" 2>/dev/null && [ ! -e "$stop" ]; do
		d=${devs[RANDOM % ${#devs[@]}]}
		# the signature stays: swapon again without mkswap (seconds here)
		if swapoff "$d" && swapon -p 5 "$d"; then
			cycles=$((cycles + 1))
		else
			fails=$((fails + 1))
			swap_on "$d" 5 "$size" 2>/dev/null
		fi
		# stop early once the kernel complained: the rest is fallout
		if [ $clean = 1 ] && [ $((SECONDS - last)) -ge 2 ]; then
			last=$SECONDS
			if log_since "$mark" | grep -qE 'BUG:|WARNING:|Oops|Bad page'; then
				clean=0
				diag "$name: kernel splat after $cycles cycles, stopping early"
				touch "$stop"
			fi
		fi
	done
	local t=$SECONDS
	wait $wpid
	local wrc=$?
	diag "$name: $cycles swapoff/swapon cycles in $((t - end + duration))s, worker done $((SECONDS - t))s after, 64K swpin $sw0 -> $(cat $T/hugepages-64kB/stats/swpin 2>/dev/null), 64K shmem_alloc $sh0 -> $(cat $T/hugepages-64kB/stats/shmem_alloc 2>/dev/null)"
	check "$name: workers verified their data under swapoff churn" test $wrc -eq 0
	check "$name: swapoff/swapon cycles ran ($cycles, $fails failed)" test $cycles -gt 0 -a $fails -eq 0
	check "$name: kernel log clean" log_clean "$mark"
	# the window is a large folio between swap cache and mapping: on brd
	# with anonymous 64K folios it must have been there
	case $name in anon-brd*)
		check "$name: 64K folios were swapped in during the churn" \
			test "$(cat $T/hugepages-64kB/stats/swpin 2>/dev/null || echo 0)" -gt "$sw0" ;;
	esac
	rmdir "$cg"
	rm -f "$stop"
	swap_off_all
}

echo always > $T/hugepages-64kB/enabled
brd=("$(ram 0)" "$(ram 1)" "$(ram 2)" "$(ram 3)")
race anon-brd 96M 4 131072 "${brd[@]}" -- --anon 32M
race anon-brd-bounce 64M 8 131072 "${brd[@]}" -- --anon 128K --bounce 10
# two swap files on a fragmented ext4 (fragmented_fs in lib.sh) beside two
# brd devices: with 64K mTHP on, folios are split at swap-out to a file and
# go whole to a device; anon-file-4k is the same with small folios only
file_race() { # NAME 64K-MODE
	case " ${SWAPQ_PHASES:-$1} " in *" $1 "*) ;; *) return 0 ;; esac
	local fs f
	fs=$(mktemp -d)
	echo "$2" > $T/hugepages-64kB/enabled
	if fragmented_fs "$(ram 6)" "$fs"; then
		for f in a b; do
			swap_file "$fs/swap-$f" 80 || not_ok "$1: swap file $fs/swap-$f"
		done
		diag "$1: swap file extents: $(extents "$fs/swap-a") and $(extents "$fs/swap-b")"
		race "$1" 96M 4 "" "$fs/swap-a" "$fs/swap-b" "${brd[0]}" "${brd[1]}" -- --anon 32M
	else
		not_ok "$1: fragmented ext4 on $(ram 6) for the swap files"
	fi
	mountpoint -q "$fs" && umount "$fs"
	rmdir "$fs"
}
file_race anon-file always
file_race anon-file-4k never
echo never > $T/hugepages-64kB/enabled

# memfd lives on the internal tmpfs mount, whose huge setting follows the
# top-level shmem_enabled; hugepages-64kB/shmem_enabled covers anon shmem.
old_shmem=$(sed 's/.*\[\(.*\)\].*/\1/' $T/shmem_enabled)
echo always > $T/shmem_enabled
echo always > $T/hugepages-64kB/shmem_enabled
race shmem-brd 48M 4 131072 "${brd[@]}" -- --shmem 16M

# zram: one device by default, add three more
echo always > $T/hugepages-64kB/enabled
zram=() added=()
for i in 0 1 2 3; do
	n=$i
	if [ ! -e /sys/block/zram$i ]; then
		n=$(cat $ZC/hot_add 2>/dev/null) || break
		added+=("$n")
	fi
	echo 1 > "/sys/block/zram$n/reset"
	echo 128M > "/sys/block/zram$n/disksize"
	zram+=("/dev/zram$n")
done
check "four zram devices (${#zram[@]})" test ${#zram[@]} -eq 4
# zram decompresses the whole folio while it is locked in the swap cache:
# the widest window for swapoff to find it there before the fault maps it
race anon-zram 64M 4 "" "${zram[@]}" -- --anon 32M
race shmem-zram 48M 4 "" "${zram[@]}" -- --shmem 16M
for z in "${zram[@]}"; do echo 1 > "/sys/block/${z#/dev/}/reset"; done
for n in "${added[@]}"; do echo "$n" > $ZC/hot_remove; done

echo never > $T/hugepages-64kB/enabled
echo never > $T/hugepages-64kB/shmem_enabled
echo "$old_shmem" > $T/shmem_enabled
check "all devices swapped off" test "$(swap_count)" -eq 0
tap_end
