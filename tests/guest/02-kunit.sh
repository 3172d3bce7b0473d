#!/bin/bash
# The queue's KUnit suite, built as a module (swap_queue_kunit) and loaded
# with modprobe; its KTAP results are read back from the kernel log.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

moddir=
for d in "$SWAPQ_REPO"/build/mod-*/lib/modules/"$(uname -r)"; do
	[ -d "$d" ] && { moddir=$d; break; }
done
root=${moddir%/lib/modules/*}
if [ -z "$moddir" ] || ! modinfo -b "$root" -k "$(uname -r)" swap_queue_kunit >/dev/null 2>&1; then
	not_ok "swap_queue_kunit module is built for $(uname -r)"
	exit 1
fi
mark=$(dmesg | wc -l)
check "modprobe swap_queue_kunit" modprobe -d "$root" swap_queue_kunit
ktap=$(dmesg | tail -n +$((mark + 1)) | sed 's/^\[[^]]*\] //')
# shellcheck disable=SC2001 # a prefix on each of its lines
echo "$ktap" | sed 's/^/# /'
# one TAP line per test case: the suite's cases are indented by 4 spaces
cases=$(echo "$ktap" | sed -n 's/^    \(ok\|not ok\) [0-9]* \([^#]*\).*$/\1 - kunit swap_queue: \2/p')
echo "$cases"
# the suite's own plan (indented "1..N") says how many cases it has
plan=$(echo "$ktap" | sed -n 's/^    1\.\.\([0-9]*\)$/\1/p' | head -n 1)
check "kunit swap_queue passed every case of its plan ($(echo "$cases" | grep -c '^ok') of ${plan:-no plan})" \
	test -n "$plan" -a "$(echo "$cases" | grep -c '^ok')" = "${plan:-x}"
check "kunit suite swap_queue passed" grep -q '^ok [0-9]* swap_queue' <<< "$ktap"
modprobe -d "$root" -r swap_queue_kunit
exit $((failures > 0))
