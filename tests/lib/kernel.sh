# shellcheck shell=bash
# Sourced by the suites that boot a kernel of their own (tests/harness,
# tests/inject, tests/control, tests/kasan); $top is the repository.
# shellcheck disable=SC2154

# The race scenarios of tests/guest/12-races.sh that make check runs on the
# KASAN kernel (tests/kasan) and not again on the debug one: those where
# sysfs and debugfs readers and quota writers meet a device being swapped
# off, and swap-in and swap.max meet swapoff.
# shellcheck disable=SC2034 # used by the files that source this one
kasan_scenarios="churn quota shmem-mthp swap-max"

# suite_kernel TREE FLAVOR LOG: prepare TREE (prepare-tree.sh's argument)
# and build FLAVOR from it, all output in LOG; when either fails, the end
# of LOG as TAP comments and a non-zero status.
suite_kernel() {
	if { bash "$top/scripts/prepare-tree.sh" "$1" &&
	     bash "$top/scripts/build-kernel.sh" "$2"; } > "$3" 2>&1; then
		return 0
	fi
	tail -n 20 "$3" | sed 's/^/# /'
	return 1
}

# provoked KERNEL CRASHTYPE DIR PATTERN WHAT [APPEND]: boot KERNEL
# (run-vm.sh's -k, with APPEND on its command line, output in DIR) and have
# lkdtm provoke CRASHTYPE while the command itself succeeds; ok WHAT when
# the run failed on a kernel splat and its output matches the extended
# regular expression PATTERN, else the output as TAP comments.
provoked() {
	local rc
	bash "$top/scripts/run-vm.sh" -k "$1" -t 300 -a "${6:-}" -o "$3" -- \
		bash -c "modprobe -d '$top/build/mod-$1' lkdtm && echo $2 > /sys/kernel/debug/provoke-crash/DIRECT; exit 0" \
		> "$3.log" 2>&1
	rc=$?
	if [ $rc != 0 ] && grep -q 'splat-check: kernel splat' "$3.log" && grep -Eq "$4" "$3.log"; then
		ok "$5"
	else
		not_ok "$5 (status $rc)"
		sed 's/^/# /' "$3.log"
	fi
}
