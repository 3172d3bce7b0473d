// SPDX-License-Identifier: GPL-2.0
/*
 * swapq - persistent tuning: "swapq apply" and "swapq quota --save"
 *
 * The configuration file has one setting per line:
 *
 *	default_quota <pages>
 *	<device> quota <pages>
 *
 * where <device> is a path (blanks written as \040, as in fstab),
 * UUID=<uuid> or LABEL=<label>; '#' starts a comment. apply reports each
 * setting as a row of a table.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "swapq.h"

#define MAX_ENTRIES	(SWAPQ_MAX_TYPES * 4)

struct conf_entry {
	unsigned int line;
	char *device;			/* NULL for default_quota */
	unsigned long long quota;
};

struct conf {
	const char *file;
	unsigned int nr;
	struct conf_entry entries[MAX_ENTRIES];
};

static void free_conf(struct conf *conf)
{
	unsigned int i;

	for (i = 0; i < conf->nr; i++)
		free(conf->entries[i].device);
}

static void print_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\\' ||
		    *s == '#')
			fprintf(f, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, f);
	}
}

static bool valid_device(const char *d)
{
	if (d[0] == '/')
		return true;
	if (!strncmp(d, "UUID=", 5))
		return d[5] != '\0';
	if (!strncmp(d, "LABEL=", 6))
		return d[6] != '\0';
	return false;
}

/* Check one line; print "file:line: message" and return -1 if bad. */
static int parse_line(struct conf *conf, unsigned int lineno, char *line)
{
	char *tok[4], *save, *t, *hash;
	unsigned long long pages;
	unsigned int i, n = 0;
	struct conf_entry *e;

	hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	for (t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n == 4)
			break;
		tok[n++] = t;
	}
	if (!n)
		return 0;

	if (!strcmp(tok[0], "default_quota")) {
		if (n != 2) {
			swapq_err("%s:%u: expected 'default_quota <pages>'",
				  conf->file, lineno);
			return -1;
		}
	} else if (n != 3 || strcmp(tok[1], "quota")) {
		swapq_err("%s:%u: expected 'default_quota <pages>' or '<device> quota <pages>'",
			  conf->file, lineno);
		return -1;
	} else if (!valid_device(tok[0])) {
		swapq_err("%s:%u: invalid device '%s' (expected a path, UUID= or LABEL=)",
			  conf->file, lineno, tok[0]);
		return -1;
	}
	if (parse_u64(tok[n - 1], SWAPQ_QUOTA_MAX, &pages) ||
	    pages < SWAPQ_QUOTA_MIN) {
		swapq_err("%s:%u: invalid number of pages '%s' (expected %llu-%llu)",
			  conf->file, lineno, tok[n - 1], SWAPQ_QUOTA_MIN,
			  SWAPQ_QUOTA_MAX);
		return -1;
	}
	if (n == 3)
		unescape_octal(tok[0]);

	for (i = 0; i < conf->nr; i++) {
		const char *d = conf->entries[i].device;

		if ((n == 2 && !d) || (n == 3 && d && !strcmp(d, tok[0]))) {
			swapq_err("%s:%u: %s already set on line %u",
				  conf->file, lineno, n == 2 ? "default_quota" : tok[0],
				  conf->entries[i].line);
			return -1;
		}
	}
	if (conf->nr == MAX_ENTRIES) {
		swapq_err("%s:%u: too many settings (at most %d)",
			  conf->file, lineno, MAX_ENTRIES);
		return -1;
	}
	e = &conf->entries[conf->nr++];
	e->line = lineno;
	e->device = n == 3 ? xstrdup(tok[0]) : NULL;
	e->quota = pages;
	return 0;
}

/* Parse the whole file; any bad line and nothing is applied. */
static int parse_conf(struct conf *conf, const char *path)
{
	char *buf, *next, *line;
	unsigned int lineno = 0, bad = 0;
	int rc;

	memset(conf, 0, sizeof(*conf));
	conf->file = path;
	rc = read_file(path, &buf);
	if (rc) {
		swapq_err("cannot read %s: %s", path,
			  rc == -EBADMSG ? "not a text file" : strerror(-rc));
		if (rc == -ENOENT || rc == -EISDIR || rc == -EBADMSG)
			return -EINVAL;
		return sys_error(-rc);
	}
	next = buf;
	while ((line = strsep(&next, "\n"))) {
		lineno++;
		if (parse_line(conf, lineno, line))
			bad++;
	}
	free(buf);
	if (bad) {
		swapq_err("%s: %u bad line%s, nothing applied", path, bad,
			  bad == 1 ? "" : "s");
		free_conf(conf);
		return -EINVAL;
	}
	return 0;
}

/* "blkid -U uuid" or "blkid -L label": the device path, or NULL. */
static char *blkid_lookup(const char *opt, const char *value)
{
	char buf[PATH_MAX], *nl;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (!pid) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execlp("blkid", "blkid", opt, value, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return NULL;
	buf[n] = '\0';
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return buf[0] == '/' ? xstrdup(buf) : NULL;
}

/*
 * The path a UUID= or LABEL= device has: the udev symlink under
 * <root>/dev/disk, its target taken as a path of the system (not of the
 * host) and made absolute; without a sysroot, blkid if there is no link.
 */
static char *resolve_tag(const char *root, const char *device)
{
	bool uuid = device[0] == 'U';
	const char *value = strchr(device, '=') + 1;
	char link[PATH_MAX], target[PATH_MAX], out[PATH_MAX];
	char *comp, *save;
	ssize_t n;
	size_t len;

	if (make_path(link, sizeof(link), root, "/dev/disk/by-%s/%s",
		      uuid ? "uuid" : "label", value))
		return NULL;
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return *root ? NULL : blkid_lookup(uuid ? "-U" : "-L", value);
	target[n] = '\0';
	if (target[0] == '/')
		return xstrdup(target);

	/* relative to /dev/disk/by-*: fold the ".." away */
	snprintf(out, sizeof(out), "/dev/disk/by-%s", uuid ? "uuid" : "label");
	for (comp = strtok_r(target, "/", &save); comp;
	     comp = strtok_r(NULL, "/", &save)) {
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *slash = strrchr(out, '/');

			if (slash)
				*slash = '\0';
			continue;
		}
		len = strlen(out);
		snprintf(out + len, sizeof(out) - len, "/%s", comp);
	}
	return xstrdup(out[0] ? out : "/");
}

/*
 * Write the value of @e unless it is @old already: an equal write still
 * publishes. Returns 0 or the error of the write; the RESULT in @result.
 */
static int apply_entry(const char *root, const struct conf_entry *e,
		       const struct swapq_dev *dev, unsigned long long old,
		       const char **result)
{
	int rc;

	*result = "unchanged";
	if (old == e->quota)
		return 0;
	if (dev)
		rc = swapq_write_dev_quota(root, dev, e->device, e->quota);
	else
		rc = swapq_write_quota(root, "default_quota", "default quota",
				       e->quota);
	*result = rc ? "failed" : "changed";
	return rc;
}

/* The row of @e; @dev is NULL for default_quota or a device not swapped on. */
static void add_apply_line(struct swapq_ctl *ctl, struct libscols_table *tb,
			   const struct conf_entry *e,
			   const struct swapq_dev *dev, unsigned long long old,
			   const char *result)
{
	struct libscols_line *ln = new_line(tb);
	size_t i;

	for (i = 0; i < ctl->ncolumns; i++) {
		switch (ctl->columns[i]) {
		case COL_SETTING:
			set_cell(ln, i, "%s",
				 e->device ? e->device : "default_quota");
			break;
		case COL_OLD:
			if (dev || !e->device)
				set_cell(ln, i, "%llu", old);
			break;
		case COL_NEW:
			set_cell(ln, i, "%llu", e->quota);
			break;
		case COL_RESULT:
			set_cell(ln, i, "%s", result);
			break;
		default:
			if (dev)
				set_dev_cell(ctl, ln, i, dev);
			break;
		}
	}
}

/*
 * Every setting of the file is tried, and reported as a row of the table;
 * one that fails does not stop the next. Returns 0, or the error of the
 * first that failed.
 */
int swapq_apply(struct swapq_ctl *ctl, const char *file)
{
	const char *root = ctl->sysroot;
	struct swapq_dev *devs[MAX_ENTRIES] = { NULL };
	struct libscols_table *tb;
	struct swapq_state st;
	char path[PATH_MAX];
	struct conf conf;
	unsigned int i, j;
	int rc;

	if (!file) {
		rc = sysroot_path(path, sizeof(path), root, "%s",
				  SWAPQ_CONF_FILE);
		if (rc)
			return rc;
		file = path;
	}
	rc = parse_conf(&conf, file);
	if (rc)
		return rc;
	rc = swapq_check_feature(root);
	if (!rc)
		rc = swapq_load_state(root, &st);
	if (rc) {
		free_conf(&conf);
		return rc;
	}

	/* Resolve every device before anything is written. */
	for (i = 0; i < conf.nr; i++) {
		struct conf_entry *e = &conf.entries[i];
		char *name;

		if (!e->device)
			continue;
		name = e->device[0] == '/' ? xstrdup(e->device) :
			resolve_tag(root, e->device);
		devs[i] = name ? swapq_find_dev(&st, name) : NULL;
		free(name);
		/* a device being swapped off is not swapped on any more */
		if (devs[i] && !devs[i]->in_ring)
			devs[i] = NULL;
		for (j = 0; devs[i] && j < i; j++)
			if (devs[j] == devs[i]) {
				swapq_err("%s:%u: %s is the device of line %u (%s), nothing applied",
					  file, e->line, e->device,
					  conf.entries[j].line, devs[i]->path);
				rc = -EINVAL;
				goto out;
			}
	}

	tb = new_table(ctl);
	for (i = 0; i < conf.nr; i++) {
		struct conf_entry *e = &conf.entries[i];
		const char *result = "skipped";
		unsigned long long old = 0;
		int err = 0;

		if (e->device && !devs[i]) {
			swapq_err("%s:%u: %s: not swapped on, skipped",
				  file, e->line, e->device);
		} else {
			old = devs[i] ? devs[i]->quota : st.default_quota;
			err = apply_entry(root, e, devs[i], old, &result);
		}
		if (err && !rc)
			rc = err;
		add_apply_line(ctl, tb, e, devs[i], old, result);
	}
	print_table(tb);
out:
	swapq_free_state(&st);
	free_conf(&conf);
	return rc;
}

/* The current tuning, in the format swapq_apply() reads. */
int swapq_save(const char *root, const char *file)
{
	struct swapq_state st;
	const struct swapq_dev *dev;
	FILE *f = stdout;
	int rc;

	rc = swapq_check_feature(root);
	if (!rc)
		rc = swapq_load_state(root, &st);
	if (rc)
		return rc;
	if (file) {
		f = fopen(file, "w");
		if (!f) {
			rc = errno;
			swapq_err("cannot write %s: %s", file, strerror(rc));
			swapq_free_state(&st);
			return sys_error(rc);
		}
	}

	fprintf(f, "# swapq apply reads this; see swapq(8)\n");
	fprintf(f, "default_quota %llu\n", st.default_quota);
	swapq_for_each_dev(dev, &st) {
		print_escaped(f, dev->path);
		fprintf(f, " quota %llu\n", dev->quota);
	}
	swapq_free_state(&st);

	if (file && (ferror(f) | fclose(f))) {
		rc = errno;
		swapq_err("cannot write %s: %s", file, strerror(rc));
		return sys_error(rc);
	}
	return 0;
}
