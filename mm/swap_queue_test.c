// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the swap device priority queue: building rings from a set
 * of devices, per-CPU reader positions and quotas, and the allocation
 * cursor. Uses only the pure queue logic, no swap device is needed.
 */

#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/module.h>

#include "swap_queue.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

#define Q	512	/* the default quota with 4K pages */

static struct swap_queue_snapshot *
sq_build(struct kunit *test, const struct swap_queue_dev *devs,
	 unsigned int nr, unsigned long gen)
{
	struct swap_queue_snapshot *snap;

	snap = kunit_kzalloc(test, sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	swap_queue_build(snap, devs, nr);
	snap->gen = gen;
	return snap;
}

static struct swap_queue_reader *sq_reader(struct kunit *test)
{
	struct swap_queue_reader *rs;

	rs = kunit_kzalloc(test, sizeof(*rs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rs);
	return rs;
}

/* Rings are grouped by priority, highest first, members by type. */
static void sq_test_build_rings(struct kunit *test)
{
	static const struct swap_queue_dev devs[] = {
		{ .type = 0, .prio = -1, .quota = Q },
		{ .type = 3, .prio = 5, .quota = Q },
		{ .type = 1, .prio = 5, .quota = 2 * Q },
		{ .type = 2, .prio = -2, .quota = Q },
		{ .type = 4, .prio = -1, .quota = 0 },
	};
	struct swap_queue_snapshot *snap;

	snap = sq_build(test, devs, ARRAY_SIZE(devs), 1);
	KUNIT_ASSERT_EQ(test, snap->nr_rings, 3U);
	KUNIT_EXPECT_EQ(test, snap->nr_members, 5U);

	KUNIT_EXPECT_EQ(test, snap->rings[0].prio, 5);
	KUNIT_EXPECT_EQ(test, snap->rings[0].nr, 2U);
	KUNIT_EXPECT_EQ(test, snap->rings[1].prio, -1);
	KUNIT_EXPECT_EQ(test, snap->rings[1].nr, 2U);
	KUNIT_EXPECT_EQ(test, snap->rings[2].prio, -2);
	KUNIT_EXPECT_EQ(test, snap->rings[2].nr, 1U);

	/* Members in priority order, ring after ring */
	KUNIT_EXPECT_EQ(test, snap->members[0].type, 1);
	KUNIT_EXPECT_EQ(test, snap->members[1].type, 3);
	KUNIT_EXPECT_EQ(test, snap->members[2].type, 0);
	KUNIT_EXPECT_EQ(test, snap->members[3].type, 4);
	KUNIT_EXPECT_EQ(test, snap->members[4].type, 2);

	KUNIT_EXPECT_EQ(test, snap->ring_of[1], 0);
	KUNIT_EXPECT_EQ(test, snap->ring_of[3], 0);
	KUNIT_EXPECT_EQ(test, snap->ring_of[0], 1);
	KUNIT_EXPECT_EQ(test, snap->ring_of[4], 1);
	KUNIT_EXPECT_EQ(test, snap->ring_of[2], 2);
	KUNIT_EXPECT_EQ(test, snap->ring_of[5], -1);
	KUNIT_EXPECT_EQ(test, snap->pos_of[3], 1);
	KUNIT_EXPECT_EQ(test, snap->pos_of[4], 1);
	KUNIT_EXPECT_EQ(test, snap->pos_of[2], 0);

	/* Quotas are kept and clamped to at least one page */
	KUNIT_EXPECT_EQ(test, snap->members[0].quota, 2U * Q);
	KUNIT_EXPECT_EQ(test, snap->members[3].quota, 1U);
}

/* No device: no ring, and a walk ends at once. */
static void sq_test_build_empty(struct kunit *test)
{
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *snap;
	struct swap_queue_cursor cur;

	snap = sq_build(test, NULL, 0, 1);
	KUNIT_EXPECT_EQ(test, snap->nr_rings, 0U);
	KUNIT_EXPECT_EQ(test, snap->nr_members, 0U);
	swap_queue_reader_sync(snap, rs, 0);
	KUNIT_EXPECT_EQ(test, rs->gen, 1UL);
	swap_queue_cursor_init(&cur, snap, rs, false);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
}

/* CPUs start on different members of a ring. */
static void sq_test_phase_spread(struct kunit *test)
{
	static const struct swap_queue_dev devs[] = {
		{ .type = 0, .prio = 1, .quota = Q },
		{ .type = 1, .prio = 1, .quota = Q },
		{ .type = 2, .prio = 1, .quota = Q },
		{ .type = 3, .prio = 1, .quota = Q },
		{ .type = 4, .prio = 0, .quota = Q },
	};
	struct swap_queue_snapshot *snap;
	unsigned int cpu;

	snap = sq_build(test, devs, ARRAY_SIZE(devs), 1);
	for (cpu = 0; cpu < 8; cpu++) {
		struct swap_queue_reader *rs = sq_reader(test);

		swap_queue_reader_sync(snap, rs, cpu);
		KUNIT_EXPECT_EQ(test, swap_queue_reader_pos(snap, rs, 0),
				(int)(cpu % 4));
		KUNIT_EXPECT_EQ(test, rs->left[0], Q);
		/* The one-member ring has its only member */
		KUNIT_EXPECT_EQ(test, rs->type[1], 4);
		KUNIT_EXPECT_EQ(test, swap_queue_reader_pos(snap, rs, 1), 0);
	}
}

/* A CPU takes quota pages from a member, then moves on. */
static void sq_test_quota_accounting(struct kunit *test)
{
	static const struct swap_queue_dev devs[] = {
		{ .type = 0, .prio = 0, .quota = Q },
		{ .type = 1, .prio = 0, .quota = Q },
	};
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *snap;

	snap = sq_build(test, devs, ARRAY_SIZE(devs), 1);
	swap_queue_reader_sync(snap, rs, 0);
	KUNIT_ASSERT_EQ(test, rs->type[0], 0);

	swap_queue_reader_charge(snap, rs, 0, Q - 1);
	KUNIT_EXPECT_EQ(test, rs->type[0], 0);
	KUNIT_EXPECT_EQ(test, rs->left[0], 1);

	swap_queue_reader_charge(snap, rs, 0, 1);
	KUNIT_EXPECT_EQ(test, rs->type[0], 1);
	KUNIT_EXPECT_EQ(test, rs->left[0], Q);

	/* A large folio can overrun the quota: the turn simply ends */
	swap_queue_reader_charge(snap, rs, 1, Q - 8);
	swap_queue_reader_charge(snap, rs, 1, 16);
	KUNIT_EXPECT_EQ(test, rs->type[0], 0);
	KUNIT_EXPECT_EQ(test, rs->left[0], Q);

	/* Allocating from another member makes it the current one */
	swap_queue_reader_charge(snap, rs, 1, 2);
	KUNIT_EXPECT_EQ(test, rs->type[0], 1);
	KUNIT_EXPECT_EQ(test, rs->left[0], Q - 2);

	/* A type that is not queued changes nothing */
	swap_queue_reader_charge(snap, rs, 7, 2);
	KUNIT_EXPECT_EQ(test, rs->type[0], 1);
	KUNIT_EXPECT_EQ(test, rs->left[0], Q - 2);
}

/* A one-member ring does no rotation bookkeeping. */
static void sq_test_singleton(struct kunit *test)
{
	static const struct swap_queue_dev devs[] = {
		{ .type = 2, .prio = 0, .quota = Q },
	};
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *snap;
	int i;

	snap = sq_build(test, devs, ARRAY_SIZE(devs), 1);
	swap_queue_reader_sync(snap, rs, 3);
	for (i = 0; i < 4; i++)
		swap_queue_reader_charge(snap, rs, 2, Q);
	KUNIT_EXPECT_EQ(test, rs->type[0], 2);
	KUNIT_EXPECT_EQ(test, rs->left[0], Q);
}

/*
 * Simulate @nr_cpus CPUs allocating @pages pages of @order round robin,
 * always from the first device the cursor proposes, and count the pages
 * per swap type.
 */
static void sq_simulate(struct kunit *test,
			const struct swap_queue_snapshot *snap,
			unsigned int nr_cpus, unsigned int pages,
			unsigned int order, unsigned long *count)
{
	struct swap_queue_reader *rs[4];
	struct swap_queue_cursor cur;
	unsigned int cpu, done = 0;
	int type;

	KUNIT_ASSERT_LE(test, nr_cpus, ARRAY_SIZE(rs));
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		rs[cpu] = sq_reader(test);
		swap_queue_reader_sync(snap, rs[cpu], cpu);
	}
	for (cpu = 0; done < pages; cpu = (cpu + 1) % nr_cpus) {
		swap_queue_cursor_init(&cur, snap, rs[cpu], order > 0);
		type = swap_queue_cursor_next(&cur, snap, rs[cpu]);
		KUNIT_ASSERT_GE(test, type, 0);
		swap_queue_reader_charge(snap, rs[cpu], type, 1U << order);
		count[type] += 1U << order;
		done += 1U << order;
	}
}

/* Equal quotas stripe evenly, quotas of 512 and 1536 give 1:3. */
static void sq_test_weighted_quota(struct kunit *test)
{
	static const struct swap_queue_dev even[] = {
		{ .type = 0, .prio = 0, .quota = Q },
		{ .type = 1, .prio = 0, .quota = Q },
		{ .type = 2, .prio = 0, .quota = Q },
		{ .type = 3, .prio = 0, .quota = Q },
	};
	static const struct swap_queue_dev weighted[] = {
		{ .type = 0, .prio = 0, .quota = 512 },
		{ .type = 1, .prio = 0, .quota = 1536 },
	};
	unsigned long count[MAX_SWAPFILES] = { };
	struct swap_queue_snapshot *snap;
	int i;

	snap = sq_build(test, even, ARRAY_SIZE(even), 1);
	sq_simulate(test, snap, 2, 16 * Q, 0, count);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, count[i], 4UL * Q);

	memset(count, 0, sizeof(count));
	snap = sq_build(test, weighted, ARRAY_SIZE(weighted), 1);
	sq_simulate(test, snap, 1, 40 * 512, 0, count);
	KUNIT_EXPECT_EQ(test, count[0], 10UL * 512);
	KUNIT_EXPECT_EQ(test, count[1], 30UL * 512);

	/* Several CPUs and large folios keep the proportion */
	memset(count, 0, sizeof(count));
	sq_simulate(test, snap, 4, 4 * 40 * 512, 4, count);
	KUNIT_EXPECT_EQ(test, count[1], 3 * count[0]);
}

/* Each member at most once, rings in priority order, then the end. */
static void sq_test_cursor_order(struct kunit *test)
{
	static const struct swap_queue_dev devs[] = {
		{ .type = 0, .prio = -1, .quota = Q },
		{ .type = 1, .prio = 5, .quota = Q },
		{ .type = 3, .prio = 5, .quota = Q },
		{ .type = 4, .prio = -1, .quota = Q },
		{ .type = 5, .prio = -1, .quota = Q },
	};
	static const int expect[] = { 3, 1, 5, 0, 4 };
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *snap;
	struct swap_queue_cursor cur;
	unsigned int i;

	snap = sq_build(test, devs, ARRAY_SIZE(devs), 1);
	/* CPU 1: position 1 in ring 0 (type 3), 1 in ring 1 (type 4) */
	swap_queue_reader_sync(snap, rs, 1);
	/* Make type 5 the current member of ring 1 */
	swap_queue_reader_charge(snap, rs, 5, 1);

	swap_queue_cursor_init(&cur, snap, rs, false);
	for (i = 0; i < ARRAY_SIZE(expect); i++)
		KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs),
				expect[i]);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
	KUNIT_EXPECT_EQ(test, cur.fallbacks, 1U);
	KUNIT_EXPECT_EQ(test, cur.tried,
			(u32)(BIT(0) | BIT(1) | BIT(3) | BIT(4) | BIT(5)));
}

/*
 * One step of a walk: the cursor returns @type, and the caller's verdict on
 * that device (@available, @fits) says whether it allocates there.
 */
static void sq_step(struct kunit *test, struct swap_queue_cursor *cur,
		    const struct swap_queue_snapshot *snap,
		    const struct swap_queue_reader *rs, int type,
		    bool available, bool fits)
{
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(cur, snap, rs), type);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_candidate(cur, available, fits),
			available && fits);
}

/* Three rings: type 0 at the top, types 1 and 2 below it, then type 3 */
static const struct swap_queue_dev sq_three_rings[] = {
	{ .type = 0, .prio = 2, .quota = Q },
	{ .type = 1, .prio = 1, .quota = Q },
	{ .type = 2, .prio = 1, .quota = Q },
	{ .type = 3, .prio = 0, .quota = Q },
};

/* Large folios: stop after the first ring that had a candidate. */
static void sq_test_cursor_one_ring(struct kunit *test)
{
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *snap;
	struct swap_queue_cursor cur;

	snap = sq_build(test, sq_three_rings, ARRAY_SIZE(sq_three_rings), 1);
	swap_queue_reader_sync(snap, rs, 0);

	/* Ring 0 has no candidate (say, full): go on to ring 1 ... */
	swap_queue_cursor_init(&cur, snap, rs, true);
	sq_step(test, &cur, snap, rs, 0, false, true);
	sq_step(test, &cur, snap, rs, 1, true, true);
	/* ... try all its members, and stop there */
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), 2);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);

	/* Order 0 walks every ring */
	swap_queue_cursor_init(&cur, snap, rs, false);
	sq_step(test, &cur, snap, rs, 0, true, true);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), 1);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), 2);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), 3);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
	KUNIT_EXPECT_EQ(test, cur.fallbacks, 2U);
}

/*
 * Strict priority for large folios: an available device that cannot take
 * the folio (a swap file) still ends the walk at its ring, so the folio is
 * split instead of going whole to a lower priority.
 */
static void sq_test_cursor_strict_large(struct kunit *test)
{
	static const struct swap_queue_dev devs[] = {
		{ .type = 0, .prio = 10, .quota = Q },	/* a swap file */
		{ .type = 1, .prio = 10, .quota = Q },	/* full */
		{ .type = 2, .prio = 0, .quota = Q },	/* a block device */
	};
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *snap;
	struct swap_queue_cursor cur;

	snap = sq_build(test, devs, ARRAY_SIZE(devs), 1);
	swap_queue_reader_sync(snap, rs, 0);

	swap_queue_cursor_init(&cur, snap, rs, true);
	sq_step(test, &cur, snap, rs, 0, true, false);
	sq_step(test, &cur, snap, rs, 1, false, true);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
	KUNIT_EXPECT_EQ(test, cur.fallbacks, 0U);

	/* With the file full too, the lower ring gets the folio whole */
	swap_queue_cursor_init(&cur, snap, rs, true);
	sq_step(test, &cur, snap, rs, 0, false, false);
	sq_step(test, &cur, snap, rs, 1, false, true);
	sq_step(test, &cur, snap, rs, 2, true, true);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
}

/*
 * A large folio's walk restarts (the allocator lock was dropped) after it
 * found its candidate in ring 1: the other member of ring 1 still gets its
 * turn, the walk still ends with ring 1, and the fallback to ring 1 is
 * counted once.
 */
static void sq_test_cursor_restart_ring1(struct kunit *test)
{
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *snap;
	struct swap_queue_cursor cur;

	snap = sq_build(test, sq_three_rings, ARRAY_SIZE(sq_three_rings), 1);
	swap_queue_reader_sync(snap, rs, 0);

	swap_queue_cursor_init(&cur, snap, rs, true);
	sq_step(test, &cur, snap, rs, 0, false, true);
	sq_step(test, &cur, snap, rs, 1, true, true);
	/* the allocation from type 1 dropped the lock: -EAGAIN, restart */
	swap_queue_cursor_restart(&cur, snap, rs);
	sq_step(test, &cur, snap, rs, 2, true, true);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
	KUNIT_EXPECT_EQ(test, cur.fallbacks, 1U);
}

/*
 * A republish during a walk: the walk goes on from the top of the new
 * snapshot, never returns a device twice and still ends.
 */
static void sq_test_republish_walk(struct kunit *test)
{
	static const struct swap_queue_dev before[] = {
		{ .type = 0, .prio = 0, .quota = Q },
		{ .type = 1, .prio = 3, .quota = Q },
		{ .type = 3, .prio = 3, .quota = Q },
	};
	static const struct swap_queue_dev after[] = {
		{ .type = 0, .prio = 0, .quota = Q },
		{ .type = 1, .prio = 3, .quota = Q },
		{ .type = 5, .prio = 9, .quota = Q },
		{ .type = 6, .prio = 3, .quota = Q },
	};
	static const int expect[] = { 5, 6, 0 };
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *a, *b;
	struct swap_queue_cursor cur;
	unsigned int i;

	a = sq_build(test, before, ARRAY_SIZE(before), 1);
	b = sq_build(test, after, ARRAY_SIZE(after), 2);

	swap_queue_reader_sync(a, rs, 0);
	swap_queue_cursor_init(&cur, a, rs, false);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, a, rs), 1);

	/* Type 3 left, 5 and 6 arrived; 1 must not be tried again */
	swap_queue_reader_sync(b, rs, 0);
	swap_queue_cursor_restart(&cur, b, rs);
	KUNIT_EXPECT_EQ(test, cur.gen, 2UL);
	for (i = 0; i < ARRAY_SIZE(expect); i++)
		KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, b, rs),
				expect[i]);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, b, rs), -1);

	/* Restarting again cannot bring anything back */
	swap_queue_cursor_restart(&cur, b, rs);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, b, rs), -1);
}

/* A CPU keeps a surviving member and its quota across generations. */
static void sq_test_reader_survives(struct kunit *test)
{
	static const struct swap_queue_dev g1[] = {
		{ .type = 0, .prio = 0, .quota = Q },
		{ .type = 1, .prio = 0, .quota = Q },
		{ .type = 2, .prio = 0, .quota = Q },
	};
	static const struct swap_queue_dev g2[] = {
		{ .type = 0, .prio = 0, .quota = Q },
		{ .type = 1, .prio = 0, .quota = 64 },
		{ .type = 4, .prio = 7, .quota = Q },
	};
	static const struct swap_queue_dev g3[] = {
		{ .type = 0, .prio = 0, .quota = Q },
		{ .type = 2, .prio = 0, .quota = Q },
		{ .type = 3, .prio = 0, .quota = Q },
	};
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *s1, *s2, *s3;

	s1 = sq_build(test, g1, ARRAY_SIZE(g1), 1);
	s2 = sq_build(test, g2, ARRAY_SIZE(g2), 2);
	s3 = sq_build(test, g3, ARRAY_SIZE(g3), 3);

	swap_queue_reader_sync(s1, rs, 1);
	KUNIT_ASSERT_EQ(test, rs->type[0], 1);
	swap_queue_reader_charge(s1, rs, 1, 100);
	KUNIT_EXPECT_EQ(test, rs->left[0], Q - 100);

	/* Type 1 survives, now in ring 1; its quota shrank to 64 */
	swap_queue_reader_sync(s2, rs, 1);
	KUNIT_EXPECT_EQ(test, rs->gen, 2UL);
	KUNIT_EXPECT_EQ(test, rs->nr_rings, 2U);
	KUNIT_EXPECT_EQ(test, rs->type[0], 4);
	KUNIT_EXPECT_EQ(test, rs->type[1], 1);
	KUNIT_EXPECT_EQ(test, rs->left[1], 64);
	KUNIT_EXPECT_EQ(test, swap_queue_reader_pos(s2, rs, 1), 1);

	/* Type 1 is gone: redistributed to cpu % members */
	swap_queue_reader_sync(s3, rs, 1);
	KUNIT_EXPECT_EQ(test, rs->nr_rings, 1U);
	KUNIT_EXPECT_EQ(test, swap_queue_reader_pos(s3, rs, 0), 1);
	KUNIT_EXPECT_EQ(test, rs->type[0], 2);
	KUNIT_EXPECT_EQ(test, rs->left[0], Q);
	KUNIT_EXPECT_EQ(test, rs->type[1], -1);

	/* Same generation again: nothing changes */
	swap_queue_reader_charge(s3, rs, 2, 10);
	swap_queue_reader_sync(s3, rs, 0);
	KUNIT_EXPECT_EQ(test, rs->type[0], 2);
	KUNIT_EXPECT_EQ(test, rs->left[0], Q - 10);
}

static struct kunit_case swap_queue_test_cases[] = {
	KUNIT_CASE(sq_test_build_rings),
	KUNIT_CASE(sq_test_build_empty),
	KUNIT_CASE(sq_test_phase_spread),
	KUNIT_CASE(sq_test_quota_accounting),
	KUNIT_CASE(sq_test_singleton),
	KUNIT_CASE(sq_test_weighted_quota),
	KUNIT_CASE(sq_test_cursor_order),
	KUNIT_CASE(sq_test_cursor_one_ring),
	KUNIT_CASE(sq_test_cursor_strict_large),
	KUNIT_CASE(sq_test_cursor_restart_ring1),
	KUNIT_CASE(sq_test_republish_walk),
	KUNIT_CASE(sq_test_reader_survives),
	{}
};

static struct kunit_suite swap_queue_test_suite = {
	.name = "swap_queue",
	.test_cases = swap_queue_test_cases,
};

kunit_test_suite(swap_queue_test_suite);

MODULE_DESCRIPTION("KUnit tests for the swap device priority queue");
MODULE_LICENSE("GPL");
