/* SPDX-License-Identifier: GPL-2.0 */
/*
 * swapq - inspect and tune swap device priority queues
 */
#ifndef SWAPQ_H
#define SWAPQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Exit codes, documented in swapq.8. The commands and the loaders return
 * 0 or a negative errno, which main() maps to these once:
 *
 *	-EINVAL		SWAPQ_EXIT_USAGE
 *	-EOPNOTSUPP	SWAPQ_EXIT_NOFEATURE
 *	-ENOMEDIUM	SWAPQ_EXIT_NODEBUGFS
 *	-EACCES, -EPERM	SWAPQ_EXIT_PERM
 *	-ENODEV		SWAPQ_EXIT_NODEV
 *	-EBADMSG	SWAPQ_EXIT_BADDATA
 *	anything else	SWAPQ_EXIT_SYSERR
 *
 * An errno of a failed system call goes through sys_error() first.
 */
enum {
	SWAPQ_EXIT_OK		= 0,	/* success */
	SWAPQ_EXIT_USAGE	= 1,	/* bad option, argument or number */
	SWAPQ_EXIT_NOFEATURE	= 2,	/* no /sys/kernel/mm/swap/queue */
	SWAPQ_EXIT_NODEBUGFS	= 3,	/* debugfs or its swap/queue file missing */
	SWAPQ_EXIT_PERM		= 4,	/* permission denied */
	SWAPQ_EXIT_NODEV	= 5,	/* unknown device, or device going away */
	SWAPQ_EXIT_BADDATA	= 6,	/* malformed or missing kernel data */
	SWAPQ_EXIT_SYSERR	= 7,	/* any other system error */
};

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#define SWAPQ_MAX_TYPES		32	/* MAX_SWAPFILES */
#define SWAPQ_QUOTA_MIN		1ULL
#define SWAPQ_QUOTA_MAX		1048576ULL

#define SWAPQ_QUEUE_DIR		"/sys/kernel/mm/swap/queue"
#define SWAPQ_DEBUGFS_DIR	"/sys/kernel/debug"
#define SWAPQ_DEBUGFS_FILE	"/sys/kernel/debug/swap/queue"
#define SWAPQ_PROC_SWAPS	"/proc/swaps"
#define SWAPQ_CONF_FILE		"/etc/swapq.conf"

struct swapq_ring {
	long long prio;
	unsigned int nr;			/* number of members */
	int members[SWAPQ_MAX_TYPES];		/* swap types, ring order */
};

struct swapq_dev {
	bool present;
	int type;
	char *path;
	long long prio;
	bool in_ring;				/* false while being swapped off */
	unsigned int ring;			/* if in_ring */
	unsigned int position;			/* if in_ring */
	unsigned long long quota;
	bool available;
	unsigned long long allocated;

	/* from /proc/swaps, matched by path */
	bool in_swaps;
	unsigned long long size_kib;
	unsigned long long used_kib;
};

/* A consistent snapshot of /sys/kernel/mm/swap/queue. */
struct swapq_state {
	unsigned long long generation;
	unsigned long long default_quota;
	unsigned int nr_rings;
	struct swapq_ring *rings;		/* highest priority first */
	unsigned int nr_devs;
	struct swapq_dev devs[SWAPQ_MAX_TYPES];	/* indexed by swap type */
};

struct swapq_cpu {
	unsigned int cpu;
	unsigned int ring;
	unsigned int position;
	unsigned long long left;
};

struct swapq_stat {
	char *name;
	unsigned long long value;
};

/* The parsed content of /sys/kernel/debug/swap/queue. */
struct swapq_debug {
	unsigned long long generation;
	unsigned int nr_rings;
	struct swapq_ring *rings;
	unsigned int nr_cpus;
	struct swapq_cpu *cpus;
	unsigned int nr_stats;
	struct swapq_stat *stats;
};

/* The devices of @st in ring order: highest priority ring first. */
#define swapq_for_each_dev(dev, st) \
	for ((dev) = swapq_next_dev(st, NULL); (dev); \
	     (dev) = swapq_next_dev(st, dev))

/* Output columns; output.c knows their names, types and help. */
enum {
	COL_CPU,
	COL_RING,
	COL_PRIO,
	COL_POSITION,
	COL_TYPE,
	COL_DEVICE,
	COL_NAME,
	COL_SIZE,
	COL_USED,
	COL_QUOTA,
	COL_AVAIL,
	COL_ALLOCATED,
	COL_SHARE,
	COL_LEFT,
	COL_DELTA,
	COL_RATE,
	COL_MIBS,
	COL_STAT,
	COL_VALUE,
	COL_SETTING,
	COL_OLD,
	COL_NEW,
	COL_RESULT,
};

/* How a column's cells are aligned, and typed in JSON. */
enum swapq_coltype {
	COLTYPE_NUMBER,		/* right aligned */
	COLTYPE_BOOLEAN,	/* 0 or 1; false or true in JSON */
	COLTYPE_STRING,		/* left aligned */
	COLTYPE_SIZE,		/* human readable, or a number with --bytes */
};

struct swapq_cmd;

/* What the options ask for. */
struct swapq_ctl {
	const struct swapq_cmd *cmd;	/* the command to run */
	const char *sysroot;
	const char *output;		/* -o argument */
	bool json;
	bool raw;
	bool noheadings;
	bool bytes;
	bool set_default;		/* quota --default */
	bool save;			/* quota --save */
	double interval;		/* watch -i */
	unsigned long long count;	/* watch -c, 0 = forever */

	int columns[32];		/* selected output columns */
	size_t ncolumns;
};

struct swapq_cmd {
	const char *name;
	const char *table;		/* JSON name of the table */
	int (*fn)(struct swapq_ctl *ctl, int argc, char **argv);
	const int *defaults;		/* columns printed without -o */
	size_t ndefaults;
	const int *optional;		/* more columns -o may ask for */
	size_t noptional;
};

/* util.c */
void swapq_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void swapq_oom(void) __attribute__((noreturn));
void *xzalloc(size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
int sys_error(int err);
int make_path(char *buf, size_t size, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int sysroot_path(char *buf, size_t size, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int read_file(const char *path, char **bufp);
int parse_u64(const char *s, unsigned long long max, unsigned long long *res);
int parse_s64(const char *s, long long *res);
int parse_value_u64(char *buf, unsigned long long max, unsigned long long *res);
size_t chomp(char *s);
int split_words(char *line, char **tok, int max);
void unescape_octal(char *s);
void size_to_human(unsigned long long bytes, char *buf, size_t len);

/* queue.c */
/*
 * The loaders keep an error in load_fail() rather than print it, as a
 * retry after a concurrent publish may make it go away; load_report()
 * prints it.
 */
int load_fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int load_fail_read(const char *path, int err);
void load_report(void);
void load_reset(void);
struct swapq_ring *add_ring(struct swapq_ring **rings, unsigned int *nr);
int swapq_check_feature(const char *root);
int swapq_load_state(const char *root, struct swapq_state *st);
void swapq_free_state(struct swapq_state *st);
int swapq_load_snapshot(const char *root, struct swapq_state *st,
			struct swapq_debug *dbg);
const struct swapq_dev *swapq_next_dev(const struct swapq_state *st,
				      const struct swapq_dev *prev);
struct swapq_dev *swapq_find_dev(struct swapq_state *st, const char *name);
int swapq_write_quota(const char *root, const char *relpath,
		      const char *what, unsigned long long value);
int swapq_write_dev_quota(const char *root, const struct swapq_dev *dev,
			  const char *name, unsigned long long value);

/* debugfs.c */
int swapq_load_debug(const char *root, struct swapq_debug *dbg);
void swapq_free_debug(struct swapq_debug *dbg);

/* output.c */
struct libscols_table;
struct libscols_line;

int select_columns(struct swapq_ctl *ctl);
void usage_columns(const struct swapq_cmd *cmds, size_t ncmds);
struct libscols_table *new_table(struct swapq_ctl *ctl);
struct libscols_line *new_line(struct libscols_table *tb);
void set_cell(struct libscols_line *ln, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool set_dev_cell(struct swapq_ctl *ctl, struct libscols_line *ln,
		  size_t i, const struct swapq_dev *dev);
void print_table(struct libscols_table *tb);

/* commands.c */
int cmd_load_state(struct swapq_ctl *ctl, struct swapq_state *st);
int cmd_no_args(struct swapq_ctl *ctl, int argc, char **argv);
int cmd_status(struct swapq_ctl *ctl, int argc, char **argv);
int cmd_cpus(struct swapq_ctl *ctl, int argc, char **argv);
int cmd_stats(struct swapq_ctl *ctl, int argc, char **argv);
int cmd_quota(struct swapq_ctl *ctl, int argc, char **argv);
int cmd_quota_default(struct swapq_ctl *ctl, int argc, char **argv);
int cmd_apply(struct swapq_ctl *ctl, int argc, char **argv);

/* watch.c */
int cmd_watch(struct swapq_ctl *ctl, int argc, char **argv);

/* apply.c */
int swapq_apply(struct swapq_ctl *ctl, const char *file);
int swapq_save(const char *root, const char *file);

#endif /* SWAPQ_H */
