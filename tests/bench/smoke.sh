#!/bin/bash
# make check's smoke run of the benchmark path, so that make bench cannot
# rot: one boot of the kernel in the deterministic mode of make bench
# (scripts/run-vm.sh SWAPQ_ICOUNT=1, one vCPU) running the single and
# weighted cases of guest-bench.sh at small sizes. It checks that the path
# works, not what it measures: each case ends ok, swapped pages out, and
# its touch loop was timed by the instruction clock; the weighted case set
# its quotas.   smoke.sh KERNEL-FLAVOR
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
tap_begin
kernel=${1:-debug}
out=$top/build/test-results/bench-smoke
rm -rf "$out"
mkdir -p "$out"
if ! make -s -C "$top/tests/bench" OUT="$top/build/tests" > "$out/make.log" 2>&1; then
	not_ok "bench smoke: usemem builds"
	sed 's/^/# /' "$out/make.log"
	tap_end
	exit
fi
SWAPQ_ICOUNT=1 bash "$top/scripts/run-vm.sh" -k "$kernel" -s 1 -t 900 \
	-a "brd.rd_nr=12 brd.rd_size=786432" -o "$out/vm" -- \
	bash "$top/tests/bench/guest-bench.sh" -k "$kernel" -r 1 -n 1 -m 24M -c 16M \
	single weighted > "$out/guest.log" 2>&1
rc=$?
grep '^# result: ' "$out/guest.log"
check "bench smoke: the icount boot ran both cases (status $rc)" [ "$rc" = 0 ]
results=$out/vm/results.tsv
for c in single weighted; do
	# kernel run case status ... pswpout(11) ... touched_s(14)
	line=$(awk -F'\t' -v c="$c" '$3 == c' "$results" 2>/dev/null)
	# shellcheck disable=SC2016
	check "bench smoke: $c: ok, pages swapped out, touch loop timed ($(echo "$line" | cut -f4,11,14 | tr '\t' ' '))" \
		awk -F'\t' 'NF >= 14 && $4 == "ok" && $11 > 0 && $14 > 0 { n++ } END { exit n != 1 }' <<< "$line"
done
check "bench smoke: weighted: four devices given quotas" \
	[ "$(wc -l < "$out/vm/weighted-quotas.tsv" 2>/dev/null)" = 4 ]
if ! tap_end; then
	tail -n 30 "$out/guest.log" | sed 's/^/# /'
	exit 1
fi
