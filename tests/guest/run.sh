#!/bin/bash
# Run guest tests inside the VM: run.sh [TEST...] (default: the tests that
# check.list names for this guest's vCPU count, which make check runs).
# Each test continues this script's TAP stream; after each one the kernel
# log it produced is checked for splats, which count as a failure of that
# test.
cd "$(dirname "$0")" || exit 2
here=$PWD
# shellcheck source=lib.sh
. "$here/lib.sh"
tap_begin
tmo=${SWAPQ_TEST_TIMEOUT:-1500}
tests=("$@")
[ ${#tests[@]} -gt 0 ] || mapfile -t tests < <(awk -v smp="smp=$(nproc)" '
	{ sub(/#.*/, "") } NF && ($2 == smp || (NF == 1 && smp == "smp=2")) { print $1 }' check.list)
echo "# guest kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { print $2 }' /proc/meminfo) KiB"
# a guest short of the vCPUs run-vm.sh gave it (CPUs the firmware did not
# list) would run another check.list set, or none
[ -z "${SWAPQ_VCPUS:-}" ] ||
	check "the guest has the $SWAPQ_VCPUS vCPUs it was given ($(nproc))" test "$(nproc)" = "$SWAPQ_VCPUS"
for t in "${tests[@]}"; do
	t=${t##*/}
	name=${t%.sh}
	log=$(mktemp)
	log_mark "$name"
	echo "# $name"
	start=$(date +%s)
	timeout -k 10 "$tmo" bash "$here/$t" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	echo "# $name: ${rc} after $(( $(date +%s) - start ))s"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		not_ok "$name: finished within ${tmo}s"
	elif [ "$rc" != 0 ] && ! grep -q '^not ok' "$log"; then
		not_ok "$name: exited with status $rc"
	fi
	if log_since "$name" > "$log" && bash "$here/../../scripts/splat-check.sh" "$log" 2>&1 | sed 's/^/# /'; [ "${PIPESTATUS[0]}" = 0 ]; then
		ok "$name: kernel log clean"
	else
		not_ok "$name: kernel log clean"
	fi
	rm -f "$log"
done
tap_end
