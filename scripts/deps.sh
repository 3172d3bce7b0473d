#!/bin/bash
# Install what the build, the VM and the tests need (quietly when present),
# then fetch the kernel source.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
pkgs=(build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils ccache
      sparse kmod util-linux e2fsprogs busybox-static file qemu-system-x86
      stress-ng libsmartcols-dev pkg-config valgrind python3 jq gnuplot-nox
      git perl procps shellcheck)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
bash "$top/scripts/fetch-kernel.sh"
bash "$top/scripts/fetch-sparse.sh"
