# Helpers shared by the guest tests (sourced; runs inside the VM as root).
# Every check prints one TAP line: "ok - what" or "not ok - what".

SWAPQ_REPO=${SWAPQ_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
FILL=$SWAPQ_REPO/build/tests/swapq-fill
SWAPQ=$SWAPQ_REPO/build/tests/swapq
QUEUE=/sys/kernel/mm/swap/queue
failures=0

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; failures=$((failures + 1)); }
skip() { echo "ok - $1 # SKIP ${2:-}"; }
diag() { echo "# $*"; }
# check DESCRIPTION COMMAND...: one TAP line from COMMAND's status
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# Devices: brd is built in with brd.rd_nr/rd_size from the runner.
ram() { echo "/dev/ram$1"; }

# swap_on DEV [PRIO [SIZE_KIB]]: mkswap and swapon, PRIO "-" = default
swap_on() {
	local dev=$1 prio=${2:--} size=${3:-}
	mkswap -f "$dev" $size >/dev/null 2>&1 || { echo "mkswap $dev failed" >&2; return 1; }
	if [ "$prio" = - ]; then swapon "$dev"; else swapon -p "$prio" "$dev"; fi
}

swap_off_all() {
	swapoff -a 2>/dev/null
	local d
	for d in $(awk 'NR > 1 { print $1 }' /proc/swaps); do swapoff "$d"; done
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
dev_type() { # DEV: its swap type, from the queue's sysfs
	local d
	for d in "$QUEUE"/devices/*; do
		[ "$(cat "$d/path" 2>/dev/null)" = "$1" ] && { basename "$d"; return 0; }
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
	kill -CONT $worker
	wait $worker
	check "worker data verified after swap-in" test $? -eq 0
}
