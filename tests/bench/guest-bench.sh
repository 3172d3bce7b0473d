#!/bin/bash
# Benchmark cases, run inside the VM (scripts/bench.sh boots it):
#
#   guest-bench.sh [-k KERNEL] [-r RUN] [-n NPROC] [-m SIZE] [-c MEMCG_MAX]
#                  [-p PASSES] [-i INTERVAL] [-w LOOPS] [-L] CASE...
#
# CASE is one of
#   brd12     12 brd devices of 64 MiB, one priority (the RFC's BRD case)
#   single    one brd device of 768 MiB (regression guard)
#   overflow  4 devices of 48 MiB at priority 10, 2 of 256 MiB at priority 5;
#             the working set overflows the upper ring into the lower one
#   weighted  4 devices of 128 MiB at one priority, quotas 1:1:2:4 of an
#             eighth of default_quota through /sys/kernel/mm/swap/queue, so
#             that a case makes about 30 rounds of turns (skipped when the
#             kernel has no queue)
#   shares    as brd12 with default_quota 32 pages: about 40 turns per
#             device, so the shares show more than the last turn (skipped
#             when the kernel has no queue)
#   thp       M4: the kernel tree's tools/mm/thp_swap_allocator_test (64K
#             mTHP always, 2M never) on one 64 MiB zram and on four 16 MiB
#             zram at one priority, each plain, -a and -s; its output per
#             iteration in thp-LAYOUT-MODE.txt (no usemem, no memcg)
# Each case runs `usemem -n NPROC -r PASSES SIZE` in a fresh memcg with
# memory.max MEMCG_MAX, on freshly discarded brd devices (brd.rd_nr=12,
# brd.rd_size >= 786432 on the command line). Results go to $SWAPQ_OUT:
#   results.tsv        one line per case (header on first write)
#   samples-CASE.tsv   per-device swap use every INTERVAL seconds:
#                      t_s device used_kib allocated_pages (-1 without queue)
#   usemem-CASE.log    usemem's output
#   lock_stat-CASE.txt with -L: /proc/lock_stat over the case
#   swaps-CASE.txt     /proc/swaps once every worker has touched its memory
# -w LOOPS: usemem's extra work per page (the positive control).
# Under SWAPQ_ICOUNT=1 (scripts/run-vm.sh: the guest clock counts
# instructions) nothing observes a case while it runs: no sampler, usemem
# seeded alike in every boot, results kept in the guest's tmpfs and copied
# to $SWAPQ_OUT at the end, so the 9p share does no I/O in a measured case.
# Exit status: non-zero when a case failed (usemem failed, memcg OOM, no swap
# I/O, or the kernel lacks something the case needs).
set -u
# shellcheck source=../guest/lib.sh
. "$(dirname "$0")/../guest/lib.sh"
USEMEM=$SWAPQ_REPO/build/tests/usemem
out=${SWAPQ_OUT:-/tmp}
kernel=unknown run=0 nproc=4 size=96M cgmax=128M passes=0 interval=1 lockstat=0 work=0
while getopts k:r:n:m:c:p:i:w:L opt; do
	case $opt in
	k) kernel=$OPTARG ;; r) run=$OPTARG ;; n) nproc=$OPTARG ;;
	m) size=$OPTARG ;; c) cgmax=$OPTARG ;; p) passes=$OPTARG ;;
	i) interval=$OPTARG ;; w) work=$OPTARG ;; L) lockstat=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "guest-bench: no case" >&2; exit 2; }
THPTEST=$SWAPQ_REPO/build/tests/thp_swap_allocator_test
[ -x "$USEMEM" ] || { echo "guest-bench: $USEMEM missing (make bench builds it)" >&2; exit 2; }

MiB=1024
quota0=''
[ -d "$QUEUE" ] && quota0=$(cat "$QUEUE/default_quota")
status=0
icount=${SWAPQ_ICOUNT:-0}
final=$out
if [ "$icount" = 1 ]; then
	out=$(mktemp -d /tmp/bench.XXXXXX)
	cp "$final/results.tsv" "$out/" 2>/dev/null
fi
results=$out/results.tsv
[ -s "$results" ] ||
	printf 'kernel\trun\tcase\tstatus\telapsed_s\tmib_s\tcg_sys_s\tcg_user_s\tru_stime_s\tall_sys_s\tpswpout\tpswpin\toom_kill\ttouched_s\twork\n' > "$results"

# Every device swapped off and its pages given back to brd.
reset_devices() {
	local i
	swap_off_all
	# the shares case lowers it
	[ -n "$quota0" ] && echo "$quota0" > "$QUEUE/default_quota"
	for i in $(seq 0 11); do
		[ -b "$(ram "$i")" ] || { echo "guest-bench: no $(ram "$i") (brd.rd_nr=12?)" >&2; return 1; }
		blkdiscard -f "$(ram "$i")" 2>/dev/null || true
	done
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# ring_on PRIO SIZE_MIB DEV...: mkswap SIZE_MIB of each DEV, swapon at PRIO
ring_on() {
	local prio=$1 mib=$2 dev
	shift 2
	for dev in "$@"; do
		swap_on "$dev" "$prio" $((mib * MiB)) || return 1
	done
}

vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
proc_stat_sys() { awk '$1 == "cpu" { print $4 }' /proc/stat; }
cpu_stat() { awk -v k="$2" '$1 == k { print $2 }' "$1/cpu.stat"; }

# Sample per-device swap use until killed: "t device used_kib allocated".
# The queue's per-device directories are looked up once: devices do not
# change during a case.
sampler() {
	local t0=${EPOCHREALTIME/./} t dev size used prio alloc d p swaps
	local -A dir=()
	for d in "$QUEUE"/devices/*/; do
		[ -r "$d/path" ] && read -r p < "$d/path" && dir[$p]=$d
	done
	while :; do
		t=$(( ${EPOCHREALTIME/./} - t0 ))
		t=$((t / 1000000)).$(printf '%06d' $((t % 1000000)))
		# one read(): /proc/swaps changes under a line-by-line reader
		swaps=$(< /proc/swaps)
		while read -r dev _ size used prio; do
			case $dev in /*) ;; *) continue ;; esac
			alloc=-1
			[ -n "${dir[$dev]:-}" ] && read -r alloc < "${dir[$dev]}allocated"
			printf '%s\t%s\t%s\t%s\n' "${t%????}" "$dev" "$used" "$alloc"
		done <<< "$swaps"
		sleep "$interval"
	done
}

# queue_type DEV: the device's directory name under $QUEUE/devices
queue_type() {
	local d p
	for d in "$QUEUE"/devices/*/; do
		read -r p < "$d/path" 2>/dev/null && [ "$p" = "$1" ] &&
			{ basename "$d"; return; }
	done
	return 1
}

setup_case() {
	local i devs=()
	case $1 in
	brd12)
		for i in $(seq 0 11); do devs+=("$(ram "$i")"); done
		ring_on 10 64 "${devs[@]}" ;;
	single)
		ring_on 10 768 "$(ram 0)" ;;
	overflow)
		ring_on 10 48 "$(ram 0)" "$(ram 1)" "$(ram 2)" "$(ram 3)" &&
		ring_on 5 256 "$(ram 4)" "$(ram 5)" ;;
	weighted|shares)
		if [ ! -d "$QUEUE/devices" ]; then
			echo "guest-bench: $1: $QUEUE absent in this kernel, skipped"
			echo absent > "$out/$1-absent"
			return 3
		fi ;;&
	shares)
		echo 32 > "$QUEUE/default_quota" || return 1
		for i in $(seq 0 11); do devs+=("$(ram "$i")"); done
		ring_on 10 64 "${devs[@]}" ;;
	weighted)
		ring_on 10 128 "$(ram 0)" "$(ram 1)" "$(ram 2)" "$(ram 3)" || return 1
		local q w
		q=$(($(cat "$QUEUE/default_quota") / 8)) || return 1
		for i in 0 1 2 3; do
			w=$((i < 2 ? 1 : i == 2 ? 2 : 4))
			echo $((q * w)) > "$QUEUE/devices/$(queue_type "$(ram $i)")/quota" || return 1
			printf '%s\t%s\n' "$(ram $i)" $((q * w))
		done > "$out/weighted-quotas.tsv"
		;;
	*)
		echo "guest-bench: unknown case $1" >&2; return 2 ;;
	esac
}

run_case() {
	local name=$1 cg rc=0 st=ok
	local ps0 allsys out0 in0 spid line elapsed mibs rustime oom

	reset_devices || return 1
	setup_case "$name"
	rc=$?
	[ $rc = 3 ] && return 0
	[ $rc = 0 ] || { echo "guest-bench: $name: setup failed" >&2; return 1; }
	sed "s/^/# $name: /" /proc/swaps
	cg=$(memcg "bench-$name" "$cgmax") || return 1

	if [ $lockstat = 1 ]; then
		echo 1 > /proc/sys/kernel/lock_stat
		echo 0 > /proc/lock_stat
	fi
	spid=
	if [ "$icount" != 1 ]; then
		sampler > "$out/samples-$name.tsv" &
		spid=$!
	fi
	ps0=$(proc_stat_sys) out0=$(vmstat pswpout) in0=$(vmstat pswpin)
	in_memcg "$cg" "$USEMEM" -n "$nproc" -r "$passes" "${seed[@]}" -w "$work" \
		-x "cat /proc/swaps > $out/swaps-$name.txt" "$size" > "$out/usemem-$name.log" 2>&1 || rc=$?
	allsys=$(( $(proc_stat_sys) - ps0 ))
	[ $lockstat = 1 ] && cat /proc/lock_stat > "$out/lock_stat-$name.txt"
	if [ -n "$spid" ]; then
		kill $spid
		wait $spid 2>/dev/null
	fi

	cat "$out/usemem-$name.log"
	line=$(grep '^usemem ' "$out/usemem-$name.log")
	kv() { printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
	elapsed=$(kv elapsed_s) mibs=$(kv mib_s) rustime=$(kv stime_s) touched=$(kv touched_s)
	oom=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events")
	[ $rc = 0 ] && [ -n "$elapsed" ] || st=failed
	[ "${oom:-0}" = 0 ] || st=oom
	[ $(( $(vmstat pswpout) - out0 )) -gt 0 ] || st=noswap
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$kernel" "$run" "$name" "$st" "${elapsed:-NA}" "${mibs:-NA}" \
		"$(awk -v u="$(cpu_stat "$cg" system_usec)" 'BEGIN { printf "%.3f", u / 1e6 }')" \
		"$(awk -v u="$(cpu_stat "$cg" user_usec)" 'BEGIN { printf "%.3f", u / 1e6 }')" \
		"${rustime:-NA}" \
		"$(awk -v t="$allsys" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }')" \
		$(( $(vmstat pswpout) - out0 )) $(( $(vmstat pswpin) - in0 )) "${oom:-0}" \
		"${touched:-NA}" "$work" |
		tee -a "$results" | sed 's/^/# result: /'
	rmdir "$cg"
	[ $st = ok ]
}

# run_thp: M4, thp_swap_allocator_test over zram, layout by layout
run_thp() {
	local layout n i mode rc args st=ok zdev=() mthp64=$THP/hugepages-64kB/enabled
	local mthp2m=$THP/hugepages-2048kB/enabled old64 old2m
	[ -x "$THPTEST" ] || { echo "guest-bench: $THPTEST missing (make bench builds it)" >&2; return 1; }
	old64=$(thp_mode "$mthp64") old2m=$(thp_mode "$mthp2m")
	echo always > "$mthp64" && echo never > "$mthp2m" || return 1
	swap_off_all
	for layout in zram1 zram4; do
		n=${layout#zram}
		for mode in plain a s; do
			zdev=()
			for i in $(seq 0 $((n - 1))); do
				[ -e "/sys/block/zram$i" ] || cat /sys/class/zram-control/hot_add > /dev/null
				echo 1 > "/sys/block/zram$i/reset"
				echo lzo > "/sys/block/zram$i/comp_algorithm"
				echo $((64 / n))M > "/sys/block/zram$i/disksize"
				mkswap -f -U clear "/dev/zram$i" > /dev/null && swapon -p 10 "/dev/zram$i" || return 1
				zdev+=("/dev/zram$i")
			done
			rc=0 args=()
			[ $mode = plain ] || args=("-$mode")
			"$THPTEST" "${args[@]}" > "$out/thp-$layout-$mode.txt" 2>&1 || rc=$?
			echo "# thp $layout $mode: rc $rc, $(grep -c '^Iteration' "$out/thp-$layout-$mode.txt") iterations," \
				"last: $(grep '^Iteration' "$out/thp-$layout-$mode.txt" | tail -n 1)"
			[ $rc = 0 ] || st=failed
			swap_off_all
			for i in "${zdev[@]}"; do echo 1 > "/sys/block/${i#/dev/}/reset"; done
		done
	done
	echo "$old64" > "$mthp64"
	echo "$old2m" > "$mthp2m"
	[ $st = ok ]
}

echo "# guest-bench: $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { print $2 }' /proc/meminfo) KiB," \
	"usemem -n $nproc -r $passes $size in memory.max=$cgmax"
[ -d "$QUEUE" ] && echo "# swap queue: $(grep '^ring ' /sys/kernel/debug/swap/queue 2>/dev/null | tr '\n' ' ')"
# the same values in every boot when measuring instructions, and usemem
# from tmpfs: its text, reclaimed under the memcg limit, is read back
# from memory, not over 9p
seed=()
if [ "$icount" = 1 ]; then
	seed=(-s 1)
	cp "$USEMEM" "$out/usemem" && USEMEM=$out/usemem
	[ -x "$THPTEST" ] && cp "$THPTEST" "$out/thptest" && THPTEST=$out/thptest
fi
"$USEMEM" 1M >/dev/null	# page the binary in before the first timed case
for c in "$@"; do
	if [ "$c" = thp ]; then
		run_thp || { echo "guest-bench: M4 (thp) failed" >&2; status=1; }
		continue
	fi
	run_case "$c" || { echo "guest-bench: case $c failed" >&2; status=1; }
done
swap_off_all
if [ "$out" != "$final" ]; then
	rm -f "$out/usemem" "$out/thptest"
	cp "$out"/* "$final"/
fi
exit $status
