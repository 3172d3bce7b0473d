#!/bin/bash
# The cases of make bench BENCH_MODE=host, run inside a KVM guest with one
# vCPU per host CPU (scripts/bench-host.sh boots it with brd.rd_nr=12):
#
#   guest-host.sh [-k KERNEL] [-r RUN] [-c MEMCG_MIB] [-p PASSES]
#                 [-b KBUILD_MAX_MIB|auto] [-d DIV] [-C KCONFIG] [-t TARGET]
#                 [-z ZRAM_MIB] [-T] [CASE...]
#
# CASE (default: all, in this order):
#   brd1 brd4 brd12  usemem -n $(nproc), 1.5 x MEMCG_MIB in all, in a memcg
#             of memory.max MEMCG_MIB, swapping to 1, 4 or 12 freshly
#             discarded brd devices at one priority that share one
#             device's size (brd.rd_size) of swap
#   kbuild    make KCONFIG (default defconfig), then make -j$(nproc) TARGET
#             (vmlinux) of the pristine tree ($SWAPQ_REPO/build/pristine,
#             read-only over 9p) with O= in the guest's tmpfs, in a memcg,
#             swapping to 8 zram devices of ZRAM_MIB at one priority. An
#             unlimited build first brings sources and toolchain into the
#             page cache, charged outside the measured memcg, and with -b
#             auto sizes memory.max: what it needed (its peak less the file
#             cache it leaves) / DIV (default 4)
#   thp       the thp case of tests/bench/guest-bench.sh:
#             thp_swap_allocator_test plain, -a and -s on one 64M zram and
#             on four 16M at one priority, 64K mTHP always, 2M never
# -T traces instead, in a boot of its own (BENCH_TRACE=1): brd12 once under
# each of plist_requeue.bt, alloc_latency.bt, swap_avail_lock.bt (bpftrace)
# and perf lock contention -ab. A tool the host root lacks, or a function
# the kernel lacks (plist_requeue on the series), is said and skipped.
#
# Results in $SWAPQ_OUT:
#   results.tsv     one row per case: guest-bench.sh's columns, with
#                   memcg_max_mib last (its usemem -w column, work)
#   thp.tsv         kernel run layout mode iteration swpout_inc fallback_inc
#                   fallback_pct, from thp/thp-LAYOUT-MODE.txt
#   kbuild-max      the kbuild case's memory.max in MiB (bench-host.sh keeps
#                   the first boot's for the others)
#   usemem-CASE.log kbuild*.log trace-TOOL.txt  the programs' output
# Exit status: non-zero when a case failed (program failed, memcg OOM, no
# swap I/O).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../guest/lib.sh
. "$here/../../guest/lib.sh"
USEMEM=$SWAPQ_REPO/build/tests/usemem
out=${SWAPQ_OUT:-/tmp}
kernel=unknown run=0 cgmax=8192 passes=0 kmax=auto div=4 kconfig=defconfig
ktarget=vmlinux zram_mib=4096 trace=0
while getopts k:r:c:p:b:d:C:t:z:T opt; do
	case $opt in
	k) kernel=$OPTARG ;; r) run=$OPTARG ;; c) cgmax=$OPTARG ;;
	p) passes=$OPTARG ;; b) kmax=$OPTARG ;; d) div=$OPTARG ;;
	C) kconfig=$OPTARG ;; t) ktarget=$OPTARG ;; z) zram_mib=$OPTARG ;;
	T) trace=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- brd1 brd4 brd12 kbuild thp
[ -x "$USEMEM" ] || { echo "guest-host: $USEMEM missing (bench-host.sh builds it)" >&2; exit 2; }
MiB=$((1 << 20))
results=$out/results.tsv
[ -s "$results" ] ||
	printf 'kernel\trun\tcase\tstatus\telapsed_s\tmib_s\tcg_sys_s\tcg_user_s\tru_stime_s\tall_sys_s\tpswpout\tpswpin\toom_kill\ttouched_s\tmemcg_max_mib\n' > "$results"

vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
proc_stat_sys() { awk '$1 == "cpu" { print $4 }' /proc/stat; }
# seconds CG KEY: a cpu.stat time of the cgroup in seconds
seconds() { awk -v k="$2" '$1 == k { printf "%.3f", $2 / 1e6 }' "$1/cpu.stat"; }
# memstat CG KEY: a memory.stat value of the cgroup
memstat() { awk -v k="$2" '$1 == k { print $2 }' "$1/memory.stat"; }

# measure CASE CG MAX_MIB LOG COMMAND...: run COMMAND in the memcg CG (its
# output in LOG) and append the case's row; usemem's own figures for
# usemem, wall-clock time otherwise
measure() {
	local name=$1 cg=$2 max=$3 log=$4 rc=0 st=ok t0 ps0 out0 in0 line
	local elapsed mibs=NA rust=NA touched=NA oom swpout allsys
	shift 4
	ps0=$(proc_stat_sys) out0=$(vmstat pswpout) in0=$(vmstat pswpin) t0=$EPOCHREALTIME
	in_memcg "$cg" "$@" > "$log" 2>&1 || rc=$?
	elapsed=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
	allsys=$(awk -v t=$(( $(proc_stat_sys) - ps0 )) -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }')
	swpout=$(( $(vmstat pswpout) - out0 ))
	line=$(grep -m 1 '^usemem ' "$log")
	if [ -n "$line" ]; then
		kv() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<< "$line"; }
		elapsed=$(kv elapsed_s) mibs=$(kv mib_s) rust=$(kv stime_s) touched=$(kv touched_s)
	fi
	oom=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events")
	[ $rc = 0 ] || { st=failed; tail -n 20 "$log" >&2; }
	[ "${oom:-0}" = 0 ] || st=oom
	[ $st != ok ] || [ "$swpout" -gt 0 ] || st=noswap
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$kernel" "$run" "$name" "$st" "${elapsed:-NA}" "$mibs" \
		"$(seconds "$cg" system_usec)" "$(seconds "$cg" user_usec)" "$rust" "$allsys" \
		"$swpout" $(( $(vmstat pswpin) - in0 )) "${oom:-0}" "$touched" "$max" |
		tee -a "$results" | sed 's/^/# result: /'
	[ $st = ok ]
}

# brd_ring N: swap on brd 0..N-1 at one priority, each 1/N of a device's
# size; every device discarded first, so brd gives back the last case's pages
brd_ring() {
	local i kib=$(( $(cat /sys/block/ram0/size 2>/dev/null || echo 0) / 2 / $1 ))
	swap_off_all
	for i in $(seq 0 11); do
		[ -b "$(ram "$i")" ] || { echo "guest-host: no $(ram "$i") (brd.rd_nr=12?)" >&2; return 1; }
		blkdiscard -f "$(ram "$i")" 2>/dev/null || true
	done
	for i in $(seq 0 $(($1 - 1))); do
		swap_on "$(ram "$i")" 10 "$kib" || return 1
	done
}

# run_usemem CASE N: the usemem case on N brd devices
run_usemem() {
	local cg rc=0
	brd_ring "$2" || return 1
	sed "s/^/# $1: /" /proc/swaps
	cg=$(memcg "host-$1" "${cgmax}M") || return 1
	measure "$1" "$cg" "$cgmax" "$out/usemem-$1.log" \
		"$USEMEM" -n "$(nproc)" -r "$passes" "$((cgmax * 3 / 2 / $(nproc)))M" || rc=$?
	grep '^usemem ' "$out/usemem-$1.log"
	rmdir "$cg"
	swap_off_all
	return $rc
}

# zram_ring N MIB: zram 0..N-1 of MIB MiB each, swapped on at one priority
zram_ring() {
	local i
	swap_off_all
	for i in $(seq 0 $(($1 - 1))); do
		[ -e "/sys/block/zram$i" ] || cat /sys/class/zram-control/hot_add > /dev/null || return 1
		echo 1 > "/sys/block/zram$i/reset" &&
			echo "$2M" > "/sys/block/zram$i/disksize" &&
			swap_on "/dev/zram$i" 10 || return 1
	done
}

zram_reset() {
	local z
	swap_off_all
	for z in /sys/block/zram*; do echo 1 > "$z/reset"; done
}

run_kbuild() {
	local src=$SWAPQ_REPO/build/pristine obj cg need max rc=0
	local kmake=(make -s -C "$src" -j"$(nproc)")
	[ -f "$src/Makefile" ] || { echo "guest-host: no kernel tree $src" >&2; return 1; }
	zram_ring 8 "$zram_mib" || { echo "guest-host: kbuild: zram swap failed" >&2; return 1; }
	obj=$(mktemp -d /tmp/kbuild.XXXXXX)
	cg=$(memcg host-kbuild-warm max) || return 1
	if ! "${kmake[@]}" O="$obj" "$kconfig" > "$out/kbuild-warm.log" 2>&1 ||
		! in_memcg "$cg" "${kmake[@]}" O="$obj" "$ktarget" >> "$out/kbuild-warm.log" 2>&1; then
		tail -n 20 "$out/kbuild-warm.log" >&2
		echo "guest-host: kbuild: the unlimited build failed" >&2
		return 1
	fi
	need=$(( ($(cat "$cg/memory.peak") - $(memstat "$cg" file) + $(memstat "$cg" shmem)) / MiB ))
	rm -rf "$obj"
	rmdir "$cg"
	max=$kmax
	[ "$kmax" = auto ] && max=$((need / div))
	echo "# kbuild: the unlimited build needed $need MiB (peak less its file cache), memory.max ${max}M"
	echo "$max" > "$out/kbuild-max"

	obj=$(mktemp -d /tmp/kbuild.XXXXXX)
	"${kmake[@]}" O="$obj" "$kconfig" > "$out/kbuild-config.log" 2>&1 || return 1
	cg=$(memcg host-kbuild "${max}M") || return 1
	measure kbuild "$cg" "$max" "$out/kbuild.log" "${kmake[@]}" O="$obj" "$ktarget" || rc=$?
	rm -rf "$obj"
	rmdir "$cg"
	zram_reset
	return $rc
}

# run_thp: guest-bench.sh's thp case into thp/, its iterations into thp.tsv
run_thp() {
	local rc=0 f lm
	mkdir -p "$out/thp"
	SWAPQ_OUT=$out/thp bash "$here/../guest-bench.sh" -k "$kernel" -r "$run" thp || rc=$?
	[ -s "$out/thp.tsv" ] ||
		printf 'kernel\trun\tlayout\tmode\titeration\tswpout_inc\tfallback_inc\tfallback_pct\n' > "$out/thp.tsv"
	for f in "$out"/thp/thp-*-*.txt; do
		[ -f "$f" ] || continue
		lm=${f##*/thp-}
		lm=${lm%.txt}
		sed -n "s/^Iteration \([0-9]*\): swpout inc: \([0-9]*\), swpout fallback inc: \([0-9]*\), Fallback percentage: \([^%]*\)%$/$kernel\t$run\t${lm%%-*}\t${lm#*-}\t\1\t\2\t\3\t\4/p" "$f"
	done >> "$out/thp.tsv"
	zram_reset
	return $rc
}

# tracer_start NAME: NAME's tool in the background ($tracer), its output
# in trace-NAME.txt; fails, saying why, when it cannot run here
tracer_start() {
	local log=$out/trace-$1.txt i
	case $1 in
	perf_lock)
		if ! command -v perf > /dev/null; then
			echo "perf not installed on the host (linux-perf): perf lock contention skipped" | tee "$log"
			return 1
		fi
		if perf lock contention -h 2>&1 | grep -q 'not built-in'; then
			echo "this perf has no BPF skeletons (BUILD_BPF_SKEL=1): perf lock contention -b skipped, swap_avail_lock.bt covers it" | tee "$log"
			return 1
		fi
		perf lock contention -ab -E 20 > "$log" 2>&1 &
		tracer=$!
		sleep 5
		;;
	*)
		if ! command -v bpftrace > /dev/null; then
			echo "bpftrace not installed on the host: $1.bt skipped" | tee "$log"
			return 1
		fi
		if [ "$1" = plist_requeue ] && ! grep -qw plist_requeue /proc/kallsyms; then
			echo "plist_requeue() is absent in $(uname -r) (the series removes it): nothing to count" | tee "$log"
			return 1
		fi
		bpftrace -B none "$here/$1.bt" > "$log" 2>&1 &
		tracer=$!
		# bpftrace reads the kernel's BTF before it attaches
		for i in $(seq 120); do
			grep -q '^Attaching' "$log" && break
			sleep 0.5
		done
		sleep 2
		;;
	esac
	kill -0 "$tracer" 2> /dev/null && return 0
	echo "guest-host: $1 did not start:" >&2
	cat "$log" >&2
	return 1
}

run_traces() {
	local t st=0
	mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing
	for t in plist_requeue alloc_latency swap_avail_lock perf_lock; do
		tracer_start $t || continue
		run_usemem "brd12-$t" 12 || st=1
		kill -INT "$tracer"
		wait "$tracer"
		sed "s/^/# $t: /" "$out/trace-$t.txt" | tail -n 60
	done
	return $st
}

echo "# guest-host: $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { print $2 }' /proc/meminfo) KiB"
uname -r > "$out/kernel-release"
swap_off_all
"$USEMEM" 1M > /dev/null	# page usemem in, outside any measured memcg
if [ $trace = 1 ]; then
	run_traces
	exit
fi
status=0
for c in "$@"; do
	case $c in
	brd1|brd4|brd12) run_usemem "$c" "${c#brd}" ;;
	kbuild) run_kbuild ;;
	thp) run_thp ;;
	*) echo "guest-host: unknown case $c" >&2; false ;;
	esac || { echo "guest-host: case $c failed" >&2; status=1; }
done
swap_off_all
exit $status
