// SPDX-License-Identifier: GPL-2.0
/*
 * swapq - output columns and tables, printed with libsmartcols
 *
 * Every column has a type that says how its cells are aligned and typed
 * in JSON; a size is human readable, or a number of bytes with --bytes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <libsmartcols.h>

#include "swapq.h"

struct colinfo {
	const char *name;
	double whint;
	enum swapq_coltype type;
	const char *help;
};

static const struct colinfo infos[] = {
	[COL_CPU]	= { "CPU",	  0.1, COLTYPE_NUMBER,
			    "CPU number" },
	[COL_RING]	= { "RING",	  0.1, COLTYPE_NUMBER,
			    "ring index, 0 is the highest priority" },
	[COL_PRIO]	= { "PRIO",	  0.1, COLTYPE_NUMBER,
			    "swap priority" },
	[COL_POSITION]	= { "POSITION",	  0.1, COLTYPE_NUMBER,
			    "index inside the ring" },
	[COL_TYPE]	= { "TYPE",	  0.1, COLTYPE_NUMBER,
			    "swap type (device number 0-31)" },
	[COL_DEVICE]	= { "DEVICE",	  0.1, COLTYPE_NUMBER,
			    "swap type of the device at POSITION" },
	[COL_NAME]	= { "NAME",	  0.3, COLTYPE_STRING,
			    "device or file path" },
	[COL_SIZE]	= { "SIZE",	  0.1, COLTYPE_SIZE,
			    "size of the swap area" },
	[COL_USED]	= { "USED",	  0.1, COLTYPE_SIZE,
			    "space in use" },
	[COL_QUOTA]	= { "QUOTA",	  0.1, COLTYPE_NUMBER,
			    "pages a CPU takes from the device per turn" },
	[COL_AVAIL]	= { "AVAIL",	  0.1, COLTYPE_BOOLEAN,
			    "1 if writable and not full, else 0" },
	[COL_ALLOCATED]	= { "ALLOCATED",  0.1, COLTYPE_NUMBER,
			    "pages allocated since swapon" },
	[COL_SHARE]	= { "SHARE",	  0.1, COLTYPE_NUMBER,
			    "percent of the ring's allocations" },
	[COL_LEFT]	= { "LEFT",	  0.1, COLTYPE_NUMBER,
			    "pages left of the current turn" },
	[COL_DELTA]	= { "DELTA",	  0.1, COLTYPE_NUMBER,
			    "pages allocated during the interval" },
	[COL_RATE]	= { "PAGES/S",	  0.1, COLTYPE_NUMBER,
			    "allocation rate in pages per second" },
	[COL_MIBS]	= { "MIB/S",	  0.1, COLTYPE_NUMBER,
			    "allocation rate in MiB per second" },
	[COL_STAT]	= { "STAT",	  0.2, COLTYPE_STRING,
			    "counter name" },
	[COL_VALUE]	= { "VALUE",	  0.1, COLTYPE_NUMBER,
			    "counter value" },
	[COL_SETTING]	= { "SETTING",	  0.3, COLTYPE_STRING,
			    "default_quota, or a device as the file names it" },
	[COL_OLD]	= { "OLD",	  0.1, COLTYPE_NUMBER,
			    "value before apply" },
	[COL_NEW]	= { "NEW",	  0.1, COLTYPE_NUMBER,
			    "value of the file" },
	[COL_RESULT]	= { "RESULT",	  0.1, COLTYPE_STRING,
			    "changed, unchanged, skipped or failed" },
};

/* The column @name (@len bytes, any case) among those of @cmd, or -1. */
static int column_id(const struct swapq_cmd *cmd, const char *name,
		     size_t len)
{
	const int *lists[] = { cmd->defaults, cmd->optional };
	const size_t sizes[] = { cmd->ndefaults, cmd->noptional };
	size_t l, i;

	for (l = 0; l < 2; l++)
		for (i = 0; i < sizes[l]; i++) {
			const char *cn = infos[lists[l][i]].name;

			if (strlen(cn) == len && !strncasecmp(cn, name, len))
				return lists[l][i];
		}
	return -1;
}

/*
 * Select the output columns: the command's defaults, or the -o list;
 * "+LIST" appends to the defaults.
 */
int select_columns(struct swapq_ctl *ctl)
{
	const struct swapq_cmd *cmd = ctl->cmd;
	const char *p = ctl->output;
	size_t i;

	ctl->ncolumns = 0;
	if (!p || *p == '+') {
		for (i = 0; i < cmd->ndefaults; i++)
			ctl->columns[ctl->ncolumns++] = cmd->defaults[i];
		if (!p)
			return 0;
		p++;
	}
	if (!*p) {
		swapq_err("no output columns %s",
			  ctl->ncolumns ? "after '+'" : "given");
		return -EINVAL;
	}

	for (;;) {
		size_t len = strcspn(p, ",");
		int id;

		if (!len) {
			swapq_err("empty column name in '%s'", ctl->output);
			return -EINVAL;
		}
		id = column_id(cmd, p, len);
		if (id < 0) {
			swapq_err("unknown column for %s: '%.*s'",
				  cmd->name, (int)len, p);
			return -EINVAL;
		}
		/* A column twice would print twice, and clash as a JSON key. */
		for (i = 0; i < ctl->ncolumns; i++)
			if (ctl->columns[i] == id) {
				swapq_err("column '%s' given twice",
					  infos[id].name);
				return -EINVAL;
			}
		if (ctl->ncolumns == ARRAY_SIZE(ctl->columns)) {
			swapq_err("too many columns");
			return -EINVAL;
		}
		ctl->columns[ctl->ncolumns++] = id;
		p += len;
		if (!*p)
			return 0;
		p++;	/* the comma */
	}
}

/* For --help: the columns of every command, then what each one means. */
void usage_columns(const struct swapq_cmd *cmds, size_t ncmds)
{
	size_t c, i;

	printf("\nOutput columns (optional ones in brackets):\n");
	for (c = 0; c < ncmds; c++) {
		const struct swapq_cmd *cmd = &cmds[c];

		printf(" %-7s", cmd->name);
		for (i = 0; i < cmd->ndefaults; i++)
			printf(" %s", infos[cmd->defaults[i]].name);
		for (i = 0; i < cmd->noptional; i++)
			printf("%s%s", i ? " " : " [",
			       infos[cmd->optional[i]].name);
		printf("%s\n", cmd->noptional ? "]" : "");
	}
	printf("\n");
	for (i = 0; i < ARRAY_SIZE(infos); i++)
		printf(" %10s  %s\n", infos[i].name, infos[i].help);
}

static int json_type(const struct swapq_ctl *ctl, enum swapq_coltype type)
{
	switch (type) {
	case COLTYPE_STRING:
		return SCOLS_JSON_STRING;
	case COLTYPE_BOOLEAN:
		return SCOLS_JSON_BOOLEAN;
	case COLTYPE_SIZE:
		return ctl->bytes ? SCOLS_JSON_NUMBER : SCOLS_JSON_STRING;
	default:
		return SCOLS_JSON_NUMBER;
	}
}

struct libscols_table *new_table(struct swapq_ctl *ctl)
{
	struct libscols_table *tb;
	size_t i;

	tb = scols_new_table();
	if (!tb)
		swapq_oom();
	scols_table_set_name(tb, ctl->cmd->table);
	scols_table_enable_json(tb, ctl->json);
	scols_table_enable_raw(tb, ctl->raw);
	scols_table_enable_noheadings(tb, ctl->noheadings);

	for (i = 0; i < ctl->ncolumns; i++) {
		const struct colinfo *ci = &infos[ctl->columns[i]];
		/* text left aligned, numbers right */
		int flags = ci->type == COLTYPE_STRING ? 0 : SCOLS_FL_RIGHT;
		struct libscols_column *cl;

		cl = scols_table_new_column(tb, ci->name, ci->whint, flags);
		if (!cl)
			swapq_oom();
		scols_column_set_json_type(cl, json_type(ctl, ci->type));
	}
	return tb;
}

struct libscols_line *new_line(struct libscols_table *tb)
{
	struct libscols_line *ln = scols_table_new_line(tb, NULL);

	if (!ln)
		swapq_oom();
	return ln;
}

void set_cell(struct libscols_line *ln, size_t i, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (scols_line_set_data(ln, i, buf))
		swapq_oom();
}

/* A COLTYPE_SIZE cell. */
static void set_size_cell(struct swapq_ctl *ctl, struct libscols_line *ln,
			  size_t i, unsigned long long kib)
{
	char buf[32];

	if (ctl->bytes) {
		set_cell(ln, i, "%llu", kib * 1024);
	} else {
		size_to_human(kib * 1024, buf, sizeof(buf));
		set_cell(ln, i, "%s", buf);
	}
}

/* Cells every device table shares; returns false for other columns. */
bool set_dev_cell(struct swapq_ctl *ctl, struct libscols_line *ln,
		  size_t i, const struct swapq_dev *dev)
{
	switch (ctl->columns[i]) {
	case COL_RING:
		if (dev->in_ring)
			set_cell(ln, i, "%u", dev->ring);
		break;
	case COL_PRIO:
		set_cell(ln, i, "%lld", dev->prio);
		break;
	case COL_POSITION:
		if (dev->in_ring)
			set_cell(ln, i, "%u", dev->position);
		break;
	case COL_TYPE:
		set_cell(ln, i, "%d", dev->type);
		break;
	case COL_NAME:
		set_cell(ln, i, "%s", dev->path);
		break;
	case COL_SIZE:
		if (dev->in_swaps)
			set_size_cell(ctl, ln, i, dev->size_kib);
		break;
	case COL_USED:
		if (dev->in_swaps)
			set_size_cell(ctl, ln, i, dev->used_kib);
		break;
	case COL_QUOTA:
		set_cell(ln, i, "%llu", dev->quota);
		break;
	case COL_AVAIL:
		set_cell(ln, i, "%d", dev->available);
		break;
	case COL_ALLOCATED:
		set_cell(ln, i, "%llu", dev->allocated);
		break;
	default:
		return false;
	}
	return true;
}

void print_table(struct libscols_table *tb)
{
	scols_print_table(tb);
	scols_unref_table(tb);
}
