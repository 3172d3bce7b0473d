// SPDX-License-Identifier: GPL-2.0
/*
 * Swap device priority queue.
 *
 * Device selection for swap allocation, separated from the device-local
 * cluster allocation in swapfile.c:
 *
 * - The writable swap devices form an immutable snapshot (struct
 *   swap_queue_snapshot): rings of equal-priority devices, highest priority
 *   first. Only the topology writer builds and publishes snapshots, at
 *   swapon, at swapoff (in the same step that clears SWP_WRITEOK), when a
 *   failed swapoff puts the device back, and when an administrator changes
 *   a device's quota. Full/not-full transitions do not republish: they
 *   happen in atomic context and stay a per-device bit.
 *
 * - Each CPU has a place in every ring (struct swap_queue_reader): the
 *   member it allocates from and how many pages of that member's quota are
 *   left. After quota pages it moves on to the next member, so devices of
 *   one priority are striped in proportion to their quotas. CPUs start on
 *   different members. When the generation changes, a CPU keeps its member
 *   and remaining quota in a ring that has only lost members since; in a
 *   ring that gained one, every CPU starts over at its CPU number modulo
 *   the ring size with a full quota, so that the CPUs are spread over the
 *   new members too. A ring with one member needs no bookkeeping.
 *
 * - One allocation walks the snapshot with a cursor (struct
 *   swap_queue_cursor) on its stack: each member of a ring at most once,
 *   starting at this CPU's current member, then the next ring.
 *
 * Locking:
 *   swap_queue_mutex (topology writer) nests inside swapon_mutex and outside
 *   swap_lock: swapon_mutex -> swap_queue_mutex -> swap_lock -> si->lock.
 *   swap_queue_current is written only with swap_queue_mutex held and read
 *   under RCU; the allocator local lock section counts as an RCU read-side
 *   critical section. Per-CPU reader state is protected by the allocator
 *   local lock of its CPU.
 */

#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "swap.h"
#include "swap_queue.h"

DEFINE_PER_CPU(struct swap_queue_pcpu, swap_queue_pcpu);

/* Serializes snapshot publication and the per-device queue settings */
static DEFINE_MUTEX(swap_queue_mutex);

/* The snapshot published before the first swapon: no rings */
static struct swap_queue_snapshot swap_queue_empty = {
	.ring_of = { [0 ... MAX_SWAPFILES - 1] = -1 },
};

static struct swap_queue_snapshot __rcu *swap_queue_current =
	RCU_INITIALIZER(&swap_queue_empty);

/* Quota given to a device at swapon, in pages */
static unsigned int swap_queue_dflt_quota = SWAPFILE_CLUSTER;

int swap_queue_ring_of(const struct swap_queue_snapshot *snap, int type)
{
	int ring;

	if (type < 0 || type >= MAX_SWAPFILES)
		return -1;
	ring = snap->ring_of[type];
	if (ring < 0 || ring >= snap->nr_rings)
		return -1;
	return ring;
}

/**
 * swap_queue_build - fill a snapshot from a set of devices
 * @snap: snapshot to fill, not visible to readers yet
 * @devs: the writable devices, in any order
 * @nr: number of entries in @devs, at most MAX_SWAPFILES
 *
 * Groups the devices into rings of equal priority, highest priority first,
 * members of a ring in swap type order. The generations are left to
 * swap_queue_link().
 */
void swap_queue_build(struct swap_queue_snapshot *snap,
		      const struct swap_queue_dev *devs, unsigned int nr)
{
	struct swap_queue_member *m = snap->members;
	unsigned int i, j;

	memset(snap, 0, sizeof(*snap));
	memset(snap->ring_of, -1, sizeof(snap->ring_of));
	if (WARN_ON_ONCE(nr > MAX_SWAPFILES))
		nr = MAX_SWAPFILES;

	/* Insertion sort: priority descending, then type ascending */
	for (i = 0; i < nr; i++) {
		struct swap_queue_member new = {
			.type = devs[i].type,
			.prio = devs[i].prio,
			.quota = clamp(devs[i].quota, SWAP_QUEUE_QUOTA_MIN,
				       SWAP_QUEUE_QUOTA_MAX),
		};

		if (WARN_ON_ONCE(new.type < 0 || new.type >= MAX_SWAPFILES))
			continue;
		j = snap->nr_members;
		while (j > 0 && (m[j - 1].prio < new.prio ||
				 (m[j - 1].prio == new.prio &&
				  m[j - 1].type > new.type))) {
			m[j] = m[j - 1];
			j--;
		}
		m[j] = new;
		snap->nr_members++;
	}

	for (i = 0; i < snap->nr_members; i++) {
		struct swap_queue_ring *ring;

		if (!i || m[i].prio != m[i - 1].prio) {
			ring = &snap->rings[snap->nr_rings++];
			ring->prio = m[i].prio;
			ring->first = i;
		}
		ring = &snap->rings[snap->nr_rings - 1];
		snap->ring_of[m[i].type] = snap->nr_rings - 1;
		snap->pos_of[m[i].type] = ring->nr++;
	}
}
EXPORT_SYMBOL_IF_KUNIT(swap_queue_build);

/**
 * swap_queue_link - make a built snapshot the successor of another
 * @snap: snapshot filled by swap_queue_build(), not visible to readers yet
 * @prev: the snapshot it replaces
 *
 * Sets the generation and, per ring, the generation in which the ring last
 * gained a member: a ring whose members all come from one ring of the same
 * priority in @prev keeps that ring's, any other ring gets the new one.
 */
void swap_queue_link(struct swap_queue_snapshot *snap,
		     const struct swap_queue_snapshot *prev)
{
	unsigned int r, i;

	snap->gen = prev->gen + 1;
	for (r = 0; r < snap->nr_rings; r++) {
		struct swap_queue_ring *ring = &snap->rings[r];
		const struct swap_queue_member *m = &snap->members[ring->first];
		int from = swap_queue_ring_of(prev, m[0].type);

		ring->joined_gen = snap->gen;
		if (from < 0 || prev->rings[from].prio != ring->prio)
			continue;
		for (i = 1; i < ring->nr; i++)
			if (swap_queue_ring_of(prev, m[i].type) != from)
				break;
		if (i == ring->nr)
			ring->joined_gen = prev->rings[from].joined_gen;
	}
}
EXPORT_SYMBOL_IF_KUNIT(swap_queue_link);

/**
 * swap_queue_reader_sync - bring a CPU's ring positions up to a snapshot
 * @snap: current snapshot
 * @rs: the CPU's reader state
 * @cpu: the CPU, used to spread starting positions over ring members
 *
 * Nothing to do if @rs already belongs to @snap's generation. Otherwise, in
 * every ring that has only lost members since @rs's generation, the member
 * this CPU was using is kept along with its remaining quota (clamped to its
 * current quota). In a ring that gained a member, or when that member left,
 * the CPU starts at member @cpu modulo the ring size with a full quota: the
 * CPUs spread over the members again instead of all staying on the ones
 * that were there before.
 */
void swap_queue_reader_sync(const struct swap_queue_snapshot *snap,
			    struct swap_queue_reader *rs, unsigned int cpu)
{
	struct swap_queue_reader old;
	unsigned int r, i;

	if (likely(rs->gen == snap->gen))
		return;

	old = *rs;
	for (r = 0; r < snap->nr_rings; r++) {
		const struct swap_queue_ring *ring = &snap->rings[r];
		const struct swap_queue_member *m = NULL;
		unsigned int nr_old = 0;
		int left = 0;

		/* Look for the old member only if nobody joined since */
		if (ring->joined_gen <= old.gen)
			nr_old = min_t(unsigned int, old.nr_rings, MAX_SWAPFILES);
		for (i = 0; i < nr_old; i++) {
			int type = old.type[i];

			if (swap_queue_ring_of(snap, type) != r)
				continue;
			m = &snap->members[ring->first + snap->pos_of[type]];
			left = min_t(int, old.left[i], m->quota);
			break;
		}
		if (!m || left <= 0) {
			if (!m)
				m = &snap->members[ring->first + cpu % ring->nr];
			left = m->quota;
		}
		WRITE_ONCE(rs->type[r], m->type);
		WRITE_ONCE(rs->left[r], left);
	}
	for (; r < MAX_SWAPFILES; r++) {
		WRITE_ONCE(rs->type[r], -1);
		WRITE_ONCE(rs->left[r], 0);
	}
	WRITE_ONCE(rs->nr_rings, snap->nr_rings);
	WRITE_ONCE(rs->gen, snap->gen);
}
EXPORT_SYMBOL_IF_KUNIT(swap_queue_reader_sync);

/**
 * swap_queue_reader_charge - account an allocation to a CPU's turn
 * @snap: current snapshot, @rs must be synced to it
 * @rs: the CPU's reader state
 * @type: swap type the pages were allocated from
 * @nr: number of pages
 *
 * The member allocated from becomes the CPU's current member of its ring
 * (the walk may have skipped the previous one). Once its quota is used up,
 * the CPU moves on to the next member with a fresh quota. Nothing is done
 * for a ring of one member, or for a type that left the queue meanwhile.
 */
void swap_queue_reader_charge(const struct swap_queue_snapshot *snap,
			      struct swap_queue_reader *rs, int type,
			      unsigned int nr)
{
	const struct swap_queue_ring *ring;
	const struct swap_queue_member *m;
	unsigned int pos;
	int r, left;

	r = swap_queue_ring_of(snap, type);
	if (r < 0 || rs->gen != snap->gen)
		return;
	ring = &snap->rings[r];
	if (ring->nr == 1)
		return;

	pos = snap->pos_of[type];
	m = &snap->members[ring->first + pos];
	if (rs->type[r] == type)
		left = rs->left[r];
	else
		left = m->quota;
	left -= min_t(unsigned int, nr, SWAP_QUEUE_QUOTA_MAX);
	if (left <= 0) {
		pos = pos + 1 < ring->nr ? pos + 1 : 0;
		m = &snap->members[ring->first + pos];
		left = m->quota;
	}
	WRITE_ONCE(rs->type[r], m->type);
	WRITE_ONCE(rs->left[r], left);
}
EXPORT_SYMBOL_IF_KUNIT(swap_queue_reader_charge);

/**
 * swap_queue_reader_pos - a CPU's current position inside a ring
 * @snap: snapshot
 * @rs: the CPU's reader state
 * @ring: ring index
 *
 * Return: the position of the CPU's current member of @ring, or 0 if @rs
 * is not synced to @snap.
 */
int swap_queue_reader_pos(const struct swap_queue_snapshot *snap,
			  const struct swap_queue_reader *rs, unsigned int ring)
{
	int type;

	if (ring >= snap->nr_rings || READ_ONCE(rs->gen) != snap->gen)
		return 0;
	type = READ_ONCE(rs->type[ring]);
	if (swap_queue_ring_of(snap, type) != ring)
		return 0;
	return snap->pos_of[type];
}
EXPORT_SYMBOL_IF_KUNIT(swap_queue_reader_pos);

static void swap_queue_cursor_enter(struct swap_queue_cursor *cur,
				    const struct swap_queue_snapshot *snap,
				    const struct swap_queue_reader *rs)
{
	cur->step = 0;
	cur->start = 0;
	if (cur->ring >= snap->nr_rings) {
		cur->done = true;
		return;
	}
	cur->prio = snap->rings[cur->ring].prio;
	if (snap->rings[cur->ring].nr > 1 && rs)
		cur->start = swap_queue_reader_pos(snap, rs, cur->ring);
}

/**
 * swap_queue_cursor_init - start a walk over a snapshot
 * @cur: the cursor
 * @snap: snapshot to walk
 * @rs: the CPU's reader state, synced to @snap; gives each ring's start
 * @one_ring: stop at the end of the first ring in which the caller found a
 *	      candidate (see swap_queue_cursor_candidate())
 */
void swap_queue_cursor_init(struct swap_queue_cursor *cur,
			    const struct swap_queue_snapshot *snap,
			    const struct swap_queue_reader *rs, bool one_ring)
{
	memset(cur, 0, sizeof(*cur));
	cur->one_ring = one_ring;
	cur->found_prio = INT_MIN;
	cur->gen = snap->gen;
	swap_queue_cursor_enter(cur, snap, rs);
}
EXPORT_SYMBOL_IF_KUNIT(swap_queue_cursor_init);

/**
 * swap_queue_cursor_restart - continue a walk from the top of a new snapshot
 * @cur: the cursor
 * @snap: the current snapshot, possibly of another generation
 * @rs: the CPU's reader state, synced to @snap
 *
 * Used after the reader section was left: the cursor starts again from the
 * highest priority ring of @snap, but devices already returned for this
 * request are not returned again, so the walk still terminates. A one_ring
 * walk still ends with the ring of the priority at which it found a
 * candidate, not before: its untried members still get their turn.
 */
void swap_queue_cursor_restart(struct swap_queue_cursor *cur,
			       const struct swap_queue_snapshot *snap,
			       const struct swap_queue_reader *rs)
{
	cur->gen = snap->gen;
	cur->ring = 0;
	cur->done = false;
	swap_queue_cursor_enter(cur, snap, rs);
}
EXPORT_SYMBOL_IF_KUNIT(swap_queue_cursor_restart);

/**
 * swap_queue_cursor_next - next device to try
 * @cur: the cursor
 * @snap: the snapshot of generation @cur->gen
 * @rs: the CPU's reader state, for the start of the next ring
 *
 * Visits every member of a ring at most once, starting at the CPU's current
 * member, then moves on to the next ring. In one_ring mode the walk ends
 * with the ring of the highest priority at which the caller found a
 * candidate.
 *
 * Return: a swap type, or -1 when the walk is over.
 */
int swap_queue_cursor_next(struct swap_queue_cursor *cur,
			   const struct swap_queue_snapshot *snap,
			   const struct swap_queue_reader *rs)
{
	if (WARN_ON_ONCE(cur->gen != snap->gen))
		cur->done = true;

	while (!cur->done) {
		const struct swap_queue_ring *ring = &snap->rings[cur->ring];

		while (cur->step < ring->nr) {
			/* start and step are below nr: no division needed */
			unsigned int pos = cur->start + cur->step;
			int type;

			if (pos >= ring->nr)
				pos -= ring->nr;
			type = snap->members[ring->first + pos].type;
			cur->step++;
			if (cur->tried & BIT(type))
				continue;
			cur->tried |= BIT(type);
			return type;
		}
		if (cur->one_ring && cur->prio <= cur->found_prio) {
			cur->done = true;
			break;
		}
		cur->ring++;
		swap_queue_cursor_enter(cur, snap, rs);
		if (!cur->done)
			cur->fallbacks = max(cur->fallbacks, cur->ring);
	}
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(swap_queue_cursor_next);

/**
 * swap_queue_cursor_candidate - decide on the device the cursor returned
 * @cur: the cursor
 * @available: the device is writable and not full
 * @fits: the device can take the folio (a large folio needs a block device)
 *
 * An available device is a candidate even when it cannot take this folio:
 * it makes its ring the last of a one_ring walk. That is strict priority for
 * large folios: when the highest ring with an available device has no
 * member that takes the folio whole, the folio is split, and never goes
 * whole to a lower priority.
 *
 * Return: true if the caller should allocate from the device.
 */
bool swap_queue_cursor_candidate(struct swap_queue_cursor *cur,
				 bool available, bool fits)
{
	if (!available)
		return false;
	cur->found_prio = max(cur->found_prio, cur->prio);
	return fits;
}
EXPORT_SYMBOL_IF_KUNIT(swap_queue_cursor_candidate);

/**
 * swap_queue_snapshot_alloc - allocate a snapshot for a later publication
 *
 * Writers allocate before taking locks or passing a point of no return, so
 * that publication itself cannot fail.
 *
 * Return: the snapshot, or NULL.
 */
struct swap_queue_snapshot *swap_queue_snapshot_alloc(void)
{
	return kzalloc_obj(struct swap_queue_snapshot);
}

/* Free a snapshot that was never published */
void swap_queue_snapshot_free(struct swap_queue_snapshot *snap)
{
	kfree(snap);
}

void swap_queue_writer_lock(void)
{
	mutex_lock(&swap_queue_mutex);
}

void swap_queue_writer_unlock(void)
{
	mutex_unlock(&swap_queue_mutex);
}

/**
 * swap_queue_publish - make a built snapshot the current one
 * @snap: snapshot filled by swap_queue_build()
 *
 * Context: topology writer (swap_queue_mutex held); may be called with
 * spinlocks held, does not sleep. The replaced snapshot is freed after a
 * grace period.
 */
void swap_queue_publish(struct swap_queue_snapshot *snap)
{
	struct swap_queue_snapshot *old;

	old = rcu_dereference_protected(swap_queue_current,
					lockdep_is_held(&swap_queue_mutex));
	swap_queue_link(snap, old);
	rcu_assign_pointer(swap_queue_current, snap);
	swap_queue_stat_add(SWAP_QUEUE_STAT_PUBLISHES, 1);
	if (old != &swap_queue_empty)
		kfree_rcu(old, rcu);
}

unsigned int swap_queue_default_quota(void)
{
	return READ_ONCE(swap_queue_dflt_quota);
}

/* Quota given to devices swapped on from now on; @quota already checked. */
void swap_queue_set_default_quota(unsigned int quota)
{
	WRITE_ONCE(swap_queue_dflt_quota, quota);
}

/**
 * swap_queue_get - the current snapshot
 *
 * Context: RCU reader (rcu_read_lock() or the allocator local lock, see
 * &struct swap_queue_snapshot), or the topology writer.
 * Return: the current snapshot, never NULL.
 */
const struct swap_queue_snapshot *swap_queue_get(void)
{
	return rcu_dereference_check(swap_queue_current,
				     rcu_read_lock_any_held() ||
				     lockdep_is_held(&swap_queue_mutex));
}

/**
 * swap_queue_alloc_begin - enter or re-enter the queue from the allocator
 * @rsp: returns this CPU's reader state, synced to the returned snapshot
 *
 * Context: the swap allocator local lock (in swapfile.c) held, which
 * protects this CPU's reader state and is an RCU reader section. Must be
 * called again whenever that lock was dropped, as the CPU and the snapshot
 * may have changed.
 * Return: the current snapshot.
 */
const struct swap_queue_snapshot *
swap_queue_alloc_begin(struct swap_queue_reader **rsp)
{
	const struct swap_queue_snapshot *snap;
	struct swap_queue_reader *rs;

	snap = swap_queue_get();
	rs = this_cpu_ptr(&swap_queue_pcpu.reader);
	swap_queue_reader_sync(snap, rs, smp_processor_id());
	*rsp = rs;
	return snap;
}

unsigned long swap_queue_stat_read(enum swap_queue_stat_item item)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(swap_queue_pcpu.stat[item], cpu));
	return sum;
}
