#!/bin/bash
# The queue's KUnit suite, built as a module (swap_queue_kunit) and loaded
# with modprobe; its KTAP results are read back from the kernel log.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin

moddir=
for d in "$SWAPQ_REPO"/build/mod-*/lib/modules/"$(uname -r)"; do
	[ -d "$d" ] && { moddir=$d; break; }
done
root=${moddir%/lib/modules/*}
if [ -z "$moddir" ] || ! modinfo -b "$root" -k "$(uname -r)" swap_queue_kunit >/dev/null 2>&1; then
	not_ok "swap_queue_kunit module is built for $(uname -r)"
	tap_end
	exit
fi
log_mark kunit
check "modprobe swap_queue_kunit" modprobe -d "$root" swap_queue_kunit
ktap=$(log_since kunit | sed 's/^\[[^]]*\] //')
# shellcheck disable=SC2001 # a prefix on each of its lines
echo "$ktap" | sed 's/^/# /'
# one result per test case: the suite's cases are indented by 4 spaces
passed=0
while read -r st desc; do
	if [ "$st" = ok ]; then
		ok "kunit swap_queue: $desc"
		passed=$((passed + 1))
	else
		not_ok "kunit swap_queue: $desc"
	fi
done < <(echo "$ktap" | sed -n 's/^    \(ok\|not ok\) [0-9]* \([^#]*\).*$/\1 \2/p' | sed 's/^not ok/not_ok/')
# the suite's own plan (indented "1..N") says how many cases it has
plan=$(echo "$ktap" | sed -n 's/^    1\.\.\([0-9]*\)$/\1/p' | head -n 1)
check "kunit swap_queue passed every case of its plan ($passed of ${plan:-no plan})" \
	test -n "$plan" -a "$passed" = "${plan:-x}"
check "kunit suite swap_queue passed" grep -q '^ok [0-9]* swap_queue' <<< "$ktap"
tap_end
