#!/bin/bash
# swapq against the real kernel: status agrees with /proc/swaps and sysfs,
# cpus with debugfs, quota by path and by type changes sysfs, bad input
# changes nothing and exits with its documented status, apply sets the
# quotas of a file by path, UUID= and LABEL=, again after a swapoff and
# swapon, and writes nothing a third time.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin
DBG=/sys/kernel/debug/swap/queue

swap_off_all
swap_on "$(ram 0)" 10 65536
swap_on "$(ram 1)" 10 65536
swap_on "$(ram 2)" 10 65536
swap_on "$(ram 3)" 5 65536
# some swap in use, so USED and ALLOCATED are not all zero
cg=$(memcg swapq 32M)
run_stopped "$cg" 96M

# status: one row per /proc/swaps device, same name, priority, size and use
status_matches() {
	local rows want
	rows=$("$SWAPQ" status -r -n -b -o NAME,PRIO,SIZE,USED | sort)
	want=$(awk 'NR > 1 { print $1, $5, $3 * 1024, $4 * 1024 }' /proc/swaps | sort)
	[ "$rows" = "$want" ] || { diag "swapq: $rows"; diag "/proc/swaps: $want"; return 1; }
}
check "status: name, priority, size and use match /proc/swaps" status_matches

# status: ring, position, type, quota and allocated match sysfs
sysfs_matches() {
	local ring prio type name quota pos alloc bad=0 d
	while read -r ring prio type name quota pos alloc; do
		d=$QUEUE/devices/$type
		if [ "$(cat "$d/path")" != "$name" ] || [ "$(cat "$d/ring")" != "$ring" ] ||
			[ "$(cat "$d/priority")" != "$prio" ] || [ "$(cat "$d/quota")" != "$quota" ] ||
			[ "$(cat "$d/position")" != "$pos" ] || [ "$(cat "$d/allocated")" != "$alloc" ]; then
			diag "type $type: swapq says $ring $prio $name $quota $pos $alloc"
			bad=1
		fi
	done < <("$SWAPQ" status -r -n -o RING,PRIO,TYPE,NAME,QUOTA,POSITION,ALLOCATED)
	return "$bad"
}
check "status: ring, position, quota and allocated match sysfs" sysfs_matches
check "status: rows in ring order, highest priority first" \
	test "$("$SWAPQ" status -r -n -o PRIO | tr '\n' ' ')" = "10 10 10 5 "
# json COMMAND: swapq COMMAND --json exits 0 and prints JSON that parses
json() {
	local out
	out=$("$SWAPQ" "$1" --json) && python3 -m json.tool <<< "$out" > /dev/null
}
check "status --json parses" json status

# cpus: a row per possible CPU and ring, positions as in debugfs
cpus_match() {
	local want got
	want=$(awk '$1 == "cpu" { print $2, $4, $6, $8 }' "$DBG" | sort)
	got=$("$SWAPQ" cpus -r -n -o CPU,RING,POSITION,LEFT | sort)
	[ "$want" = "$got" ] || { diag "debugfs: $want"; diag "swapq: $got"; return 1; }
}
# the worker is stopped, so nothing allocates between the two reads
check "cpus: rows match debugfs" cpus_match
check "cpus --json parses" json cpus

# quota by path, by type, and the default
t1=$(dev_type "$(ram 1)")
t2=$(dev_type "$(ram 2)")
check "quota by path: exit 0" "$SWAPQ" quota "$(ram 1)" 700
check "quota by path: sysfs reads 700" test "$(cat "$QUEUE/devices/$t1/quota")" = 700
check "quota by type: exit 0" "$SWAPQ" quota "$t2" 900
check "quota by type: sysfs reads 900" test "$(cat "$QUEUE/devices/$t2/quota")" = 900
check "quota show: prints the value" test "$("$SWAPQ" quota -r -n -o QUOTA "$(ram 1)")" = 700
def=$(cat $QUEUE/default_quota)
check "quota --default: exit 0" "$SWAPQ" quota --default 1024
check "quota --default: sysfs reads 1024" test "$(cat $QUEUE/default_quota)" = 1024
echo "$def" > $QUEUE/default_quota

# quiet COMMAND...: COMMAND without its output
quiet() { "$@" > /dev/null; }

# expect_status WANT DESCRIPTION COMMAND...: COMMAND exits WANT, says why
expect_status() {
	local want=$1 what=$2 rc err
	shift 2
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	err=${err%%$'\n'*}
	[ "$rc" = "$want" ] && [ -n "$err" ] && { ok "$what: exit $rc ($err)"; return; }
	not_ok "$what: exit $rc, want $want (${err:-no message})"
}
before=$(cat "$QUEUE/devices/$t1/quota") before_def=$(cat $QUEUE/default_quota)
expect_status 1 "quota 0" "$SWAPQ" quota "$(ram 1)" 0
expect_status 1 "quota 1048577" "$SWAPQ" quota "$(ram 1)" 1048577
expect_status 1 "quota abc" "$SWAPQ" quota "$(ram 1)" abc
expect_status 1 "quota -5" "$SWAPQ" quota "$(ram 1)" -5
expect_status 1 "quota 12x" "$SWAPQ" quota "$(ram 1)" 12x
expect_status 1 "quota --default 0" "$SWAPQ" quota --default 0
expect_status 1 "unknown option" "$SWAPQ" --frobnicate
expect_status 1 "unknown column" "$SWAPQ" status -o NAME,BOGUS
expect_status 5 "unknown device path" "$SWAPQ" quota /dev/ram7 100
expect_status 5 "type not swapped on" "$SWAPQ" quota 31 100
expect_status 4 "quota as an unprivileged user" setpriv --reuid=65534 --regid=65534 --clear-groups "$SWAPQ" quota "$(ram 1)" 100
check "bad input left the quota unchanged" test "$(cat "$QUEUE/devices/$t1/quota")" = "$before"
check "bad input left the default quota unchanged" test "$(cat $QUEUE/default_quota)" = "$before_def"

# persistent tuning: a file written by hand sets the default quota and
# the quotas of a device by path, one by UUID= and one by LABEL=. A
# swapoff and swapon of the three gives them the default quota back; a
# second apply sets theirs again, a third writes nothing. On devices of
# their own at the lowest priority: the worker's pages are elsewhere, so
# their swapoff is immediate. mkswap gets a UUID: making one is slow here.
conf=/tmp/13-swapq.conf
pdev=$(ram 4) udev=$(ram 5) ldev=$(ram 6)
uuid=5a1d0c3e-13a9-4c2b-9f0e-5e7a9b1c2d3f label=swapq-13
swap_on "$pdev" 1 65536
mkswap -f -U "$uuid" "$udev" 65536 > /dev/null && swapon -p 1 "$udev"
mkswap -f -U clear -L "$label" "$ldev" 65536 > /dev/null && swapon -p 1 "$ldev"
def=$(cat $QUEUE/default_quota)
new=$((def + 1))
cat > "$conf" <<EOF
# swapq apply, written by hand
default_quota $new
$pdev quota 1500
UUID=$uuid quota 1600
LABEL=$label quota 1700
EOF

# quotas: the quotas of the three devices, then the default quota
quotas() {
	echo "$(dev_attr "$pdev" quota) $(dev_attr "$udev" quota) $(dev_attr "$ldev" quota) $(cat $QUEUE/default_quota)"
}
# applied ROW...: apply "$conf" exits 0 and reports ROWs, its table raw
# without headings: SETTING NAME OLD NEW RESULT
applied() {
	local out want l
	want=$(printf '%s\n' "$@")
	out=$("$SWAPQ" apply -r -n "$conf") || { diag "apply: exit $?"; return 1; }
	[ "$out" = "$want" ] && return 0
	while IFS= read -r l; do diag "apply reported: $l"; done <<< "$out"
	while IFS= read -r l; do diag "want: $l"; done <<< "$want"
	return 1
}
check "apply: reports the default quota and the devices by path, UUID= and LABEL= changed" \
	applied "default_quota  $def $new changed" "$pdev $pdev $def 1500 changed" \
		"UUID=$uuid $udev $def 1600 changed" "LABEL=$label $ldev $def 1700 changed"
check "apply: sysfs has the quotas of the file" test "$(quotas)" = "1500 1600 1700 $new"
swapoff "$pdev" "$udev" "$ldev"
swapon -p 1 "$pdev" && swapon -p 1 "$udev" && swapon -p 1 "$ldev"
check "swapoff and swapon gave the three devices the default quota $new" \
	test "$(quotas)" = "$new $new $new $new"
check "apply again: reports the three devices changed, the default quota unchanged" \
	applied "default_quota  $new $new unchanged" "$pdev $pdev $new 1500 changed" \
		"UUID=$uuid $udev $new 1600 changed" "LABEL=$label $ldev $new 1700 changed"
check "apply again: sysfs has the quotas of the file" test "$(quotas)" = "1500 1600 1700 $new"
g=$(cat $QUEUE/generation)
check "apply a third time: reports nothing changed" \
	applied "default_quota  $new $new unchanged" "$pdev $pdev 1500 1500 unchanged" \
		"UUID=$uuid $udev 1600 1600 unchanged" "LABEL=$label $ldev 1700 1700 unchanged"
check "apply a third time writes nothing (generation $g)" test "$(cat $QUEUE/generation)" = "$g"
check "quota --save: exit 0" "$SWAPQ" quota --save "$conf.saved"
check "quota --save: names $pdev with quota 1500" grep -qxF "$pdev quota 1500" "$conf.saved"
printf '%s quota 1500\nbogus line\n' "$(ram 2)" > "$conf.bad"
before=$(cat "$QUEUE/devices/$t2/quota")
expect_status 1 "apply of a file with a bad line" "$SWAPQ" apply "$conf.bad"
check "a file with a bad line changed nothing" test "$(cat "$QUEUE/devices/$t2/quota")" = "$before"
echo "$def" > $QUEUE/default_quota
rm -f "$conf" "$conf.saved" "$conf.bad"
swapoff "$pdev" "$udev" "$ldev"

# watch --json: one JSON object per sample and line, with time and interval
watch_json() {
	local out n
	out=$("$SWAPQ" watch --json -i 0.2 -c 2) || return 1
	n=$(grep -c . <<< "$out")
	[ "$n" = 2 ] || { diag "watch --json printed $n lines"; return 1; }
	jq -e 'has("time") and has("interval")' <<< "$out" > /dev/null
}
check "watch --json: JSON Lines with time and interval" watch_json

# debugfs unmounted: cpus says so, status still works
umount /sys/kernel/debug
expect_status 3 "cpus without debugfs" "$SWAPQ" cpus
check "status works without debugfs" quiet "$SWAPQ" status -n
mount -t debugfs debugfs /sys/kernel/debug

finish_worker
rmdir "$cg"
swap_off_all
# no_rows: swapq status exits 0 and prints nothing
no_rows() {
	local out
	out=$("$SWAPQ" status -n) && test -z "$out"
}
check "status with no swap: no rows, exit 0" no_rows
tap_end
