#!/bin/bash
# Turn the commits of build/linux (or $SWAPQ_TREE; pristine..HEAD) back into this repository:
# each commit becomes patches/NNNN-*.patch (git format-patch, every file it
# changes or adds), and every file the series adds is also written to its
# kernel path here, in its state at HEAD: the readable final state, which
# prepare-tree.sh checks against what the patches produce. A new file may
# change in later patches, so that each patch has the version it needs.
# patches/series is rewritten to match.
# Work on the series in build/linux with ordinary git (commit --fixup,
# rebase -i, ...), then run make refresh.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=${SWAPQ_TREE:-$top/build/linux}
cd "$tree"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	{ echo "refresh: build/linux has uncommitted changes; commit them first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n '/^#/p' "$top/patches/series" > "$tmp/series"
i=0
for c in $(git rev-list --reverse pristine..HEAD); do
	i=$((i + 1))
	name=$(git format-patch -1 --start-number "$i" --zero-commit --no-signature -o "$tmp" "$c")
	basename "$name" >> "$tmp/series"
done
for f in $(git diff --name-only --diff-filter=A pristine HEAD); do
	mkdir -p "$top/$(dirname "$f")"
	git show "HEAD:$f" > "$top/$f"
done
rm -f "$top"/patches/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/[0-9]*.patch "$top/patches/" 2>/dev/null || true
cp "$tmp/series" "$top/patches/series"
echo "refresh: $i patches written to patches/"
