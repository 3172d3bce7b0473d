#!/bin/bash
# Races and reliability. Swap devices are swapped off and on again, in
# loops, while workers in a memcg swap data out and verify every byte on
# swap-in, in eleven scenarios:
#
#   churn       random devices off and on again
#   parallel    several swapons and swapoffs at once, on different devices
#   quota       quota writes racing swapoff of the same device
#   priority    devices coming back at another priority, changing rings
#   fill        a small device filling up, allocations falling back, and
#               the full device swapped off
#   shmem-mthp  64K shmem folios swapped out and in, in bounded time
#   swap-max    the memcg at memory.swap.max
#   zram        zram devices with discard
#   stress-ng   stress-ng's swap (swapon/swapoff of its own swap file) and vm
#               stressors
#   swapfile-mthp-on, swapfile-mthp-off
#               swap files beside brd devices, 64K mTHP on and off
#
# and sysfs and debugfs readers run through all of them. After each
# scenario the queue's sysfs, debugfs and /proc/swaps agree, no swap is left
# in use once the workers have exited, and the kernel log has no splat.
#
# The swapoffs and swapons are swapq-churn's system calls: one process per
# cycle would cost more than the cycle itself under QEMU TCG. Each scenario
# churns for SWAPQ_DURATION seconds (default 40; quota, swap-max and the swap
# files for half of it) and must reach its own floor of cycles per minute of
# that time, about a third of the fewer that the debug kernel did at 2 and
# at 4 vCPUs on a 2-core host (per minute, 2 and 4 vCPUs: parallel 1320
# and 1040, churn 525 and 55, shmem-mthp 680 and 110, swap-max 410 and 230,
# priority 130 and 73, zram 230 and 44, stress-ng 150 and 150, quota 170
# and 150, swap files 180-540 and 110-150, fill 28 and 10: a swapoff waits
# for RCU grace periods, which take long when 4 vCPUs share 2 host cores),
# so that a scenario whose churn stalled fails on its own. A kernel N times
# slower than the debug one (KASAN) runs with SWAPQ_SLOWER=N: floors / N.
# SWAPQ_SCENARIOS="NAME ..." runs only those; SWAPQ_SKIP="NAME ..." skips
# those, with SWAPQ_SKIP_WHY as the reason.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin
D=${SWAPQ_DURATION:-40}
SLOWER=${SWAPQ_SLOWER:-1}
# The memcg of two 32M workers: they swap while both are resident. A slow
# kernel may run them one after the other; SWAPQ_MEMCG_MAX=24M makes each
# swap on its own.
MEMCG_MAX=${SWAPQ_MEMCG_MAX:-48M}
# SWAPQ_SMALLER=N divides every memcg limit and every worker's size by N
# (but swap-max's), so that a slow kernel's worker run, which a scenario
# waits for, stays short; the swap devices keep their sizes.
SMALLER=${SWAPQ_SMALLER:-1}
# SWAPQ_PASSES=N: each worker run writes and verifies its memory N times
# (default 2); a slow kernel's scenario waits less for its last run with 1.
PASSES=${SWAPQ_PASSES:-2}
if ! [[ $MEMCG_MAX =~ ^[1-9][0-9]*M$ && $SMALLER =~ ^[1-9][0-9]*$ && $PASSES =~ ^[1-9][0-9]*$ ]]; then
	not_ok "SWAPQ_MEMCG_MAX ($MEMCG_MAX) is a size in M, SWAPQ_SMALLER ($SMALLER) and SWAPQ_PASSES ($PASSES) positive integers"
	tap_end
	exit
fi
mib() { # N[M]: N MiB divided by SWAPQ_SMALLER, in KiB with its suffix
	echo "$((${1%M} * 1024 / SMALLER))K"
}
T=/sys/kernel/mm/transparent_hugepage
ZC=/sys/class/zram-control
CHURN=$SWAPQ_REPO/build/tests/swapq-churn
tmp=$(mktemp -d)
total=0

# brd swap areas: small, so that a swapoff has little to read back. mkswap
# once per scenario; a cycle is a swapoff and a swapon.
SMALL=32768	# KiB

# Per scenario: $name, its duration $dur, counted from the start of the
# first worker (deadline $end); files $errs (a line per failed
# swapoff, swapon or other operation), $ncyc (a line per swapq-churn run:
# "cycles N refused N errors N"), $rcs (a line per worker run, its exit
# status); the workers' memcg $cg, the worker loops' and churners' pids;
# $limit, a command prefix bounding the time of every worker run; $floor,
# the cycles it must reach.
begin() { # NAME SECONDS CYCLES-PER-MINUTE
	name=$1
	dur=$2 end=''
	floor=$(($3 * $2 / 60 / SLOWER))
	t0=$SECONDS
	errs=$tmp/$name.errs ncyc=$tmp/$name.cycles rcs=$tmp/$name.rcs stop=$tmp/$name.stop
	: > "$errs"
	: > "$ncyc"
	: > "$rcs"
	rm -f "$stop"
	cg='' wpids=() churners=() limit=()
	log_mark "$name"
	diag "$name: ${2}s"
}

# churn [SWAPQ-CHURN-OPTION...] DEV...: swap a random DEV off and on again,
# in the background, until the workers are done (churn_wait)
churn() {
	"$CHURN" --stop-file "$stop" "$@" >> "$ncyc" 2>> "$errs" &
	churners+=($!)
}

churn_wait() {
	local p
	wait "${wpids[@]}"
	touch "$stop"
	for p in "${churners[@]}"; do
		wait "$p" || echo "swapq-churn exited with status $?" >> "$errs"
	done
}

# workers N ARGS...: N loops, each running swapq-fill ARGS in $cg over and
# over until the deadline
workers() {
	local n=$1 i
	shift
	[ -n "$end" ] || end=$((SECONDS + dur))
	for ((i = 0; i < n; i++)); do
		(
			# the worker's stderr stays; the loop's goes, which only
			# says "Killed" after an OOM kill
			exec 3>&2 2> /dev/null
			while [ "$SECONDS" -lt "$end" ]; do
				bash -c 'echo $$ > "$0/cgroup.procs" || exit 2; exec "$@" 2>&3' \
					"$cg" "${limit[@]}" "$FILL" --quiet "$@"
				echo $? >> "$rcs"
			done
		) &
		wpids+=($!)
	done
}

running() { # is a worker loop still running?
	local p
	for p in "${wpids[@]}"; do kill -0 "$p" 2> /dev/null && return 0; done
	return 1
}

# workers_verified [mismatch]: every worker run verified its data; with
# "mismatch", runs may also fail (OOM kill), only a mismatch (1) counts, but
# at least one run must have verified its data
workers_verified() {
	local runs bad verified
	runs=$(wc -l < "$rcs")
	verified=$(grep -cx 0 "$rcs")
	if [ "${1:-}" = mismatch ]; then
		bad=$(grep -cx 1 "$rcs")
	else
		bad=$(grep -cvx 0 "$rcs")
	fi
	diag "$name: worker exit statuses (count status): $(sort -n "$rcs" | uniq -c | xargs)"
	check "$name: workers verified their data ($runs runs, $verified verified, $bad failed)" \
		test "$verified" -gt 0 -a "$bad" -eq 0
	swapped
}

# swapped: the workers' data did go through swap, out and back in
swapped() {
	local out in
	out=$(awk '$1 == "pswpout" { print $2 }' "$cg/memory.stat")
	in=$(awk '$1 == "pswpin" { print $2 }' "$cg/memory.stat")
	check "$name: workers swapped out $out pages and in $in" test "$out" -gt 0 -a "$in" -gt 0
}

cycles_ok() { # every swapoff and swapon of the churn succeeded
	[ -s "$errs" ] || return 0
	head -n 5 "$errs" | sed 's/^/# /'
	return 1
}

# no_swap_used: nothing left on any device once the workers are gone.
# Slots whose folio is still in the swap cache are freed with the folio, so
# reclaim what the dead workers left in their memcg first.
no_swap_used() {
	local i
	awk 'NR > 1 && $4 != 0 { bad = 1 } END { exit bad }' /proc/swaps ||
		diag "$name: in use before reclaim: $(awk 'NR > 1 { printf "%s %s ", $1, $4 }' /proc/swaps)"
	for ((i = 0; i < 5; i++)); do
		[ -n "$cg" ] && echo 1G > "$cg/memory.reclaim" 2> /dev/null
		awk 'NR > 1 && $4 != 0 { bad = 1 } END { exit bad }' /proc/swaps && return 0
		sleep 1
	done
	sed 's/^/# /' /proc/swaps
	# who still has it: a process, or the swap cache
	awk '/^Name:/ { n = $2 } /^VmSwap:/ && $2 > 0 { print "# " FILENAME ": " n ", " $2 " kB swapped" }' /proc/[0-9]*/status 2> /dev/null
	grep -E 'SwapCached|Shmem:' /proc/meminfo | sed 's/^/# /'
	[ -n "$cg" ] && grep -E '^(anon|shmem|file|swapcached) ' "$cg/memory.stat" | sed 's/^/# memcg /'
	ipcs -m 2> /dev/null | sed 's/^/# /'
	# shellcheck disable=SC2012 # a listing for the reader
	ls -la /dev/shm /run /tmp 2> /dev/null | sed 's/^/# /'
	return 1
}

# finish: the checks after every scenario, with the devices still on
finish() {
	local n
	check "$name: every swapoff and swapon succeeded" cycles_ok
	check "$name: sysfs, debugfs and /proc/swaps agree" consistent
	check "$name: no swap in use once the workers exited" no_swap_used
	check "$name: kernel log clean" log_clean "$name"
	n=$(awk '{ s += $2 } END { print s + 0 }' "$ncyc")
	total=$((total + n))
	check "$name: $n swapoff/swapon cycles in $((SECONDS - t0))s, at least $floor" test "$n" -ge "$floor"
	[ -n "$cg" ] && rmdir "$cg"
	swap_off_all
}

# Readers of every queue file, sysfs and debugfs, in tight loops through all
# scenarios: a read may find a device gone (ENOENT, ENODEV), nothing else.
# The generation never goes back.
reader() { # sysfs|debugfs
	local n=0 g prev=0
	renice -n 10 $BASHPID > /dev/null
	shopt -s nullglob
	while [ ! -e "$tmp/stop" ]; do
		if [ "$1" = sysfs ]; then
			read -r g < $QUEUE/generation
			[ "$g" -ge "$prev" ] || echo "generation went back from $prev to $g" >> "$tmp/readers.bad"
			prev=$g
			cat $QUEUE/generation $QUEUE/default_quota $QUEUE/devices/*/* > /dev/null 2>> "$tmp/readers.err"
		else
			cat $DBG > /dev/null 2>> "$tmp/readers.err"
		fi
		n=$((n + 1))
	done
	echo "$1 $n" >> "$tmp/readers.n"
}

readers_ok() {
	grep -v -e 'No such file or directory$' -e 'No such device$' "$tmp/readers.err" >> "$tmp/readers.bad"
	[ -s "$tmp/readers.bad" ] || return 0
	sort "$tmp/readers.bad" | uniq -c | head -n 5 | sed 's/^/# /'
	return 1
}

brd4=("$(ram 0)" "$(ram 1)" "$(ram 2)" "$(ram 3)")
on4() { # PRIO: the four small brd devices, all at PRIO
	local d
	for d in "${brd4[@]}"; do swap_on "$d" "$1" "$SMALL" || not_ok "$name: swapon $d"; done
}
mthp() { # on|off: 64K anonymous mTHP
	local v=never
	[ "$1" = on ] && v=always
	echo "$v" > "$T/hugepages-64kB/enabled"
}

# 1. Random devices swapped off and on again under load.
s_churn() {
	begin churn "$D" 18
	mthp on
	on4 5
	cg=$(memcg races "$(mib "$MEMCG_MAX")")
	workers 2 --anon "$(mib 32)" --passes "$PASSES"
	churn --prio 5 --pause 100 "${brd4[@]}"
	churn_wait
	workers_verified
	finish
}

# 2. A churner per device, so that swapons and swapoffs of different
# devices overlap; ram4 stays on at a lower priority so that swap never
# runs out.
s_parallel() {
	begin parallel "$D" 300
	mthp on
	on4 5
	swap_on "$(ram 4)" 1 "$SMALL"
	cg=$(memcg races "$(mib "$MEMCG_MAX")")
	workers 2 --anon "$(mib 32)" --passes "$PASSES"
	local d
	for d in "${brd4[@]}"; do churn --prio 5 --prio 6 --pause 100 "$d"; done
	churn_wait
	check "$name: every churner cycled its device ($(awk '{ print $2 }' "$ncyc" | xargs))" \
		test "$(awk '$2 > 0' "$ncyc" | wc -l)" -eq 4
	workers_verified
	finish
}

# 3. Quota writes racing swapoff of the same device: a write succeeds, or
# finds the device being swapped off (ENODEV) or gone (ENOENT). Writes of
# default_quota race swapon, which reads it, and always succeed.
quota_writer() {
	local f ok=0 nodev=0 noent=0 e=$tmp/qerr.$BASHPID msg
	shopt -s nullglob
	while running; do
		{ echo $((RANDOM % 1024 + 1)) > "$QUEUE/default_quota"; } 2> "$e" ||
			echo "default_quota: $(cat "$e")" >> "$tmp/quota.bad"
		for f in "$QUEUE"/devices/*/quota; do
			# dd, not a shell redirection: that opens with O_CREAT, which
			# turns a file that has just gone into EACCES
			if dd of="$f" conv=nocreat,notrunc status=none 2> "$e" <<< $((RANDOM % 2048 + 1)); then
				ok=$((ok + 1))
				continue
			fi
			read -r msg < "$e"
			case $msg in
			*"No such device") nodev=$((nodev + 1)) ;;
			*"No such file or directory") noent=$((noent + 1)) ;;
			*) echo "quota write: $msg" >> "$tmp/quota.bad" ;;
			esac
		done
	done
	echo "$ok $nodev $noent" >> "$tmp/quota.n"
}

s_quota() {
	begin quota $((D / 2)) 40
	mthp off
	on4 5
	cg=$(memcg races "$(mib 32)")
	: > "$tmp/quota.n"
	: > "$tmp/quota.bad"
	workers 2 --anon "$(mib 24)" --passes "$PASSES"
	churn --prio 5 --pause 50 "${brd4[@]}"
	quota_writer &
	local w1=$!
	quota_writer &
	local w2=$!
	churn_wait
	wait "$w1" "$w2"
	local ok nodev noent
	read -r ok nodev noent < <(awk '{ a += $1; b += $2; c += $3 } END { print a + 0, b + 0, c + 0 }' "$tmp/quota.n")
	diag "$name: quota writes: $ok done, $nodev ENODEV, $noent ENOENT"
	head -n 5 "$tmp/quota.bad" | sed 's/^/# /'
	check "$name: quota writes succeeded or found the device gone" test "$ok" -gt 0 -a ! -s "$tmp/quota.bad"
	# the race was met: some writes found their device being swapped off
	check "$name: quota writes met a swapoff ($nodev ENODEV, $noent ENOENT)" test $((nodev + noent)) -gt 0
	workers_verified
	echo 512 > "$QUEUE/default_quota"
	local q
	q=$QUEUE/devices/$(dev_type "$(ram 0)")/quota
	echo 777 > "$q"
	check "$name: a quota written after the race reads back" test "$(cat "$q")" = 777
	finish
}

# 4. Devices coming back at another priority: rings appear, merge and go
# away under load.
s_priority() {
	begin priority "$D" 24
	mthp off
	on4 5
	cg=$(memcg races "$(mib "$MEMCG_MAX")")
	workers 2 --anon "$(mib 32)" --passes "$PASSES"
	churn --prio 3 --prio 5 --prio 7 --pause 100 "${brd4[@]}"
	churn_wait
	diag "$name: rings at the end: $(grep '^ring ' "$DBG" | tr '\n' ' ')"
	workers_verified
	finish
}

# 5. A small device at the top priority fills up while two lower ones have
# room: allocations fall back to them, then the full device is swapped off
# (its pages come back, and go to the others) and on again.
alloc_lower() { # allocations of the two lower-priority devices
	echo $(($(cat "$QUEUE/devices/$l1/allocated") + $(cat "$QUEUE/devices/$l2/allocated")))
}

s_fill() {
	begin fill "$D" 3
	mthp off
	local small l1 l2 t a i full=0 fell=0 n=0
	small=$(ram 0)
	swap_on "$small" 10 4096
	swap_on "$(ram 1)" 5 "$SMALL"
	swap_on "$(ram 2)" 5 "$SMALL"
	l1=$(dev_type "$(ram 1)") l2=$(dev_type "$(ram 2)")
	cg=$(memcg races "$(mib 32)")
	workers 2 --anon "$(mib 24)" --passes "$PASSES"
	while running; do
		t=$(dev_type "$small")
		# wait for it to fill (the queue marks it unavailable)
		for ((i = 0; i < 50; i++)); do
			[ "$(cat "$QUEUE/devices/$t/available")" = 0 ] && break
			sleep 0.2
		done
		if [ "$(cat "$QUEUE/devices/$t/available")" = 0 ]; then
			full=$((full + 1))
			# while it is full, swap-outs go to the lower ring
			a=$(alloc_lower)
			for ((i = 0; i < 25; i++)); do
				[ "$(alloc_lower)" -gt "$a" ] && { fell=$((fell + 1)); break; }
				sleep 0.2
			done
		fi
		"$CHURN" --cycles 1 --prio 10 "$small" >> "$ncyc" 2>> "$errs"
		n=$((n + 1))
	done
	wait "${wpids[@]}"
	check "$name: the small device filled up ($full of $n times)" test "$full" -gt 0
	check "$name: allocations fell back to the lower ring while it was full ($fell of $full times)" test "$fell" -gt 0
	workers_verified
	finish
}

# 6. 64K shmem folios (anonymous shared memory, and memfd on tmpfs) swapped
# out and in while devices churn; every worker run and every swapoff must
# finish within the bound.
s_shmem_mthp() {
	begin shmem-mthp "$D" 36
	local bound=$((D + 120)) old_top old_pmd a0 s0 i0
	old_top=$(sed 's/.*\[\(.*\)\].*/\1/' "$T/shmem_enabled")
	old_pmd=$(sed 's/.*\[\(.*\)\].*/\1/' "$T/hugepages-2048kB/shmem_enabled" 2> /dev/null)
	echo always > "$T/shmem_enabled"
	echo always > "$T/hugepages-64kB/shmem_enabled"
	# 64K only, for anonymous shared memory
	[ -n "$old_pmd" ] && echo never > "$T/hugepages-2048kB/shmem_enabled"
	a0=$(cat "$T/hugepages-64kB/stats/shmem_alloc")
	s0=$(cat "$T/hugepages-64kB/stats/swpout")
	i0=$(cat "$T/hugepages-64kB/stats/swpin")
	mthp off
	on4 5
	# half of churn's memcg for workers half the size of its: they swap
	# while both are resident (or each on its own, SWAPQ_MEMCG_MAX)
	cg=$(memcg races "$(mib $((${MEMCG_MAX%M} / 2)))")
	# a worker run that does not finish in time is killed (status 124),
	# a swapoff interrupted: failures
	limit=(timeout "$bound")
	workers 1 --shared "$(mib 16)" --passes "$PASSES"
	workers 1 --shmem "$(mib 16)" --passes "$PASSES"
	churn --prio 5 --pause 100 --bound "$bound" "${brd4[@]}"
	churn_wait
	diag "$name: 64K shmem_alloc $a0 -> $(cat "$T/hugepages-64kB/stats/shmem_alloc"), swpout $s0 -> $(cat "$T/hugepages-64kB/stats/swpout"), swpin $i0 -> $(cat "$T/hugepages-64kB/stats/swpin")"
	check "$name: 64K shmem folios were allocated" test "$(cat "$T/hugepages-64kB/stats/shmem_alloc")" -gt "$a0"
	check "$name: 64K folios were swapped out" test "$(cat "$T/hugepages-64kB/stats/swpout")" -gt "$s0"
	workers_verified
	echo never > "$T/hugepages-64kB/shmem_enabled"
	[ -n "$old_pmd" ] && echo "$old_pmd" > "$T/hugepages-2048kB/shmem_enabled"
	echo "$old_top" > "$T/shmem_enabled"
	finish
}

# 7. The memcg at memory.swap.max: its swap allocations fail and the
# workers may be OOM-killed (only a mismatch fails); swapoff may be refused
# (ENOMEM: the pages cannot come back) but must then leave the device on.
s_swap_max() {
	begin swap-max $((D / 2)) 80
	mthp on
	local d devs=("$(ram 0)" "$(ram 1)" "$(ram 2)")
	for d in "${devs[@]}"; do swap_on "$d" 5 "$SMALL"; done
	# 40M cannot fit in 24M of memory and 12M of swap: that worker meets
	# swap.max and is OOM-killed, over and over; the 12M one is swapped out
	# beside it and must verify its data. It is exempt from the OOM killer
	# (a big worker just restarted can leave it the largest task) and
	# starts first, in the empty memcg; a later run may fail to start with
	# no task left to kill: only a mismatch fails. The programs are read in
	# first, in the root memcg: a file page of theirs charged here could be
	# reclaimed, and reading it back with no task to kill fails (SIGBUS).
	# The sizes are not divided by SWAPQ_SMALLER: at a 6M memcg, every
	# small run on KASAN was killed, or died loading once exempt.
	cg=$(memcg races 24M)
	local smax=$((12 << 20))
	echo "$smax" > "$cg/memory.swap.max"
	cat "$FILL" "$(command -v choom)" > /dev/null
	limit=(choom -n -1000 --)
	workers 1 --anon 12M --passes "$PASSES"
	limit=()
	workers 1 --anon 40M --passes "$PASSES"
	churn --prio 5 --pause 100 --lenient "${devs[@]}"
	churn_wait
	local peak max fail
	peak=$(cat "$cg/memory.swap.peak")
	max=$(awk '$1 == "max" { print $2 }' "$cg/memory.swap.events")
	fail=$(awk '$1 == "fail" { print $2 }' "$cg/memory.swap.events")
	diag "$name: swap.peak $peak, swap.events max $max fail $fail, swapoffs refused $(awk '{ s += $4 } END { print s + 0 }' "$ncyc")"
	# reclaim may stop scanning anon at the limit and so never be refused:
	# then the peak shows the limit reached, to within one 64K folio
	check "$name: the memcg reached memory.swap.max" \
		test $((max + fail)) -gt 0 -o "$peak" -gt $((smax - (64 << 10)))
	check "$name: swap use never above memory.swap.max ($peak bytes)" test "$peak" -le "$smax"
	workers_verified mismatch
	finish
}

# 8. zram devices with discard (at swapon and of freed clusters).
s_zram() {
	begin zram "$D" 15
	mthp on
	local i n z zram=() added=()
	for i in 0 1 2; do
		n=$i
		if [ ! -e "/sys/block/zram$i" ]; then
			n=$(cat "$ZC/hot_add") || break
			added+=("$n")
		fi
		echo 1 > "/sys/block/zram$n/reset"
		echo 32M > "/sys/block/zram$n/disksize"
		mkswap -f -U clear "/dev/zram$n" > /dev/null
		swapon --discard -p 5 "/dev/zram$n"
		zram+=("/dev/zram$n")
	done
	check "$name: three zram devices swapped on with discard" test "$(swap_count)" -eq 3
	cg=$(memcg races "$(mib 32)")
	workers 2 --anon "$(mib 24)" --passes "$PASSES"
	churn --prio 5 --pause 100 --discard "${zram[@]}"
	churn_wait
	# swapon's log line ends in "D" (discardable), "s" (discard at swapon)
	# and "c" (discard of freed clusters)
	local adds
	adds=$(log_since "$name" | grep -c 'swap on /dev/zram')
	check "$name: every zram swapon had discard enabled ($adds)" \
		test "$adds" -gt 0 -a "$(log_since "$name" | grep 'swap on /dev/zram' | grep -cv 'Dsc$')" -eq 0
	diag "$name: sync_discards $(awk '$2 == "sync_discards" { print $3 }' "$DBG")"
	workers_verified
	finish
	for z in "${zram[@]}"; do echo 1 > "/sys/block/${z#/dev/}/reset"; done
	for n in "${added[@]}"; do echo "$n" > "$ZC/hot_remove"; done
}

# 11. Swap files: two files on a fragmented ext4 (fragmented_fs in lib.sh:
# extents of five blocks, so 16-slot runs cross extent boundaries) and two
# brd devices at one priority, churned, under verifying workers, with 64K
# mTHP on (every 64K folio is split at swap-out to a file and must come back
# from it page by page) and off.
s_swapfile() { # mthp on|off
	begin "swapfile-mthp-$1" $((D / 2)) 36
	mthp "$1"
	local fs=$tmp/swapfiles f files=()
	mkdir -p "$fs"
	if ! fragmented_fs "$(ram 6)" "$fs"; then
		not_ok "$name: fragmented ext4 on $(ram 6) for the swap files"
		mountpoint -q "$fs" && umount "$fs"
		return
	fi
	for f in a b; do
		swap_file "$fs/swap-$f" $((SMALL / 1024)) || not_ok "$name: swap file $fs/swap-$f"
		swap_on "$fs/swap-$f" 5 || not_ok "$name: swapon $fs/swap-$f"
		files+=("$fs/swap-$f")
	done
	diag "$name: swap file extents: $(extents "${files[0]}") and $(extents "${files[1]}")"
	swap_on "$(ram 0)" 5 "$SMALL"
	swap_on "$(ram 1)" 5 "$SMALL"
	cg=$(memcg races "$(mib "$MEMCG_MAX")")
	workers 2 --anon "$(mib 32)" --passes "$PASSES"
	churn --prio 5 --pause 100 "${files[@]}" "$(ram 0)" "$(ram 1)"
	churn_wait
	workers_verified
	finish
	umount "$fs"
}
s_swapfile_mthp_on() { s_swapfile on; }
s_swapfile_mthp_off() { s_swapfile off; }

# 10. stress-ng: its swap stressor swaps its own small swap file on and off
# (random priorities, discard) on ext4, its vm stressors (--vm-bytes is
# shared by the instances) verify their memory in a memcg, while brd devices
# churn. --vm-keep keeps their buffers mapped, so what they verify has been
# swapped out and back in; 48M fills the memcg with the swap stressor's
# pages besides. With 64M and buffers mapped afresh each pass, 4 vCPUs
# spent the whole run in reclaim, and some runs counted no bogo op.
s_stress_ng() {
	begin stress-ng "$D" 40
	mthp on
	# its output goes to ext4: a tmpfs file written from the memcg would be
	# charged to it, and swapped out when no_swap_used reclaims it
	local fs=$tmp/sng out=$tmp/sng/stress-ng.out rc d devs=("$(ram 0)" "$(ram 1)" "$(ram 2)")
	if ! command -v stress-ng > /dev/null; then
		not_ok "$name: stress-ng installed"
		return
	fi
	mkdir -p "$fs"
	if ! mkfs.ext4 -q -F "$(ram 7)" > /dev/null 2>&1 || ! mount -t ext4 "$(ram 7)" "$fs"; then
		not_ok "$name: ext4 for the swap file"
	fi
	for d in "${devs[@]}"; do swap_on "$d" 5 "$SMALL"; done
	cg=$(memcg races "$(mib "$MEMCG_MAX")")
	(
		cd "$fs" && in_memcg "$cg" timeout $((D + 120)) stress-ng --swap 1 --vm 2 --vm-bytes "$(mib 48)" --vm-keep \
			--verify --temp-path "$fs" --timeout "${D}s" --metrics-brief > "$out" 2>&1
		echo $? > "$rcs"
	) &
	wpids=($!)
	churn --prio 5 --pause 100 "${devs[@]}"
	churn_wait
	rc=$(cat "$rcs")
	sed -n 's/^stress-ng: \(metrc\|fail\|error\): \[[0-9]*\] /# /p' "$out" 2> /dev/null
	check "$name: stress-ng passed (status $rc)" test "$rc" = 0
	local op n
	for op in swap vm; do
		n=$(awk -v s="$op" '$2 == "metrc:" && $4 == s { print $5 }' "$out")
		check "$name: the $op stressor ran (${n:-0} bogo ops)" test "${n:-0}" -gt 0
	done
	swapped
	finish
	umount "$fs"
}

swap_off_all
thp_anon=$(sed 's/.*\[\(.*\)\].*/\1/' $T/hugepages-64kB/enabled)
: > "$tmp/readers.err"
: > "$tmp/readers.bad"
: > "$tmp/readers.n"
reader sysfs &
r1=$!
reader debugfs &
r2=$!
start=$SECONDS

for s in ${SWAPQ_SCENARIOS:-churn parallel quota priority fill shmem-mthp swap-max zram stress-ng swapfile-mthp-on swapfile-mthp-off}; do
	case " ${SWAPQ_SKIP:-} " in
	*" $s "*) skip "$s" "${SWAPQ_SKIP_WHY:-SWAPQ_SKIP}" ;;
	*) "s_${s//-/_}" ;;
	esac
done

touch "$tmp/stop"
wait $r1 $r2
elapsed=$((SECONDS - start))
check "readers: no read error but a vanished device's, generation never went back" readers_ok
# a reader that stalled (or never ran) proves nothing: each must have read
# its files at least once per 5 s, and between them met a device as it was
# swapped off
for r in sysfs debugfs; do
	n=$(awk -v r=$r '$1 == r { print $2 }' "$tmp/readers.n")
	check "readers: $r read its files ${n:-0} times in ${elapsed}s, at least $((elapsed / 5))" \
		test "${n:-0}" -ge $((elapsed / 5))
done
enoent=$(grep -c 'No such file or directory$' "$tmp/readers.err")
enodev=$(grep -c 'No such device$' "$tmp/readers.err")
check "readers met a device being swapped off ($enoent ENOENT, $enodev ENODEV)" \
	test $((enoent + enodev)) -gt 0
echo "$thp_anon" > $T/hugepages-64kB/enabled
diag "total swapon/swapoff cycles: $total in ${elapsed}s"
rm -rf "$tmp"
tap_end
