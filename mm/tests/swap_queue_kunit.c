// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the swap device priority queue: building rings from a set
 * of devices, per-CPU reader positions and quotas, and the allocation
 * cursor. Uses only the pure queue logic, no swap device is needed.
 */

#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../swap_queue.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

#define Q	512	/* the default quota with 4K pages */

/*
 * Build a snapshot from @devs as the successor of @prev, or as the first
 * publication (generation 1) if @prev is NULL.
 */
static struct swap_queue_snapshot *
sq_build(struct kunit *test, const struct swap_queue_dev *devs,
	 unsigned int nr, const struct swap_queue_snapshot *prev)
{
	static const struct swap_queue_snapshot empty = {
		.ring_of = { [0 ... MAX_SWAPFILES - 1] = -1 },
	};
	struct swap_queue_snapshot *snap;

	snap = kunit_kzalloc(test, sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	swap_queue_build(snap, devs, nr);
	swap_queue_link(snap, prev ?: &empty);
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
static void swap_queue_test_build_rings(struct kunit *test)
{
	static const struct swap_queue_dev devs[] = {
		{ .type = 0, .prio = -1, .quota = Q },
		{ .type = 3, .prio = 5, .quota = Q },
		{ .type = 1, .prio = 5, .quota = 2 * Q },
		{ .type = 2, .prio = -2, .quota = Q },
		{ .type = 4, .prio = -1, .quota = 0 },
	};
	struct swap_queue_snapshot *snap;

	snap = sq_build(test, devs, ARRAY_SIZE(devs), NULL);
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
static void swap_queue_test_build_empty(struct kunit *test)
{
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *snap;
	struct swap_queue_cursor cur;

	snap = sq_build(test, NULL, 0, NULL);
	KUNIT_EXPECT_EQ(test, snap->nr_rings, 0U);
	KUNIT_EXPECT_EQ(test, snap->nr_members, 0U);
	swap_queue_reader_sync(snap, rs, 0);
	KUNIT_EXPECT_EQ(test, rs->gen, 1UL);
	swap_queue_cursor_init(&cur, snap, rs, false);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
}

/* CPUs start on different members of a ring. */
static void swap_queue_test_phase_spread(struct kunit *test)
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

	snap = sq_build(test, devs, ARRAY_SIZE(devs), NULL);
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
static void swap_queue_test_quota_accounting(struct kunit *test)
{
	static const struct swap_queue_dev devs[] = {
		{ .type = 0, .prio = 0, .quota = Q },
		{ .type = 1, .prio = 0, .quota = Q },
	};
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *snap;

	snap = sq_build(test, devs, ARRAY_SIZE(devs), NULL);
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
static void swap_queue_test_singleton(struct kunit *test)
{
	static const struct swap_queue_dev devs[] = {
		{ .type = 2, .prio = 0, .quota = Q },
	};
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *snap;
	int i;

	snap = sq_build(test, devs, ARRAY_SIZE(devs), NULL);
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
static void swap_queue_test_weighted_quota(struct kunit *test)
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

	snap = sq_build(test, even, ARRAY_SIZE(even), NULL);
	sq_simulate(test, snap, 2, 16 * Q, 0, count);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, count[i], 4UL * Q);

	memset(count, 0, sizeof(count));
	snap = sq_build(test, weighted, ARRAY_SIZE(weighted), NULL);
	sq_simulate(test, snap, 1, 40 * 512, 0, count);
	KUNIT_EXPECT_EQ(test, count[0], 10UL * 512);
	KUNIT_EXPECT_EQ(test, count[1], 30UL * 512);

	/* Several CPUs and large folios keep the proportion */
	memset(count, 0, sizeof(count));
	sq_simulate(test, snap, 4, 4 * 40 * 512, 4, count);
	KUNIT_EXPECT_EQ(test, count[1], 3 * count[0]);
}

/* Each member at most once, rings in priority order, then the end. */
static void swap_queue_test_cursor_order(struct kunit *test)
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

	snap = sq_build(test, devs, ARRAY_SIZE(devs), NULL);
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

/* Three rings: type 0 at the top, types 1 and 2 below it, then type 3 */
static const struct swap_queue_dev sq_three_rings[] = {
	{ .type = 0, .prio = 2, .quota = Q },
	{ .type = 1, .prio = 1, .quota = Q },
	{ .type = 2, .prio = 1, .quota = Q },
	{ .type = 3, .prio = 0, .quota = Q },
};

/* Two devices at the top, one below: for strict priority of large folios */
static const struct swap_queue_dev sq_file_above_bdev[] = {
	{ .type = 0, .prio = 10, .quota = Q },
	{ .type = 1, .prio = 10, .quota = Q },
	{ .type = 2, .prio = 0, .quota = Q },
};

/*
 * One step of a walk: the device the cursor must return, the caller's
 * verdict on it (available: writable and not full; fits: takes the folio
 * whole, a large folio needs a block device), and whether its allocation
 * dropped the allocator lock and failed, so that the walk restarts.
 */
struct sq_walk_step {
	int type;
	bool available;
	bool fits;
	bool restart;
};

/*
 * A walk of CPU 0 over @devs: the steps, then the end of the walk, and the
 * number of rings below the first it reached.
 */
struct sq_walk_case {
	const char *name;
	const struct swap_queue_dev *devs;
	unsigned int nr_devs;
	bool one_ring;
	struct sq_walk_step steps[MAX_SWAPFILES];
	unsigned int nr_steps;
	unsigned int fallbacks;
};

static const struct sq_walk_case sq_walk_cases[] = {
	{
		.name = "order 0 walks every ring",
		.devs = sq_three_rings,
		.nr_devs = ARRAY_SIZE(sq_three_rings),
		.steps = { { 0, true, true }, { 1, true, true },
			   { 2, true, true }, { 3, true, true } },
		.nr_steps = 4,
		.fallbacks = 2,
	}, {
		/* ring 0 unavailable (full): ring 1, all of it, then stop */
		.name = "large folio stops after the first ring with a candidate",
		.devs = sq_three_rings,
		.nr_devs = ARRAY_SIZE(sq_three_rings),
		.one_ring = true,
		.steps = { { 0, false, true }, { 1, true, true },
			   { 2, true, true } },
		.nr_steps = 3,
		.fallbacks = 1,
	}, {
		/* type 0 is a swap file: split at the top, never whole below */
		.name = "large folio is split at a ring whose device cannot take it",
		.devs = sq_file_above_bdev,
		.nr_devs = ARRAY_SIZE(sq_file_above_bdev),
		.one_ring = true,
		.steps = { { 0, true, false }, { 1, false, true } },
		.nr_steps = 2,
		.fallbacks = 0,
	}, {
		.name = "large folio goes whole below a ring that is all full",
		.devs = sq_file_above_bdev,
		.nr_devs = ARRAY_SIZE(sq_file_above_bdev),
		.one_ring = true,
		.steps = { { 0, false, false }, { 1, false, true },
			   { 2, true, true } },
		.nr_steps = 3,
		.fallbacks = 1,
	}, {
		/* the restart keeps ring 1: its other member gets its turn */
		.name = "large folio restarting in ring 1 still tries all of it",
		.devs = sq_three_rings,
		.nr_devs = ARRAY_SIZE(sq_three_rings),
		.one_ring = true,
		.steps = { { 0, false, true }, { 1, true, true, true },
			   { 2, true, true } },
		.nr_steps = 3,
		.fallbacks = 1,
	},
};

static void sq_walk_case_desc(const struct sq_walk_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sq_walk, sq_walk_cases, sq_walk_case_desc);

/* The cursor returns each step's device, ends there, counts fallbacks. */
static void swap_queue_test_walk(struct kunit *test)
{
	const struct sq_walk_case *c = test->param_value;
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *snap;
	struct swap_queue_cursor cur;
	unsigned int i;

	snap = sq_build(test, c->devs, c->nr_devs, NULL);
	swap_queue_reader_sync(snap, rs, 0);
	swap_queue_cursor_init(&cur, snap, rs, c->one_ring);
	for (i = 0; i < c->nr_steps; i++) {
		const struct sq_walk_step *s = &c->steps[i];

		KUNIT_EXPECT_EQ_MSG(test, swap_queue_cursor_next(&cur, snap, rs),
				    s->type, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test,
				    swap_queue_cursor_candidate(&cur, s->available,
								s->fits),
				    s->available && s->fits, "step %u", i);
		if (s->restart)
			swap_queue_cursor_restart(&cur, snap, rs);
	}
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
	KUNIT_EXPECT_EQ(test, swap_queue_cursor_next(&cur, snap, rs), -1);
	KUNIT_EXPECT_EQ(test, cur.fallbacks, c->fallbacks);
}

/*
 * A republish during a walk: the walk goes on from the top of the new
 * snapshot, never returns a device twice and still ends.
 */
static void swap_queue_test_republish_walk(struct kunit *test)
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

	a = sq_build(test, before, ARRAY_SIZE(before), NULL);
	b = sq_build(test, after, ARRAY_SIZE(after), a);

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

/*
 * In a ring that only lost members, a CPU keeps its member and its turn
 * across generations.
 */
static void swap_queue_test_reader_survives(struct kunit *test)
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

	s1 = sq_build(test, g1, ARRAY_SIZE(g1), NULL);
	s2 = sq_build(test, g2, ARRAY_SIZE(g2), s1);
	s3 = sq_build(test, g3, ARRAY_SIZE(g3), s2);

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

	/* Type 1 is gone, 2 and 3 joined: redistributed to cpu % members */
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

/*
 * A device joins a ring of one while four CPUs swap: the CPUs spread over
 * both members at once, and every round of one page per CPU uses both.
 * A third member spreads them again, whatever their turns had left.
 */
static void swap_queue_test_ring_grows(struct kunit *test)
{
	static const struct swap_queue_dev one[] = {
		{ .type = 2, .prio = 0, .quota = Q },
	};
	static const struct swap_queue_dev two[] = {
		{ .type = 2, .prio = 0, .quota = Q },
		{ .type = 5, .prio = 0, .quota = Q },
	};
	static const struct swap_queue_dev three[] = {
		{ .type = 2, .prio = 0, .quota = Q },
		{ .type = 5, .prio = 0, .quota = Q },
		{ .type = 6, .prio = 0, .quota = Q },
	};
	struct swap_queue_snapshot *s1, *s2, *s3;
	struct swap_queue_reader *rs[4];
	struct swap_queue_cursor cur;
	unsigned int cpu, round;
	int type;

	s1 = sq_build(test, one, ARRAY_SIZE(one), NULL);
	s2 = sq_build(test, two, ARRAY_SIZE(two), s1);
	s3 = sq_build(test, three, ARRAY_SIZE(three), s2);
	KUNIT_EXPECT_EQ(test, s2->rings[0].joined_gen, 2UL);

	for (cpu = 0; cpu < 4; cpu++) {
		rs[cpu] = sq_reader(test);
		swap_queue_reader_sync(s1, rs[cpu], cpu);
		swap_queue_reader_charge(s1, rs[cpu], 2, 100);
		swap_queue_reader_sync(s2, rs[cpu], cpu);
		KUNIT_EXPECT_EQ(test, swap_queue_reader_pos(s2, rs[cpu], 0),
				(int)(cpu % 2));
		KUNIT_EXPECT_EQ(test, rs[cpu]->left[0], Q);
	}
	for (round = 0; round < 4 * Q; round++) {
		unsigned long used = 0;

		for (cpu = 0; cpu < 4; cpu++) {
			swap_queue_cursor_init(&cur, s2, rs[cpu], false);
			type = swap_queue_cursor_next(&cur, s2, rs[cpu]);
			KUNIT_ASSERT_GE(test, type, 0);
			swap_queue_reader_charge(s2, rs[cpu], type, 1);
			used |= BIT(type);
		}
		KUNIT_ASSERT_EQ_MSG(test, used, BIT(2) | BIT(5), "round %u",
				    round);
	}

	swap_queue_reader_charge(s2, rs[1], 5, 10);
	for (cpu = 0; cpu < 4; cpu++) {
		swap_queue_reader_sync(s3, rs[cpu], cpu);
		KUNIT_EXPECT_EQ(test, swap_queue_reader_pos(s3, rs[cpu], 0),
				(int)(cpu % 3));
		KUNIT_EXPECT_EQ(test, rs[cpu]->left[0], Q);
	}
}

/*
 * Two rings merge (a device swapped on again at another priority): the
 * merged ring spreads the CPUs again; a ring that only lost a member keeps
 * each CPU's member and turn.
 */
static void swap_queue_test_rings_merge(struct kunit *test)
{
	static const struct swap_queue_dev before[] = {
		{ .type = 1, .prio = 5, .quota = Q },
		{ .type = 3, .prio = 2, .quota = Q },
		{ .type = 4, .prio = 2, .quota = Q },
	};
	static const struct swap_queue_dev after[] = {
		{ .type = 1, .prio = 5, .quota = Q },
		{ .type = 3, .prio = 5, .quota = Q },
		{ .type = 4, .prio = 2, .quota = Q },
	};
	struct swap_queue_reader *rs = sq_reader(test);
	struct swap_queue_snapshot *a, *b;

	a = sq_build(test, before, ARRAY_SIZE(before), NULL);
	b = sq_build(test, after, ARRAY_SIZE(after), a);
	KUNIT_EXPECT_EQ(test, b->rings[0].joined_gen, 2UL);
	KUNIT_EXPECT_EQ(test, b->rings[1].joined_gen, 1UL);

	swap_queue_reader_sync(a, rs, 1);
	KUNIT_ASSERT_EQ(test, rs->type[1], 4);
	swap_queue_reader_charge(a, rs, 4, 100);

	swap_queue_reader_sync(b, rs, 1);
	KUNIT_EXPECT_EQ(test, rs->type[0], 3);
	KUNIT_EXPECT_EQ(test, rs->left[0], Q);
	KUNIT_EXPECT_EQ(test, rs->type[1], 4);
	KUNIT_EXPECT_EQ(test, rs->left[1], Q - 100);
}

static struct kunit_case swap_queue_test_cases[] = {
	KUNIT_CASE(swap_queue_test_build_rings),
	KUNIT_CASE(swap_queue_test_build_empty),
	KUNIT_CASE(swap_queue_test_phase_spread),
	KUNIT_CASE(swap_queue_test_quota_accounting),
	KUNIT_CASE(swap_queue_test_singleton),
	KUNIT_CASE(swap_queue_test_weighted_quota),
	KUNIT_CASE(swap_queue_test_cursor_order),
	KUNIT_CASE_PARAM(swap_queue_test_walk, sq_walk_gen_params),
	KUNIT_CASE(swap_queue_test_republish_walk),
	KUNIT_CASE(swap_queue_test_reader_survives),
	KUNIT_CASE(swap_queue_test_ring_grows),
	KUNIT_CASE(swap_queue_test_rings_merge),
	{}
};

static struct kunit_suite swap_queue_test_suite = {
	.name = "swap_queue",
	.test_cases = swap_queue_test_cases,
};

kunit_test_suite(swap_queue_test_suite);

MODULE_DESCRIPTION("KUnit tests for the swap device priority queue");
MODULE_LICENSE("GPL");
