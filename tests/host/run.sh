#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host tests for tools/swapq. Builds the tool, runs it against fixture
# trees (see fixtures.sh) and prints TAP. Exits non-zero on any failure.
#
# Usage: bash tests/host/run.sh

# Checks are strings evaluated by expect(), hence the single quotes.
# shellcheck disable=SC2016,SC2034,SC2317

set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
SWAPQ_DIR=$TOP/tools/swapq
SWAPQ=$SWAPQ_DIR/swapq

# shellcheck source=fixtures.sh
. "$HERE/fixtures.sh"

if ! make -s -C "$SWAPQ_DIR" >/dev/null; then
	echo "Bail out! cannot build $SWAPQ"
	exit 1
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
chmod 755 "$TMP"		# the permission test runs as nobody

unset SWAPQ_SYSROOT

# ---- TAP (tests/lib/tap.sh) ----

# shellcheck source=../lib/tap.sh
. "$TOP/tests/lib/tap.sh"
tap_begin
OUT='' ERR='' RC=''

# show_run: the last sq call's status and output, as comments
show_run() {
	echo "#   rc: $RC"
	[ -n "$OUT" ] && printf '%s\n' "$OUT" | sed 's/^/#   out: /'
	[ -n "$ERR" ] && printf '%s\n' "$ERR" | sed 's/^/#   err: /'
	return 0
}

# expect DESC EXPR: one result; EXPR is evaluated after the last sq call,
# which is shown when it fails.
expect() {
	if eval "$2"; then
		ok "$1"
	else
		not_ok "$1"
		show_run
	fi
}

# sq ROOT ARGS...: run swapq on a fixture tree; sets OUT, ERR and RC.
sq() {
	local root=$1
	shift
	OUT=$("$SWAPQ" --sysroot "$root" "$@" 2>"$TMP/stderr")
	RC=$?
	ERR=$(<"$TMP/stderr")
}

# The stderr of a failed run is one line starting with "swapq: ".
one_error() {
	[ -z "$OUT" ] && [ "$(printf '%s\n' "$ERR" | grep -c .)" = 1 ] &&
		[[ $ERR == "swapq: "* ]] && [[ $ERR == *"$1"* ]]
}

# usage_error MESSAGE: exit 1, stderr "swapq: MESSAGE" and the --help hint
usage_error() {
	[ "$RC" = 1 ] && [ -z "$OUT" ] && [ "$ERR" = "swapq: $1
Try 'swapq --help' for more information." ]
}

json_ok() {
	printf '%s\n' "$OUT" | python3 -m json.tool >/dev/null 2>&1
}

# jqt FILTER: the JSON in OUT makes FILTER true.
jqt() {
	[ "$(printf '%s\n' "$OUT" | jq -c "$1" 2>/dev/null)" = true ]
}

# Checksum of every file in a tree, to prove a failed write changed nothing.
tree_sum() {
	find "$1" -type f -print0 | sort -z | xargs -0 md5sum | md5sum
}

# build_fixture NAME [DIR]: a fresh tree from fixture_NAME in $TMP/DIR.
build_fixture() {
	local dir=$TMP/${2:-$1}
	rm -rf "$dir"
	"fixture_$1" "$dir"
	echo "$dir"
}

# with_fifo FILE WRITER ARGS...: swapq ARGS on a fresh normal tree,
# $FIFO_ROOT, whose queue file FILE is a FIFO, written by "WRITER ROOT
# FIFO" in the background. QUOTA_NOW is then the quota of type 1.
with_fifo() {
	local file=$1 writer=$2 pid
	shift 2
	FIFO_ROOT=$(build_fixture normal fifo)
	rm "$FIFO_ROOT/$Q/$file"
	mkfifo "$FIFO_ROOT/$Q/$file"
	"$writer" "$FIFO_ROOT" "$FIFO_ROOT/$Q/$file" &
	pid=$!
	OUT=$(timeout 10 "$SWAPQ" --sysroot "$FIFO_ROOT" "$@" 2>"$TMP/stderr")
	RC=$? ERR=$(<"$TMP/stderr")
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	QUOTA_NOW=$(cat "$FIFO_ROOT/$Q/devices/1/quota")
}

# feed ROOT FIFO: the values of FEED, one per read of FIFO; the pause lets
# the reader see the end of one value before the next
feed() {
	local v
	for v in "${FEED[@]}"; do
		echo "$v" >"$2"
		sleep 0.3
	done
}

NORMAL=$(build_fixture normal)
EMPTY=$(build_fixture empty)
ONE=$(build_fixture one)
MANY=$(build_fixture many)
NOFEATURE=$(build_fixture nofeature)
NODEBUGFS=$(build_fixture nodebugfs)
NODEBUGFILE=$(build_fixture nodebugfile)
DEV=$NORMAL/$Q/devices

# ---- build, install, documentation ----

OUT=$(make -n -B -C "$SWAPQ_DIR" 2>&1) RC=$? ERR=
expect "make compiles with -Wall -Wextra -Werror -O2 -g and links libsmartcols" \
	'[[ $OUT == *"-Wall -Wextra -Werror -O2 -g"* && $OUT == *-lsmartcols* ]]'

# installed DIR: "mode path" of every file below DIR, sorted
installed() {
	(cd "$1" && find . -type f -printf '%m %p\n' | sort)
}

OUT=$(make -s -C "$SWAPQ_DIR" install DESTDIR="$TMP/inst" PREFIX=/usr 2>&1) RC=$? ERR=
expect "make install DESTDIR PREFIX=/usr installs binary, man page, unit and completion" \
	'[ $RC = 0 ] && [ "$(installed "$TMP/inst")" = "$(cat <<-"EOF"
	644 ./usr/lib/systemd/system/swapq-apply.service
	644 ./usr/share/bash-completion/completions/swapq
	644 ./usr/share/man/man8/swapq.8
	755 ./usr/sbin/swapq
	EOF
	)" ] && cmp -s "$TMP/inst/usr/share/man/man8/swapq.8" "$SWAPQ_DIR/swapq.8"'
expect "the installed unit runs the installed binary, without DESTDIR" \
	'grep -qx "ExecStart=/usr/sbin/swapq apply /etc/swapq.conf" "$TMP/inst/usr/lib/systemd/system/swapq-apply.service" &&
	 ! grep -q "@SBINDIR@\|$TMP" "$TMP/inst/usr/lib/systemd/system/swapq-apply.service"'

OUT=$(make -s -C "$SWAPQ_DIR" install DESTDIR="$TMP/inst-local" 2>&1) RC=$? ERR=
expect "make install defaults to PREFIX=/usr/local" \
	'[ $RC = 0 ] && [ -x "$TMP/inst-local/usr/local/sbin/swapq" ] &&
	 [ -f "$TMP/inst-local/usr/local/share/man/man8/swapq.8" ] &&
	 [ -f "$TMP/inst-local/usr/local/share/bash-completion/completions/swapq" ] &&
	 grep -qx "ExecStart=/usr/local/sbin/swapq apply /etc/swapq.conf" "$TMP/inst-local/usr/local/lib/systemd/system/swapq-apply.service"'

if command -v systemd-analyze >/dev/null; then
	OUT=$(cd "$TMP/inst/usr/lib/systemd/system" && systemd-analyze verify --man=no ./swapq-apply.service 2>&1 | grep -v "swapq: .*No such file\|Command /usr/sbin/swapq is not executable") RC=$? ERR=
	expect "systemd-analyze verify accepts the unit" '[ -f "$TMP/inst/usr/lib/systemd/system/swapq-apply.service" ] && [ -z "$OUT" ]'
else
	skip "systemd-analyze verify accepts the unit" "no systemd-analyze"
fi

# the completion, sourced with a stub _init_completion as bash-completion has
OUT=$(PATH=$SWAPQ_DIR:$PATH bash -c '
	_init_completion() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
		words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
	. "$1"
	COMP_WORDS=(swapq q); COMP_CWORD=1; _swapq; echo "${COMPREPLY[*]}"
	COMP_WORDS=(swapq cpus -o CPU,R); COMP_CWORD=3; _swapq; echo "${COMPREPLY[*]}"
	COMP_WORDS=(swapq --js); COMP_CWORD=1; _swapq; echo "${COMPREPLY[*]}"
	complete -p swapq' _ "$TMP/inst/usr/share/bash-completion/completions/swapq" 2>&1) RC=$? ERR=
expect "the bash completion completes commands, columns and options" \
	'[ $RC = 0 ] && [ "$OUT" = "$(printf "quota\nCPU,RING\n--json\ncomplete -F _swapq swapq")" ]'

OUT=$(LC_ALL=C groff -man -Tutf8 -ww -z "$SWAPQ_DIR/swapq.8" 2>&1) RC=$? ERR=
expect "man page renders without warnings" '[ $RC = 0 ] && [ -z "$OUT" ]'

missing=
help=$("$SWAPQ" --help)
for col in $(printf '%s\n' "$help" | sed -n '/^Output columns/,/^Exit status/p' |
	     awk 'NF > 2 && $1 ~ /^[A-Z\/]+$/ { print $1 }'); do
	grep -qxF ".B $col" "$SWAPQ_DIR/swapq.8" || missing+=" $col"
done
for opt in $(printf '%s\n' "$help" | grep -o -- '--[a-z]*' | sort -u); do
	grep -qF -- "\\-\\-${opt#--}" "$SWAPQ_DIR/swapq.8" || missing+=" $opt"
done
for cmd in status cpus stats quota watch apply; do
	grep -qE "^\.BR? $cmd( |\$)" "$SWAPQ_DIR/swapq.8" || missing+=" $cmd"
done
for code in 0 1 2 3 4 5 6 7; do
	sed -n '/^\.SH EXIT STATUS/,/^\.SH ENV/p' "$SWAPQ_DIR/swapq.8" |
		grep -q "^\.B $code\$" || missing+=" exit-$code"
done
OUT=$missing RC=0 ERR=
expect "man page documents every column, option, command and exit code" '[ -z "$missing" ]'

OUT=$("$SWAPQ" --help) RC=$? ERR=
expect "--help exits 0 and lists the exit codes" \
	'[ $RC = 0 ] && [[ $OUT == Usage:* && $OUT == *"6  malformed kernel data"* ]]'

OUT=$("$SWAPQ" -V) RC=$? ERR=
expect "-V prints the version" '[ $RC = 0 ] && [ "$OUT" = "swapq 1.0" ]'

# ---- usage errors ----

sq "$NORMAL" --bogus
expect "unknown option exits 1" '[ $RC = 1 ] && [[ $ERR == "swapq: unrecognized option"* ]]'

sq "$NORMAL" frobnicate
expect "unknown command exits 1" '[ $RC = 1 ] && [[ $ERR == *"unknown command '\''frobnicate'\''"* ]]'

sq "$NORMAL" status extra
expect "extra argument exits 1" '[ $RC = 1 ] && [[ $ERR == *"unexpected argument"* ]]'

sq "$NORMAL" -o RING,BOGUS
expect "-o with an unknown column exits 1" '[ $RC = 1 ] && [ -z "$OUT" ] && [[ $ERR == *"unknown column for status: '\''BOGUS'\''"* ]]'

sq "$NORMAL" -o CPU
expect "-o with a column of another command exits 1" '[ $RC = 1 ] && [ -z "$OUT" ]'

sq "$NORMAL" cpus -o SHARE
expect "cpus -o SHARE exits 1" '[ $RC = 1 ] && [ -z "$OUT" ]'

while read -r cols dup; do
	sq "$NORMAL" -o "$cols"
	expect "-o $cols (a duplicate column) exits 1 naming $dup" \
		'[ $RC = 1 ] && [ -z "$OUT" ] && [[ $ERR == *"column '\''$dup'\'' given twice"* ]]'
done <<-EOF
	NAME,NAME		NAME
	name,TYPE,Name		NAME
	+type			TYPE
EOF

sq "$NORMAL" quota --default -o QUOTA,quota
expect "quota --default -o QUOTA,QUOTA exits 1" \
	'[ $RC = 1 ] && [ -z "$OUT" ] && [[ $ERR == *"column '\''QUOTA'\'' given twice"* ]]'

sq "$NORMAL" -o ""
expect "-o with an empty list exits 1" '[ $RC = 1 ]'

sq "$NORMAL" -o
expect "-o without argument exits 1" '[ $RC = 1 ] && [[ $ERR == *"requires an argument"* ]]'

while read -r list what; do
	sq "$NORMAL" -o "$list"
	expect "-o $list exits 1: $what" 'usage_error "$what"'
done <<-EOF
	NAME,		empty column name in 'NAME,'
	NAME,,TYPE	empty column name in 'NAME,,TYPE'
	,NAME		empty column name in ',NAME'
	+		no output columns after '+'
	+,		empty column name in '+,'
EOF

for opt in json save raw; do
	sq "$NORMAL" "--$opt=foo"
	expect "--$opt=foo exits 1: --$opt takes no argument" \
		'usage_error "option '\''--$opt'\'' doesn'\''t allow an argument"'
done

sq "$NORMAL" status -i 1
expect "--interval outside watch exits 1" '[ $RC = 1 ]'

sq "$NORMAL" status --default
expect "--default outside quota exits 1" '[ $RC = 1 ]'

sq "$NORMAL" status -1
expect "status -1 names the unexpected argument" \
	'[ $RC = 1 ] && one_error "status: unexpected argument '\''-1'\''"'

sq "$NORMAL" -r -n -o NAME status -5 -J
expect "a negative number after options is an argument, not an option" \
	'[ $RC = 1 ] && one_error "status: unexpected argument '\''-5'\''"'

sq "$NORMAL" -rno TYPE --count=2 -c 3 status
expect "option values are still taken (clusters, --opt=value)" \
	'[ $RC = 1 ] && [[ $ERR == *"only valid with watch"* ]]'

sq "$NORMAL" quota 0 -7
expect "quota 0 -7 says the number of pages is invalid" \
	'[ $RC = 1 ] && one_error "invalid number of pages '\''-7'\''"'

sq "$NORMAL" quota ""
expect "quota \"\" is a usage error" '[ $RC = 1 ] && one_error "quota: empty device name"'

sq "$NORMAL" quota "" 5
expect "quota \"\" 5 is a usage error" '[ $RC = 1 ] && one_error "quota: empty device name"'

sq "$TMP/nonexistent" status
expect "--sysroot that does not exist says so, exit 1" \
	'[ $RC = 1 ] && one_error "sysroot $TMP/nonexistent: No such file or directory"'

OUT=$(SWAPQ_SYSROOT=$TMP/nonexistent "$SWAPQ" 2>"$TMP/stderr") RC=$? ERR=$(<"$TMP/stderr")
expect "SWAPQ_SYSROOT that does not exist says so, exit 1" \
	'[ $RC = 1 ] && one_error "sysroot $TMP/nonexistent: No such file or directory"'

sq "$NORMAL/$Q/generation" status
expect "--sysroot that is a file says so, exit 1" \
	'[ $RC = 1 ] && one_error "Not a directory"'

# ---- status ----

sq "$NORMAL"
expect "status on normal: table in ring order, human sizes, shares" '[ $RC = 0 ] && [ "$OUT" = "$(cat <<-"EOF"
	RING PRIO TYPE NAME           SIZE USED QUOTA AVAIL ALLOCATED SHARE
	   0   10    0 /dev/vda2        1G 256M   512     1       300  75.0
	   0   10    1 /var/swap file 512M   1M   256     1       100  25.0
	   1   -2    2 /dev/sdb1        2G   0B  1024     0        50 100.0
	EOF
	)" ]'

sq "$NORMAL" status -r
expect "status --raw on normal" '[ $RC = 0 ] && [ "$OUT" = "$(cat <<-"EOF"
	RING PRIO TYPE NAME SIZE USED QUOTA AVAIL ALLOCATED SHARE
	0 10 0 /dev/vda2 1G 256M 512 1 300 75.0
	0 10 1 /var/swap\x20file 512M 1M 256 1 100 25.0
	1 -2 2 /dev/sdb1 2G 0B 1024 0 50 100.0
	EOF
	)" ]'

sq "$NORMAL" -r -b -n -o TYPE,SIZE,USED
expect "status --bytes prints sizes from /proc/swaps in bytes" \
	'[ $RC = 0 ] && [ "$OUT" = "$(printf "0 1073741824 268435456\n1 536870912 1048576\n2 2147479552 0")" ]'

sq "$NORMAL" -n -o name,share
expect "-n with lower case -o columns" '[ $RC = 0 ] && [ "$OUT" = "$(cat <<-"EOF"
	/dev/vda2       75.0
	/var/swap file  25.0
	/dev/sdb1      100.0
	EOF
	)" ]'

sq "$NORMAL" -r -n -o +position
expect "-o +LIST appends to the default columns" \
	'[ $RC = 0 ] && [ "$(printf "%s\n" "$OUT" | awk "{ print \$NF }" | tr "\n" " ")" = "0 1 0 " ]'

sq "$NORMAL" -J
expect "status --json on normal: valid, in ring order, with shares" \
	'[ $RC = 0 ] && json_ok &&
	 jqt ".devices | map(.type) == [0,1,2]" &&
	 jqt ".devices | map(.ring) == [0,0,1]" &&
	 jqt ".devices | map(.share) == [75,25,100]" &&
	 jqt ".devices | map(.avail) == [true,true,false]" &&
	 jqt ".devices[1].name == \"/var/swap file\" and .devices[0].size == \"1G\"" &&
	 jqt ".devices | map(.allocated) == [300,100,50]"'

sq "$NORMAL" -J -b
expect "status --json --bytes gives numeric sizes" \
	'[ $RC = 0 ] && json_ok && jqt ".devices | map(.size) == [1073741824,536870912,2147479552]"'

OUT=$(SWAPQ_SYSROOT=$NORMAL "$SWAPQ" -r -n -o TYPE 2>&1) RC=$? ERR=
expect "SWAPQ_SYSROOT works like --sysroot" '[ $RC = 0 ] && [ "$OUT" = "$(printf "0\n1\n2")" ]'

sq "$EMPTY"
expect "status on empty: no rows" '[ $RC = 0 ] && [ -z "$OUT" ] && [ -z "$ERR" ]'

sq "$EMPTY" -J
expect "status --json on empty: empty array" '[ $RC = 0 ] && json_ok && jqt ".devices == []"'

sq "$ONE" -r
expect "status on one device: no share while nothing is allocated" '[ $RC = 0 ] && [ "$OUT" = "$(cat <<-"EOF"
	RING PRIO TYPE NAME SIZE USED QUOTA AVAIL ALLOCATED SHARE
	0 5 0 /dev/zram0 4G 0B 512 1 0 
	EOF
	)" ]'

sq "$ONE" -J
expect "status --json on one device: share is null" \
	'[ $RC = 0 ] && json_ok && jqt ".devices | length == 1 and .[0].share == null and .[0].name == \"/dev/zram0\""'

sq "$MANY" -J
expect "status --json on many rings: ring order, per-ring shares, no sizes" \
	'[ $RC = 0 ] && json_ok &&
	 jqt ".devices | map(.type) == [3,0,4,5,1,6,2]" &&
	 jqt ".devices | map(.ring) == [0,1,1,1,2,3,3]" &&
	 jqt ".devices | map(.prio) == [100,50,50,50,0,-10,-10]" &&
	 jqt ".devices | map(.share) == [100,10,20,70,null,25,75]" &&
	 jqt ".devices | map(.size) | all(. == null)"'

sq "$MANY" -r -n -o RING,TYPE,POSITION
expect "status on many rings: positions" \
	'[ $RC = 0 ] && [ "$(printf "%s\n" "$OUT" | tr "\n" ";")" = "0 3 0;1 0 0;1 4 1;1 5 2;2 1 0;3 6 0;3 2 1;" ]'

sq "$NORMAL"
normal_status=$OUT

SWAPOFF=$(build_fixture swapoff)
sq "$SWAPOFF"
expect "status leaves out a device being swapped off (ring and position -1)" \
	'[ $RC = 0 ] && [ -z "$ERR" ] && [ "$OUT" = "$normal_status" ]'

sq "$SWAPOFF" quota -r -n -o TYPE
expect "quota lists no device being swapped off" '[ $RC = 0 ] && [ "$OUT" = "$(printf "0\n1\n2")" ]'

sq "$SWAPOFF" quota 3 -J -o TYPE,NAME,RING,POSITION
expect "quota TYPE of a device being swapped off: no ring, no position" \
	'[ $RC = 0 ] && json_ok &&
	 jqt ".quotas == [{\"type\":3,\"name\":\"/dev/sdc1\",\"ring\":null,\"position\":null}]"'

root=$(build_fixture stale_rings)
sq "$root"
expect "a queue/rings file is not read" \
	'[ $RC = 0 ] && [ -z "$ERR" ] && [ "$OUT" = "$normal_status" ]'

sq "$NOFEATURE"
expect "status without the feature exits 2" '[ $RC = 2 ] && one_error "not supported"'

sq "$NOFEATURE" -J
expect "status --json without the feature exits 2 with empty stdout" '[ $RC = 2 ] && [ -z "$OUT" ]'

OUT=$("$SWAPQ" --sysroot "$NORMAL" >/dev/full 2>"$TMP/stderr") RC=$? ERR=$(<"$TMP/stderr")
expect "write error on stdout exits 7" '[ $RC = 7 ] && [[ $ERR == "swapq: write error"* ]]'

# ---- malformed sysfs data ----

# fixture name, text the error must contain
while read -r name what; do
	root=$(build_fixture "$name")
	sq "$root"
	expect "status on $name exits 6 with a clear error" \
		'[ $RC = 6 ] && one_error "$what"'
	sq "$root" -J
	expect "status --json on $name prints nothing and exits 6" \
		'[ $RC = 6 ] && [ -z "$OUT" ]'
done <<-EOF
	bad_allocated		devices/1/allocated: malformed value
	ring_gap		queue/devices: no device in ring 1 of 3
	position_gap		queue/devices: no device at ring 1 position 0
	dup_position		queue/devices: devices 0 and 1 both at ring 0 position 0
	mixed_prio		queue/devices: ring 0 holds devices of priority 10 and 5
	prio_order		queue/devices: ring 1 priority 20 is not below 10
	equal_prio		queue/devices: ring 1 priority 10 is not below 10
	half_swapoff		queue/devices/2: ring -1 but position 0
	ring_range		devices/2/ring: malformed value
	position_range		devices/2/position: malformed value
	missing_quota		devices/0/quota: missing
	empty_generation	queue/generation: malformed value
	bad_available		devices/0/available: malformed value
	huge_quota		devices/0/quota: malformed value
	stray_entry		devices/foo: unexpected entry
	no_devices_dir		queue/devices: missing
	bad_proc_swaps		proc/swaps:5: malformed line
EOF

# Corrupt every sysfs file in turn: never a crash, always exit 6.
bad=
for f in $(cd "$NORMAL" && find "$Q" -type f | sort); do
	for content in "" "12abc" "1\0002" "-"; do
		[ "${f##*/}" = path ] && [ -n "$content" ] && continue
		root=$TMP/corrupt
		rm -rf "$root"
		cp -a "$NORMAL" "$root"
		# shellcheck disable=SC2059 # \000 in the content must become NUL
		printf -- "$content" >"$root/$f"
		sq "$root"
		[ $RC = 6 ] && [ -z "$OUT" ] || bad+=" $f=[$content]:$RC"
	done
done
OUT=$bad RC=0 ERR=
expect "every corrupted sysfs file gives exit 6 and no output" '[ -z "$bad" ]'

# ---- cpus ----

sq "$NORMAL" cpus -r
expect "cpus on normal: positions, devices and quota left" '[ $RC = 0 ] && [ "$OUT" = "$(cat <<-"EOF"
	CPU RING PRIO POSITION DEVICE LEFT
	0 0 10 1 1 17
	0 1 -2 0 2 1024
	1 0 10 0 0 500
	1 1 -2 0 2 3
	EOF
	)" ]'

normal_cpus=$OUT

# A publish between the reads: sysfs generation 6 then, after the dump of
# generation 7, 7; read again, all three agree.
FEED=(6 6 7 7 7 7)
with_fifo generation feed cpus -r
expect "cpus succeeds after one torn read (sysfs generation 6, debugfs 7, then 7 everywhere)" \
	'[ $RC = 0 ] && [ -z "$ERR" ] && [ "$OUT" = "$normal_cpus" ]'

sq "$NORMAL" cpus -n -r -o cpu,ring,name
expect "cpus -o NAME maps the position to the device path" \
	'[ $RC = 0 ] && [ "$OUT" = "$(printf "0 0 /var/swap\\\\x20file\n0 1 /dev/sdb1\n1 0 /dev/vda2\n1 1 /dev/sdb1")" ]'

sq "$NORMAL" cpus -J
expect "cpus --json on normal" \
	'[ $RC = 0 ] && json_ok && jqt ".cpus | length == 4" &&
	 jqt ".cpus | map(.left) == [17,1024,500,3]" && jqt ".cpus[1].prio == -2"'

sq "$MANY" cpus -J
expect "cpus --json on many rings: cursor past the end has no device" \
	'[ $RC = 0 ] && json_ok && jqt ".cpus | map(.device) == [3,5,1,2,null]" &&
	 jqt ".cpus | map(.prio) == [100,50,0,-10,0]"'

sq "$EMPTY" cpus -J
expect "cpus --json on empty: empty array" '[ $RC = 0 ] && json_ok && jqt ".cpus == []"'

sq "$NODEBUGFS" cpus
expect "cpus without debugfs mounted exits 3" '[ $RC = 3 ] && one_error "debugfs is not mounted"'

sq "$NODEBUGFILE" cpus -J
expect "cpus without the debugfs file exits 3" '[ $RC = 3 ] && one_error "swap/queue: not found"'

sq "$NOFEATURE" cpus
expect "cpus without the feature exits 2" '[ $RC = 2 ] && one_error "not supported"'

while read -r name what; do
	root=$(build_fixture "$name")
	sq "$root" cpus
	expect "cpus on $name exits 6" '[ $RC = 6 ] && one_error "$what"'
done <<-EOF
	truncated_debugfs	debug/swap/queue:4: malformed line
	debugfs_bad_ring	cpu 1 refers to unknown ring 9
	debugfs_no_generation	no generation record
EOF

root=$(build_fixture debugfs_other_generation)
sq "$root" cpus
expect "cpus refuses a debugfs dump of another generation than sysfs, after retries" \
	'[ $RC = 6 ] && one_error "generation is 7, then 7, but the generation record of $root/sys/kernel/debug/swap/queue is 6, in each of 11 reads"'

sq "$root" stats -r -n -o VALUE
expect "stats alone needs no sysfs generation" '[ $RC = 0 ] && [ "$(printf "%s\n" "$OUT" | head -1)" = 12 ]'

sq "$TMP/truncated_debugfs"
expect "status does not need debugfs" '[ $RC = 0 ] && [ -n "$OUT" ]'

# ---- stats ----

sq "$NORMAL" stats -r -n
expect "stats on normal" '[ $RC = 0 ] && [ "$OUT" = "$(cat <<-"EOF"
	publishes 12
	walks 4096
	ring_fallbacks 5
	cursor_restarts 2
	sync_discards 0
	EOF
	)" ]'

sq "$NORMAL" stats -J
expect "stats --json" \
	'[ $RC = 0 ] && json_ok && jqt "[.stats[] | {(.stat): .value}] | add | .publishes == 12 and .walks == 4096"'

sq "$NODEBUGFS" stats
expect "stats without debugfs exits 3" '[ $RC = 3 ]'

# ---- quota: show ----

sq "$NORMAL" quota -r
expect "quota lists every device in ring order" '[ $RC = 0 ] && [ "$OUT" = "$(cat <<-"EOF"
	TYPE NAME PRIO QUOTA
	0 /dev/vda2 10 512
	1 /var/swap\x20file 10 256
	2 /dev/sdb1 -2 1024
	EOF
	)" ]'

sq "$NORMAL" quota -J
expect "quota --json" '[ $RC = 0 ] && json_ok && jqt ".quotas | map(.quota) == [512,256,1024]"'

sq "$NORMAL" quota 1 -r -n -o quota
expect "quota TYPE shows one device" '[ $RC = 0 ] && [ "$OUT" = 256 ]'

sq "$NORMAL" quota "/var/swap file" -r -n
expect "quota PATH (with a blank) shows one device" '[ $RC = 0 ] && [ "$OUT" = "1 /var/swap\x20file 10 256" ]'

sq "$NORMAL" quota /dev/sdb1 -J
expect "quota PATH --json" '[ $RC = 0 ] && json_ok && jqt ".quotas == [{\"type\":2,\"name\":\"/dev/sdb1\",\"prio\":-2,\"quota\":1024}]"'

sq "$NORMAL" quota --default
expect "quota --default shows the default quota as a table" \
	'[ $RC = 0 ] && [ "$OUT" = "$(printf "QUOTA\n  512")" ]'

sq "$NORMAL" quota --default -r -n
expect "quota --default -r -n prints the bare number" '[ $RC = 0 ] && [ "$OUT" = 512 ]'

sq "$NORMAL" quota --default -J
expect "quota --default --json is a libsmartcols table" \
	'[ $RC = 0 ] && json_ok && jqt ".default_quota == [{\"quota\":512}]"'

sq "$NORMAL" quota --default -n -o quota
expect "quota --default -o QUOTA -n" '[ $RC = 0 ] && [ "$OUT" = "  512" ]'

sq "$NORMAL" quota --default -o NAME
expect "quota --default -o with a column it lacks exits 1" \
	'[ $RC = 1 ] && [ -z "$OUT" ] && [[ $ERR == *"unknown column for quota --default: '\''NAME'\''"* ]]'

sq "$NORMAL" "quota --default"
expect "'quota --default' as one word is an unknown command" \
	'[ $RC = 1 ] && [[ $ERR == *"unknown command"* ]]'

sq "$NORMAL" quota 7
expect "quota of an unknown type exits 5" '[ $RC = 5 ] && one_error "7: unknown swap device"'

sq "$NORMAL" quota /dev/nonexistent
expect "quota of an unknown path exits 5" '[ $RC = 5 ] && one_error "unknown swap device"'

sq "$NORMAL" quota 1 2 3
expect "quota with three arguments exits 1" '[ $RC = 1 ]'

sq "$NOFEATURE" quota
expect "quota without the feature exits 2" '[ $RC = 2 ]'

# A device found through a symlink to its path.
link_root=$(build_fixture normal linked)
touch "$TMP/swapfile"
ln -sf "$TMP/swapfile" "$TMP/swaplink"
echo "$TMP/swapfile" >"$link_root/$Q/devices/1/path"
sq "$link_root" quota "$TMP/swaplink" -r -n -o type
expect "quota finds a device through a symlink" '[ $RC = 0 ] && [ "$OUT" = 1 ]'

# ---- quota: set ----

# set_while_path_changes DESC PATHS...: devices/1/path gives PATHS, one
# per read, while "quota '/var/swap file' 77" runs: the first read
# resolves the device, the next ones are the checks around the write.
set_while_path_changes() {
	FEED=("${@:2}")
	with_fifo devices/1/path feed quota "/var/swap file" 77
}

# reuse ROOT FIFO: devices/1/path reads "/var/swap file" to find the
# device; at the next read, the check before the write, swap type 1 goes
# to another device (/dev/sdz1, quota 512) before the check is answered
# "/var/swap file": the write must go to the file swapq opened before it
# checked, the old device's, never to the new one's.
reuse() {
	local d=$1/$Q/devices
	echo "/var/swap file" >"$2"
	sleep 0.3
	exec 3>"$2"
	mv "$d/1" "$d/1.old"
	fx_dev "$1" 1 /dev/sdz1 10 0 1 512 1 0
	echo "/var/swap file" >&3
	exec 3>&-
}

set_while_path_changes before "/var/swap file" /dev/sdz1
expect "quota by path: device swapped off before the write exits 5, nothing written" \
	'[ $RC = 5 ] && one_error "unknown swap device (swapped off before" && [ "$QUOTA_NOW" = 256 ]'

set_while_path_changes after "/var/swap file" "/var/swap file" /dev/sdz1
expect "quota by path: type taken by another device during the write exits 5" \
	'[ $RC = 5 ] && one_error "unknown swap device (swapped off while"'

set_while_path_changes none "/var/swap file" "/var/swap file" "/var/swap file"
expect "quota by path: unchanged device, written after two checks" \
	'[ $RC = 0 ] && [ -z "$ERR" ] && [ "$QUOTA_NOW" = 77 ]'

with_fifo devices/1/path reuse quota "/var/swap file" 77
expect "quota by path: type reused between the check and the write: the new device is not written" \
	'[ $RC = 5 ] && one_error "unknown swap device (swapped off while" &&
	 [ "$QUOTA_NOW" = 512 ] && [ "$(cat "$FIFO_ROOT/$Q/devices/1.old/quota")" = 77 ]'

sq "$NORMAL" quota 0 2048
expect "quota TYPE PAGES writes the quota file" \
	'[ $RC = 0 ] && [ -z "$OUT$ERR" ] && [ "$(cat "$DEV/0/quota")" = 2048 ]'

sq "$NORMAL" quota 0 64
expect "a shorter value replaces the whole file" '[ $RC = 0 ] && [ "$(cat "$DEV/0/quota")" = 64 ]'

sq "$NORMAL" quota "/var/swap file" 1
expect "quota PATH PAGES writes the quota file (minimum 1)" \
	'[ $RC = 0 ] && [ "$(cat "$DEV/1/quota")" = 1 ]'

sq "$NORMAL" quota /dev/sdb1 1048576
expect "quota accepts the maximum 1048576" '[ $RC = 0 ] && [ "$(cat "$DEV/2/quota")" = 1048576 ]'

sq "$NORMAL" -r -n -o TYPE,QUOTA
expect "status shows the new quotas" '[ "$OUT" = "$(printf "0 64\n1 1\n2 1048576")" ]'

sq "$NORMAL" quota --default 1000
expect "quota --default PAGES writes default_quota" \
	'[ $RC = 0 ] && [ "$(cat "$NORMAL/$Q/default_quota")" = 1000 ]'

before=$(tree_sum "$NORMAL")
for bad in "" abc -1 0 1048577 99999999999999999999 " 5" "5 " +5 0x10 1.5 1e3; do
	sq "$NORMAL" quota 0 -- "$bad"
	expect "quota 0 '$bad' is refused with exit 1, nothing written" \
		'[ $RC = 1 ] && one_error "invalid number of pages" && [ "$(tree_sum "$NORMAL")" = "$before" ]'
done

sq "$NORMAL" quota 0 -1
expect "quota 0 -1 (without --) is refused with exit 1" \
	'[ $RC = 1 ] && [ "$(tree_sum "$NORMAL")" = "$before" ]'

for bad in 0 abc 1048577; do
	sq "$NORMAL" quota --default "$bad"
	expect "quota --default '$bad' is refused with exit 1, nothing written" \
		'[ $RC = 1 ] && [ "$(tree_sum "$NORMAL")" = "$before" ]'
done

sq "$NORMAL" quota /dev/nonexistent 5
expect "setting the quota of an unknown device exits 5, nothing written" \
	'[ $RC = 5 ] && [ "$(tree_sum "$NORMAL")" = "$before" ]'

sq "$NORMAL" quota 9 abc
expect "a bad number is reported before an unknown device" '[ $RC = 1 ]'

sq "$NOFEATURE" quota --default 5
expect "quota --default PAGES without the feature exits 2" '[ $RC = 2 ]'

if [ -e /dev/full ]; then
	root=$(build_fixture normal full)
	ln -sf /dev/full "$root/$Q/default_quota"
	sq "$root" quota --default 5
	expect "a failed kernel write exits 7 with strerror" \
		'[ $RC = 7 ] && one_error "No space left on device"'
else
	skip "a failed kernel write exits 7 with strerror" "no /dev/full"
fi

# sq_unprivileged ROOT ARGS...: sq as a user that a file without write
# permission stops: nobody (on a copy of the binary it may run) when run
# as root. Fails, running nothing, if there is no such user.
cp "$SWAPQ" "$TMP/swapq-copy"
sq_unprivileged() {
	local root=$1
	shift
	if [ "$(id -u)" != 0 ]; then
		sq "$root" "$@"
	elif command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
		OUT=$(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		      "$TMP/swapq-copy" --sysroot "$root" "$@" 2>"$TMP/stderr")
		RC=$? ERR=$(<"$TMP/stderr")
	else
		return 1
	fi
}

root=$(build_fixture normal perm)
chmod -R a+rX "$root"
chmod a-w "$root/$Q/devices/0/quota"
if sq_unprivileged "$root" quota 0 100; then
	expect "setting a quota without permission exits 4" \
		'[ $RC = 4 ] && one_error "Permission denied" && [ "$(cat "$root/$Q/devices/0/quota")" = 512 ]'
else
	skip "setting a quota without permission exits 4" "no setpriv or nobody"
fi

# ---- apply and quota --save ----

# mtimes of the queue's files: a write changes them even if the value
# is the same (it truncates), so equal mtimes mean nothing was written
queue_mtimes() {
	find "$1/$Q" -type f -printf '%T@ %p\n' | sort
}

APPLY=$(build_fixture normal apply)
mkdir -p "$APPLY/dev/disk/by-uuid" "$APPLY/dev/disk/by-label" "$APPLY/etc"
ln -s ../../sdb1 "$APPLY/dev/disk/by-uuid/0a1b-2c3d"
ln -s /dev/vda2 "$APPLY/dev/disk/by-label/fast"
cat >"$TMP/tuning.conf" <<-'EOF'
	# swap tuning
	default_quota 1000
	LABEL=fast quota 2048	# the fast one
	UUID=0a1b-2c3d quota 64
	/var/swap\040file quota 256
	/dev/sdz9 quota 5
EOF

# results RESULTS: the RESULT of each row of apply's table in OUT, in
# order, is one of the words of RESULTS
results() {
	[ "$(printf "%s\n" "$OUT" | awk "NR > 1 { print \$NF }" | tr "\n" " ")" = "$1 " ]
}

sq "$APPLY" apply "$TMP/tuning.conf"
expect "apply sets what differs, by path, UUID= and LABEL=, and reports every setting as a table" \
	'[ $RC = 0 ] && [ "$OUT" = "$(cat <<-"EOF"
	SETTING        NAME            OLD  NEW RESULT
	default_quota                  512 1000 changed
	LABEL=fast     /dev/vda2       512 2048 changed
	UUID=0a1b-2c3d /dev/sdb1      1024   64 changed
	/var/swap file /var/swap file  256  256 unchanged
	/dev/sdz9                             5 skipped
	EOF
	)" ] && [ "$(cat "$APPLY/$Q/default_quota" "$APPLY/$Q/devices/"{0,1,2}/quota | tr "\n" " ")" = "1000 2048 256 64 " ]'
expect "apply reports a device that is not swapped on, and skips it" \
	'[ "$ERR" = "swapq: $TMP/tuning.conf:6: /dev/sdz9: not swapped on, skipped" ]'

before=$(queue_mtimes "$APPLY")
sleep 0.05
sq "$APPLY" apply "$TMP/tuning.conf"
expect "a second apply writes nothing and reports no change" \
	'[ $RC = 0 ] && results "unchanged unchanged unchanged unchanged skipped" &&
	 [ "$(queue_mtimes "$APPLY")" = "$before" ]'

sq "$APPLY" apply -J "$TMP/tuning.conf"
expect "apply --json: the settings table, null where a device has no value" \
	'[ $RC = 0 ] && json_ok &&
	 jqt ".settings | map(.setting) == [\"default_quota\",\"LABEL=fast\",\"UUID=0a1b-2c3d\",\"/var/swap file\",\"/dev/sdz9\"]" &&
	 jqt ".settings | map(.name) == [null,\"/dev/vda2\",\"/dev/sdb1\",\"/var/swap file\",null]" &&
	 jqt ".settings | map(.old) == [1000,2048,64,256,null] and map(.new) == [1000,2048,64,256,5]" &&
	 jqt ".settings | map(.result) | all(. == \"unchanged\" or . == \"skipped\")"'

sq "$APPLY" apply -r -n -o result,TYPE,setting "$TMP/tuning.conf"
expect "apply -r -n -o picks its columns, TYPE among them" '[ $RC = 0 ] && [ "$OUT" = "$(cat <<-"EOF"
	unchanged  default_quota
	unchanged 0 LABEL=fast
	unchanged 2 UUID=0a1b-2c3d
	unchanged 1 /var/swap\x20file
	skipped  /dev/sdz9
	EOF
	)" ]'

sq "$APPLY" apply -o +QUOTA "$TMP/tuning.conf"
expect "apply -o with a column of another command exits 1" \
	'[ $RC = 1 ] && [ -z "$OUT" ] && [[ $ERR == *"unknown column for apply: '\''QUOTA'\''"* ]]'

for opt in --json --raw --noheadings "--output NAME"; do
	# shellcheck disable=SC2086
	sq "$APPLY" quota --save $opt "$TMP/save-opt.conf"
	expect "quota --save $opt exits 1 naming the option, writes nothing" \
		'usage_error "${opt% *} is not valid with --save, which writes a configuration file, not a table" &&
		 [ ! -e "$TMP/save-opt.conf" ]'
done

sq "$APPLY" quota --save
expect "quota --save prints the tuning in the format of apply, paths escaped" \
	'[ $RC = 0 ] && [ "$OUT" = "$(cat <<-"EOF"
	# swapq apply reads this; see swapq(8)
	default_quota 1000
	/dev/vda2 quota 2048
	/var/swap\040file quota 256
	/dev/sdb1 quota 64
	EOF
	)" ]'

sq "$APPLY" quota --save "$TMP/saved.conf"
expect "quota --save FILE writes the file, nothing on stdout" \
	'[ $RC = 0 ] && [ -z "$OUT$ERR" ] && grep -qxF "/dev/sdb1 quota 64" "$TMP/saved.conf"'

before=$(queue_mtimes "$APPLY")
sleep 0.05
sq "$APPLY" apply "$TMP/saved.conf"
expect "apply of what quota --save wrote writes nothing" \
	'[ $RC = 0 ] && [ -z "$ERR" ] && results "unchanged unchanged unchanged unchanged" &&
	 [ "$(queue_mtimes "$APPLY")" = "$before" ]'

sq "$NORMAL" apply "$TMP/saved.conf"
expect "apply of a saved file restores the tuning on another tree" \
	'[ $RC = 0 ] && results "unchanged changed changed changed" &&
	 [ "$(cat "$NORMAL/$Q/default_quota" "$DEV/"{0,1,2}/quota | tr "\n" " ")" = "1000 2048 256 64 " ]'
NORMAL=$(build_fixture normal)
DEV=$NORMAL/$Q/devices

cp "$TMP/tuning.conf" "$APPLY/etc/swapq.conf"
echo "default_quota 333" >>"$APPLY/etc/swapq.conf"
sq "$APPLY" apply
expect "apply without FILE reads etc/swapq.conf below the sysroot" \
	'[ $RC = 1 ] && [[ $ERR == *"$APPLY/etc/swapq.conf:7: default_quota already set on line 2"* ]]'

cat >"$TMP/bad.conf" <<-'EOF'
	default_quota 100
	default_quota
	swap0 quota 5
	/dev/vda2 quota 0
	/dev/vda2 quotas 5
	/dev/sdb1 quota 5 extra
	/dev/sdb1 quota 7
	/dev/sdb1 quota 8
	UUID= quota 5
EOF
before=$(tree_sum "$APPLY")
sq "$APPLY" apply "$TMP/bad.conf"
expect "apply of a bad file reports every bad line as file:line, applies nothing, exit 1" \
	'[ $RC = 1 ] && [ -z "$OUT" ] && [ "$(tree_sum "$APPLY")" = "$before" ] &&
	 [ "$ERR" = "$(cat <<-EOF
	swapq: $TMP/bad.conf:2: expected '\''default_quota <pages>'\''
	swapq: $TMP/bad.conf:3: invalid device '\''swap0'\'' (expected a path, UUID= or LABEL=)
	swapq: $TMP/bad.conf:4: invalid number of pages '\''0'\'' (expected 1-1048576)
	swapq: $TMP/bad.conf:5: expected '\''default_quota <pages>'\'' or '\''<device> quota <pages>'\''
	swapq: $TMP/bad.conf:6: expected '\''default_quota <pages>'\'' or '\''<device> quota <pages>'\''
	swapq: $TMP/bad.conf:8: /dev/sdb1 already set on line 7
	swapq: $TMP/bad.conf:9: invalid device '\''UUID='\'' (expected a path, UUID= or LABEL=)
	swapq: $TMP/bad.conf: 7 bad lines, nothing applied
	EOF
	)" ]'

printf '/dev/sdb1 quota 5\nUUID=0a1b-2c3d quota 6\n' >"$TMP/twice.conf"
sq "$APPLY" apply "$TMP/twice.conf"
expect "apply of one device named twice (path and UUID) applies nothing" \
	'[ $RC = 1 ] && [ "$(tree_sum "$APPLY")" = "$before" ] &&
	 one_error "twice.conf:2: UUID=0a1b-2c3d is the device of line 1 (/dev/sdb1), nothing applied"'

sq "$APPLY" apply "$TMP/nonexistent.conf"
expect "apply of a missing file exits 1 and says so" \
	'[ $RC = 1 ] && one_error "cannot read $TMP/nonexistent.conf: No such file or directory"'

sq "$APPLY" apply "$TMP/tuning.conf" extra
expect "apply with two files exits 1" '[ $RC = 1 ] && one_error "apply: unexpected argument"'


sq "$APPLY" status --save
expect "--save outside quota exits 1" '[ $RC = 1 ] && [[ $ERR == *"--save is only valid with quota"* ]]'

root=$(build_fixture swapoff)
printf '/dev/sdc1 quota 9\n' >"$TMP/off.conf"
sq "$root" apply "$TMP/off.conf"
expect "apply skips a device being swapped off" \
	'[ $RC = 0 ] && results skipped && [ "$(cat "$root/$Q/devices/3/quota")" = 512 ] &&
	 [[ $ERR == *"/dev/sdc1: not swapped on, skipped"* ]]'

sq "$NOFEATURE" apply "$TMP/saved.conf"
expect "apply without the feature exits 2" '[ $RC = 2 ]'

# A write that fails does not stop the settings after it.
root=$(build_fixture normal apply-perm)
chmod -R a+rX "$root"
chmod a+w "$root/$Q/default_quota" "$root/$Q/devices/"{0,2}/quota
chmod a-w "$root/$Q/devices/1/quota"
printf 'default_quota 1000\n/dev/vda2 quota 2048\n/var/swap\\040file quota 77\n/dev/sdb1 quota 64\n' >"$TMP/perm.conf"
if sq_unprivileged "$root" apply "$TMP/perm.conf"; then
	expect "apply after a failed write: sets the next ones, reports each, exits with the failure (4)" \
		'[ $RC = 4 ] && [ "$OUT" = "$(cat <<-"EOF"
		SETTING        NAME            OLD  NEW RESULT
		default_quota                  512 1000 changed
		/dev/vda2      /dev/vda2       512 2048 changed
		/var/swap file /var/swap file  256   77 failed
		/dev/sdb1      /dev/sdb1      1024   64 changed
		EOF
		)" ] && [ "$ERR" = "swapq: cannot set quota of /var/swap file: Permission denied (root required)" ] &&
		 [ "$(cat "$root/$Q/default_quota" "$root/$Q/devices/"{0,1,2}/quota | tr "\n" " ")" = "1000 2048 256 64 " ]'
else
	skip "apply after a failed write: sets the next ones, reports each, exits with the failure (4)" "no setpriv or nobody"
fi

# apply checks a device around its write as quota PATH PAGES does
printf '/var/swap\\040file quota 77\n/dev/sdb1 quota 64\n' >"$TMP/fifo.conf"
FEED=("/var/swap file" /dev/sdz1)
with_fifo devices/1/path feed apply "$TMP/fifo.conf"
expect "apply: device swapped off before its write: nothing written, the next one set, exit 5" \
	'[ $RC = 5 ] && results "failed changed" && [ "$QUOTA_NOW" = 256 ] &&
	 [ "$(cat "$FIFO_ROOT/$Q/devices/2/quota")" = 64 ] &&
	 [ "$ERR" = "swapq: /var/swap file: unknown swap device (swapped off before its quota was set; nothing written)" ]'

FEED=("/var/swap file" "/var/swap file" /dev/sdz1)
with_fifo devices/1/path feed apply "$TMP/fifo.conf"
expect "apply: type taken by another device during the write: reported, the next one set, exit 5" \
	'[ $RC = 5 ] && results "failed changed" && [ "$(cat "$FIFO_ROOT/$Q/devices/2/quota")" = 64 ] &&
	 [[ $ERR == "swapq: /var/swap file: unknown swap device (swapped off while its quota was set"* ]]'

with_fifo devices/1/path reuse apply "$TMP/fifo.conf"
expect "apply: type reused between the check and the write: the new device is not written" \
	'[ $RC = 5 ] && results "failed changed" && [ "$QUOTA_NOW" = 512 ] &&
	 [ "$(cat "$FIFO_ROOT/$Q/devices/1.old/quota")" = 77 ] &&
	 [ "$(cat "$FIFO_ROOT/$Q/devices/2/quota")" = 64 ]'

FEED=("/var/swap file" "/var/swap file" "/var/swap file")
with_fifo devices/1/path feed apply "$TMP/fifo.conf"
expect "apply: unchanged device, written after two checks" \
	'[ $RC = 0 ] && [ -z "$ERR" ] && results "changed changed" && [ "$QUOTA_NOW" = 77 ]'

unit=$SWAPQ_DIR/swapq-apply.service
OUT=$(cat "$unit") RC=0 ERR=
expect "swapq-apply.service is a oneshot after swap.target running swapq apply" \
	'grep -qx "Type=oneshot" "$unit" && grep -qx "After=swap.target" "$unit" &&
	 grep -q "^ExecStart=.*/swapq apply" "$unit" && grep -q "^WantedBy=" "$unit"'

# ---- watch ----

NORMAL=$(build_fixture normal)
DEV=$NORMAL/$Q/devices

sq "$NORMAL" watch -c 2 -i 0.1
expect "watch -c 2 prints two tables with zero rates" \
	'[ $RC = 0 ] && [ "$(printf "%s\n" "$OUT" | grep -c "^RING PRIO TYPE NAME")" = 2 ] &&
	 [ "$(printf "%s\n" "$OUT" | grep -c " 0 *0\.0 *0\.00$")" = 6 ]'

sq "$NORMAL" watch -c 2 -i 0.1 -J
expect "watch --json prints one valid object per sample" \
	'[ $RC = 0 ] && [ "$(printf "%s\n" "$OUT" | jq -c -s "map(.rates | map(.type))")" = "[[0,1,2],[0,1,2]]" ]'

sq "$NORMAL" watch -c 3 -i 0.1 -J
now=$(date +%s)
expect "watch --json is JSON Lines: one compact object per sample, with time and interval" \
	'[ $RC = 0 ] && [ "$(printf "%s\n" "$OUT" | wc -l)" = 3 ] &&
	 printf "%s\n" "$OUT" | while IFS= read -r line; do
		printf "%s\n" "$line" | jq -e --argjson now "$now" \
			"(.time | type == \"number\" and . > \$now - 60 and . < \$now + 60) and
			 (.interval | type == \"number\" and . >= 0.09 and . < 5) and
			 (.rates | length == 3)" >/dev/null || exit 1
	 done &&
	 [ "$(printf "%s\n" "$OUT" | jq -s "map(.time) | . == sort")" = true ]'

sq "$EMPTY" watch -c 1 -i 0.1 -J
expect "watch --json on empty" '[ $RC = 0 ] && json_ok && jqt ".rates == []"'

page=$(getconf PAGESIZE)
( sleep 0.5; echo 1300 >"$DEV/0/allocated" ) &
sq "$NORMAL" watch -c 1 -i 2 -J -o TYPE,DELTA,PAGES/S,MIB/S,ALLOCATED
wait
expect "watch computes the rate from allocated deltas" \
	'[ $RC = 0 ] && json_ok &&
	 jqt ".rates | map(.delta) == [1000,0,0] and map(.allocated) == [1300,100,50]" &&
	 jqt ".rates[0][\"pages/s\"] | . > 400 and . <= 500.1" &&
	 jqt "(.rates[0][\"pages/s\"] * $page / 1048576) as \$m | .rates[0][\"mib/s\"] - \$m | . < 0.01 and . > -0.01"'

for bad in 0 -1 abc 1e999 "" 1e-9 1e1 0x10 0.09 86400.5 inf nan " 1" "1 " +1 1. . 1,5; do
	sq "$NORMAL" watch -c 1 -i "$bad"
	expect "watch -i '$bad' exits 1 naming the interval and its range" \
		'[ $RC = 1 ] && one_error "invalid interval '\''$bad'\'' (expected a decimal number of seconds from 0.1 to 86400)"'
done

for good in 0.1 .2 0.25 1; do
	sq "$EMPTY" watch -c 1 -i "$good" -r
	expect "watch -i $good is accepted" '[ $RC = 0 ] && [ -z "$ERR" ]'
done

sq "$NORMAL" watch -c 0
expect "watch -c 0 exits 1" '[ $RC = 1 ] && one_error "invalid count"'

sq "$NOFEATURE" watch -c 1 -i 0.1
expect "watch without the feature exits 2" '[ $RC = 2 ]'

# ---- JSON is valid everywhere ----

for fx in normal empty one many; do
	root=$(build_fixture "$fx" "json-$fx")
	for cmd in status cpus stats quota "quota --default" "watch -c 1 -i 0.1"; do
		# shellcheck disable=SC2086
		sq "$root" -J $cmd
		expect "--json $cmd on $fx is valid JSON" '[ $RC = 0 ] && json_ok'
	done
done

# ---- valgrind ----

VG_CASES=(
	"normal|0|"
	"normal|0|-J -b"
	"many|0|-J"
	"many|0|cpus"
	"normal|0|stats -J"
	"normal|0|quota"
	"normal|0|quota 1 2048"
	"normal|1|quota 1 abc"
	"normal|5|quota /dev/nonexistent"
	"normal|1|-o RING,BOGUS"
	"normal|0|watch -c 2 -i 0.1"
	"normal|0|quota --save"
	"normal|0|apply $TMP/tuning.conf"
	"normal|1|-o NAME,"
	"bad_allocated|6|"
	"position_gap|6|"
	"dup_position|6|"
	"swapoff|0|quota 3 -o +RING,POSITION"
	"truncated_debugfs|6|cpus"
	"nodebugfs|3|cpus"
	"nofeature|2|"
	"empty|0|-J"
)
if command -v valgrind >/dev/null; then
	for c in "${VG_CASES[@]}"; do
		IFS='|' read -r fx want args <<<"$c"
		root=$(build_fixture "$fx" "vg-$fx")
		# shellcheck disable=SC2086
		OUT=$(valgrind -q --error-exitcode=99 --leak-check=full \
		      "$SWAPQ" --sysroot "$root" $args 2>"$TMP/stderr" >/dev/null)
		RC=$? ERR=$(<"$TMP/stderr")
		expect "valgrind: swapq ${args:-status} on $fx is clean (exit $want)" \
			'[ $RC = $want ] && ! grep -q "^==[0-9]*==" "$TMP/stderr"'
	done
else
	for c in "${VG_CASES[@]}"; do
		IFS='|' read -r fx want args <<<"$c"
		skip "valgrind: swapq ${args:-status} on $fx is clean (exit $want)" "valgrind not installed"
	done
fi

tap_end
