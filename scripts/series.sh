#!/bin/bash
# Export the series (pristine..HEAD of build/linux) as git format-patch files
# with a cover letter into build/series, run checkpatch --strict on every
# patch, and check that the whole series applies with git am to a fresh
# checkout of the pristine base.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build
tree=$b/linux
out=$b/series
rm -rf "$out"
mkdir -p "$out"
n=$(git -C "$tree" rev-list --count pristine..HEAD)
if [ "$n" = 0 ]; then
	echo "series: no patches yet (patches/series is empty)"
	exit 0
fi
git -C "$tree" format-patch -q --cover-letter --thread --zero-commit \
	--subject-prefix="PATCH" -o "$out" pristine..HEAD
cover=$out/0000-cover-letter.patch
subject=$(head -n 1 "$top/patches/cover-letter")
awk -v subj="$subject" -v body="$top/patches/cover-letter" '
/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
/\*\*\* BLURB HERE \*\*\*/ {
	n = 0
	while ((getline line < body) > 0)
		if (++n > 2)	# skip the subject and the blank line after it
			print line
	printf "\nBase: Linux %s (Debian linux-source-7.3).\n", ver
	next
}
{ print }' ver="$(cat "$b/kernel-version")" "$cover" > "$cover.new"
mv "$cover.new" "$cover"

bad=0
for p in "$out"/0*.patch; do
	[ "$p" = "$cover" ] && continue
	# the base is a source tarball without upstream history, where
	# checkpatch cannot look up the commit a Fixes: tag names
	if (cd "$tree" && scripts/checkpatch.pl --strict -q --no-summary \
		--ignore UNKNOWN_COMMIT_ID "$p") > "$p.checkpatch" 2>&1; then
		echo "series: $(basename "$p"): checkpatch --strict clean"
		rm -f "$p.checkpatch"
	else
		echo "series: $(basename "$p"): checkpatch --strict:"
		sed 's/^/    /' "$p.checkpatch"
		bad=1
	fi
done

patches=()
for p in "$out"/0*.patch; do [ "$p" = "$cover" ] || patches+=("$p"); done
wt=$(mktemp -d)
rmdir "$wt"
git -C "$b/pristine" worktree add -q --detach "$wt" pristine
if (cd "$wt" && git -c user.name=swapq -c user.email=swapq@localhost am -q "${patches[@]}" 2>/dev/null ||
    { git am --abort; false; }); then
	echo "series: $n patches apply with git am to pristine $(cat "$b/kernel-version")"
else
	echo "series: the exported series does not apply to the pristine base" >&2
	bad=1
fi
git -C "$b/pristine" worktree remove -f "$wt"
echo "series: $out"
exit $bad
