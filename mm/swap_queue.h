/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Swap device priority queue: which swap device an allocation tries first.
 *
 * The writable swap devices are published as an immutable snapshot: an array
 * of rings in descending priority order, each ring holding the devices of one
 * priority. Each CPU keeps, per ring, the member it currently allocates from
 * and how many pages of that member's quota are left. A single allocation
 * walks the snapshot with a cursor on its stack.
 */
#ifndef _MM_SWAP_QUEUE_H
#define _MM_SWAP_QUEUE_H

#include <linux/bits.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/swap.h>
#include <linux/types.h>

/* Quota limits (pages per turn) accepted for a device */
#define SWAP_QUEUE_QUOTA_MIN	1U
#define SWAP_QUEUE_QUOTA_MAX	1048576U

/**
 * struct swap_queue_dev - a writable swap device, input to swap_queue_build()
 * @type: swap type (index in swap_info[])
 * @prio: swap priority (si->prio)
 * @quota: pages a CPU allocates from it per turn (si->queue_quota)
 */
struct swap_queue_dev {
	int type;
	int prio;
	unsigned int quota;
};

/**
 * struct swap_queue_member - a device inside a ring of a snapshot
 * @type: swap type
 * @prio: priority of the device, same for every member of a ring
 * @quota: pages per turn, at least SWAP_QUEUE_QUOTA_MIN
 */
struct swap_queue_member {
	int type;
	int prio;
	unsigned int quota;
};

/**
 * struct swap_queue_ring - the devices of one priority
 * @prio: their priority
 * @first: index of the first member in &swap_queue_snapshot.members
 * @nr: number of members, at least one
 * @joined_gen: generation in which the ring last gained a member (or was
 *		created); since then it has only lost members, if any
 */
struct swap_queue_ring {
	int prio;
	unsigned int first;
	unsigned int nr;
	unsigned long joined_gen;
};

/**
 * struct swap_queue_snapshot - immutable view of the writable swap devices
 * @gen: generation, incremented by one at every publication
 * @nr_rings: number of rings
 * @nr_members: number of devices, over all rings
 * @ring_of: ring index of each swap type, -1 if the type is not a member
 * @pos_of: position of each member swap type inside its ring
 * @rings: the rings, highest priority first
 * @members: all members, ring after ring; inside a ring by swap type
 * @rcu: for freeing a replaced snapshot
 *
 * Locking: a snapshot is filled by the topology writer (swap_queue_mutex,
 * plus swap_lock so that the set of SWP_WRITEOK devices is stable) in memory
 * no reader can see, then published with rcu_assign_pointer() and never
 * modified again. Readers use it inside an RCU read-side critical section:
 * rcu_read_lock(), or the swap allocator local lock section, which is one
 * (preemption disabled on !PREEMPT_RT, a sleeping spinlock that takes
 * rcu_read_lock() on PREEMPT_RT). Replaced snapshots are freed with
 * kfree_rcu(). Membership says nothing about fullness: a member may be full,
 * see SWAP_USAGE_OFFLIST_BIT, which readers test themselves.
 */
struct swap_queue_snapshot {
	unsigned long gen;
	unsigned int nr_rings;
	unsigned int nr_members;
	signed char ring_of[MAX_SWAPFILES];
	unsigned char pos_of[MAX_SWAPFILES];
	struct swap_queue_ring rings[MAX_SWAPFILES];
	struct swap_queue_member members[MAX_SWAPFILES];
	struct rcu_head rcu;
};

/**
 * struct swap_queue_reader - one CPU's place in every ring of a snapshot
 * @gen: generation of the snapshot the state below belongs to
 * @nr_rings: number of rings of that snapshot
 * @type: per ring, the member (swap type) this CPU currently allocates from
 * @left: per ring, pages left in the current member's turn
 *
 * Locking: per CPU. Written only by its own CPU with the allocator local
 * lock held; other CPUs (debugfs) read it racily with READ_ONCE(). When the
 * generation changes it is redistributed by swap_queue_reader_sync().
 */
struct swap_queue_reader {
	unsigned long gen;
	unsigned int nr_rings;
	signed char type[MAX_SWAPFILES];
	int left[MAX_SWAPFILES];
};

/**
 * struct swap_queue_cursor - one allocation's walk over a snapshot
 * @gen: generation of the snapshot being walked
 * @ring: ring being walked
 * @start: position in @ring where the walk of that ring started
 * @step: members of @ring visited so far
 * @tried: swap types already returned in this request (any snapshot)
 * @one_ring: stop after the first ring that had a candidate (large folios)
 * @done: nothing more to return
 * @prio: priority of @ring
 * @found_prio: the highest priority at which a candidate was found in this
 *	        request (any snapshot), INT_MIN while there is none
 * @fallbacks: the lowest ring below the first that the walk reached, once
 *	       per request however often it restarts
 *
 * Lives on the stack of the allocating task. Only valid together with the
 * snapshot of generation @gen; after the reader section was left, the walk
 * continues on the current snapshot with swap_queue_cursor_restart(), which
 * keeps @tried so that no device is tried twice for one request.
 */
struct swap_queue_cursor {
	unsigned long gen;
	unsigned int ring;
	unsigned int start;
	unsigned int step;
	u32 tried;
	bool one_ring;
	bool done;
	int prio;
	int found_prio;
	unsigned int fallbacks;
};

/* Debug counters (debugfs), see swap_queue_stat_add() */
enum swap_queue_stat_item {
	SWAP_QUEUE_STAT_PUBLISHES,
	SWAP_QUEUE_STAT_WALKS,
	SWAP_QUEUE_STAT_RING_FALLBACKS,
	SWAP_QUEUE_STAT_CURSOR_RESTARTS,
	SWAP_QUEUE_STAT_SYNC_DISCARDS,
	NR_SWAP_QUEUE_STATS,
};

/**
 * struct swap_queue_pcpu - per-CPU state of the swap device queue
 * @reader: this CPU's place in the rings
 * @stat: debug counters, updated with this_cpu_add()
 *
 * Locking: @reader is protected by the swap allocator local lock, which
 * swapfile.c owns (see &struct swap_queue_reader).
 */
struct swap_queue_pcpu {
	struct swap_queue_reader reader;
	unsigned long stat[NR_SWAP_QUEUE_STATS];
};

DECLARE_PER_CPU(struct swap_queue_pcpu, swap_queue_pcpu);

/* Only debugfs reads the counters: without it, the hot path skips them */
static inline void swap_queue_stat_add(enum swap_queue_stat_item item,
				       unsigned long nr)
{
	if (IS_ENABLED(CONFIG_DEBUG_FS))
		this_cpu_add(swap_queue_pcpu.stat[item], nr);
}

unsigned long swap_queue_stat_read(enum swap_queue_stat_item item);

/* Pure snapshot, reader and cursor logic (also used by the KUnit test) */
void swap_queue_build(struct swap_queue_snapshot *snap,
		      const struct swap_queue_dev *devs, unsigned int nr);
void swap_queue_link(struct swap_queue_snapshot *snap,
		     const struct swap_queue_snapshot *prev);
void swap_queue_reader_sync(const struct swap_queue_snapshot *snap,
			    struct swap_queue_reader *rs, unsigned int cpu);
void swap_queue_reader_charge(const struct swap_queue_snapshot *snap,
			      struct swap_queue_reader *rs, int type,
			      unsigned int nr);
int swap_queue_reader_pos(const struct swap_queue_snapshot *snap,
			  const struct swap_queue_reader *rs, unsigned int ring);
void swap_queue_cursor_init(struct swap_queue_cursor *cur,
			    const struct swap_queue_snapshot *snap,
			    const struct swap_queue_reader *rs, bool one_ring);
void swap_queue_cursor_restart(struct swap_queue_cursor *cur,
			       const struct swap_queue_snapshot *snap,
			       const struct swap_queue_reader *rs);
int swap_queue_cursor_next(struct swap_queue_cursor *cur,
			   const struct swap_queue_snapshot *snap,
			   const struct swap_queue_reader *rs);
bool swap_queue_cursor_candidate(struct swap_queue_cursor *cur,
				 bool available, bool fits);

/* Publication (topology writer) */
struct swap_queue_snapshot *swap_queue_snapshot_alloc(void);
void swap_queue_snapshot_free(struct swap_queue_snapshot *snap);
void swap_queue_writer_lock(void);
void swap_queue_writer_unlock(void);
void swap_queue_publish(struct swap_queue_snapshot *snap);
unsigned int swap_queue_default_quota(void);

int swap_queue_ring_of(const struct swap_queue_snapshot *snap, int type);
void swap_queue_set_default_quota(unsigned int quota);

/* Readers */
const struct swap_queue_snapshot *swap_queue_get(void);
const struct swap_queue_snapshot *
swap_queue_alloc_begin(struct swap_queue_reader **rsp);

/* Helpers in swapfile.c for the admin interface */
bool swap_device_available(struct swap_info_struct *si);
int swap_queue_set_quota(int type, unsigned int quota);

/* Admin interface: a device's sysfs directory */
#ifdef CONFIG_SYSFS
void swap_queue_sysfs_add(int type);
void swap_queue_sysfs_del(int type);
#else
static inline void swap_queue_sysfs_add(int type)
{
}

static inline void swap_queue_sysfs_del(int type)
{
}
#endif

#endif /* _MM_SWAP_QUEUE_H */
