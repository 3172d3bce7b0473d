#!/bin/bash
# make bench: the pristine 7.3 kernel against the patched one, same config
# (vm.config + bench.config, no debug options), same VM shape, booted
# alternately (base, patched, base, patched ...), RUNS boots each. Every boot
# runs the cases of tests/bench/guest-bench.sh in the same order. Then, with
# LOCKSTAT=1, one boot of each kernel built with CONFIG_LOCK_STAT running the
# BRD case and collecting /proc/lock_stat. The report (tables and charts) is
# written by scripts/bench-report.sh into build/bench/report.md.
#
# BENCH_MODE=icount (the default) measures instructions, not seconds: every
# boot is deterministic (scripts/run-vm.sh SWAPQ_ICOUNT=1, one vCPU by
# default), and each round boots three arms: base, patched, and control,
# the base kernel with a known extra cost per page in usemem (-w), which
# shows that the instrument sees a difference of the expected size. The
# base runs give the A/A spread the report judges differences against
# (scripts/bench-report-icount.py). Seen on the 2-core host with QEMU 7.2
# (debug kernel, usemem 48M in a 32M memcg on one brd): at one vCPU two
# boots counted 0.623901 and 0.623794 s of instructions (0.02 %), and the
# control's 4000 instructions per page added 0.04943 s against 0.04915
# expected; at 4 vCPUs the guest boots as reliably but the interleaving of
# the vCPUs varies (0.5 % between two boots), hence one vCPU by default.
# BENCH_MODE=host runs scripts/bench-host.sh instead: the RFC's workloads at
# scale under KVM, for a machine with 16 or more cores.
# BENCH_MODE=wallclock is the older
# multi-threaded TCG run: its times swing 0.5-2x between boots, a smoke
# test only.
#
# Settings (environment):
#   RUNS              rounds (icount: 7) or boots per kernel (wallclock: 5)
#   LOCKSTAT=1        the lock-contention run (0: skip it)
#   BENCH_CASES       icount: "single brd12 overflow weighted shares";
#                     wallclock: "brd12 single overflow"
#   BENCH_NPROC BENCH_SIZE BENCH_MEMCG BENCH_PASSES
#                     usemem workers, memory each, memory.max, re-read
#                     passes (icount: 2 64M 64M 0; wallclock: 4 96M 128M 0)
#   BENCH_WORK=2000   icount: loop iterations per page of the control arm
#                     (two instructions each)
#   BENCH_SMP BENCH_MEM
#                     VM shape, vCPUs (icount: 1, wallclock: 4) and MiB
#                     (2048)
#   BENCH_LOCKSTAT_SIZE=$BENCH_SIZE
#                     memory per worker in the (slower) lock_stat run
#   BENCH_THP_RUNS=2  icount: boots per kernel of the M4 case (thp), after
#                     the rounds, base and patched alternately (0: skip)
#   BENCH_TIMEOUT=1800 seconds per boot
#   BENCH_BUILD_NICE=0 nice level of the kernel builds
#   JOBS              make -j of the kernel builds (build-kernel.sh)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
b=$top/build
out=$b/bench
mode=${BENCH_MODE:-icount}
case $mode in
host) exec bash "$top/scripts/bench-host.sh" "$@" ;;
icount)
	runs=${RUNS:-7}
	cases=${BENCH_CASES:-single brd12 overflow weighted shares}
	nproc=${BENCH_NPROC:-2} size=${BENCH_SIZE:-64M} cgmax=${BENCH_MEMCG:-64M}
	smp=${BENCH_SMP:-1}
	export SWAPQ_ICOUNT=1 ;;
wallclock)
	runs=${RUNS:-5}
	cases=${BENCH_CASES:-brd12 single overflow}
	nproc=${BENCH_NPROC:-4} size=${BENCH_SIZE:-96M} cgmax=${BENCH_MEMCG:-128M}
	smp=${BENCH_SMP:-4} ;;
*) echo "bench: BENCH_MODE is icount, wallclock or host" >&2; exit 2 ;;
esac
lockstat=${LOCKSTAT:-1}
thp_runs=${BENCH_THP_RUNS:-2}
[ "$mode" = icount ] || thp_runs=0
passes=${BENCH_PASSES:-0}
work=${BENCH_WORK:-2000}
mem=${BENCH_MEM:-2048}
lsize=${BENCH_LOCKSTAT_SIZE:-$size}
tmo=${BENCH_TIMEOUT:-1800}
nice=${BENCH_BUILD_NICE:-0}
# 12 brd devices; the single-device case needs 768 MiB on one of them.
# brd allocates on write and the guest discards every device between cases.
brd="brd.rd_nr=12 brd.rd_size=786432"

case $runs in ''|*[!0-9]*|0) echo "bench: RUNS must be a positive number" >&2; exit 2 ;; esac
case $work in ''|*[!0-9]*) echo "bench: BENCH_WORK must be a number" >&2; exit 2 ;; esac
case $thp_runs in ''|*[!0-9]*) echo "bench: BENCH_THP_RUNS must be a number" >&2; exit 2 ;; esac
t_start=$(date +%s)
log() { printf '[bench %s] %s\n' "$(date +%T)" "$*"; }

mkdir -p "$out/logs"
build() {	# build FLAVOR: incremental, quiet unless it fails
	log "kernel $1"
	if ! nice -n "$nice" bash "$top/scripts/build-kernel.sh" "$1" > "$out/logs/build-$1.log" 2>&1; then
		tail -n 30 "$out/logs/build-$1.log" >&2
		echo "bench: building $1 failed (log: $out/logs/build-$1.log)" >&2
		exit 1
	fi
}

log "trees: pristine and patched ($(grep -c '^[^#]' "$top/patches/series" || true) patches in patches/series)"
bash "$top/scripts/prepare-tree.sh" pristine
bash "$top/scripts/prepare-tree.sh"
build base-bench
build bench
log "usemem"
make -s -C "$top/tests/bench" OUT="$b/tests" KSRC="$b/pristine"
if [ ! "$b/initramfs.cpio.gz" -nt "$top/scripts/guest-init" ]; then
	bash "$top/scripts/mkinitramfs.sh"
fi

rm -rf "$out/runs" "$out/report.md" "$out"/*.png "$out/plot"
mkdir -p "$out/runs"
{
	echo "mode=$mode"
	echo "runs=$runs"
	echo "work=$work"
	echo "cases=$cases"
	echo "nproc=$nproc"
	echo "size=$size"
	echo "memcg=$cgmax"
	echo "passes=$passes"
	echo "smp=$smp"
	echo "mem=$mem"
	echo "brd=$brd"
	echo "lockstat=$lockstat"
	echo "thp_runs=$thp_runs"
	echo "lockstat_size=$lsize"
	echo "kernel_version=$(cat "$b/kernel-version")"
	echo "release_base=$(cat "$b/obj-base-bench/include/config/kernel.release")"
	echo "release_patched=$(cat "$b/obj-bench/include/config/kernel.release")"
	echo "patches=$(grep -c '^[^#]' "$top/patches/series" || true)"
	echo "commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
		[ -z "$(git -C "$top" status --porcelain --untracked-files=no 2>/dev/null)" ] || echo +changes)"
	echo "host=$(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
	echo "qemu=$(qemu-system-x86_64 --version | head -n 1)"
	echo "qemu_accel=$([ "$mode" = icount ] && echo "-accel tcg,thread=single -icount shift=0,sleep=off -rtc base=2026-01-01T00:00:00,clock=vm -seed 1, kernel: nokaslr norandmaps" || echo "-accel tcg,thread=multi")"
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
} > "$out/params"

failed=0
# boot KERNEL TAG GUEST-ARGS...: one VM, results in runs/TAG
boot() {
	local kernel=$1 tag=$2 flavor rc=0
	shift 2
	case $kernel in
	base|control) flavor=base-bench ;; patched) flavor=bench ;;
	base-lockstat|lockstat) flavor=$kernel ;;
	esac
	bash "$top/scripts/run-vm.sh" -k "$flavor" -s "$smp" -m "$mem" -t "$tmo" \
		-a "$brd" -o "$out/runs/$tag" -- \
		bash "$top/tests/bench/guest-bench.sh" "$@" > "$out/logs/$tag.log" 2>&1 || rc=$?
	grep '^# result: ' "$out/logs/$tag.log" | sed 's/^# result: /  /' || true
	if [ $rc != 0 ]; then
		failed=$((failed + 1))
		echo "bench: boot $tag failed ($rc): $out/logs/$tag.log, $out/runs/$tag/console.log" >&2
		tail -n 5 "$out/logs/$tag.log" >&2
	fi
}

args=(-n "$nproc" -m "$size" -c "$cgmax" -p "$passes")
read -ra case_list <<< "$cases"
for r in $(seq 1 "$runs"); do
	if [ "$mode" = icount ]; then
		for k in base patched control; do
			w=0
			[ $k = control ] && w=$work
			log "round $r/$runs: $k"
			boot $k "$k-$r" -k $k -r "$r" "${args[@]}" -w "$w" "${case_list[@]}"
		done
		continue
	fi
	for k in base patched; do
		extra=()
		# the weighted case only once, after the last timed patched run
		[ $k = patched ] && [ "$r" = "$runs" ] && extra=(weighted)
		log "run $r/$runs: $k"
		boot $k "$k-$r" -k $k -r "$r" "${args[@]}" -i 1 "${case_list[@]}" "${extra[@]}"
	done
done

# M4: deterministic too, but long (six runs of 100 iterations), so apart
for r in $(seq 1 "$thp_runs"); do
	for k in base patched; do
		log "thp $r/$thp_runs: $k"
		boot $k "thp-$k-$r" -k $k -r "$r" thp
	done
done

if [ "$lockstat" = 1 ]; then
	build base-lockstat
	build lockstat
	for k in base patched; do
		flavor=lockstat
		[ $k = base ] && flavor=base-lockstat
		log "lock_stat: $k"
		boot $flavor "lockstat-$k" -k $k -r 0 -L -n "$nproc" -m "$lsize" \
			-c "$cgmax" -p "$passes" -i 5 brd12
	done
fi

echo "elapsed_min=$(( ($(date +%s) - t_start + 30) / 60 ))" >> "$out/params"
bash "$top/scripts/bench-report.sh" "$out"
log "report: $out/report.md ($(( ($(date +%s) - t_start + 30) / 60 )) min)"
if [ $failed != 0 ]; then
	echo "bench: $failed boot(s) failed; the report covers the runs that completed" >&2
	exit 1
fi
