#!/bin/bash
# Fetch Debian's linux-source-7.3 with a private apt configuration under
# build/apt, never touching the machine's own sources, and unpack the
# pristine tarball to build/linux-source-7.3.tar.xz.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build/apt
suite=${SWAPQ_SUITE:-trixie-backports}
mkdir -p "$b/lists/partial" "$b/cache/archives/partial" "$b/etc"
tarball=$top/build/linux-source-7.3.tar.xz
if [ -s "$tarball" ] && [ -s "$top/build/kernel-version" ]; then
	echo "linux-source-7.3 $(cat "$top/build/kernel-version") (cached)"
	exit 0
fi
cat > "$b/etc/sources.list" <<SRC
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main
SRC
opts=(-o Dir::Etc::sourcelist="$b/etc/sources.list" -o Dir::Etc::sourceparts=-
      -o Dir::State::Lists="$b/lists" -o Dir::Cache="$b/cache"
      -o Dir::State::status=/var/lib/dpkg/status -o APT::Get::List-Cleanup=0
      -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt-get "${opts[@]}" -qq update
ver=$(apt-cache "${opts[@]}" policy linux-source-7.3 | awk '/Candidate:/ {print $2}')
case "$ver" in
7.3*) ;;
*) echo "fetch-kernel: no linux-source-7.3 in $suite (candidate '$ver')" >&2; exit 1 ;;
esac
(cd "$b" && rm -f linux-source-7.3_*.deb && apt-get "${opts[@]}" -qq download "linux-source-7.3=$ver")
deb=$(ls "$b"/linux-source-7.3_*.deb)
rm -rf "$b/x" && mkdir "$b/x"
dpkg-deb -x "$deb" "$b/x"
mv "$b/x/usr/src/linux-source-7.3.tar.xz" "$tarball"
rm -rf "$b/x" "$deb"
echo "$ver" > "$top/build/kernel-version"
echo "linux-source-7.3 $ver"
