#!/bin/bash
# Build the guest initramfs: busybox-static plus scripts/guest-init.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
img=${1:-$top/build/initramfs.cpio.gz}
bb=$(command -v busybox)
file -L "$bb" 2>/dev/null | grep -q 'statically linked' ||
	{ echo "mkinitramfs: $bb is not static (install busybox-static)" >&2; exit 1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d"/{bin,proc,sys,dev,host}
cp "$bb" "$d/bin/busybox"
for a in sh mount mkdir ln sed cat echo poweroff chroot hostname sync; do
	ln -s busybox "$d/bin/$a"
done
install -m 755 "$top/scripts/guest-init" "$d/init"
(cd "$d" && find . | cpio -o -H newc --quiet | gzip -9) > "$img.tmp"
mv "$img.tmp" "$img"
