#!/bin/bash
# The ABI documents match what the kernel ships: every documented sysfs file
# exists with the documented mode and nothing undocumented does; every
# debugfs record has a documented keyword and its keys in documented order.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin
ABI=$SWAPQ_REPO/Documentation/ABI/testing
DBG=/sys/kernel/debug/swap/queue

swap_off_all
swap_on "$(ram 0)" 10 65536
swap_on "$(ram 1)" 10 65536
swap_on "$(ram 2)" 5 65536
type=$(dev_type "$(ram 1)")

# documented: "PATH MODE" for each What: entry, <type> replaced by a real
# type; MODE from the (RO)/(RW) at the start of its description
documented() {
	awk -v t="$type" '
		/^What:/ { what = $2; sub("<type>", t, what); next }
		/^Description:/ && what != "" {
			mode = /\(RW/ ? "644" : /\(RO/ ? "444" : "?"
			if (what !~ /\/$/) print what, mode
			what = ""
		}' "$ABI/sysfs-kernel-mm-swap-queue" | sort
}
# shipped: "PATH MODE" for the files of the queue and of one device
shipped() {
	find "$QUEUE" -maxdepth 1 -type f -printf '%p %m\n'
	find "$QUEUE/devices/$type" -maxdepth 1 -type f -printf '%p %m\n'
} 2>/dev/null
same_files() {
	local d s
	d=$(documented) s=$(shipped | sort)
	[ -n "$d" ] && [ "$d" = "$s" ] && return 0
	diff <(echo "$d") <(echo "$s") | sed 's/^/# /'
	return 1
}
check "sysfs: documented files and modes are exactly the shipped ones" same_files
check "sysfs: one directory per swapped-on device" \
	test "$(find "$QUEUE/devices" -mindepth 1 -maxdepth 1 | wc -l)" = "$(swap_count)"

# debugfs: the documented record templates, "keyword key key ..." with the
# values dropped; stat records are named by their second word
templates() {
	awk '/^\t\t  [a-z]/ {
		s = $1; if ($1 == "stat") s = s " " $2
		for (i = 2; i <= NF; i++)
			if ($i !~ /^[<.]/ && !($1 == "stat" && i == 2)) s = s " " $i
		print s
	}' "$ABI/debugfs-swap-queue" | sort -u
}
# records: the same shape of every debugfs line, "keyword key key ..."
records() {
	awk '{
		s = $1
		if ($1 == "stat") s = s " " $2
		else for (i = 3; i <= NF; i += 2) { s = s " " $i; if ($i == "members") break }
		print s
	}' "$DBG" | sort -u
}
debugfs_documented() {
	local t r
	t=$(templates) r=$(records)
	[ -n "$t" ] && [ "$t" = "$r" ] && return 0
	diff <(echo "$t") <(echo "$r") | sed 's/^/# /'
	return 1
}
check "debugfs: every record kind is documented, with its keys in order" debugfs_documented
check "debugfs: root only" test "$(stat -c %a $DBG)" = 400

swap_off_all
check "sysfs: no device directories once all swap is off" \
	test -z "$(ls "$QUEUE/devices")"
tap_end
