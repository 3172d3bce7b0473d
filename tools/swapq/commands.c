// SPDX-License-Identifier: GPL-2.0
/*
 * swapq - the commands: status, cpus, stats, quota and apply
 */
#include <errno.h>
#include <stdio.h>

#include "swapq.h"

/* The sysfs state, once the kernel is known to have the queues. */
int cmd_load_state(struct swapq_ctl *ctl, struct swapq_state *st)
{
	int rc = swapq_check_feature(ctl->sysroot);

	if (!rc)
		rc = swapq_load_state(ctl->sysroot, st);
	return rc;
}

/* For the commands that take no argument. */
int cmd_no_args(struct swapq_ctl *ctl, int argc, char **argv)
{
	if (argc > 0) {
		swapq_err("%s: unexpected argument '%s'", ctl->cmd->name,
			  argv[0]);
		return -EINVAL;
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

int cmd_status(struct swapq_ctl *ctl, int argc, char **argv)
{
	const struct swapq_dev *dev;
	struct libscols_table *tb;
	struct swapq_state st;
	int rc;

	rc = cmd_no_args(ctl, argc, argv);
	if (!rc)
		rc = cmd_load_state(ctl, &st);
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

int cmd_cpus(struct swapq_ctl *ctl, int argc, char **argv)
{
	struct libscols_table *tb;
	struct swapq_debug dbg;
	struct swapq_state st;
	unsigned int c;
	int rc;

	rc = cmd_no_args(ctl, argc, argv);
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

int cmd_stats(struct swapq_ctl *ctl, int argc, char **argv)
{
	struct libscols_table *tb;
	struct swapq_debug dbg;
	unsigned int s;
	int rc;

	rc = cmd_no_args(ctl, argc, argv);
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
		return -EINVAL;
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

int cmd_quota_default(struct swapq_ctl *ctl, int argc, char **argv)
{
	struct libscols_table *tb;
	struct libscols_line *ln;
	unsigned long long pages;
	struct swapq_state st;
	int rc;

	if (argc > 1) {
		swapq_err("quota --default: unexpected argument '%s'", argv[1]);
		return -EINVAL;
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

	rc = cmd_load_state(ctl, &st);
	if (rc)
		return rc;
	tb = new_table(ctl);
	ln = new_line(tb);
	set_cell(ln, 0, "%llu", st.default_quota);
	print_table(tb);
	swapq_free_state(&st);
	return 0;
}

static int quota_devices(struct swapq_ctl *ctl, int argc, char **argv)
{
	unsigned long long pages = 0;
	const struct swapq_dev *dev;
	struct libscols_table *tb;
	struct swapq_state st;
	int rc;

	if (argc > 2) {
		swapq_err("quota: unexpected argument '%s'", argv[2]);
		return -EINVAL;
	}
	if (argc >= 1 && !*argv[0]) {
		swapq_err("quota: empty device name");
		return -EINVAL;
	}
	if (argc == 2) {
		rc = parse_pages(argv[1], &pages);
		if (rc)
			return rc;
	}

	rc = cmd_load_state(ctl, &st);
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
		rc = -ENODEV;
		goto out;
	}

	if (argc == 1) {
		tb = new_table(ctl);
		add_quota_line(ctl, tb, dev);
		print_table(tb);
	} else {
		rc = swapq_write_dev_quota(ctl->sysroot, dev, argv[0], pages);
	}
out:
	swapq_free_state(&st);
	return rc;
}

/*
 * The optional <file> argument of quota --save and apply, NULL if none;
 * @what names the command in messages.
 */
static int file_arg(const char *what, int argc, char **argv,
		    const char **file)
{
	if (argc > 1) {
		swapq_err("%s: unexpected argument '%s'", what, argv[1]);
		return -EINVAL;
	}
	if (argc && !*argv[0]) {
		swapq_err("%s: empty file name", what);
		return -EINVAL;
	}
	*file = argc ? argv[0] : NULL;
	return 0;
}

int cmd_quota(struct swapq_ctl *ctl, int argc, char **argv)
{
	const char *file;
	int rc;

	if (!ctl->save)
		return quota_devices(ctl, argc, argv);
	rc = file_arg("quota --save", argc, argv, &file);
	return rc ? rc : swapq_save(ctl->sysroot, file);
}

/* ---- apply ---- */

int cmd_apply(struct swapq_ctl *ctl, int argc, char **argv)
{
	const char *file;
	int rc;

	rc = file_arg("apply", argc, argv, &file);
	return rc ? rc : swapq_apply(ctl, file);
}
