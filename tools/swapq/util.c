// SPDX-License-Identifier: GPL-2.0
/*
 * swapq - helpers: messages, allocation, file reading, number parsing
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "swapq.h"

/* Kernel files we read are small; refuse anything absurd. */
#define READ_FILE_MAX	(64 << 20)

void swapq_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("swapq: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Nothing sensible is left to do without memory: say so and exit. */
void swapq_oom(void)
{
	swapq_err("out of memory");
	exit(SWAPQ_EXIT_SYSERR);
}

void *xzalloc(size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		swapq_oom();
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p = reallocarray(ptr, nmemb, size);

	if (!p)
		swapq_oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		swapq_oom();
	return p;
}

/*
 * A failed system call as the data layer returns it: -errno if it has
 * an exit code of its own (see swapq.h), else -EIO, so that, say, a
 * sysfs read failing with ENODEV is not taken for an unknown device.
 */
int sys_error(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
	case EBADMSG:
		return -err;
	default:
		return -EIO;
	}
}

static int vmake_path(char *buf, size_t size, const char *root,
		      const char *fmt, va_list ap)
{
	size_t len = strlen(root);
	int n;

	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, root, len);
	n = vsnprintf(buf + len, size - len, fmt, ap);
	if (n < 0 || (size_t)n >= size - len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * Build "<root><path>" into @buf. Returns 0, or -ENAMETOOLONG.
 */
int make_path(char *buf, size_t size, const char *root, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vmake_path(buf, size, root, fmt, ap);
	va_end(ap);
	return rc;
}

/*
 * make_path(), saying so if the path does not fit: only a long sysroot
 * can make one of our paths too long. Returns 0, or -EINVAL.
 */
int sysroot_path(char *buf, size_t size, const char *root, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vmake_path(buf, size, root, fmt, ap);
	va_end(ap);
	if (!rc)
		return 0;
	swapq_err("sysroot path too long");
	return -EINVAL;
}

/*
 * Read a whole file into a NUL-terminated buffer. Returns 0, or a
 * negative errno; -EBADMSG if the file contains NUL bytes or is huge.
 */
int read_file(const char *path, char **bufp)
{
	size_t len = 0, size = 4096;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;

	buf = xzalloc(size);
	for (;;) {
		ssize_t n;

		if (len + 1 >= size) {
			if (size >= READ_FILE_MAX) {
				free(buf);
				close(fd);
				return -EBADMSG;
			}
			size *= 2;
			buf = xreallocarray(buf, size, 1);
		}
		n = read(fd, buf + len, size - len - 1);
		if (n < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			free(buf);
			close(fd);
			return -err;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';

	if (strlen(buf) != len) {
		free(buf);
		return -EBADMSG;
	}
	*bufp = buf;
	return 0;
}

/*
 * Strict unsigned decimal: digits only, no sign, no blanks, at most @max.
 * Returns 0, -EINVAL for a malformed string, or -ERANGE.
 */
int parse_u64(const char *s, unsigned long long max, unsigned long long *res)
{
	unsigned long long v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned int d;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		d = *s - '0';
		if (v > (ULLONG_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (v > max)
		return -ERANGE;
	*res = v;
	return 0;
}

/* Strict signed decimal: an optional '-' followed by digits. */
int parse_s64(const char *s, long long *res)
{
	unsigned long long v;
	bool neg = false;
	int rc;

	if (s && *s == '-') {
		neg = true;
		s++;
	}
	rc = parse_u64(s, neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX, &v);
	if (rc)
		return rc;
	*res = neg ? (long long)(0 - v) : (long long)v;
	return 0;
}

/*
 * Parse the content of a one-value sysfs file: a number followed by an
 * optional newline. @buf is modified.
 */
int parse_value_u64(char *buf, unsigned long long max, unsigned long long *res)
{
	chomp(buf);
	return parse_u64(buf, max, res);
}

/* Drop the newline that ends a sysfs value; returns the length left. */
size_t chomp(char *s)
{
	size_t len = strlen(s);

	if (len && s[len - 1] == '\n')
		s[--len] = '\0';
	return len;
}

/* Split @line at blanks into at most @max tokens; -1 if there are more. */
int split_words(char *line, char **tok, int max)
{
	char *save, *t;
	int n = 0;

	for (t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return -1;
		tok[n++] = t;
	}
	return n;
}

/*
 * Undo the \ooo escapes of /proc/swaps, and of swapq --save for blanks,
 * '#' and '\' in paths, in place.
 */
void unescape_octal(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0');
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/*
 * Human readable size with binary units and one rounded decimal digit,
 * as swapon(8) and lsblk(8) print it: 0B, 512M, 1.5G.
 */
void size_to_human(unsigned long long bytes, char *buf, size_t len)
{
	static const char units[] = "BKMGTPE";
	unsigned long long dec, frac;
	int exp = 0;

	while (exp < 6 && bytes >= 1ULL << (10 * (exp + 1)))
		exp++;
	if (!exp) {
		snprintf(buf, len, "%lluB", bytes);
		return;
	}

	dec = bytes >> (10 * exp);
	frac = bytes & ((1ULL << (10 * exp)) - 1);
	/* frac in units of 1/1024, rounded to tenths */
	frac = ((frac >> (10 * (exp - 1))) * 10 + 512) / 1024;
	if (frac == 10) {
		dec++;
		frac = 0;
	}
	if (dec == 1024 && exp < 6) {
		dec = 1;
		exp++;
	}

	if (frac)
		snprintf(buf, len, "%llu.%llu%c", dec, frac, units[exp]);
	else
		snprintf(buf, len, "%llu%c", dec, units[exp]);
}
