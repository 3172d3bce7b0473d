#!/bin/bash
# Boot a built kernel under QEMU and run one command in the guest.
#
#   run-vm.sh [-k FLAVOR|BZIMAGE] [-s SMP] [-m MEM] [-t TIMEOUT] [-a APPEND]
#             [-o OUTDIR] [-n] -- COMMAND [ARGS...]
#
# The guest sees the host root read-only (9p), so COMMAND is a host path; it
# runs under bash in the current directory, with SWAPQ_OUT naming a writable
# directory shared with the host (OUTDIR). The guest has its own /tmp: a
# repository under the host's /tmp is bound back at its physical path
# (swapq.repo), other host paths under /tmp are not seen. Exits with
# COMMAND's status, 124 on timeout, or 125 when the guest did not report
# one; -n writes OUTDIR/cmd, prints the kernel command line and boots
# nothing. A splat in the kernel log (BUG, WARNING, Oops, lockdep, KASAN,
# hung task, KFENCE, slub_debug ...) fails the run even when COMMAND
# succeeded. Kernels built with KFENCE (the debug configs) boot with
# slub_debug=FZP. SWAPQ_ACCEL replaces "-accel tcg,thread=multi"
# (tcg,thread=single: the vCPUs take turns on one host thread).
# SWAPQ_ICOUNT=1: a deterministic machine for measurements. The vCPUs take
# turns on one thread and the guest clock counts executed instructions
# (-icount shift=0,sleep=off: 1 ns per instruction, idle time skipped), the
# RTC starts at a fixed date and follows that clock, QEMU's random seed is
# fixed, and the kernel neither randomizes its base nor user mappings. Host
# load then changes how long a run takes and, a little, what the guest
# measures (M1's A/A spread in make bench: 0.1-0.2 % alone, up to 0.8 %
# beside a busy 4-vCPU guest).
# SWAPQ_QEMU_ARGS: more QEMU options, split at blanks (-cpu host under KVM).
# OUTDIR/qemu.cmd keeps the QEMU command line of the run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
kernel=debug smp=${SWAPQ_SMP:-2} mem=${SWAPQ_MEM:-2048} tmo=1800 append='' out='' dry=0
while getopts k:s:m:t:a:o:n opt; do
	case $opt in
	k) kernel=$OPTARG ;; s) smp=$OPTARG ;; m) mem=$OPTARG ;;
	t) tmo=$OPTARG ;; a) append=$OPTARG ;; o) out=$OPTARG ;; n) dry=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
[ $# -ge 1 ] || { echo "run-vm: no command" >&2; exit 2; }

bz=$kernel
[ -f "$bz" ] || bz=$top/build/obj-$kernel/arch/x86/boot/bzImage
[ -f "$bz" ] || [ $dry = 1 ] || { echo "run-vm: no kernel $kernel (make kernel first)" >&2; exit 2; }
initrd=$top/build/initramfs.cpio.gz
[ -f "$initrd" ] || [ $dry = 1 ] || bash "$top/scripts/mkinitramfs.sh"
out=${out:-$(mktemp -d "$top/build/vm.XXXXXX")}
mkdir -p "$out"
# physical paths: a symbolic link on the way may not resolve in the guest
out=$(cd "$out" && pwd -P)
rm -f "$out"/{console.log,output.log,dmesg}
{
	printf 'cd %q || exit 126\n' "$(pwd -P)"
	# SWAPQ_* settings of the caller (SWAPQ_DURATION ...) reach the guest
	for v in $(compgen -v SWAPQ_); do printf 'export %s=%q\n' "$v" "${!v}"; done
	printf 'export SWAPQ_REPO=%q\n' "$top"
	printf 'export SWAPQ_VCPUS=%q\n' "$smp"
	printf 'exec'; printf ' %q' "$@"; printf '\n'
} > "$out/cmd"
# debug kernels (KFENCE built in): slab red zones, checks and poisoning too
if grep -qs '^CONFIG_KFENCE=y' "$(dirname "$bz")/../../../.config"; then
	append="slub_debug=FZP $append"
fi
# the kernel command line, with $append as it is when the guest boots
cmdline() { echo "console=ttyS0 panic=-1 pci=noacpi swapq.out=$out swapq.repo=$top $append"; }
if [ $dry = 1 ]; then
	cmdline
	exit 0
fi

: > "$out/output.log"
accel=(-accel "${SWAPQ_ACCEL:-tcg,thread=multi}")
if [ "${SWAPQ_ICOUNT:-0}" = 1 ]; then
	# the commas are QEMU's option syntax, not array separators
	# shellcheck disable=SC2054
	accel=(-accel tcg,thread=single -icount shift=0,sleep=off
	       -rtc base=2026-01-01T00:00:00,clock=vm -seed 1)
	append="nokaslr norandmaps $append"
fi
read -ra qemu_extra <<< "${SWAPQ_QEMU_ARGS:-}"
# a socket per vCPU: the guest kernel has no ACPI (configs/vm.config), and
# SeaBIOS's MP table, which then gives the CPUs, lists one per package
# shellcheck disable=SC2054
qemu=(qemu-system-x86_64 "${accel[@]}" "${qemu_extra[@]}" -smp "$smp,sockets=$smp" -m "$mem"
	-display none -monitor none -no-reboot -nodefaults
	-kernel "$bz" -initrd "$initrd"
	-append "$(cmdline)"
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap
	-virtfs local,path="$out",mount_tag=outdir,security_model=none
	-serial file:"$out/console.log" -serial file:"$out/output.log")
printf '%q ' "${qemu[@]}" > "$out/qemu.cmd"; echo >> "$out/qemu.cmd"
timeout -k 10 "$tmo" "${qemu[@]}" &
qpid=$!
# the guest's tty ends lines with CR LF (onlcr): pass them on as plain lines
tail -n +1 -f --pid=$qpid "$out/output.log" | sed -u -e 's/\r$//' -e '/^SWAPQ-EXIT /d' || true
qrc=0
wait $qpid || qrc=$?

rc=$(sed -n 's/^SWAPQ-EXIT \([0-9]*\).*/\1/p' "$out/output.log" | tail -n 1)
if [ -z "$rc" ]; then
	if [ $qrc = 124 ]; then
		echo "run-vm: timed out after ${tmo}s" >&2; rc=124
	else
		echo "run-vm: guest ended without a status (qemu $qrc)" >&2; rc=125
	fi
fi
if bash "$top/scripts/splat-check.sh" "$out/console.log"; then :; else
	echo "run-vm: kernel log of this run: $out/console.log" >&2
	[ "$rc" = 0 ] && rc=1
fi
exit "$rc"
