// SPDX-License-Identifier: GPL-2.0
/*
 * Swap device priority queue: the admin interface.
 *
 * sysfs /sys/kernel/mm/swap/queue/ shows ring membership and lets an
 * administrator tune per-device quotas; debugfs /sys/kernel/debug/swap/queue
 * shows every CPU's place in every ring and the queue's counters. See
 * Documentation/ABI/testing/sysfs-kernel-mm-swap-queue and
 * Documentation/ABI/testing/debugfs-swap-queue.
 */

#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/dcache.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "swap.h"
#include "swap_queue.h"

/*
 * Admin interface.
 *
 * sysfs, under /sys/kernel/mm/swap/queue/ (see
 * Documentation/ABI/testing/sysfs-kernel-mm-swap-queue), and debugfs,
 * /sys/kernel/debug/swap/queue (Documentation/ABI/testing/debugfs-swap-queue).
 *
 * A device directory (struct swap_queue_devobj) exists from just after
 * swapon enables the device until swapoff has drained it. swapon adds it
 * and swapoff removes it under swapon_mutex, before the device's file and
 * counters go away: kobject_del() waits for running show/store callbacks,
 * which take neither swapon_mutex nor swap_queue_sysfs_lock (the latter
 * protects swap_queue_devobjs[]).
 */
#if defined(CONFIG_SYSFS) || defined(CONFIG_DEBUG_FS)
/* Pages allocated from a device since swapon; the device must be alive */
static unsigned long swap_queue_allocated(struct swap_info_struct *si)
{
	struct swap_percpu_cluster __percpu *pcp;
	unsigned long sum = 0;
	int cpu;

	pcp = READ_ONCE(si->percpu_cluster);
	if (!pcp)
		return 0;
	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(pcp, cpu)->allocated);
	return sum;
}
#endif

#ifdef CONFIG_SYSFS
struct swap_queue_devobj {
	struct kobject kobj;
	int type;
};

static DEFINE_MUTEX(swap_queue_sysfs_lock);
static struct swap_queue_devobj *swap_queue_devobjs[MAX_SWAPFILES];
static struct kobject *swap_queue_kobj;
static struct kobject *swap_queue_devices_kobj;

/*
 * Parse a quota: a decimal integer in [SWAP_QUEUE_QUOTA_MIN,
 * SWAP_QUEUE_QUOTA_MAX], optionally followed by a newline. No sign.
 */
static int swap_queue_parse_quota(const char *buf, unsigned int *quota)
{
	unsigned int val;

	if (!isdigit(buf[0]))
		return -EINVAL;
	if (kstrtouint(buf, 10, &val))
		return -EINVAL;
	if (val < SWAP_QUEUE_QUOTA_MIN || val > SWAP_QUEUE_QUOTA_MAX)
		return -EINVAL;
	*quota = val;
	return 0;
}

static struct swap_info_struct *swap_queue_kobj_si(struct kobject *kobj)
{
	struct swap_queue_devobj *obj;

	obj = container_of(kobj, struct swap_queue_devobj, kobj);
	return swap_info[obj->type];
}

/* Ring index and position of @type, -1 if it is not queued (swapoff) */
static void swap_queue_locate(int type, int *ring, int *pos)
{
	const struct swap_queue_snapshot *snap;

	rcu_read_lock();
	snap = swap_queue_get();
	*ring = swap_queue_ring_of(snap, type);
	*pos = *ring < 0 ? -1 : snap->pos_of[type];
	rcu_read_unlock();
}

static ssize_t path_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct swap_info_struct *si = swap_queue_kobj_si(kobj);
	char *tmp, *path;
	ssize_t len = 0;

	tmp = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	path = d_path(&si->swap_file->f_path, tmp, PATH_MAX);
	if (IS_ERR(path)) {
		kfree(tmp);
		return PTR_ERR(path);
	}
	/* Escaped like /proc/swaps does */
	for (; *path && len < PAGE_SIZE - 6; path++) {
		if (strchr(" \t\n\\", *path))
			len += sysfs_emit_at(buf, len, "\\%03o", *path);
		else
			len += sysfs_emit_at(buf, len, "%c", *path);
	}
	len += sysfs_emit_at(buf, len, "\n");
	kfree(tmp);
	return len;
}

static ssize_t priority_show(struct kobject *kobj,
			     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", swap_queue_kobj_si(kobj)->prio);
}

static ssize_t ring_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	int ring, pos;

	swap_queue_locate(swap_queue_kobj_si(kobj)->type, &ring, &pos);
	return sysfs_emit(buf, "%d\n", ring);
}

static ssize_t position_show(struct kobject *kobj,
			     struct kobj_attribute *attr, char *buf)
{
	int ring, pos;

	swap_queue_locate(swap_queue_kobj_si(kobj)->type, &ring, &pos);
	return sysfs_emit(buf, "%d\n", pos);
}

static ssize_t quota_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(swap_queue_kobj_si(kobj)->queue_quota));
}

static ssize_t quota_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	unsigned int quota;
	int err;

	err = swap_queue_parse_quota(buf, &quota);
	if (!err)
		err = swap_queue_set_quota(swap_queue_kobj_si(kobj)->type, quota);
	return err ? err : count;
}

static ssize_t available_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  swap_device_available(swap_queue_kobj_si(kobj)));
}

static ssize_t allocated_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n",
			  swap_queue_allocated(swap_queue_kobj_si(kobj)));
}

static struct kobj_attribute swap_queue_path_attr = __ATTR_RO(path);
static struct kobj_attribute swap_queue_priority_attr = __ATTR_RO(priority);
static struct kobj_attribute swap_queue_ring_attr = __ATTR_RO(ring);
static struct kobj_attribute swap_queue_position_attr = __ATTR_RO(position);
static struct kobj_attribute swap_queue_quota_attr = __ATTR_RW(quota);
static struct kobj_attribute swap_queue_available_attr = __ATTR_RO(available);
static struct kobj_attribute swap_queue_allocated_attr = __ATTR_RO(allocated);

static struct attribute *swap_queue_dev_attrs[] = {
	&swap_queue_path_attr.attr,
	&swap_queue_priority_attr.attr,
	&swap_queue_ring_attr.attr,
	&swap_queue_position_attr.attr,
	&swap_queue_quota_attr.attr,
	&swap_queue_available_attr.attr,
	&swap_queue_allocated_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(swap_queue_dev);

static void swap_queue_devobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct swap_queue_devobj, kobj));
}

static const struct kobj_type swap_queue_devobj_ktype = {
	.release = swap_queue_devobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = swap_queue_dev_groups,
};

/**
 * swap_queue_sysfs_add - create the sysfs directory of a swapped-on device
 * @type: swap type, already published in the queue
 *
 * Context: swapon, under swapon_mutex. Failure only costs the directory,
 * the device is used anyway.
 */
void swap_queue_sysfs_add(int type)
{
	struct swap_queue_devobj *obj;
	int err;

	if (!swap_queue_devices_kobj)
		return;
	obj = kzalloc_obj(*obj);
	if (!obj)
		goto fail;
	obj->type = type;
	err = kobject_init_and_add(&obj->kobj, &swap_queue_devobj_ktype,
				   swap_queue_devices_kobj, "%d", type);
	if (err) {
		kobject_put(&obj->kobj);
		goto fail;
	}
	mutex_lock(&swap_queue_sysfs_lock);
	WARN_ON_ONCE(swap_queue_devobjs[type]);
	swap_queue_devobjs[type] = obj;
	mutex_unlock(&swap_queue_sysfs_lock);
	return;
fail:
	pr_warn("swap: no sysfs queue directory for swap type %d\n", type);
}

/**
 * swap_queue_sysfs_del - remove the sysfs directory of a device
 * @type: swap type being swapped off
 *
 * Context: swapoff, under swapon_mutex, before the device's file and
 * counters are released; waits for running show/store callbacks.
 */
void swap_queue_sysfs_del(int type)
{
	struct swap_queue_devobj *obj;

	mutex_lock(&swap_queue_sysfs_lock);
	obj = swap_queue_devobjs[type];
	swap_queue_devobjs[type] = NULL;
	mutex_unlock(&swap_queue_sysfs_lock);
	if (!obj)
		return;
	kobject_del(&obj->kobj);
	kobject_put(&obj->kobj);
}

static ssize_t generation_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	unsigned long gen;

	rcu_read_lock();
	gen = swap_queue_get()->gen;
	rcu_read_unlock();
	return sysfs_emit(buf, "%lu\n", gen);
}

static ssize_t default_quota_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", swap_queue_default_quota());
}

static ssize_t default_quota_store(struct kobject *kobj,
				   struct kobj_attribute *attr,
				   const char *buf, size_t count)
{
	unsigned int quota;
	int err;

	err = swap_queue_parse_quota(buf, &quota);
	if (err)
		return err;
	swap_queue_set_default_quota(quota);
	return count;
}

static struct kobj_attribute swap_queue_generation_attr = __ATTR_RO(generation);
static struct kobj_attribute swap_queue_default_quota_attr =
	__ATTR_RW(default_quota);

static struct attribute *swap_queue_attrs[] = {
	&swap_queue_generation_attr.attr,
	&swap_queue_default_quota_attr.attr,
	NULL,
};

static const struct attribute_group swap_queue_attr_group = {
	.attrs = swap_queue_attrs,
};

static int __init swap_queue_sysfs_init(void)
{
	if (!swap_kobj)
		return -ENODEV;
	swap_queue_kobj = kobject_create_and_add("queue", swap_kobj);
	if (!swap_queue_kobj)
		return -ENOMEM;
	if (sysfs_create_group(swap_queue_kobj, &swap_queue_attr_group))
		goto err;
	swap_queue_devices_kobj = kobject_create_and_add("devices",
							 swap_queue_kobj);
	if (!swap_queue_devices_kobj)
		goto err;
	return 0;
err:
	kobject_put(swap_queue_kobj);
	swap_queue_kobj = NULL;
	return -ENOMEM;
}
#else
static int __init swap_queue_sysfs_init(void)
{
	return 0;
}
#endif /* CONFIG_SYSFS */

#ifdef CONFIG_DEBUG_FS
/*
 * The dump is a seq_file of records: 0 the queue (generation, rings,
 * devices), 1 + cpu for each possible CPU, then the counters. Each read()
 * holds the RCU read lock from start to stop; a read that would continue a
 * dump begun under another generation fails with -EAGAIN.
 */
struct swap_queue_dump {
	const struct swap_queue_snapshot *snap;
	unsigned long gen;	/* of record 0 */
	loff_t pos;
};

#define SWAP_QUEUE_DUMP_STATS	((loff_t)nr_cpu_ids + 1)

/* Move @pos to the record at or after it; false past the last one */
static bool swap_queue_dump_seek(loff_t *pos)
{
	if (*pos > 0 && *pos < SWAP_QUEUE_DUMP_STATS) {
		unsigned int cpu = cpumask_next(*pos - 2, cpu_possible_mask);

		*pos = min(cpu, nr_cpu_ids) + 1;
	}
	return *pos <= SWAP_QUEUE_DUMP_STATS;
}

static void *swap_queue_dump_start(struct seq_file *m, loff_t *pos)
	__acquires(RCU)
{
	struct swap_queue_dump *d = m->private;

	rcu_read_lock();
	d->snap = swap_queue_get();
	if (!swap_queue_dump_seek(pos))
		return NULL;
	if (*pos == 0)
		d->gen = d->snap->gen;
	else if (d->snap->gen != d->gen)
		return ERR_PTR(-EAGAIN);
	d->pos = *pos;
	return d;
}

static void *swap_queue_dump_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct swap_queue_dump *d = v;

	++*pos;
	if (!swap_queue_dump_seek(pos))
		return NULL;
	d->pos = *pos;
	return d;
}

static void swap_queue_dump_stop(struct seq_file *m, void *v)
	__releases(RCU)
{
	rcu_read_unlock();
}

static void swap_queue_dump_queue(struct seq_file *m,
				  const struct swap_queue_snapshot *snap)
{
	unsigned int r, i;

	seq_printf(m, "generation %lu\n", snap->gen);
	for (r = 0; r < snap->nr_rings; r++) {
		const struct swap_queue_ring *ring = &snap->rings[r];

		seq_printf(m, "ring %u prio %d members", r, ring->prio);
		for (i = 0; i < ring->nr; i++)
			seq_printf(m, " %d", snap->members[ring->first + i].type);
		seq_putc(m, '\n');
	}
	/*
	 * A device of this snapshot cannot finish swapoff before the RCU
	 * read-side section ends, so its counters stay allocated.
	 */
	for (i = 0; i < snap->nr_members; i++) {
		int type = snap->members[i].type;
		struct swap_info_struct *si = swap_info[type];

		seq_printf(m, "device %d ring %d position %u quota %u available %d allocated %lu\n",
			   type, snap->ring_of[type], snap->pos_of[type],
			   snap->members[i].quota, swap_device_available(si),
			   swap_queue_allocated(si));
	}
}

static void swap_queue_dump_cpu(struct seq_file *m,
				const struct swap_queue_snapshot *snap, int cpu)
{
	struct swap_queue_reader *pcp, rs;
	unsigned int r;

	/* Racy copy, then what the CPU will use on its next walk */
	pcp = per_cpu_ptr(&swap_queue_pcpu.reader, cpu);
	rs.gen = READ_ONCE(pcp->gen);
	rs.nr_rings = min_t(unsigned int, READ_ONCE(pcp->nr_rings),
			    MAX_SWAPFILES);
	for (r = 0; r < MAX_SWAPFILES; r++) {
		rs.type[r] = READ_ONCE(pcp->type[r]);
		rs.left[r] = READ_ONCE(pcp->left[r]);
	}
	swap_queue_reader_sync(snap, &rs, cpu);
	for (r = 0; r < snap->nr_rings; r++)
		seq_printf(m, "cpu %d ring %u position %d left %d\n",
			   cpu, r, swap_queue_reader_pos(snap, &rs, r),
			   snap->rings[r].nr == 1 ?
			   (int)snap->members[snap->rings[r].first].quota :
			   rs.left[r]);
}

static void swap_queue_dump_stats(struct seq_file *m)
{
	seq_printf(m, "stat publishes %lu\n",
		   swap_queue_stat_read(SWAP_QUEUE_STAT_PUBLISHES));
	seq_printf(m, "stat walks %lu\n",
		   swap_queue_stat_read(SWAP_QUEUE_STAT_WALKS));
	seq_printf(m, "stat ring_fallbacks %lu\n",
		   swap_queue_stat_read(SWAP_QUEUE_STAT_RING_FALLBACKS));
	seq_printf(m, "stat cursor_restarts %lu\n",
		   swap_queue_stat_read(SWAP_QUEUE_STAT_CURSOR_RESTARTS));
	seq_printf(m, "stat sync_discards %lu\n",
		   swap_queue_stat_read(SWAP_QUEUE_STAT_SYNC_DISCARDS));
}

static int swap_queue_dump_show(struct seq_file *m, void *v)
{
	struct swap_queue_dump *d = v;

	if (d->pos == 0)
		swap_queue_dump_queue(m, d->snap);
	else if (d->pos == SWAP_QUEUE_DUMP_STATS)
		swap_queue_dump_stats(m);
	else
		swap_queue_dump_cpu(m, d->snap, d->pos - 1);
	return 0;
}

static const struct seq_operations swap_queue_dump_sops = {
	.start = swap_queue_dump_start,
	.next = swap_queue_dump_next,
	.stop = swap_queue_dump_stop,
	.show = swap_queue_dump_show,
};

static int swap_queue_dump_open(struct inode *inode, struct file *file)
{
	return seq_open_private(file, &swap_queue_dump_sops,
				sizeof(struct swap_queue_dump));
}

static const struct file_operations swap_queue_dump_fops = {
	.owner = THIS_MODULE,
	.open = swap_queue_dump_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

static void __init swap_queue_debugfs_init(void)
{
	struct dentry *dir;

	dir = debugfs_create_dir("swap", NULL);
	debugfs_create_file("queue", 0400, dir, NULL, &swap_queue_dump_fops);
}
#else
static inline void swap_queue_debugfs_init(void)
{
}
#endif /* CONFIG_DEBUG_FS */

static int __init swap_queue_init(void)
{
	swap_queue_debugfs_init();
	return swap_queue_sysfs_init();
}
late_initcall(swap_queue_init);
