#!/bin/bash
# The running kernel has none of the symbols the series removes: the swap
# device plists, their lock and plist_requeue().
. "$(dirname "$0")/lib.sh"
check "/proc/kallsyms lists symbols" grep -q sys_swapon /proc/kallsyms
gone() {
	! grep -wE 'plist_requeue|swap_avail_head|swap_avail_lock|swap_active_head|percpu_swap_cluster' /proc/kallsyms
}
check "/proc/kallsyms has no plist_requeue, swap_avail_head, swap_avail_lock, swap_active_head, percpu_swap_cluster" gone
exit $((failures > 0))
