// SPDX-License-Identifier: GPL-2.0
/*
 * swapq - parse the swap queue dump of /sys/kernel/debug/swap/queue
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "swapq.h"

/* How often to read the debugfs dump again after EAGAIN (a publish). */
#define DEBUG_RETRIES	10

/* Tokens on one debugfs line: "ring <r> prio <p> members" + members. */
#define MAX_TOKENS	(5 + SWAPQ_MAX_TYPES + 1)

/* Add swap type @tok to @ring, refusing duplicates across all rings. */
static int add_member(struct swapq_ring *ring, const char *tok, bool *seen)
{
	unsigned long long type;

	if (parse_u64(tok, SWAPQ_MAX_TYPES - 1, &type) || seen[type])
		return -EINVAL;
	seen[type] = true;
	ring->members[ring->nr++] = type;
	return 0;
}

/* Expect "<key> <value>" at tok[i], tok[i + 1]. */
static bool kv(char **tok, int i, const char *key, unsigned long long max,
	       unsigned long long *res)
{
	return !strcmp(tok[i], key) && !parse_u64(tok[i + 1], max, res);
}

static int parse_debug_line(char **tok, int n, struct swapq_debug *dbg,
			    bool *have_gen)
{
	unsigned long long a, b, c, d, e, f;
	long long prio;
	int i;

	if (!strcmp(tok[0], "generation")) {
		if (n != 2 || parse_u64(tok[1], ULLONG_MAX, &dbg->generation))
			return -EINVAL;
		*have_gen = true;
	} else if (!strcmp(tok[0], "ring")) {
		bool seen[SWAPQ_MAX_TYPES] = { false };
		struct swapq_ring *ring;

		if (n < 5 || parse_u64(tok[1], UINT_MAX, &a) ||
		    a != dbg->nr_rings || strcmp(tok[2], "prio") ||
		    parse_s64(tok[3], &prio) || strcmp(tok[4], "members"))
			return -EINVAL;
		ring = add_ring(&dbg->rings, &dbg->nr_rings);
		ring->prio = prio;
		for (i = 5; i < n; i++)
			if (add_member(ring, tok[i], seen))
				return -EINVAL;
	} else if (!strcmp(tok[0], "device")) {
		/* Checked, not used: sysfs has the same and more. */
		if (n != 12 || parse_u64(tok[1], SWAPQ_MAX_TYPES - 1, &a) ||
		    !kv(tok, 2, "ring", UINT_MAX, &b) ||
		    !kv(tok, 4, "position", UINT_MAX, &c) ||
		    !kv(tok, 6, "quota", ULLONG_MAX, &d) ||
		    !kv(tok, 8, "available", 1, &e) ||
		    !kv(tok, 10, "allocated", ULLONG_MAX, &f))
			return -EINVAL;
	} else if (!strcmp(tok[0], "cpu")) {
		struct swapq_cpu *cpu;

		if (n != 8 || parse_u64(tok[1], UINT_MAX, &a) ||
		    !kv(tok, 2, "ring", UINT_MAX, &b) ||
		    !kv(tok, 4, "position", UINT_MAX, &c) ||
		    !kv(tok, 6, "left", ULLONG_MAX, &d))
			return -EINVAL;
		dbg->cpus = xreallocarray(dbg->cpus, dbg->nr_cpus + 1,
					  sizeof(*dbg->cpus));
		cpu = &dbg->cpus[dbg->nr_cpus++];
		cpu->cpu = a;
		cpu->ring = b;
		cpu->position = c;
		cpu->left = d;
	} else if (!strcmp(tok[0], "stat")) {
		struct swapq_stat *stat;

		if (n != 3 || parse_u64(tok[2], ULLONG_MAX, &a))
			return -EINVAL;
		dbg->stats = xreallocarray(dbg->stats, dbg->nr_stats + 1,
					   sizeof(*dbg->stats));
		stat = &dbg->stats[dbg->nr_stats++];
		stat->name = xstrdup(tok[1]);
		stat->value = a;
	}
	/* Unknown records are skipped, for newer kernels. */
	return 0;
}

static int parse_debug(const char *path, char *buf, struct swapq_debug *dbg)
{
	char *tok[MAX_TOKENS], *next = buf, *line;
	unsigned int lineno = 0, i;
	bool have_gen = false;

	while ((line = strsep(&next, "\n"))) {
		int n;

		lineno++;
		n = split_words(line, tok, MAX_TOKENS);
		if (n == 0 && !next)
			break;		/* after the final newline */
		if (n <= 0 || parse_debug_line(tok, n, dbg, &have_gen))
			return load_fail(-EBADMSG, "%s:%u: malformed line",
					 path, lineno);
	}
	if (!have_gen)
		return load_fail(-EBADMSG, "%s: no generation record", path);
	for (i = 0; i < dbg->nr_cpus; i++)
		if (dbg->cpus[i].ring >= dbg->nr_rings)
			return load_fail(-EBADMSG,
					 "%s: cpu %u refers to unknown ring %u",
					 path, dbg->cpus[i].cpu, dbg->cpus[i].ring);
	return 0;
}

static bool dir_is_empty(const char *path)
{
	struct dirent *d;
	DIR *dir = opendir(path);
	bool empty = true;

	if (!dir)
		return true;
	while ((d = readdir(dir)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..")) {
			empty = false;
			break;
		}
	closedir(dir);
	return empty;
}

int swapq_load_debug(const char *root, struct swapq_debug *dbg)
{
	char path[PATH_MAX], dir[PATH_MAX], *buf;
	int rc, tries;

	memset(dbg, 0, sizeof(*dbg));
	load_reset();
	if (sysroot_path(path, sizeof(path), root, "%s", SWAPQ_DEBUGFS_FILE) ||
	    sysroot_path(dir, sizeof(dir), root, "%s", SWAPQ_DEBUGFS_DIR))
		return -EINVAL;

	/*
	 * A dump longer than one read() fails with EAGAIN if the queue is
	 * published again before it is complete: start over, a few times.
	 */
	for (tries = 0; ; tries++) {
		rc = read_file(path, &buf);
		if (rc != -EAGAIN || tries == DEBUG_RETRIES)
			break;
	}
	if (rc == -EAGAIN) {
		swapq_err("%s: the queue changed during each of %d reads",
			  path, DEBUG_RETRIES + 1);
		return -EAGAIN;
	}
	if (rc == -ENOENT || rc == -ENOTDIR) {
		if (dir_is_empty(dir))
			swapq_err("debugfs is not mounted on %s (try: mount -t debugfs none %s)",
				  dir, SWAPQ_DEBUGFS_DIR);
		else
			swapq_err("%s: not found (kernel built without swap queue debugfs support?)",
				  path);
		return -ENOMEDIUM;
	}
	if (rc == -EACCES || rc == -EPERM) {
		swapq_err("cannot read %s: %s (debugfs is readable by root only)",
			  path, strerror(-rc));
		return rc;
	}
	if (rc) {
		rc = load_fail_read(path, rc);
	} else {
		rc = parse_debug(path, buf, dbg);
		free(buf);
	}
	if (rc) {
		load_report();
		swapq_free_debug(dbg);
	}
	return rc;
}

void swapq_free_debug(struct swapq_debug *dbg)
{
	unsigned int i;

	for (i = 0; i < dbg->nr_stats; i++)
		free(dbg->stats[i].name);
	free(dbg->stats);
	free(dbg->cpus);
	free(dbg->rings);
	memset(dbg, 0, sizeof(*dbg));
}
