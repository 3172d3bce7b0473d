// SPDX-License-Identifier: GPL-2.0
/*
 * swapq - inspect and tune swap device priority queues
 *
 * Reads /sys/kernel/mm/swap/queue, /sys/kernel/debug/swap/queue and
 * /proc/swaps, and prints them as tables with libsmartcols.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libsmartcols.h>

#include "swapq.h"

#ifndef SWAPQ_VERSION
#define SWAPQ_VERSION "1.0"
#endif

#define MIN_INTERVAL	0.1	/* seconds; below, sampling is mostly noise */
#define MAX_INTERVAL	86400.0	/* seconds */

/* ---- commands ---- */

static int cmd_status(struct swapq_ctl *ctl, int argc, char **argv);
static int cmd_cpus(struct swapq_ctl *ctl, int argc, char **argv);
static int cmd_quota(struct swapq_ctl *ctl, int argc, char **argv);
static int quota_devices(struct swapq_ctl *ctl, int argc, char **argv);
static int cmd_quota_default(struct swapq_ctl *ctl, int argc, char **argv);
static int cmd_watch(struct swapq_ctl *ctl, int argc, char **argv);
static int cmd_stats(struct swapq_ctl *ctl, int argc, char **argv);
static int cmd_apply(struct swapq_ctl *ctl, int argc, char **argv);

/* The columns of each command: the defaults, then the optional ones. */
static const int status_cols[] = {
	COL_RING, COL_PRIO, COL_TYPE, COL_NAME, COL_SIZE, COL_USED,
	COL_QUOTA, COL_AVAIL, COL_ALLOCATED, COL_SHARE,
};
static const int status_more[] = { COL_POSITION };

static const int cpus_cols[] = {
	COL_CPU, COL_RING, COL_PRIO, COL_POSITION, COL_DEVICE, COL_LEFT,
};
static const int cpus_more[] = { COL_NAME };

static const int quota_cols[] = { COL_TYPE, COL_NAME, COL_PRIO, COL_QUOTA };
static const int quota_more[] = { COL_RING, COL_POSITION };

static const int default_cols[] = { COL_QUOTA };

static const int watch_cols[] = {
	COL_RING, COL_PRIO, COL_TYPE, COL_NAME, COL_DELTA, COL_RATE, COL_MIBS,
};
static const int watch_more[] = { COL_POSITION, COL_ALLOCATED };

static const int stats_cols[] = { COL_STAT, COL_VALUE };

#define COLUMNS(c)	.defaults = c, .ndefaults = ARRAY_SIZE(c)
#define MORE(c)		.optional = c, .noptional = ARRAY_SIZE(c)

static const struct swapq_cmd commands[] = {
	{ "status", "devices", cmd_status, COLUMNS(status_cols),
	  MORE(status_more) },
	{ "cpus", "cpus", cmd_cpus, COLUMNS(cpus_cols), MORE(cpus_more) },
	{ "quota", "quotas", cmd_quota, COLUMNS(quota_cols),
	  MORE(quota_more) },
	/* quota --default; never matched by name, as it has a blank */
	{ "quota --default", "default_quota", cmd_quota_default,
	  COLUMNS(default_cols) },
	{ "watch", "rates", cmd_watch, COLUMNS(watch_cols), MORE(watch_more) },
	{ "stats", "stats", cmd_stats, COLUMNS(stats_cols) },
	/* no table: it reports what it changes */
	{ .name = "apply", .fn = cmd_apply },
};

static int load(struct swapq_ctl *ctl, struct swapq_state *st)
{
	int rc = swapq_check_feature(ctl->sysroot);

	if (!rc)
		rc = swapq_load_state(ctl->sysroot, st);
	return rc;
}

static int no_args(struct swapq_ctl *ctl, int argc, char **argv)
{
	if (argc > 0) {
		swapq_err("%s: unexpected argument '%s'", ctl->cmd->name, argv[0]);
		return SWAPQ_EXIT_USAGE;
	}
	return 0;
}

/* ---- status ---- */

static unsigned long long ring_allocated(const struct swapq_state *st,
					 const struct swapq_ring *ring)
{
	unsigned long long sum = 0;
	unsigned int i;

	for (i = 0; i < ring->nr; i++)
		sum += st->devs[ring->members[i]].allocated;
	return sum;
}

static int cmd_status(struct swapq_ctl *ctl, int argc, char **argv)
{
	const struct swapq_dev *dev;
	struct libscols_table *tb;
	struct swapq_state st;
	int rc;

	rc = no_args(ctl, argc, argv);
	if (!rc)
		rc = load(ctl, &st);
	if (rc)
		return rc;

	tb = new_table(ctl);
	swapq_for_each_dev(dev, &st) {
		unsigned long long total = ring_allocated(&st,
							  &st.rings[dev->ring]);
		struct libscols_line *ln = new_line(tb);
		size_t i;

		for (i = 0; i < ctl->ncolumns; i++) {
			if (set_dev_cell(ctl, ln, i, dev))
				continue;
			/* COL_SHARE; empty while the ring is unused */
			if (total)
				set_cell(ln, i, "%.1f",
					 100.0 * dev->allocated / total);
		}
	}
	print_table(tb);
	swapq_free_state(&st);
	return 0;
}

/* ---- cpus and stats (debugfs) ---- */

static int cmd_cpus(struct swapq_ctl *ctl, int argc, char **argv)
{
	struct libscols_table *tb;
	struct swapq_debug dbg;
	struct swapq_state st;
	unsigned int c;
	int rc;

	rc = no_args(ctl, argc, argv);
	if (!rc)
		rc = swapq_check_feature(ctl->sysroot);
	if (!rc)
		rc = swapq_load_snapshot(ctl->sysroot, &st, &dbg);
	if (rc)
		return rc;

	tb = new_table(ctl);
	for (c = 0; c < dbg.nr_cpus; c++) {
		const struct swapq_cpu *cpu = &dbg.cpus[c];
		const struct swapq_ring *ring = &dbg.rings[cpu->ring];
		struct libscols_line *ln = new_line(tb);
		int type = -1;
		size_t i;

		/* A cursor may point past the end until it wraps. */
		if (cpu->position < ring->nr)
			type = ring->members[cpu->position];

		for (i = 0; i < ctl->ncolumns; i++) {
			switch (ctl->columns[i]) {
			case COL_CPU:
				set_cell(ln, i, "%u", cpu->cpu);
				break;
			case COL_RING:
				set_cell(ln, i, "%u", cpu->ring);
				break;
			case COL_PRIO:
				set_cell(ln, i, "%lld", ring->prio);
				break;
			case COL_POSITION:
				set_cell(ln, i, "%u", cpu->position);
				break;
			case COL_DEVICE:
				if (type >= 0)
					set_cell(ln, i, "%d", type);
				break;
			case COL_NAME:
				if (type >= 0 && st.devs[type].present)
					set_cell(ln, i, "%s", st.devs[type].path);
				break;
			case COL_LEFT:
				set_cell(ln, i, "%llu", cpu->left);
				break;
			}
		}
	}
	print_table(tb);
	swapq_free_debug(&dbg);
	swapq_free_state(&st);
	return 0;
}

static int cmd_stats(struct swapq_ctl *ctl, int argc, char **argv)
{
	struct libscols_table *tb;
	struct swapq_debug dbg;
	unsigned int s;
	int rc;

	rc = no_args(ctl, argc, argv);
	if (!rc)
		rc = swapq_check_feature(ctl->sysroot);
	if (!rc)
		rc = swapq_load_debug(ctl->sysroot, &dbg);
	if (rc)
		return rc;

	tb = new_table(ctl);
	for (s = 0; s < dbg.nr_stats; s++) {
		struct libscols_line *ln = new_line(tb);
		size_t i;

		for (i = 0; i < ctl->ncolumns; i++) {
			if (ctl->columns[i] == COL_STAT)
				set_cell(ln, i, "%s", dbg.stats[s].name);
			else
				set_cell(ln, i, "%llu", dbg.stats[s].value);
		}
	}
	print_table(tb);
	swapq_free_debug(&dbg);
	return 0;
}

/* ---- quota ---- */

static int parse_pages(const char *s, unsigned long long *pages)
{
	if (parse_u64(s, SWAPQ_QUOTA_MAX, pages) || *pages < SWAPQ_QUOTA_MIN) {
		swapq_err("invalid number of pages '%s' (expected %llu-%llu)",
			  s, SWAPQ_QUOTA_MIN, SWAPQ_QUOTA_MAX);
		return SWAPQ_EXIT_USAGE;
	}
	return 0;
}

static void add_quota_line(struct swapq_ctl *ctl, struct libscols_table *tb,
			   const struct swapq_dev *dev)
{
	struct libscols_line *ln = new_line(tb);
	size_t i;

	for (i = 0; i < ctl->ncolumns; i++)
		set_dev_cell(ctl, ln, i, dev);
}

static int cmd_quota_default(struct swapq_ctl *ctl, int argc, char **argv)
{
	struct libscols_table *tb;
	struct libscols_line *ln;
	unsigned long long pages;
	struct swapq_state st;
	int rc;

	if (argc > 1) {
		swapq_err("quota --default: unexpected argument '%s'", argv[1]);
		return SWAPQ_EXIT_USAGE;
	}
	if (argc == 1) {
		rc = parse_pages(argv[0], &pages);
		if (!rc)
			rc = swapq_check_feature(ctl->sysroot);
		if (!rc)
			rc = swapq_write_quota(ctl->sysroot, "default_quota",
					       "default quota", pages);
		return rc;
	}

	rc = load(ctl, &st);
	if (rc)
		return rc;
	tb = new_table(ctl);
	ln = new_line(tb);
	set_cell(ln, 0, "%llu", st.default_quota);
	print_table(tb);
	swapq_free_state(&st);
	return 0;
}

/*
 * Set the quota of @dev, found by @name. By path, the type may go to
 * another device in the meantime: check it before and after the write.
 */
static int write_dev_quota(struct swapq_ctl *ctl, const char *name,
			   const struct swapq_dev *dev, const char *rel,
			   const char *what, unsigned long long pages)
{
	unsigned long long type;
	bool by_path = parse_u64(name, ULLONG_MAX, &type) != 0;
	int rc;

	if (by_path) {
		rc = swapq_check_dev_path(ctl->sysroot, dev->type, dev->path);
		if (rc == SWAPQ_EXIT_NODEV)
			swapq_err("%s: unknown swap device (swapped off before its quota was set; nothing written)",
				  name);
		if (rc)
			return rc;
	}
	rc = swapq_write_quota(ctl->sysroot, rel, what, pages);
	if (rc || !by_path)
		return rc;
	rc = swapq_check_dev_path(ctl->sysroot, dev->type, dev->path);
	if (rc == SWAPQ_EXIT_NODEV)
		swapq_err("%s: unknown swap device (swapped off while its quota was set; swap type %d may now be another device)",
			  name, dev->type);
	return rc;
}

static int cmd_quota(struct swapq_ctl *ctl, int argc, char **argv)
{
	if (ctl->save) {
		if (argc > 1) {
			swapq_err("quota --save: unexpected argument '%s'", argv[1]);
			return SWAPQ_EXIT_USAGE;
		}
		if (argc && !*argv[0]) {
			swapq_err("quota --save: empty file name");
			return SWAPQ_EXIT_USAGE;
		}
		return swapq_save(ctl->sysroot, argc ? argv[0] : NULL);
	}
	return quota_devices(ctl, argc, argv);
}

/* ---- apply ---- */

static int cmd_apply(struct swapq_ctl *ctl, int argc, char **argv)
{
	if (argc > 1) {
		swapq_err("apply: unexpected argument '%s'", argv[1]);
		return SWAPQ_EXIT_USAGE;
	}
	if (argc && !*argv[0]) {
		swapq_err("apply: empty file name");
		return SWAPQ_EXIT_USAGE;
	}
	return swapq_apply(ctl->sysroot, argc ? argv[0] : NULL);
}

static int quota_devices(struct swapq_ctl *ctl, int argc, char **argv)
{
	unsigned long long pages = 0;
	const struct swapq_dev *dev;
	struct libscols_table *tb;
	struct swapq_state st;
	char rel[64], what[PATH_MAX + 16];
	int rc;

	if (argc > 2) {
		swapq_err("quota: unexpected argument '%s'", argv[2]);
		return SWAPQ_EXIT_USAGE;
	}
	if (argc >= 1 && !*argv[0]) {
		swapq_err("quota: empty device name");
		return SWAPQ_EXIT_USAGE;
	}
	if (argc == 2) {
		rc = parse_pages(argv[1], &pages);
		if (rc)
			return rc;
	}

	rc = load(ctl, &st);
	if (rc)
		return rc;

	if (argc == 0) {
		tb = new_table(ctl);
		swapq_for_each_dev(dev, &st)
			add_quota_line(ctl, tb, dev);
		print_table(tb);
		goto out;
	}

	dev = swapq_find_dev(&st, argv[0]);
	if (!dev) {
		swapq_err("%s: unknown swap device (not in %s%s/devices)",
			  argv[0], ctl->sysroot, SWAPQ_QUEUE_DIR);
		rc = SWAPQ_EXIT_NODEV;
		goto out;
	}

	if (argc == 1) {
		tb = new_table(ctl);
		add_quota_line(ctl, tb, dev);
		print_table(tb);
	} else {
		snprintf(rel, sizeof(rel), "devices/%d/quota", dev->type);
		snprintf(what, sizeof(what), "quota of %s", dev->path);
		rc = write_dev_quota(ctl, argv[0], dev, rel, what, pages);
	}
out:
	swapq_free_state(&st);
	return rc;
}

/* ---- watch ---- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_for(double seconds)
{
	struct timespec ts;

	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Drop the blanks and newlines libsmartcols puts outside JSON strings. */
static void compact_json(char *s)
{
	bool in_str = false, esc = false;
	char *out = s;

	for (; *s; s++) {
		if (in_str) {
			if (esc)
				esc = false;
			else if (*s == '\\')
				esc = true;
			else if (*s == '"')
				in_str = false;
		} else if (*s == '"') {
			in_str = true;
		} else if (isspace((unsigned char)*s)) {
			continue;
		}
		*out++ = *s;
	}
	*out = '\0';
}

/*
 * One JSON Lines record per sample: the table's object on one line, with
 * the wall clock time of the sample and the seconds it covers up front,
 * so that a consumer needs no state to place it.
 */
static void print_json_sample(struct libscols_table *tb, double elapsed)
{
	struct timespec ts;
	char *data = NULL;

	if (scols_print_table_to_string(tb, &data) || !data || data[0] != '{')
		swapq_oom();
	compact_json(data);
	clock_gettime(CLOCK_REALTIME, &ts);
	printf("{\"time\":%lld.%06ld,\"interval\":%.6f,%s\n",
	       (long long)ts.tv_sec, ts.tv_nsec / 1000, elapsed, data + 1);
	free(data);
	scols_unref_table(tb);
}

static void print_rates(struct swapq_ctl *ctl, const struct swapq_state *prev,
			const struct swapq_state *cur, double elapsed)
{
	long page_size = sysconf(_SC_PAGESIZE);
	struct libscols_table *tb = new_table(ctl);
	const struct swapq_dev *dev;

	swapq_for_each_dev(dev, cur) {
		const struct swapq_dev *old = &prev->devs[dev->type];
		struct libscols_line *ln = new_line(tb);
		bool known;
		double rate = 0;
		size_t i;

		/* Not there before, or swapped off and on again. */
		known = old->present && !strcmp(old->path, dev->path) &&
			old->allocated <= dev->allocated;
		if (known)
			rate = (dev->allocated - old->allocated) / elapsed;

		for (i = 0; i < ctl->ncolumns; i++) {
			if (set_dev_cell(ctl, ln, i, dev) || !known)
				continue;
			switch (ctl->columns[i]) {
			case COL_DELTA:
				set_cell(ln, i, "%llu",
					 dev->allocated - old->allocated);
				break;
			case COL_RATE:
				set_cell(ln, i, "%.1f", rate);
				break;
			case COL_MIBS:
				set_cell(ln, i, "%.2f",
					 rate * page_size / (1 << 20));
				break;
			}
		}
	}
	if (ctl->json)
		print_json_sample(tb, elapsed);
	else
		print_table(tb);
}

static int cmd_watch(struct swapq_ctl *ctl, int argc, char **argv)
{
	bool tty = isatty(STDOUT_FILENO) && !ctl->json && !ctl->raw;
	struct swapq_state prev, cur;
	unsigned long long n;
	double t0, t1;
	int rc;

	rc = no_args(ctl, argc, argv);
	if (!rc)
		rc = load(ctl, &prev);
	if (rc)
		return rc;
	t0 = now();

	for (n = 0; !ctl->count || n < ctl->count; n++) {
		sleep_for(ctl->interval);
		rc = swapq_load_state(ctl->sysroot, &cur);
		if (rc)
			break;
		t1 = now();

		if (tty)
			fputs("\033[H\033[2J", stdout);
		else if (n && !ctl->json)
			fputc('\n', stdout);
		print_rates(ctl, &prev, &cur, t1 - t0);
		fflush(stdout);

		swapq_free_state(&prev);
		prev = cur;
		t0 = t1;
	}
	swapq_free_state(&prev);
	return rc;
}

/* ---- main ---- */

static void __attribute__((__noreturn__)) usage(void)
{
	printf("Usage:\n"
	       " swapq [options] [status]\n"
	       " swapq [options] cpus\n"
	       " swapq [options] stats\n"
	       " swapq [options] quota [<device> [<pages>]]\n"
	       " swapq [options] quota --default [<pages>]\n"
	       " swapq [options] quota --save [<file>]\n"
	       " swapq [options] apply [<file>]\n"
	       " swapq [options] watch [-i <seconds>] [-c <count>]\n"
	       "\n"
	       "Inspect and tune swap device priority queues.\n"
	       "\n"
	       "Commands:\n"
	       " status          devices grouped by ring, highest priority first\n"
	       " cpus            per-CPU position and quota left in every ring\n"
	       " stats           queue event counters\n"
	       " quota           show or set per-device quotas (pages per turn)\n"
	       " watch           per-device allocation rates\n"
	       " apply           set the quotas of a file (default " SWAPQ_CONF_FILE ")\n"
	       "\n"
	       "Options:\n"
	       " -J, --json               use JSON output format\n"
	       " -r, --raw                use raw output format\n"
	       " -n, --noheadings         don't print headings\n"
	       " -o, --output <list>      output columns (\"+<list>\" adds to the defaults)\n"
	       " -b, --bytes              print SIZE and USED in bytes\n"
	       "     --default            quota: the quota given to devices at swapon\n"
	       "     --save               quota: print the tuning for apply, or write <file>\n"
	       " -i, --interval <secs>    watch: seconds between samples (default 1)\n"
	       " -c, --count <count>      watch: stop after <count> samples\n"
	       "     --sysroot <dir>      look for /sys and /proc below <dir>\n"
	       "                          (default: $SWAPQ_SYSROOT)\n"
	       " -h, --help               display this help\n"
	       " -V, --version            display version\n"
	       "\n"
	       "<device> is a path as in /proc/swaps or a swap type number.\n"
	       "<pages> is a decimal number from %llu to %llu.\n",
	       SWAPQ_QUOTA_MIN, SWAPQ_QUOTA_MAX);

	usage_columns(commands, ARRAY_SIZE(commands));

	printf("\nExit status:\n"
	       " 0  success\n"
	       " 1  bad usage, option, column or number\n"
	       " 2  kernel has no swap priority queues\n"
	       " 3  debugfs or its swap/queue file is missing\n"
	       " 4  permission denied\n"
	       " 5  unknown swap device\n"
	       " 6  malformed kernel data\n"
	       " 7  other system error\n"
	       "\nSee swapq(8) for details.\n");
	exit(SWAPQ_EXIT_OK);
}

static int bad_usage(void)
{
	fprintf(stderr, "Try 'swapq --help' for more information.\n");
	return SWAPQ_EXIT_USAGE;
}

/*
 * Seconds as a plain decimal number: digits with an optional fraction.
 * strtod() alone would also take exponents, hex, "inf" and blanks.
 */
static int parse_interval(const char *s, double *res)
{
	const char *p = s;
	size_t digits = 0;
	double v;

	for (; isdigit((unsigned char)*p); p++)
		digits++;
	if (*p == '.') {
		/* a fraction needs digits: "1." and "." are typos */
		if (!isdigit((unsigned char)p[1]))
			return -EINVAL;
		for (p++; isdigit((unsigned char)*p); p++)
			digits++;
	}
	if (!digits || *p)
		return -EINVAL;
	v = strtod(s, NULL);
	if (v < MIN_INTERVAL || v > MAX_INTERVAL)
		return -ERANGE;
	*res = v;
	return 0;
}

/* Does the long option @arg ("--name", no "=value") take an argument? */
static bool long_takes_arg(const struct option *longopts, const char *arg)
{
	size_t len = strlen(arg + 2);

	for (; longopts->name; longopts++)
		if (!strncmp(longopts->name, arg + 2, len) &&
		    longopts->has_arg == required_argument)
			return true;
	return false;
}

/* Is @a an option that takes a value from the next word? */
static bool value_missing(const char *a, const char *shortopts,
			  const struct option *longopts)
{
	if (a[0] != '-' || !a[1] || isdigit((unsigned char)a[1]))
		return false;
	if (a[1] == '-')
		return a[2] && !strchr(a, '=') && long_takes_arg(longopts, a);
	for (a++; *a; a++) {
		const char *o = strchr(shortopts, *a);

		if (*a != ':' && o && o[1] == ':')
			return !a[1];
	}
	return false;
}

/*
 * getopt takes "-1" for option '1'. Numbers are never negative here, so
 * a "-<digit>" word that is not the value of an option is an argument:
 * move the options before a "--" and the arguments after it, in their
 * order, so that the command reports the bad argument for what it is.
 */
static char **split_args(int *argcp, char **argv, const char *shortopts,
			 const struct option *longopts)
{
	int argc = *argcp;
	char **opts = xzalloc((argc + 2) * sizeof(*opts));
	char **args = xzalloc((argc + 1) * sizeof(*args));
	int i, nopts = 0, nargs = 0;

	opts[nopts++] = argv[0];
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			while (++i < argc)
				args[nargs++] = argv[i];
			break;
		}
		if (a[0] != '-' || !a[1] || isdigit((unsigned char)a[1])) {
			args[nargs++] = argv[i];
			continue;
		}
		opts[nopts++] = argv[i];
		if (a[1] == '-') {
			if (!strchr(a, '=') && long_takes_arg(longopts, a) &&
			    i + 1 < argc)
				opts[nopts++] = argv[++i];
			continue;
		}
		/* a cluster of short options: the first taking a value ends it */
		for (a++; *a; a++) {
			const char *o = strchr(shortopts, *a);

			if (*a != ':' && o && o[1] == ':') {
				if (!a[1] && i + 1 < argc)
					opts[nopts++] = argv[++i];
				break;
			}
		}
	}
	/*
	 * An option missing its value is last: leave the words as they are,
	 * for getopt to say so rather than to take our "--" as the value.
	 */
	if (i == argc && nopts > 1 && value_missing(argv[argc - 1], shortopts,
						    longopts)) {
		memcpy(opts, argv, argc * sizeof(*argv));
	} else {
		opts[nopts++] = "--";
		memcpy(opts + nopts, args, nargs * sizeof(*args));
		*argcp = nopts + nargs;
	}
	free(args);
	return opts;
}

/* A sysroot that is not there would read as a kernel without the feature. */
static int check_sysroot(const char *root)
{
	struct stat sb;

	if (!*root)
		return 0;
	if (stat(root, &sb)) {
		swapq_err("sysroot %s: %s", root, strerror(errno));
		return SWAPQ_EXIT_USAGE;
	}
	if (!S_ISDIR(sb.st_mode)) {
		swapq_err("sysroot %s: %s", root, strerror(ENOTDIR));
		return SWAPQ_EXIT_USAGE;
	}
	return 0;
}

/* Output errors (disk full, ...) must not go unnoticed; EPIPE is fine. */
static int close_stdout(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return 0;
		swapq_err("write error: %s", strerror(errno));
		return SWAPQ_EXIT_SYSERR;
	}
	return 0;
}

enum { OPT_DEFAULT = 0x100, OPT_SAVE, OPT_SYSROOT };

static const char shortopts[] = ":Jrno:bi:c:hV";

static const struct option longopts[] = {
	{ "json",	no_argument,	   NULL, 'J' },
	{ "raw",	no_argument,	   NULL, 'r' },
	{ "noheadings",	no_argument,	   NULL, 'n' },
	{ "output",	required_argument, NULL, 'o' },
	{ "bytes",	no_argument,	   NULL, 'b' },
	{ "default",	no_argument,	   NULL, OPT_DEFAULT },
	{ "save",	no_argument,	   NULL, OPT_SAVE },
	{ "interval",	required_argument, NULL, 'i' },
	{ "count",	required_argument, NULL, 'c' },
	{ "sysroot",	required_argument, NULL, OPT_SYSROOT },
	{ "help",	no_argument,	   NULL, 'h' },
	{ "version",	no_argument,	   NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int run(int argc, char **argv)
{
	struct swapq_ctl ctl = { .interval = 1.0 };
	bool interval_set = false, count_set = false;
	const char *name = "status";
	size_t i;
	int c, rc;

	ctl.sysroot = getenv("SWAPQ_SYSROOT");
	if (!ctl.sysroot)
		ctl.sysroot = "";

	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'J':
			ctl.json = true;
			break;
		case 'r':
			ctl.raw = true;
			break;
		case 'n':
			ctl.noheadings = true;
			break;
		case 'o':
			ctl.output = optarg;
			break;
		case 'b':
			ctl.bytes = true;
			break;
		case OPT_DEFAULT:
			ctl.set_default = true;
			break;
		case OPT_SAVE:
			ctl.save = true;
			break;
		case 'i':
			if (parse_interval(optarg, &ctl.interval)) {
				swapq_err("invalid interval '%s' (expected a decimal number of seconds from %g to %g)",
					  optarg, MIN_INTERVAL, MAX_INTERVAL);
				return SWAPQ_EXIT_USAGE;
			}
			interval_set = true;
			break;
		case 'c':
			if (parse_u64(optarg, ULLONG_MAX, &ctl.count) || !ctl.count) {
				swapq_err("invalid count '%s' (expected a decimal number from 1)",
					  optarg);
				return SWAPQ_EXIT_USAGE;
			}
			count_set = true;
			break;
		case OPT_SYSROOT:
			ctl.sysroot = optarg;
			break;
		case 'h':
			usage();
		case 'V':
			printf("swapq %s\n", SWAPQ_VERSION);
			return SWAPQ_EXIT_OK;
		case ':':
			swapq_err("option '%s' requires an argument",
				  argv[optind - 1]);
			return bad_usage();
		default:
			if (optopt)
				swapq_err("invalid option -- '%c'", optopt);
			else
				swapq_err("unrecognized option '%s'",
					  argv[optind - 1]);
			return bad_usage();
		}
	}

	rc = check_sysroot(ctl.sysroot);
	if (rc)
		return rc;

	if (optind < argc)
		name = argv[optind++];
	if (!strcmp(name, "quota") && ctl.set_default)
		name = "quota --default";
	else if (strchr(name, ' '))
		name = "";
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(name, commands[i].name))
			ctl.cmd = &commands[i];
	if (!ctl.cmd) {
		swapq_err("unknown command '%s'", argv[optind - 1]);
		return bad_usage();
	}
	if ((interval_set || count_set) && ctl.cmd->fn != cmd_watch) {
		swapq_err("--interval and --count are only valid with watch");
		return bad_usage();
	}
	if (ctl.save && (ctl.cmd->fn != cmd_quota || ctl.output || ctl.json)) {
		swapq_err("--save is only valid with quota, without --default, --output and --json");
		return bad_usage();
	}
	if (ctl.set_default && ctl.cmd->fn != cmd_quota_default) {
		swapq_err("--default is only valid with quota");
		return bad_usage();
	}

	rc = select_columns(&ctl);
	if (rc)
		return bad_usage();

	scols_init_debug(0);
	rc = ctl.cmd->fn(&ctl, argc - optind, argv + optind);

	c = close_stdout();
	return rc ? rc : c;
}

int main(int argc, char **argv)
{
	char **args = split_args(&argc, argv, shortopts, longopts);
	int rc = run(argc, args);

	free(args);
	return rc;
}
