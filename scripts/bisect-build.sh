#!/bin/bash
# Build the series patch by patch, as git bisect would meet it: after each
# patch, in order, every C file the series touches that exists at that
# point compiles with W=1 and no warning (vm config, build/obj-bisect, from
# the worktree build/linux-bisect, incremental from one patch to the next).
# Prints a TAP line per patch and stops at the first that does not build.
#
#   bisect-build.sh [full]
#
# full: build the whole kernel (bzImage, modules) after each patch too, so
# that link errors show (a full build per patch: for a series about to be
# sent, not for every make check).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
tap_begin
b=$top/build
wt=$b/linux-bisect
log=$b/bisect-build.log
: > "$log"
if [ ! -e "$wt/.git" ]; then
	git -C "$b/pristine" worktree prune
	git -C "$b/pristine" worktree add -q -f --detach "$wt" pristine
fi
tree=${SWAPQ_TREE:-$b/linux}
head=$(git -C "$tree" rev-parse HEAD)
mapfile -t files < <(git -C "$tree" diff --name-only pristine "$head" -- '*.c')
i=0 prev=$(git -C "$wt" rev-parse HEAD)
for c in $(git -C "$tree" rev-list --reverse "pristine..$head"); do
	i=$((i + 1))
	what="patch $i ($(git -C "$tree" log -1 --format=%s "$c"))"
	# checkout rewrites only the files that differ: the build stays incremental
	git -C "$wt" checkout -q -f --detach "$c"
	# a patch that adds a config option: make the configuration again
	git -C "$wt" diff --quiet "$prev" "$c" -- '*Kconfig*' || rm -f "$b/obj-bisect/.swapq-config"
	prev=$c
	objs=()
	for f in "${files[@]}"; do [ -f "$wt/$f" ] && objs+=("${f%.c}.o"); done
	if ! bash "$top/scripts/build-kernel.sh" bisect W=1 "${objs[@]}" >> "$log" 2>&1 ||
	   grep -q 'warning:\|error:' "$log"; then
		not_ok "$what builds with W=1 (${objs[*]})"
		grep -E 'warning:|error:' "$log" | head -n 20 | sed 's/^/# /'
		tap_end
		exit
	fi
	if [ "${1:-}" = full ] && ! bash "$top/scripts/build-kernel.sh" bisect >> "$log" 2>&1; then
		not_ok "$what builds (bzImage, modules)"
		tail -n 20 "$log" | sed 's/^/# /'
		tap_end
		exit
	fi
	ok "$what builds with W=1 (${objs[*]##*/})"
done
[ $i -gt 0 ] || not_ok "the series has patches to build"
tap_end
