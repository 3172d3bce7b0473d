#!/bin/bash
# Reclaim never sleeps for a swap table. Half of the memory allocations
# made under folio_alloc_swap() fail (fail_page_alloc and failslab, limited
# to that function by their stack trace filter, sleeping allocations too)
# while memcg reclaim swaps out over two devices. The table of a fresh
# cluster is allocated there: when the atomic try fails, reclaim puts the
# cluster back and goes on to the next cluster or device. It must never
# drop the allocator lock for a sleeping try, which would end the queue
# reader section and restart the device walk: stat cursor_restarts stays
# the same, and the data survives.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin
FI=/sys/kernel/debug
if [ ! -f $FI/fail_page_alloc/require-start ] || [ ! -f $FI/failslab/require-start ]; then
	not_ok "fault injection with a stack trace filter in this kernel"
	exit 1
fi
stat_of() { awk -v k="$1" '$1 == "stat" && $2 == k { print $3 }' $DBG; }

# The text of folio_alloc_swap(): from its address to the next symbol's
start=$(awk '$3 == "folio_alloc_swap" { print $1; exit }' /proc/kallsyms)
end=$(awk '{ print $1 }' /proc/kallsyms | sort -u | awk -v s="$start" 'f { print; exit } $1 == s { f = 1 }')
diag "folio_alloc_swap: 0x$start-0x$end"
check "folio_alloc_swap in /proc/kallsyms" test -n "$start" -a -n "$end" -a "$start" != 0000000000000000
[ -n "$start" ] && [ -n "$end" ] || exit 1

budget=1000000
inject() { # inject PROBABILITY: configure both fault attributes
	local a
	for a in $FI/fail_page_alloc $FI/failslab; do
		echo "0x$start" > "$a/require-start"
		echo "0x$end" > "$a/require-end"
		echo N > "$a/ignore-gfp-wait"
		echo 0 > "$a/verbose"
		echo 1 > "$a/interval"
		echo "$budget" > "$a/times"
		echo "$1" > "$a/probability"
	done
	echo N > $FI/fail_page_alloc/ignore-gfp-highmem
	echo 0 > $FI/fail_page_alloc/min-order
}
injected() { # failures injected since inject()
	echo $((2 * budget - $(cat $FI/fail_page_alloc/times) - $(cat $FI/failslab/times)))
}

swap_off_all
swap_on "$(ram 0)" 5
swap_on "$(ram 1)" 5
cg=$(memcg reclaim-populate 32M)
r0=$(stat_of cursor_restarts)
a0=$(( $(dev_attr "$(ram 0)" allocated) + $(dev_attr "$(ram 1)" allocated) ))
inject 50
in_memcg "$cg" "$FILL" --anon 128M --passes 2 --quiet
rc=$?
n=$(injected)
inject 0
r1=$(stat_of cursor_restarts)
a1=$(( $(dev_attr "$(ram 0)" allocated) + $(dev_attr "$(ram 1)" allocated) ))
diag "$n allocations failed, $((a1 - a0)) pages swapped out, cursor_restarts $r0 -> $r1"
check "worker data verified" test $rc -eq 0
check "allocations under folio_alloc_swap() failed ($n)" test "$n" -gt 0
check "at least 96 MiB swapped out through the failures ($((a1 - a0)) pages)" test $((a1 - a0)) -ge 24576
check "reclaim never restarted its device walk (cursor_restarts $r0 -> $r1)" test "$r1" = "$r0"
rmdir "$cg"
swap_off_all
tap_end
