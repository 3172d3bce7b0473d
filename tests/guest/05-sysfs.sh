#!/bin/bash
# Admin interface: after every swapon/swapoff of a scripted sequence, sysfs,
# debugfs and /proc/swaps agree; bad writes change nothing.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin
step() { # DESCRIPTION COMMAND...
	local what=$1 g
	shift
	g=$(cat $QUEUE/generation)
	"$@" || { not_ok "$what"; return; }
	check "$what: sysfs, debugfs and /proc/swaps agree" consistent
	check "$what: generation advanced" test "$(cat $QUEUE/generation)" -gt "$g"
}

swap_off_all
check "queue sysfs directory present" test -d "$QUEUE"
check "queue debugfs file present" test -r "$DBG"
check "default_quota starts at one cluster (512 pages)" test "$(cat $QUEUE/default_quota)" = 512
step "swapon ram0 -p 10" swap_on "$(ram 0)" 10
step "swapon ram1 -p 10" swap_on "$(ram 1)" 10
step "swapon ram2 (default priority)" swap_on "$(ram 2)"
step "swapon ram3 -p 5" swap_on "$(ram 3)" 5
check "rings: 10, 5 and the default priority" test "$(awk '$1 == "ring" { print $4 }' $DBG | tr '\n' ' ')" = "10 5 $(swap_prio "$(ram 2)") "
# the debugfs dump is one record per read step: the queue, each possible
# CPU (its line for every ring), the counters; small reads must resume it
dump=$(cat $DBG)
check "debugfs read 7 bytes at a time gives the same dump" test "$(dd if=$DBG bs=7 status=none)" = "$dump"
ncpu=$(awk -F, '{ for (i = 1; i <= NF; i++) { split($i, r, "-"); n += r[2] == "" ? 1 : r[2] - r[1] + 1 } } END { print n }' /sys/devices/system/cpu/possible)
check "debugfs: a cpu line per possible CPU ($ncpu) and ring (3)" test "$(grep -c '^cpu ' <<< "$dump")" = $((ncpu * 3))
check "debugfs: the counters once, last" test "$(grep -c '^stat ' <<< "$dump")" = 5 -a "$(tail -n 1 <<< "$dump" | cut -d' ' -f1)" = stat
step "swapoff ram1" swapoff "$(ram 1)"
step "swapoff ram0" swapoff "$(ram 0)"
step "swapon ram0 again at -p 3" swap_on "$(ram 0)" 3
check "ram0 now in the ring of priority 3" test "$(dev_attr "$(ram 0)" priority)" = 3

# writes FILE DATA WANT: the write of DATA to FILE succeeds and FILE then
# reads WANT
writes() { printf '%s' "$2" > "$1" && test "$(cat "$1")" = "$3"; }

# Bad writes: -EINVAL, value unchanged
q=$QUEUE/devices/$(dev_type "$(ram 0)")/quota
g=$(cat $QUEUE/generation)
check "quota write of 700 accepted, reads back" writes "$q" $'700\n' 700
check "quota write of 700 advanced the generation" test "$(cat $QUEUE/generation)" -gt "$g"
g=$(cat $QUEUE/generation)
check "quota write of the quota the device has (700) accepted" writes "$q" $'700\n' 700
check "writing the quota a device has publishes nothing (generation $g)" test "$(cat $QUEUE/generation)" = "$g"
for f in "$q" $QUEUE/default_quota; do
	before=$(cat "$f")
	# an empty write never reaches the kernel; a bare newline is the empty value
	for v in $'\n' "abc" "-1" "0" "1048577" "99999999999999999999" "+5" " 5" "5x" "0x10" "1.5"; do
		err=$( (printf '%s' "$v" > "$f") 2>&1)
		check "write $(printf %q "$v") to ${f#"$QUEUE"/}: EINVAL" grep -q 'Invalid argument' <<< "$err"
		check "write $(printf %q "$v") to ${f#"$QUEUE"/}: value unchanged" test "$(cat "$f")" = "$before"
	done
	err=$( (setpriv --reuid=65534 --regid=65534 --clear-groups bash -c "echo 9 > '$f'") 2>&1)
	check "unprivileged write to ${f#"$QUEUE"/} refused" grep -q 'Permission denied' <<< "$err"
	check "unprivileged write left ${f#"$QUEUE"/} unchanged" test "$(cat "$f")" = "$before"
done
check "quota upper bound accepted" writes "$q" $'1048576\n' 1048576
check "quota lower bound with newline accepted" writes "$q" $'1\n' 1
err=$( (echo 1 > $QUEUE/generation) 2>&1)
check "generation is read-only" test -n "$err"
check "no multi-value rings file in sysfs (debugfs lists the rings)" test ! -e $QUEUE/rings
step "swapoff everything" swap_off_all
check "no device directories left" test -z "$(ls $QUEUE/devices)"
tap_end
