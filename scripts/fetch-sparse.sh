#!/bin/bash
# sparse for the kernel's C=1/C=2 checks. 7.3 needs a sparse that knows
# __typeof_unqual__ (scripts/checker-valid.sh); Debian 12's 0.6.4 does
# not, and the newer binary package needs a newer libc. So build Debian
# unstable's source package, with a private apt configuration like
# fetch-kernel.sh, into build/sparse/sparse.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build/apt-src
out=$top/build/sparse
checker_test='static inline int u(const int *q) { __typeof_unqual__(*q) v = *q; return v; }'
works() { # SPARSE: it parses what the kernel's checker-valid.sh tries
	[ -x "$1" ] && ! printf '%s\n' "$checker_test" | "$1" -x c - 2>&1 | grep -q error
}
if works "$out/sparse"; then
	echo "sparse: $out/sparse (cached)"
	exit 0
fi
mkdir -p "$b/lists/partial" "$b/cache/archives/partial" "$b/etc"
cat > "$b/etc/sources.list" <<SRC
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian ${SWAPQ_SPARSE_SUITE:-unstable} main
SRC
opts=(-o Dir::Etc::sourcelist="$b/etc/sources.list" -o Dir::Etc::sourceparts=-
      -o Dir::State::Lists="$b/lists" -o Dir::Cache="$b/cache"
      -o Dir::State::status=/var/lib/dpkg/status -o APT::Get::List-Cleanup=0
      -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt-get "${opts[@]}" -qq update
rm -rf "$b/src" && mkdir -p "$b/src"
(cd "$b/src" && apt-get "${opts[@]}" -qq source --download-only sparse >/dev/null)
tar -C "$b/src" -xzf "$b"/src/sparse_*.orig.tar.gz
make -s -C "$b"/src/sparse-*/ -j"$(nproc)" sparse > "$b/build.log" 2>&1 ||
	{ tail -n 20 "$b/build.log" >&2; echo "fetch-sparse: build failed" >&2; exit 1; }
mkdir -p "$out"
cp "$b"/src/sparse-*/sparse "$out/sparse"
works "$out/sparse" || { echo "fetch-sparse: $out/sparse does not parse __typeof_unqual__" >&2; exit 1; }
rm -rf "$b/src"
echo "sparse: built $out/sparse"
