#!/bin/bash
# make bench BENCH_MODE=host: pristine 7.3 against the series on a machine
# with KVM and 16 or more CPUs. The contention the series removes (7.3
# takes one global lock and rotates one plist per cluster taken) grows
# with the number of CPUs that swap at once, so it shows here, in a KVM
# guest with one vCPU per host CPU; the 2-core TCG bench of
# scripts/bench.sh counts the path length, not contention.
#
# Builds the flavors host and base-host (vm.config + host.config), boots
# base and patched alternately RUNS times, each boot running the cases of
# tests/bench/host/guest-host.sh (usemem over 1, 4 and 12 brd, a kernel
# build in a memcg over 8 zram, thp_swap_allocator_test), then with
# BENCH_TRACE=1 one more boot of each with the tracers of tests/bench/host,
# never during the timed boots. Writes build/bench-host/report.md
# (scripts/bench-host-report.py). Needs /dev/kvm, 16 CPUs, BENCH_MEM of
# free memory and pahole (dwarves) for the guest's BTF; the tracers use the
# host's bpftrace and perf (linux-perf) and are skipped without them.
#
# The guests run with -accel kvm -cpu host (run-vm.sh SWAPQ_ACCEL and
# SWAPQ_QEMU_ARGS); each boot's QEMU command line is kept beside its
# results (qemu.cmd).
#
# Settings (environment):
#   RUNS=10               boots per kernel
#   BENCH_SMP=nproc       vCPUs, at most 255 (the default pc machine's limit)
#   BENCH_MEM=32768       guest memory, MiB
#   BENCH_MEMCG=MEM/4     memory.max of the usemem cases, MiB; usemem asks
#                         1.5 times that of it, one worker per vCPU
#   BENCH_SWAP=MEMCG      brd swap of a usemem case, MiB, split between its
#                         1, 4 or 12 devices
#   BENCH_PASSES=0        usemem re-read passes
#   BENCH_KBUILD_MEMCG=auto  memory.max of the kernel build, MiB; auto: what
#                         the first boot's unlimited build needed divided by
#                         BENCH_KBUILD_DIV (4), kept for the other boots
#   BENCH_KBUILD_CONFIG=defconfig BENCH_KBUILD_TARGET=vmlinux
#   BENCH_ZRAM=MEM/8      size of each of the kernel build's 8 zram, MiB
#   BENCH_CASES="brd1 brd4 brd12 kbuild thp"
#   BENCH_TRACE=0         1: the tracing boots
#   BENCH_TIMEOUT=10800   seconds per boot
#   BENCH_FORCE=1         go on when a requirement is missing
#   BENCH_DRY=1           build and boot nothing: print the builds and each
#                         boot's kernel command line (run-vm.sh -n)
#   BENCH_BUILD_NICE=0, JOBS  the kernel builds (build-kernel.sh)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
b=$top/build
out=$b/bench-host
ncpu=$(nproc)
runs=${RUNS:-10}
smp=${BENCH_SMP:-$((ncpu > 255 ? 255 : ncpu))}
mem=${BENCH_MEM:-32768}
cgmax=${BENCH_MEMCG:-$((mem / 4))}
swap=${BENCH_SWAP:-$cgmax}
passes=${BENCH_PASSES:-0}
kmax=${BENCH_KBUILD_MEMCG:-auto}
kdiv=${BENCH_KBUILD_DIV:-4}
kconfig=${BENCH_KBUILD_CONFIG:-defconfig}
ktarget=${BENCH_KBUILD_TARGET:-vmlinux}
zram=${BENCH_ZRAM:-$((mem / 8))}
cases=${BENCH_CASES:-brd1 brd4 brd12 kbuild thp}
trace=${BENCH_TRACE:-0}
tmo=${BENCH_TIMEOUT:-10800}
nice=${BENCH_BUILD_NICE:-0}
dry=${BENCH_DRY:-0}
# 12 brd devices, each as large as the whole swap of a case (brd1 has one)
append="brd.rd_nr=12 brd.rd_size=$((swap * 1024))"
export SWAPQ_ACCEL=kvm SWAPQ_QEMU_ARGS="-cpu host"
unset SWAPQ_ICOUNT
for v in runs smp mem cgmax swap kdiv zram tmo passes; do
	case ${!v} in ''|*[!0-9]*) echo "bench-host: $v must be a number" >&2; exit 2 ;; esac
	[ "${!v}" -gt 0 ] || [ $v = passes ] || { echo "bench-host: $v must not be 0" >&2; exit 2; }
done
case $kmax in auto) ;; ""|*[!0-9]*|0*) echo "bench-host: BENCH_KBUILD_MEMCG is auto or MiB" >&2; exit 2 ;; esac
log() { printf '[bench-host %s] %s\n' "$(date +%T)" "$*"; }

# require CONDITION... -- MESSAGE: exit 2 with MESSAGE unless CONDITION
# holds or BENCH_FORCE=1
require() {
	local cond=()
	while [ "$1" != -- ]; do cond+=("$1"); shift; done
	shift
	"${cond[@]}" > /dev/null && return 0
	if [ "${BENCH_FORCE:-0}" = 1 ]; then
		echo "bench-host: $* (BENCH_FORCE=1: going on)" >&2
		return 0
	fi
	echo "bench-host: $* (BENCH_FORCE=1 goes on anyway)" >&2
	exit 2
}
# kvm_usable: /dev/kvm opens for reading and writing
kvm_usable() { [ -c /dev/kvm ] && { : <> /dev/kvm; } 2> /dev/null; }
avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
require kvm_usable -- "/dev/kvm is missing or not usable: this mode needs KVM"
require test "$ncpu" -ge 16 -- \
	"$ncpu CPUs: this mode needs 16 or more, where the lock contention shows"
require test "$avail" -ge $((mem + 2048)) -- \
	"$avail MiB available: the guest takes BENCH_MEM=$mem MiB, and the host needs some too"
require command -v pahole -- "pahole missing: the guest's BTF needs it (apt install dwarves)"
require command -v qemu-system-x86_64 -- "qemu-system-x86_64 missing (make deps)"
if [ "$trace" = 1 ]; then
	command -v bpftrace > /dev/null || echo "bench-host: no bpftrace: the tracing boots will skip its scripts (apt install bpftrace)" >&2
	command -v perf > /dev/null || echo "bench-host: no perf: the tracing boots will skip perf lock contention (apt install linux-perf)" >&2
fi

# run COMMAND...: run it, or with BENCH_DRY=1 print it
run() {
	if [ "$dry" = 1 ]; then printf '+'; printf ' %q' "$@"; printf '\n'; else "$@"; fi
}
build() {	# build FLAVOR: incremental, quiet unless it fails
	log "kernel $1"
	[ "$dry" = 1 ] && { run bash "$top/scripts/build-kernel.sh" "$1"; return; }
	if ! nice -n "$nice" bash "$top/scripts/build-kernel.sh" "$1" > "$out/logs/build-$1.log" 2>&1; then
		tail -n 30 "$out/logs/build-$1.log" >&2
		echo "bench-host: building $1 failed (log: $out/logs/build-$1.log)" >&2
		exit 1
	fi
}

t_start=$(date +%s)
mkdir -p "$out/logs"
run bash "$top/scripts/prepare-tree.sh" pristine
run bash "$top/scripts/prepare-tree.sh"
build base-host
build host
log "usemem, thp_swap_allocator_test"
run make -s -C "$top/tests/bench" OUT="$b/tests" KSRC="$b/pristine"
[ "$b/initramfs.cpio.gz" -nt "$top/scripts/guest-init" ] || run bash "$top/scripts/mkinitramfs.sh"

release() { cat "$b/obj-$1/include/config/kernel.release" 2>/dev/null || echo unbuilt; }
rm -rf "$out/runs" "$out/report.md"
mkdir -p "$out/runs"
{
	echo "mode=host"
	echo "runs=$runs"
	echo "cases=$cases"
	echo "smp=$smp"
	echo "mem=$mem"
	echo "memcg=$cgmax"
	echo "swap=$swap"
	echo "passes=$passes"
	echo "kbuild=make $kconfig; make -j$smp $ktarget, memory.max $kmax (auto: need / $kdiv), 8 zram of $zram MiB"
	echo "trace=$trace"
	echo "append=$append"
	echo "run_vm=SWAPQ_ACCEL=$SWAPQ_ACCEL SWAPQ_QEMU_ARGS='$SWAPQ_QEMU_ARGS' scripts/run-vm.sh -k FLAVOR -s $smp -m $mem -t $tmo -a '$append' -o build/bench-host/runs/TAG"
	echo "kernel_version=$(cat "$b/kernel-version" 2>/dev/null || echo unknown)"
	echo "release_base=$(release base-host)"
	echo "release_patched=$(release host)"
	echo "patches=$(grep -c '^[^#]' "$top/patches/series" || true)"
	echo "commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
		[ -z "$(git -C "$top" status --porcelain --untracked-files=no 2>/dev/null)" ] || echo +changes)"
	echo "host=$ncpu CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo) MiB"
	echo "qemu=$(qemu-system-x86_64 --version 2>/dev/null | head -n 1)"
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
} > "$out/params"

failed=0
# boot KERNEL TAG GUEST-ARGS...: one VM, results in runs/TAG
boot() {
	local kernel=$1 tag=$2 flavor=host rc=0 vm=()
	shift 2
	[ "$kernel" = base ] && flavor=base-host
	[ "$dry" = 1 ] && vm=(-n)
	bash "$top/scripts/run-vm.sh" "${vm[@]}" -k "$flavor" -s "$smp" -m "$mem" -t "$tmo" \
		-a "$append" -o "$out/runs/$tag" -- \
		bash "$top/tests/bench/host/guest-host.sh" -k "$kernel" -c "$cgmax" -p "$passes" \
		-b "$kmax" -d "$kdiv" -C "$kconfig" -t "$ktarget" -z "$zram" "$@" \
		> "$out/logs/$tag.log" 2>&1 || rc=$?
	if [ "$dry" = 1 ]; then
		echo "  kernel command line: $(cat "$out/logs/$tag.log")"
		echo "  guest: $(tail -n 1 "$out/runs/$tag/cmd")"
	fi
	grep '^# result: \|^# kbuild: ' "$out/logs/$tag.log" | sed 's/^# \(result: \)\{0,1\}/  /' || true
	if [ $rc != 0 ]; then
		failed=$((failed + 1))
		echo "bench-host: boot $tag failed ($rc): $out/logs/$tag.log, $out/runs/$tag/console.log" >&2
		tail -n 5 "$out/logs/$tag.log" >&2
	fi
}

read -ra case_list <<< "$cases"
for r in $(seq 1 "$runs"); do
	for k in base patched; do
		log "run $r/$runs: $k"
		boot $k "$k-$r" -r "$r" "${case_list[@]}"
		# the first boot's kernel build sizes memory.max for all others
		if [ "$kmax" = auto ] && [ -s "$out/runs/$k-$r/kbuild-max" ]; then
			kmax=$(cat "$out/runs/$k-$r/kbuild-max")
			log "kbuild memory.max: $kmax MiB from now on"
		fi
	done
done
if [ "$trace" = 1 ]; then
	for k in base patched; do
		log "tracing: $k"
		boot $k "trace-$k" -r 0 -T
	done
fi

echo "kbuild_memcg=$kmax" >> "$out/params"
echo "elapsed_min=$(( ($(date +%s) - t_start + 30) / 60 ))" >> "$out/params"
if [ "$dry" = 1 ]; then
	log "dry run: nothing built or booted"
	exit 0
fi
python3 "$top/scripts/bench-host-report.py" "$out"
log "report: $out/report.md ($(( ($(date +%s) - t_start + 30) / 60 )) min)"
if [ $failed != 0 ]; then
	echo "bench-host: $failed boot(s) failed; the report covers the runs that completed" >&2
	exit 1
fi
