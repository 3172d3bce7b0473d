/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse_size: "SIZE" with an optional K, M or G suffix, in bytes; a bad or
 * zero size prints "PROG: bad size 'S'" and exits with status 2. Shared by
 * the guest programs (swapq-fill, usemem).
 */
#ifndef SWAPQ_PARSE_SIZE_H
#define SWAPQ_PARSE_SIZE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static size_t parse_size(const char *prog, const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		goto bad;
	switch (*end) {
	case 'G': case 'g': v <<= 10; /* fall through */
	case 'M': case 'm': v <<= 10; /* fall through */
	case 'K': case 'k': v <<= 10; end++; break;
	case '\0': break;
	default: goto bad;
	}
	if (*end || !v)
		goto bad;
	return v;
bad:
	fprintf(stderr, "%s: bad size '%s'\n", prog, s);
	exit(2);
}

#endif
