# shellcheck shell=bash
# Helpers shared by the guest tests (sourced; runs inside the VM as root).
# Every check prints one numbered TAP line (tests/lib/tap.sh); a test ends
# with tap_end, which fails when one of its checks failed.
# A test calls tap_begin after sourcing this file (the demo and the bench
# print no TAP).

SWAPQ_REPO=${SWAPQ_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
FILL=$SWAPQ_REPO/build/tests/swapq-fill
# shellcheck disable=SC2034 # for the tests that source this file
SWAPQ=$SWAPQ_REPO/build/tests/swapq
QUEUE=/sys/kernel/mm/swap/queue
DBG=/sys/kernel/debug/swap/queue
# shellcheck source=../lib/tap.sh
. "$SWAPQ_REPO/tests/lib/tap.sh"

# shellcheck disable=SC2034 # for the tests that source this file
THP=/sys/kernel/mm/transparent_hugepage
# thp_mode FILE: the selected mode of a THP "enabled" file ("a [b] c" -> b)
thp_mode() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }

# Devices: brd is built in with brd.rd_nr/rd_size from the runner.
ram() { echo "/dev/ram$1"; }

# swap_on DEV [PRIO [SIZE_KIB]]: mkswap and swapon, PRIO "-" = default
swap_on() {
	local dev=$1 prio=${2:--} size=${3:-}
	# no UUID: generating one takes seconds in the guest
	mkswap -f -U clear "$dev" ${size:+"$size"} >/dev/null 2>&1 || { echo "mkswap $dev failed" >&2; return 1; }
	if [ "$prio" = - ]; then swapon "$dev"; else swapon -p "$prio" "$dev"; fi
}

swap_off_all() {
	swapoff -a 2>/dev/null
	local d devs
	mapfile -t devs < <(awk 'NR > 1 { print $1 }' /proc/swaps)
	for d in "${devs[@]}"; do swapoff "$d"; done
}

# swap_used DEV: KiB in use on DEV per /proc/swaps (0 if not swapped on)
swap_used() {
	awk -v d="$1" '$1 == d { u = $4 } END { print u + 0 }' /proc/swaps
}

# swap_prio DEV
swap_prio() {
	awk -v d="$1" '$1 == d { print $5 }' /proc/swaps
}

swap_count() { awk 'NR > 1' /proc/swaps | wc -l; }

# fragmented_fs DEV MNT: ext4 on DEV, mounted on MNT, filled with a file in
# which one 4K block of every six holds data (bytes 0xa5) and the other five
# are holes. A file written afterwards (swap_file) is laid out in extents of
# five blocks: nearly every 16-slot run of a swap file there crosses an
# extent boundary, and a read that runs past one returns the filler's bytes.
# 7.3 read such runs as one 64K folio (fixed by patch 1 of the series).
fragmented_fs() {
	mkfs.ext4 -q -F -b 4096 "$1" > /dev/null 2>&1 && mount -t ext4 "$1" "$2" || return 1
	python3 - "$2/filler" <<'EOF_PY' || return 1
import os, sys
chunk = b'\xa5' * 4096 + bytes(5 * 4096)
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)
try:
    while os.write(fd, chunk) == len(chunk):
        pass
except OSError:
    pass
os.fsync(fd)
os.close(fd)
EOF_PY
	fallocate --dig-holes "$2/filler" && sync
}

# swap_file PATH MIB: a swap file of MIB MiB (not swapped on)
swap_file() {
	dd if=/dev/zero of="$1" bs=1M count="$2" conv=fsync status=none &&
		chmod 600 "$1" && mkswap -f -U clear "$1" > /dev/null
}

# extents FILE: how many extents FILE has
extents() { filefrag "$1" | awk '{ print $2 }'; }

# memcg NAME MAX: a fresh cgroup with memory.max, printed as its path
memcg() {
	local cg=/sys/fs/cgroup/$1
	grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
		echo +memory > /sys/fs/cgroup/cgroup.subtree_control
	[ -d "$cg" ] && rmdir "$cg"
	mkdir "$cg" && echo "$2" > "$cg/memory.max" && echo "$cg"
}

# in_memcg CG COMMAND...: run COMMAND inside the cgroup
in_memcg() {
	local cg=$1
	shift
	bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$@"
}

# memcg_bg CG COMMAND...: start COMMAND inside the cgroup in the background;
# bash -c execs it, so $worker is COMMAND's own pid
memcg_bg() {
	local cg=$1
	shift
	bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$@" &
	worker=$!
}

# wait_stopped PID: until the process stops itself (SIGSTOP) or exits
wait_stopped() {
	local st
	while st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null); do
		[ "$st" = T ] && return 0
		sleep 0.2
	done
	return 1
}

# within PCT A B: |A - B| <= PCT % of B
within() {
	awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 100 <= p * b) }'
}

# Queue interface (sysfs) helpers
# read_attr VAR FILE: the first line of FILE into VAR, without the fork and
# exec of a cat (slow under QEMU TCG); when FILE cannot be read, VAR is
# empty and the status non-zero
read_attr() {
	local line=''
	IFS= read -r line < "$2"
	local rc=$?
	printf -v "$1" %s "$line"
	return $rc
}
dev_type() { # DEV: its swap type, from the queue's sysfs
	local d p
	for d in "$QUEUE"/devices/*; do
		read_attr p "$d/path" 2>/dev/null && [ "$p" = "$1" ] && { echo "${d##*/}"; return 0; }
	done
	return 1
}
dev_attr() { cat "$QUEUE/devices/$(dev_type "$1")/$2"; }

# run_stopped CG SIZE: start a worker swapping SIZE of anon memory in CG;
# returns once it has filled its memory and stopped itself (pid in $worker)
run_stopped() {
	memcg_bg "$1" "$FILL" --anon "$2" --stop-after-fill --quiet
	wait_stopped $worker
}

# finish_worker: let the stopped worker verify its data; one TAP line
finish_worker() {
	kill -CONT "$worker"
	wait "$worker"
	check "worker data verified after swap-in" test $? -eq 0
}

# consistent: the queue's sysfs, debugfs and /proc/swaps describe the same
# devices, rings and priorities; print what disagrees, fail if anything does
consistent() {
	local bad=0 n=0 t d path prio ring line r i expect_prio v dring dpos dprio
	local -A seen
	# every /proc/swaps device has a sysfs directory with its priority
	while read -r path _ _ _ prio; do
		n=$((n + 1))
		t=$(dev_type "$path") || { echo "# no sysfs directory for $path"; bad=1; continue; }
		seen[$t]=1
		read_attr v "$QUEUE/devices/$t/priority"
		[ "$v" = "$prio" ] || { echo "# $path: sysfs priority $v != $prio"; bad=1; }
	done < <(awk 'NR > 1' /proc/swaps)
	local ndev
	ndev=$(find "$QUEUE/devices" -mindepth 1 -maxdepth 1 | wc -l)
	[ "$ndev" = "$n" ] || { echo "# $ndev sysfs devices, $n in /proc/swaps"; bad=1; }
	# rings (debugfs): strictly descending priority; each member's sysfs
	# ring, position and priority say where debugfs lists it
	r=0 expect_prio=
	while read -r _ ring _ prio _ line; do
		[ "$ring" = "$r" ] || { echo "# debugfs ring $ring listed as ring $r"; bad=1; }
		if [ -n "$expect_prio" ] && [ "$prio" -ge "$expect_prio" ]; then
			echo "# ring $r priority $prio not below $expect_prio"; bad=1
		fi
		expect_prio=$prio i=0
		for t in $line; do
			d=$QUEUE/devices/$t
			read_attr dring "$d/ring"
			read_attr dpos "$d/position"
			read_attr dprio "$d/priority"
			if [ "$dring" != "$r" ] || [ "$dpos" != "$i" ] || [ "$dprio" != "$prio" ]; then
				echo "# type $t: ring $dring position $dpos priority $dprio, debugfs says $r/$i/$prio"
				bad=1
			fi
			unset "seen[$t]"
			i=$((i + 1))
		done
		r=$((r + 1))
	done < <(grep '^ring ' $DBG)
	[ ${#seen[@]} = 0 ] || { echo "# devices in no ring: ${!seen[*]}"; bad=1; }
	# debugfs: same generation; a cpu line per CPU and ring
	read_attr v "$QUEUE/generation"
	[ "$(awk '$1 == "generation" { print $2 }' $DBG)" = "$v" ] ||
		{ echo "# debugfs generation differs"; bad=1; }
	local cpus
	cpus=$(awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { split($i, a, "-"); n += (a[2] == "" ? 1 : a[2] - a[1] + 1) } print n }' /sys/devices/system/cpu/possible)
	[ "$(grep -c '^cpu ' $DBG)" = $((cpus * r)) ] ||
		{ echo "# $(grep -c '^cpu ' $DBG) cpu lines, want $cpus CPUs x $r rings"; bad=1; }
	[ "$(grep -c '^device ' $DBG)" = "$n" ] || { echo "# debugfs device lines differ"; bad=1; }
	return $bad
}

# The kernel log since a mark written to /dev/kmsg. Every swapon logs a
# line, so the ring buffer wraps during long tests: counting lines would
# hide what came after; a mark that has wrapped out means all of the buffer
# is newer than it.
log_mark() { echo "swapq-test: mark [$1]" > /dev/kmsg; }
log_since() {
	dmesg | awk -v m="swapq-test: mark [$1]" '{ l[NR] = $0 } index($0, m) { s = NR }
		END { for (i = s ? s : 1; i <= NR; i++) print l[i] }'
}

# log_clean MARK: no splat in the kernel log since log_mark MARK
log_clean() {
	local f rc
	f=$(mktemp)
	log_since "$1" > "$f"
	bash "$SWAPQ_REPO/scripts/splat-check.sh" "$f" 2>&1 | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	rm -f "$f"
	return "$rc"
}
