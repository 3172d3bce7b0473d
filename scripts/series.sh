#!/bin/bash
# Export the series (pristine..HEAD of build/linux) as git format-patch files
# with a cover letter into build/series, run checkpatch --strict on every
# patch, check that the whole series applies with git am to a fresh
# checkout of the pristine base, and that each patch builds on its own
# (scripts/bisect-build.sh; SWAPQ_BISECT=full also builds the whole kernel
# after each patch).
# The patches are kept with a placeholder author; the export stamps From:
# and Signed-off-by: with the git identity of whoever runs it, and refuses
# to export without a real one.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build
tree=$b/linux
out=$b/series
placeholder='swapq developers <swapq@localhost>'
name=$(git -C "$top" config user.name || true)
email=$(git -C "$top" config user.email || true)
case "$email" in
''|*@localhost|*@localhost.*|*@127.0.0.1)
	echo "series: no real git identity (user.email '$email'): set git config user.name and user.email, the patches are signed off with it" >&2
	exit 1 ;;
esac
[ -n "$name" ] || { echo "series: git config user.name is not set" >&2; exit 1; }
ident="$name <$email>"
rm -rf "$out"
mkdir -p "$out"
n=$(git -C "$tree" rev-list --count pristine..HEAD)
if [ "$n" = 0 ]; then
	echo "series: no patches yet (patches/series is empty)"
	exit 0
fi
git -C "$tree" format-patch -q --cover-letter --thread --zero-commit \
	--subject-prefix="RFC PATCH v2" -o "$out" pristine..HEAD
# From: and Signed-off-by: of the exporter (the cover letter's From: too)
sed -i -e "s|^From: $placeholder\$|From: $ident|" \
	-e "s|^Signed-off-by: $placeholder\$|Signed-off-by: $ident|" "$out"/*.patch
if grep -l "$placeholder" "$out"/*.patch; then
	echo "series: the placeholder identity is left in the files above" >&2
	exit 1
fi
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
bash "$top/scripts/bisect-build.sh" ${SWAPQ_BISECT:+"$SWAPQ_BISECT"} > "$out/bisect.txt" || bad=1
sed 's/^/series: /' "$out/bisect.txt"
echo "series: $out"
exit $bad
