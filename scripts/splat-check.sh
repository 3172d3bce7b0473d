#!/bin/bash
# splat-check.sh LOG: print and fail on any kernel splat found in LOG.
pat='BUG:|WARNING:|Oops|general protection fault|Kernel panic|kernel BUG at|'
pat+='possible circular locking|possible recursive locking|inconsistent lock state|'
pat+='suspicious RCU usage|KASAN:|UBSAN:|blocked for more than|soft lockup|'
pat+='Bad page state|Bad page map|list_add corruption|list_del corruption|'
pat+='sleeping function called from invalid context|stack-protector|'
# slub_debug: "BUG kmalloc-64 (Not tainted): Poison overwritten"
# (KFENCE reports start with "BUG: KFENCE:")
pat+='BUG [^ ]+ \((Not t|T)ainted'
if grep -E -n -m 20 "$pat" "$1" >&2; then
	echo "splat-check: kernel splat in $1" >&2
	exit 1
fi
exit 0
