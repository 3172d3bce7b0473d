// SPDX-License-Identifier: GPL-2.0
/*
 * swapq - watch: per-device allocation rates, sampled at an interval
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libsmartcols.h>

#include "swapq.h"

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

int cmd_watch(struct swapq_ctl *ctl, int argc, char **argv)
{
	bool tty = isatty(STDOUT_FILENO) && !ctl->json && !ctl->raw;
	struct swapq_state prev, cur;
	unsigned long long n;
	double t0, t1;
	int rc;

	rc = cmd_no_args(ctl, argc, argv);
	if (!rc)
		rc = cmd_load_state(ctl, &prev);
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
