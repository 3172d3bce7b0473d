#!/bin/bash
# Turn the commits of build/linux (or $SWAPQ_TREE; pristine..HEAD) back into this repository:
# each commit becomes patches/NNNN-*.patch holding its changes to files that
# exist upstream, and the files it adds are copied to their kernel path here
# (with their content at HEAD). A new file is added whole by one commit and
# not changed by later ones, so that each patch of the series still builds on
# its own. patches/series is rewritten to match.
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
head -n 3 "$top/patches/series" | grep '^#' > "$tmp/series" || true
i=0
for c in $(git rev-list --reverse pristine..HEAD); do
	i=$((i + 1))
	added=$(git diff-tree --no-commit-id --name-only -r --diff-filter=A "$c" | sort)
	for f in $(git diff-tree --no-commit-id --name-only -r --diff-filter=M "$c"); do
		if ! git cat-file -e "pristine:$f" 2>/dev/null; then
			echo "refresh: $(git log -1 --format=%s "$c") changes $f, which an earlier commit added; fold that change into the commit adding it" >&2
			exit 1
		fi
	done
	excl=()
	for f in $added; do
		excl+=(":(exclude)$f")
		mkdir -p "$top/$(dirname "$f")"
		git show "HEAD:$f" > "$top/$f"
	done
	name=$(git format-patch -1 --start-number "$i" --zero-commit --no-signature \
		-o "$tmp" "$c" -- . "${excl[@]}")
	[ -s "$name" ] || { echo "refresh: commit $(git log -1 --format=%s "$c") changes no upstream file" >&2; exit 1; }
	echo "$(basename "$name") $(echo $added)" | sed 's/ *$//' >> "$tmp/series"
done
rm -f "$top"/patches/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/[0-9]*.patch "$top/patches/" 2>/dev/null || true
cp "$tmp/series" "$top/patches/series"
echo "refresh: $i patches written to patches/"
