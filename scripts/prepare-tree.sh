#!/bin/bash
# Lay out the kernel trees under build/:
#   build/pristine  the unpacked linux-source-7.3 as a git repo, tag "pristine"
#   build/linux     a worktree on branch "swapq": pristine + our series, one
#                   commit per line of patches/series (the patch applied with
#                   git am); the files the series adds must then equal their
#                   plain copies at their kernel path in this repository
#   build/linux-inject  the series without the patches listed in
#                   tests/control/reverted (so that the tests of those
#                   patches can show what each removes) plus the test-only
#                   injections of tests/inject
#   build/linux-base-inject  pristine + the injections
# Usage: prepare-tree.sh [pristine|patched|inject|base-inject]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build
what=${1:-patched}
patches=${SWAPQ_PATCHES:-$top/patches}
tree=${SWAPQ_TREE:-$b/linux}
git_id=(-c user.name=swapq -c user.email=swapq@localhost)

bash "$top/scripts/fetch-kernel.sh"
if ! git -C "$b/pristine" rev-parse -q --verify pristine >/dev/null 2>&1; then
	echo "prepare-tree: unpacking $(cat "$b/kernel-version")"
	rm -rf "$b/pristine" "$b/linux"
	mkdir -p "$b/pristine"
	tar -C "$b/pristine" --strip-components=1 -xf "$b/linux-source-7.3.tar.xz"
	git -C "$b/pristine" init -q -b base
	git -C "$b/pristine" add -f -A .
	git -C "$b/pristine" "${git_id[@]}" commit -q -m "Linux $(cat "$b/kernel-version")"
	git -C "$b/pristine" tag pristine
fi
[ "$what" = pristine ] && exit 0

if [ "$what" = inject ] || [ "$what" = base-inject ]; then
	start=pristine
	if [ "$what" = inject ]; then
		bash "$0" patched
		start=$(git -C "$tree" rev-parse HEAD)
	fi
	wt=$b/linux-$what
	if [ ! -e "$wt/.git" ]; then
		git -C "$b/pristine" worktree prune
		git -C "$b/pristine" worktree add -q -f --detach "$wt" "$start"
	fi
	git -C "$wt" reset -q --hard "$start"
	git -C "$wt" clean -q -fdx -e "/obj-*"
	if [ "$what" = inject ]; then
		# newest first, so that each reverts onto the tree it left
		for fix in $(grep -v '^#' "$top/tests/control/reverted" | tac); do
			git -C "$wt" apply -R "$patches/$fix" ||
				{ echo "prepare-tree: $fix does not revert on top of the series" >&2; exit 1; }
			echo "prepare-tree: $wt: $start without $fix"
		done
	fi
	injections=("$top"/tests/inject/*.patch)
	for p in "${injections[@]}"; do
		git -C "$wt" apply "$p" || { echo "prepare-tree: $p does not apply" >&2; exit 1; }
	done
	echo "prepare-tree: $wt: $start + ${#injections[@]} injection patches"
	exit 0
fi

if [ ! -e "$tree/.git" ]; then
	rm -rf "$tree"
	git -C "$b/pristine" worktree prune
	git -C "$b/pristine" worktree add -q -f --detach "$tree" pristine
fi
cd "$tree"
# new_files: the files the patches add (their plain copies are the readable
# final state)
new_files() {
	awk '/^diff --git / { f = substr($3, 3) } /^new file mode/ { print f }' "$patches"/*.patch |
		sort -u
}
# Skip the work when the tree already holds exactly this series.
stamp=$( { cat "$patches/series"; cat "$patches"/*.patch 2>/dev/null
	   new_files | (cd "$top" || exit 0; xargs -r cat 2>/dev/null; true); } | sha1sum | cut -c1-16)
if [ "$(cat "$(git rev-parse --git-dir)/swapq-series" 2>/dev/null)" = "$stamp" ] &&
   [ -z "$(git status --porcelain --untracked-files=no)" ]; then
	echo "prepare-tree: $tree is up to date"
	exit 0
fi
git am --abort >/dev/null 2>&1 || true
# reset only rewrites files that differ, so unchanged files keep their
# mtimes and the next build stays incremental
git reset -q --hard pristine
git clean -q -fdx -e "/obj-*"

n=0
while read -r patch _; do
	case "$patch" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	if ! git "${git_id[@]}" am -q --keep-cr "$patches/$patch" 2>"$b/am.log"; then
		cat "$b/am.log" >&2
		git am --abort >/dev/null 2>&1 || true
		echo "prepare-tree: $patch does not apply to $(cat "$b/kernel-version")" >&2
		exit 1
	fi
done < "$patches/series"
# The plain copies of the new files are the series' final state
bad=0
for f in $(git diff --name-only --diff-filter=A pristine HEAD); do
	if ! cmp -s "$f" "$top/$f"; then
		echo "prepare-tree: $f differs from the state the series leaves it in; edit it in build/linux and run make refresh" >&2
		bad=1
	fi
done
[ $bad = 0 ] || exit 1
echo "$stamp" > "$(git rev-parse --git-dir)/swapq-series"
echo "prepare-tree: $(cat "$b/kernel-version") + $n patches in $tree"
