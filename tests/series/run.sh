#!/bin/bash
# The series in the built tree: what it removes is gone (and was there in
# the pristine tree, so the check can fail), the C files it touches build
# with W=1 without a warning, and so they do after each of its patches
# (scripts/bisect-build.sh).  run.sh KERNEL-FLAVOR
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/tap.sh
. "$top/tests/lib/tap.sh"
tap_begin
b=$top/build
flavor=${1:-debug}
obj=$b/obj-$flavor
removed=$(grep -v '^#' "$top/tests/removed-symbols" | paste -sd'|')

found() { # TREE: lines of its sources naming a removed symbol
	git -C "$1" grep -nwE "$removed" -- '*.c' '*.h'
}
n=$(found "$b/pristine" | wc -l)
if [ "$n" -gt 0 ]; then
	ok "the pristine tree names the removed symbols ($n lines)"
else
	not_ok "the pristine tree names the removed symbols"
fi
if found "$b/linux" > "$b/removed.txt"; then
	not_ok "the patched tree no longer names them"
	sed 's/^/# /' "$b/removed.txt"
else
	ok "the patched tree no longer names them"
fi
if grep -wE "$removed" "$obj/System.map" > "$b/removed.txt"; then
	not_ok "the $flavor kernel has none of them"
	sed 's/^/# /' "$b/removed.txt"
else
	ok "the $flavor kernel has none of them"
fi

# W=1 on every C file the series touches, in the object tree of make check
mapfile -t objs < <(git -C "$b/linux" diff --name-only pristine..HEAD -- '*.c' | sed 's/\.c$/.o/')
log=$b/w1.log
bash "$top/scripts/build-kernel.sh" "$flavor" W=1 "${objs[@]}" > "$log" 2>&1
rc=$?
if [ $rc = 0 ] && ! grep -q 'warning:' "$log"; then
	ok "W=1 build of ${objs[*]}: no warnings"
else
	not_ok "W=1 build of ${objs[*]}: no warnings (status $rc)"
	sed 's/^/# /' "$log"
fi

# sparse (C=2, build/sparse/sparse) on the same files: no message on a
# line the series adds; messages on 7.3's own lines are only counted
added=$b/added-lines.txt
git -C "$b/linux" diff -U0 pristine..HEAD -- '*.c' '*.h' | awk '
	/^\+\+\+ b\// { f = substr($2, 3) }
	/^@@/ { split($3, a, ","); n = a[2] == "" ? 1 : a[2]
		for (i = 0; i < n; i++) print f ":" substr(a[1], 2) + i }' > "$added"
log=$b/sparse.log
bash "$top/scripts/build-kernel.sh" "$flavor" C=2 CHECK="$b/sparse/sparse" "${objs[@]}" > "$log" 2>&1
rc=$?
sed -n -e "s|^$b/linux/||p" -e "s|^\.\./||p" "$log" | grep -E '^[^ :]+:[0-9]+:[0-9]+: (warning|error):' > "$log.msgs"
awk -F: 'NR == FNR { added[$1 ":" $2] = 1; next } ($1 ":" $2) in added' "$added" "$log.msgs" > "$log.ours"
# the kernel skips a checker it finds unusable, with only this warning
grep -q 'not available or not up to date' "$log" && rc=1
if [ $rc = 0 ] && [ ! -s "$log.ours" ]; then
	ok "sparse on ${objs[*]}: nothing on the series' lines ($(wc -l < "$log.msgs") on 7.3's own)"
else
	not_ok "sparse on ${objs[*]}: nothing on the series' lines (status $rc)"
	sed 's/^/# /' "$log.ours"
	[ $rc = 0 ] || tail -n 20 "$log" | sed 's/^/# /'
fi

# every patch builds on its own, in order
bash "$top/scripts/bisect-build.sh"
tap_end
