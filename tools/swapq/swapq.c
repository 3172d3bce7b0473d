// SPDX-License-Identifier: GPL-2.0
/*
 * swapq - inspect and tune swap device priority queues
 *
 * Reads /sys/kernel/mm/swap/queue, /sys/kernel/debug/swap/queue and
 * /proc/swaps, and prints them as tables with libsmartcols.
 *
 * This file parses the options and runs a command; the commands are in
 * commands.c and watch.c, the column table in output.c, the loaders in
 * queue.c (sysfs, /proc/swaps) and debugfs.c, the configuration file in
 * apply.c. All of them return 0 or a negative errno: the exit code is
 * chosen here, once.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libsmartcols.h>

#include "swapq.h"

#ifndef SWAPQ_VERSION
#define SWAPQ_VERSION "1.0"
#endif

#define MIN_INTERVAL	0.1	/* seconds; below, sampling is mostly noise */
#define MAX_INTERVAL	86400.0	/* seconds */

/* ---- commands ---- */

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

static const int apply_cols[] = {
	COL_SETTING, COL_NAME, COL_OLD, COL_NEW, COL_RESULT,
};
static const int apply_more[] = { COL_TYPE };

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
	{ "apply", "settings", cmd_apply, COLUMNS(apply_cols),
	  MORE(apply_more) },
};

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
	return -EINVAL;
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

/* The name of the long option of @val, or NULL. */
static const char *long_name(const struct option *longopts, int val)
{
	for (; longopts->name; longopts++)
		if (longopts->val == val)
			return longopts->name;
	return NULL;
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
		return -EINVAL;
	}
	if (!S_ISDIR(sb.st_mode)) {
		swapq_err("sysroot %s: %s", root, strerror(ENOTDIR));
		return -EINVAL;
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
		return -EIO;
	}
	return 0;
}

/* An option given that only a table has a use for, or NULL. */
static const char *table_opt(const struct swapq_ctl *ctl)
{
	if (ctl->json)
		return "--json";
	if (ctl->raw)
		return "--raw";
	if (ctl->noheadings)
		return "--noheadings";
	if (ctl->output)
		return "--output";
	return NULL;
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

/* Parse the options and run the command. Returns 0, or a negative errno. */
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
				return -EINVAL;
			}
			interval_set = true;
			break;
		case 'c':
			if (parse_u64(optarg, ULLONG_MAX, &ctl.count) || !ctl.count) {
				swapq_err("invalid count '%s' (expected a decimal number from 1)",
					  optarg);
				return -EINVAL;
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
			return 0;
		case ':':
			swapq_err("option '%s' requires an argument",
				  argv[optind - 1]);
			return bad_usage();
		default:
			/*
			 * An optopt of a long option is one given a value it
			 * does not take: every short one of those is valid.
			 */
			if (optopt && long_name(longopts, optopt))
				swapq_err("option '--%s' doesn't allow an argument",
					  long_name(longopts, optopt));
			else if (optopt)
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
	if (ctl.save && ctl.cmd->fn != cmd_quota) {
		swapq_err("--save is only valid with quota, without --default");
		return bad_usage();
	}
	if (ctl.save && table_opt(&ctl)) {
		swapq_err("%s is not valid with --save, which writes a configuration file, not a table",
			  table_opt(&ctl));
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

/*
 * The exit code, documented in swapq.8, of what run() returns. The
 * message was printed where the error was met.
 */
static int exit_code(int rc)
{
	switch (rc) {
	case 0:
		return SWAPQ_EXIT_OK;
	case -EINVAL:
		return SWAPQ_EXIT_USAGE;
	case -EOPNOTSUPP:
		return SWAPQ_EXIT_NOFEATURE;
	case -ENOMEDIUM:
		return SWAPQ_EXIT_NODEBUGFS;
	case -EACCES:
	case -EPERM:
		return SWAPQ_EXIT_PERM;
	case -ENODEV:
		return SWAPQ_EXIT_NODEV;
	case -EBADMSG:
		return SWAPQ_EXIT_BADDATA;
	default:
		return SWAPQ_EXIT_SYSERR;
	}
}

int main(int argc, char **argv)
{
	char **args = split_args(&argc, argv, shortopts, longopts);
	int rc = run(argc, args);

	free(args);
	return exit_code(rc);
}
