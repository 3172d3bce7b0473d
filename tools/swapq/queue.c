// SPDX-License-Identifier: GPL-2.0
/*
 * swapq - read the swap queue state from sysfs and /proc/swaps, set quotas
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "swapq.h"

/* How often to re-read sysfs when a publish happens while we read it. */
#define LOAD_RETRIES	10

/*
 * Errors met while loading sysfs are kept here rather than printed,
 * because a concurrent publish may make them go away on a retry.
 * A sysroot path too long is printed at once: no retry mends it.
 */
static char load_error[PATH_MAX + 256];

int load_fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(load_error, sizeof(load_error), fmt, ap);
	va_end(ap);
	return code;
}

/* Print the error kept by load_fail(), if any, and forget it. */
void load_report(void)
{
	if (load_error[0])
		swapq_err("%s", load_error);
	load_reset();
}

void load_reset(void)
{
	load_error[0] = '\0';
}

/* Report a failed read of a file that must exist. */
int load_fail_read(const char *path, int err)
{
	if (err == -ENOENT)
		return load_fail(-EBADMSG, "%s: missing", path);
	if (err == -EBADMSG)
		return load_fail(-EBADMSG, "%s: malformed content", path);
	if (err == -EISDIR)
		return load_fail(-EBADMSG, "%s: is a directory", path);
	return load_fail(sys_error(-err), "cannot read %s: %s",
			 path, strerror(-err));
}

static int queue_path(char *buf, size_t size, const char *root,
		      const char *rel)
{
	return sysroot_path(buf, size, root, SWAPQ_QUEUE_DIR "/%s", rel);
}

static int read_queue_file(const char *root, const char *rel,
			   char *path, size_t size, char **bufp)
{
	int rc;

	rc = queue_path(path, size, root, rel);
	if (rc)
		return rc;
	rc = read_file(path, bufp);
	if (rc)
		return load_fail_read(path, rc);
	return 0;
}

static int read_u64(const char *root, const char *rel,
		    unsigned long long max, unsigned long long *res)
{
	char path[PATH_MAX], *buf;
	int rc;

	rc = read_queue_file(root, rel, path, sizeof(path), &buf);
	if (rc)
		return rc;
	rc = parse_value_u64(buf, max, res);
	free(buf);
	if (rc)
		return load_fail(-EBADMSG, "%s: malformed value", path);
	return 0;
}

/* A signed value in [@min, @max]. */
static int read_s64(const char *root, const char *rel, long long min,
		    long long max, long long *res)
{
	char path[PATH_MAX], *buf;
	int rc;

	rc = read_queue_file(root, rel, path, sizeof(path), &buf);
	if (rc)
		return rc;
	chomp(buf);
	rc = parse_s64(buf, res);
	free(buf);
	if (rc || *res < min || *res > max)
		return load_fail(-EBADMSG, "%s: malformed value", path);
	return 0;
}

/* A one-line string value; the trailing newline is removed. */
static int read_string(const char *root, const char *rel, char **res)
{
	char path[PATH_MAX], *buf;
	int rc;

	rc = read_queue_file(root, rel, path, sizeof(path), &buf);
	if (rc)
		return rc;
	if (!chomp(buf) || strchr(buf, '\n')) {
		free(buf);
		return load_fail(-EBADMSG, "%s: malformed value", path);
	}
	*res = buf;
	return 0;
}

struct swapq_ring *add_ring(struct swapq_ring **rings, unsigned int *nr)
{
	struct swapq_ring *r;

	*rings = xreallocarray(*rings, *nr + 1, sizeof(**rings));
	r = &(*rings)[(*nr)++];
	memset(r, 0, sizeof(*r));
	return r;
}

/* "devices/<type>/<name>", relative to the queue directory. */
static const char *dev_file(char *rel, size_t size, int type, const char *name)
{
	snprintf(rel, size, "devices/%d/%s", type, name);
	return rel;
}

/*
 * A device being swapped off is in no ring: its ring and position read -1.
 * In a ring, both are below SWAPQ_MAX_TYPES, as there are no more devices.
 */
static int load_device(const char *root, struct swapq_state *st, int type)
{
	struct swapq_dev *dev = &st->devs[type];
	unsigned long long available;
	long long ring, position;
	char rel[64];
	int rc;

	dev->present = true;
	dev->type = type;
	st->nr_devs++;

	rc = read_string(root, dev_file(rel, sizeof(rel), type, "path"),
			 &dev->path);
	if (!rc)
		rc = read_s64(root, dev_file(rel, sizeof(rel), type, "priority"),
			      LLONG_MIN, LLONG_MAX, &dev->prio);
	if (!rc)
		rc = read_s64(root, dev_file(rel, sizeof(rel), type, "ring"),
			      -1, SWAPQ_MAX_TYPES - 1, &ring);
	if (!rc)
		rc = read_s64(root, dev_file(rel, sizeof(rel), type, "position"),
			      -1, SWAPQ_MAX_TYPES - 1, &position);
	if (!rc)
		rc = read_u64(root, dev_file(rel, sizeof(rel), type, "quota"),
			      ULLONG_MAX, &dev->quota);
	if (!rc)
		rc = read_u64(root, dev_file(rel, sizeof(rel), type, "available"),
			      1, &available);
	if (!rc)
		rc = read_u64(root, dev_file(rel, sizeof(rel), type, "allocated"),
			      ULLONG_MAX, &dev->allocated);
	if (rc)
		return rc;
	if ((ring < 0) != (position < 0))
		return load_fail(-EBADMSG,
				 "%s%s/devices/%d: ring %lld but position %lld",
				 root, SWAPQ_QUEUE_DIR, type, ring, position);

	dev->in_ring = ring >= 0;
	if (dev->in_ring) {
		dev->ring = ring;
		dev->position = position;
	}
	dev->available = available;
	return 0;
}

static int load_devices(const char *root, struct swapq_state *st)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int rc = 0;

	rc = queue_path(path, sizeof(path), root, "devices");
	if (rc)
		return rc;
	dir = opendir(path);
	if (!dir)
		return load_fail_read(path, -errno);

	while ((d = readdir(dir))) {
		unsigned long long type;

		if (d->d_name[0] == '.')
			continue;
		if (parse_u64(d->d_name, SWAPQ_MAX_TYPES - 1, &type)) {
			rc = load_fail(-EBADMSG, "%s/%s: unexpected entry",
				       path, d->d_name);
			break;
		}
		rc = load_device(root, st, type);
		if (rc)
			break;
	}
	closedir(dir);
	return rc;
}

/*
 * Build the rings from the ring, position and priority of every device,
 * and check that they are rings: indexes 0 to nr_rings - 1 in strictly
 * descending priority order, each with positions 0 to nr - 1 held by one
 * device each, all of the ring's priority.
 */
static int derive_rings(const char *root, struct swapq_state *st)
{
	bool taken[SWAPQ_MAX_TYPES][SWAPQ_MAX_TYPES] = { { false } };
	unsigned int r, i;
	int type;

	for (type = 0; type < SWAPQ_MAX_TYPES; type++) {
		struct swapq_dev *dev = &st->devs[type];
		struct swapq_ring *ring;

		if (!dev->present || !dev->in_ring)
			continue;
		while (st->nr_rings <= dev->ring)
			add_ring(&st->rings, &st->nr_rings);
		ring = &st->rings[dev->ring];
		if (taken[dev->ring][dev->position])
			return load_fail(-EBADMSG,
					 "%s%s/devices: devices %d and %d both at ring %u position %u",
					 root, SWAPQ_QUEUE_DIR,
					 ring->members[dev->position], type,
					 dev->ring, dev->position);
		if (ring->nr && ring->prio != dev->prio)
			return load_fail(-EBADMSG,
					 "%s%s/devices: ring %u holds devices of priority %lld and %lld",
					 root, SWAPQ_QUEUE_DIR, dev->ring, ring->prio,
					 dev->prio);
		taken[dev->ring][dev->position] = true;
		ring->members[dev->position] = type;
		ring->prio = dev->prio;
		ring->nr++;
	}

	for (r = 0; r < st->nr_rings; r++) {
		const struct swapq_ring *ring = &st->rings[r];

		if (!ring->nr)
			return load_fail(-EBADMSG,
					 "%s%s/devices: no device in ring %u of %u",
					 root, SWAPQ_QUEUE_DIR, r, st->nr_rings);
		/* nr devices on distinct positions: are they 0 to nr - 1? */
		for (i = 0; i < ring->nr; i++)
			if (!taken[r][i])
				return load_fail(-EBADMSG,
						 "%s%s/devices: no device at ring %u position %u",
						 root, SWAPQ_QUEUE_DIR, r, i);
		if (r && ring->prio >= st->rings[r - 1].prio)
			return load_fail(-EBADMSG,
					 "%s%s/devices: ring %u priority %lld is not below %lld",
					 root, SWAPQ_QUEUE_DIR, r, ring->prio,
					 st->rings[r - 1].prio);
	}
	return 0;
}

/*
 * /proc/swaps gives SIZE and USED. It is optional: without it those
 * columns stay empty.
 */
static int load_proc_swaps(const char *root, struct swapq_state *st)
{
	char path[PATH_MAX], *buf, *next, *line;
	unsigned int lineno = 0;
	int rc;

	rc = sysroot_path(path, sizeof(path), root, "%s", SWAPQ_PROC_SWAPS);
	if (rc)
		return rc;
	rc = read_file(path, &buf);
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return load_fail_read(path, rc);

	next = buf;
	while ((line = strsep(&next, "\n"))) {
		char *f[5];
		unsigned long long size, used;
		long long prio;
		int n, type;

		if (++lineno == 1 || !*line)
			continue;	/* header */

		n = split_words(line, f, 5);
		if (n != 5 ||
		    parse_u64(f[2], ULLONG_MAX, &size) ||
		    parse_u64(f[3], ULLONG_MAX, &used) ||
		    parse_s64(f[4], &prio)) {
			free(buf);
			return load_fail(-EBADMSG, "%s:%u: malformed line",
					 path, lineno);
		}
		unescape_octal(f[0]);

		for (type = 0; type < SWAPQ_MAX_TYPES; type++) {
			struct swapq_dev *dev = &st->devs[type];

			if (dev->present && !strcmp(dev->path, f[0])) {
				dev->in_swaps = true;
				dev->size_kib = size;
				dev->used_kib = used;
			}
		}
	}
	free(buf);
	return 0;
}

int swapq_check_feature(const char *root)
{
	char path[PATH_MAX];
	struct stat sb;
	int err;

	if (sysroot_path(path, sizeof(path), root, "%s", SWAPQ_QUEUE_DIR))
		return -EINVAL;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return 0;
	err = errno;
	if (err == EACCES || err == EPERM) {
		swapq_err("cannot access %s: %s", path, strerror(err));
		return -err;
	}
	swapq_err("swap priority queues are not supported by this kernel (no %s)",
		  path);
	return -EOPNOTSUPP;
}

void swapq_free_state(struct swapq_state *st)
{
	int i;

	for (i = 0; i < SWAPQ_MAX_TYPES; i++)
		free(st->devs[i].path);
	free(st->rings);
	memset(st, 0, sizeof(*st));
}

static int load_once(const char *root, struct swapq_state *st)
{
	int rc;

	rc = read_u64(root, "default_quota", ULLONG_MAX, &st->default_quota);
	if (!rc)
		rc = load_devices(root, st);
	if (!rc)
		rc = derive_rings(root, st);
	return rc;
}

/*
 * Read a consistent snapshot: the generation must be the same before
 * and after reading everything, else a publish raced with us. Data that
 * looks bad is read again too: the directory of a device being swapped
 * off goes away at the end of swapoff without a new generation.
 */
int swapq_load_state(const char *root, struct swapq_state *st)
{
	unsigned long long gen0 = 0, gen1;
	int rc, rc2, tries;

	memset(st, 0, sizeof(*st));
	for (tries = 0; ; tries++) {
		load_reset();
		rc = read_u64(root, "generation", ULLONG_MAX, &gen0);
		if (rc)
			break;
		rc = load_once(root, st);
		if (rc && rc != -EBADMSG)
			break;
		rc2 = read_u64(root, "generation", ULLONG_MAX, &gen1);
		if (rc2) {
			rc = rc2;
			break;
		}
		if ((gen0 == gen1 && !rc) || tries == LOAD_RETRIES)
			break;
		swapq_free_state(st);
	}
	st->generation = gen0;

	if (!rc)
		rc = load_proc_swaps(root, st);
	if (rc) {
		load_report();
		swapq_free_state(st);
	}
	return rc;
}

/* The device after @prev (NULL: the first) in ring order, or NULL. */
const struct swapq_dev *swapq_next_dev(const struct swapq_state *st,
				      const struct swapq_dev *prev)
{
	unsigned int r = 0, pos = 0;

	if (prev) {
		r = prev->ring;
		pos = prev->position + 1;
	}
	/* derive_rings() made every ring hold positions 0 to nr - 1 */
	for (; r < st->nr_rings; r++, pos = 0)
		if (pos < st->rings[r].nr)
			return &st->devs[st->rings[r].members[pos]];
	return NULL;
}

/*
 * Find a device by swap type number or by path. A path that does not
 * match literally is also tried after resolving symlinks.
 */
struct swapq_dev *swapq_find_dev(struct swapq_state *st, const char *name)
{
	unsigned long long type;
	char *real;
	int i;

	if (!parse_u64(name, ULLONG_MAX, &type)) {
		if (type < SWAPQ_MAX_TYPES && st->devs[type].present)
			return &st->devs[type];
		return NULL;
	}
	for (i = 0; i < SWAPQ_MAX_TYPES; i++)
		if (st->devs[i].present && !strcmp(st->devs[i].path, name))
			return &st->devs[i];

	real = realpath(name, NULL);
	if (!real)
		return NULL;
	for (i = 0; i < SWAPQ_MAX_TYPES; i++)
		if (st->devs[i].present && !strcmp(st->devs[i].path, real))
			break;
	free(real);
	return i < SWAPQ_MAX_TYPES ? &st->devs[i] : NULL;
}

/* Report a failed open or write of @what; returns the error to return. */
static int write_error(const char *what, bool is_dev, int err)
{
	if (err == EACCES || err == EPERM) {
		swapq_err("cannot set %s: %s (root required)", what, strerror(err));
		return -err;
	}
	if (is_dev && (err == ENOENT || err == ENODEV)) {
		swapq_err("cannot set %s: device is being swapped off", what);
		return -ENODEV;
	}
	swapq_err("cannot set %s: %s", what, strerror(err));
	return -EIO;
}

/* Open queue/<relpath> for writing: the fd, or a negative errno. */
static int open_value(const char *root, const char *relpath, bool is_dev,
		      const char *what)
{
	char path[PATH_MAX];
	int fd;

	if (queue_path(path, sizeof(path), root, relpath))
		return -EINVAL;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return write_error(what, is_dev, errno);
	return fd;
}

/*
 * Write @value as the whole content of @fd, and close it. The file is
 * truncated here, not at open(), so that a failed identity check leaves
 * a fixture file as it was; like O_TRUNC, the truncation does nothing to
 * a sysfs file, and is skipped where it does not apply (EINVAL: a device).
 */
static int write_value(int fd, bool is_dev, const char *what,
		       unsigned long long value)
{
	char buf[32];
	ssize_t n = -1;
	int len, err;

	len = snprintf(buf, sizeof(buf), "%llu\n", value);
	err = ftruncate(fd, 0) && errno != EINVAL ? errno : 0;
	if (!err) {
		n = write(fd, buf, len);
		err = n < 0 ? errno : 0;
	}
	if (close(fd) && !err)
		err = errno;
	if (!err && n != len)
		err = EIO;
	return err ? write_error(what, is_dev, err) : 0;
}

/*
 * Write @value to queue/<relpath>, a device's quota or default_quota.
 * @what names the target in messages.
 */
int swapq_write_quota(const char *root, const char *relpath,
		      const char *what, unsigned long long value)
{
	bool is_dev = !strncmp(relpath, "devices/", 8);
	int fd = open_value(root, relpath, is_dev, what);

	if (fd < 0)
		return fd;
	return write_value(fd, is_dev, what, value);
}

/*
 * Is swap type @type still the device at @path? A device found by path
 * may be swapped off, and its type reused by another, between the lookup
 * and the write. Returns 0, -ENODEV, or another negative errno.
 */
static int check_dev_path(const char *root, int type, const char *path)
{
	char rel[64], *now;
	bool same;
	int rc;

	load_reset();
	rc = read_string(root, dev_file(rel, sizeof(rel), type, "path"), &now);
	if (rc == -EBADMSG && strstr(load_error, ": missing"))
		return -ENODEV;
	if (rc) {
		load_report();
		return rc;
	}
	same = !strcmp(now, path);
	free(now);
	return same ? 0 : -ENODEV;
}

/*
 * Set the quota of @dev, found as @name: a swap type number, or a path,
 * UUID= or LABEL=. Found by type, the quota of that type is written.
 * Found otherwise, the device may be swapped off, and its type given to
 * another device, at any time: open the type's quota file, check that the
 * type is still the device at @dev->path, write, and check again. The open
 * file stays the one of the device seen by the first check: if that device
 * goes away after it, the kernel fails the write rather than pass it to
 * the next device of that type. (The queue generation is no identity: any
 * quota write, ours too, moves it.)
 * Returns 0, -ENODEV if the device changed, or another negative errno.
 */
int swapq_write_dev_quota(const char *root, const struct swapq_dev *dev,
			  const char *name, unsigned long long value)
{
	unsigned long long type;
	bool by_type = !parse_u64(name, ULLONG_MAX, &type);
	char rel[64], what[PATH_MAX + 16];
	int fd, rc;

	dev_file(rel, sizeof(rel), dev->type, "quota");
	snprintf(what, sizeof(what), "quota of %s", dev->path);
	fd = open_value(root, rel, true, what);
	if (fd < 0)
		return fd;
	if (by_type)
		return write_value(fd, true, what, value);

	rc = check_dev_path(root, dev->type, dev->path);
	if (rc) {
		close(fd);
		if (rc == -ENODEV)
			swapq_err("%s: unknown swap device (swapped off before its quota was set; nothing written)",
				  name);
		return rc;
	}
	rc = write_value(fd, true, what, value);
	if (rc)
		return rc;
	rc = check_dev_path(root, dev->type, dev->path);
	if (rc == -ENODEV)
		swapq_err("%s: unknown swap device (swapped off while its quota was set; swap type %d may now be another device)",
			  name, dev->type);
	return rc;
}

/*
 * sysfs and debugfs in one snapshot: the sysfs generation, the debugfs
 * dump's generation record and the sysfs generation read again after it
 * must all be equal, else a publish came in between: read both again.
 */
int swapq_load_snapshot(const char *root, struct swapq_state *st,
			struct swapq_debug *dbg)
{
	unsigned long long gen;
	int rc, tries;

	for (tries = 0; ; tries++) {
		rc = swapq_load_state(root, st);
		if (rc)
			return rc;
		rc = swapq_load_debug(root, dbg);
		if (rc) {
			swapq_free_state(st);
			return rc;
		}
		rc = read_u64(root, "generation", ULLONG_MAX, &gen);
		if (rc) {
			load_report();
			break;
		}
		if (st->generation == dbg->generation && gen == st->generation)
			return 0;
		if (tries == LOAD_RETRIES) {
			swapq_err("%s%s/generation is %llu, then %llu, but the generation record of %s%s is %llu, in each of %d reads",
				  root, SWAPQ_QUEUE_DIR, st->generation, gen,
				  root, SWAPQ_DEBUGFS_FILE, dbg->generation,
				  LOAD_RETRIES + 1);
			rc = -EBADMSG;
			break;
		}
		swapq_free_debug(dbg);
		swapq_free_state(st);
	}
	swapq_free_debug(dbg);
	swapq_free_state(st);
	return rc;
}
