#!/bin/bash
# The running kernel has none of the symbols the series removes: the swap
# device plists, their lock and plist_requeue().
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
tap_begin
check "/proc/kallsyms lists symbols" grep -q sys_swapon /proc/kallsyms
removed=$(grep -v '^#' "$SWAPQ_REPO/tests/removed-symbols" | paste -sd'|')
gone() { ! grep -wE "$removed" /proc/kallsyms; }
check "/proc/kallsyms has none of ${removed//|/, }" gone
tap_end
