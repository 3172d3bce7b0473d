#!/bin/bash
# The queue's KUnit suite, built as a module (swap_queue_test) and loaded with
# modprobe; its KTAP results are read back from debugfs.
. "$(dirname "$0")/lib.sh"

moddir=$(ls -d "$SWAPQ_REPO"/build/mod-*/lib/modules/"$(uname -r)" 2>/dev/null | head -n 1)
if ! modinfo -b "${moddir%/lib/modules/*}" -k "$(uname -r)" swap_queue_test >/dev/null 2>&1; then
	not_ok "swap_queue_test module is built for $(uname -r)"
	exit 1
fi
check "modprobe swap_queue_test" modprobe -d "${moddir%/lib/modules/*}" swap_queue_test
results=$(cat /sys/kernel/debug/kunit/swap_queue/results 2>/dev/null)
if [ -z "$results" ]; then
	not_ok "KUnit results in /sys/kernel/debug/kunit/swap_queue/results"
	exit 1
fi
echo "$results" | sed 's/^/# /'
# one TAP line per test case (top-level cases are indented by 4 spaces)
echo "$results" | sed -n 's/^    \(ok\|not ok\) [0-9]* \(.*\)$/\1 - kunit swap_queue: \2/p'
echo "$results" | grep -q '^ok ' || not_ok "kunit suite swap_queue passed"
modprobe -d "${moddir%/lib/modules/*}" -r swap_queue_test
exit $((failures > 0))
