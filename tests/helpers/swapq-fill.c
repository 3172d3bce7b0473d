// SPDX-License-Identifier: GPL-2.0
/*
 * swapq-fill: fill memory with a pattern derived from each word's address and
 * a seed, push it out to swap (by exceeding a memcg limit or explicitly with
 * MADV_PAGEOUT), read it back and verify every byte.
 *
 * Usage: swapq-fill [--anon SIZE] [--shmem SIZE] [--shared SIZE]
 *                   [--file PATH --size SIZE] [--seed N] [--passes N]
 *                   [--pageout] [--pageout-step SIZE] [--holes N]
 *                   [--bounce SECONDS] [--freed SIZE] [--stop-after-fill]
 *                   [--quiet]
 * --shmem is a memfd (tmpfs: folio sizes follow the top-level shmem_enabled),
 * --shared anonymous shared memory (the per-size hugepages-*kB/shmem_enabled
 * controls apply). SIZE takes K, M or G.
 *
 * --pageout-step SIZE: MADV_PAGEOUT SIZE at a time (implies --pageout). With
 * the folio size, reclaim takes one folio per call: a folio split at
 * swap-out gets its pages' slots one after another, in order, instead of
 * its first page's slot among the other folios' first pages and the rest
 * after them all.
 * --holes N: after the pageout, write to every Nth page so that it comes back
 * and its swap slot is freed: on a full device, scattered free slots and no
 * free cluster.
 * --bounce SECONDS: after the fill, page everything out with MADV_PAGEOUT and
 * fault it back in by writing, verifying, over and over for SECONDS.
 * --freed SIZE: before the first fill, fill SIZE more and page it out, then
 * unmap it between the fill and the pageout, so that the pageout needs the
 * swap slots just freed (with discard: clusters still waiting for it); the
 * unmap and that pageout run SCHED_FIFO.
 *
 * Exit status: 0 verified, 1 mismatch, 2 usage or system error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <getopt.h>

#include "parse-size.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

struct region {
	const char *what;
	uint64_t *mem;
	size_t len;
};

static int quiet;
static size_t pageout_step;	/* 0: the whole region in one call */

static uint64_t pattern(uint64_t seed, const void *addr)
{
	uint64_t z = seed + (uintptr_t)addr * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int swap_devices(void)
{
	FILE *f = fopen("/proc/swaps", "r");
	char line[512];
	int n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

static void fill(struct region *r, uint64_t seed)
{
	size_t i, n = r->len / sizeof(uint64_t);

	for (i = 0; i < n; i++)
		r->mem[i] = pattern(seed, &r->mem[i]);
}

static long verify(struct region *r, uint64_t seed)
{
	size_t i, n = r->len / sizeof(uint64_t);
	long bad = 0;

	for (i = 0; i < n; i++) {
		uint64_t want = pattern(seed, &r->mem[i]);

		if (r->mem[i] == want)
			continue;
		if (bad++ < 10)
			fprintf(stderr,
				"swapq-fill: MISMATCH %s at %p (offset %zu): want %016" PRIx64
				" got %016" PRIx64 ", %d swap devices\n",
				r->what, (void *)&r->mem[i], i * sizeof(uint64_t),
				want, r->mem[i], swap_devices());
	}
	return bad;
}

/*
 * Write back the first byte of every @stride bytes unchanged: a write fault
 * swaps the page in and frees its swap slot (a read fault may keep both).
 */
static void touch(struct region *r, size_t stride)
{
	volatile char *p = (char *)r->mem;
	size_t off;

	for (off = 0; off < r->len; off += stride)
		p[off] = p[off];
}

static void page_out(struct region *r)
{
	size_t step = pageout_step ? pageout_step : r->len, off;

	for (off = 0; off < r->len; off += step) {
		size_t len = step < r->len - off ? step : r->len - off;

		if (madvise((char *)r->mem + off, len, MADV_PAGEOUT)) {
			perror("swapq-fill: MADV_PAGEOUT");
			return;
		}
	}
}

static void *map_anon(size_t len)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void *map_shmem(const char *path, size_t len)
{
	int fd;
	void *p;

	if (path)
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	else
		fd = memfd_create("swapq-fill", 0);
	if (fd < 0 || ftruncate(fd, len)) {
		perror("swapq-fill: shmem");
		exit(2);
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "anon", required_argument, NULL, 'a' },
		{ "shmem", required_argument, NULL, 's' },
		{ "shared", required_argument, NULL, 'h' },
		{ "file", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 'z' },
		{ "seed", required_argument, NULL, 'S' },
		{ "passes", required_argument, NULL, 'p' },
		{ "pageout", no_argument, NULL, 'o' },
		{ "pageout-step", required_argument, NULL, 'P' },
		{ "holes", required_argument, NULL, 'H' },
		{ "bounce", required_argument, NULL, 'b' },
		{ "freed", required_argument, NULL, 'F' },
		{ "stop-after-fill", no_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	struct region r[4];
	int nr = 0, i, c, passes = 1, pass, pageout = 0, stop = 0, bounce = 0;
	long rounds = 0, holes = 0, page = sysconf(_SC_PAGESIZE);
	size_t anon = 0, shmem = 0, shared = 0, fsize = 0, freed = 0;
	struct region spill = { "freed", NULL, 0 };
	struct sched_param fifo = { .sched_priority = 1 }, other = { 0 };
	const char *file = NULL;
	uint64_t seed = getpid();
	long bad = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'a': anon = parse_size("swapq-fill", optarg); break;
		case 's': shmem = parse_size("swapq-fill", optarg); break;
		case 'h': shared = parse_size("swapq-fill", optarg); break;
		case 'f': file = optarg; break;
		case 'z': fsize = parse_size("swapq-fill", optarg); break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 'p': passes = atoi(optarg); break;
		case 'o': pageout = 1; break;
		case 'P':
			pageout = 1;
			pageout_step = parse_size("swapq-fill", optarg);
			break;
		case 'H': holes = atol(optarg); break;
		case 'b': bounce = atoi(optarg); break;
		case 'F': freed = parse_size("swapq-fill", optarg); break;
		case 'T': stop = 1; break;
		case 'q': quiet = 1; break;
		default: return 2;
		}
	}
	if ((!anon && !shmem && !shared && !file) || passes < 1 || bounce < 0 || holes < 0 ||
	    (file && !fsize)) {
		fprintf(stderr, "usage: swapq-fill [--anon SIZE] [--shmem SIZE] [--shared SIZE] [--file PATH --size SIZE] [--seed N] [--passes N] [--pageout] [--pageout-step SIZE] [--holes N] [--bounce SECONDS] [--freed SIZE] [--stop-after-fill] [--quiet]\n");
		return 2;
	}
	if (anon)
		r[nr++] = (struct region){ "anon", map_anon(anon), anon };
	if (shmem)
		r[nr++] = (struct region){ "shmem", map_shmem(NULL, shmem), shmem };
	if (shared) {
		r[nr] = (struct region){ "shared",
			mmap(NULL, shared, PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0), shared };
		nr++;
	}
	if (file)
		r[nr++] = (struct region){ "file", map_shmem(file, fsize), fsize };
	for (i = 0; i < nr; i++) {
		if (r[i].mem == MAP_FAILED) {
			perror("swapq-fill: mmap");
			return 2;
		}
	}

	if (freed) {
		spill = (struct region){ "freed", map_anon(freed), freed };
		if (spill.mem == MAP_FAILED) {
			perror("swapq-fill: mmap");
			return 2;
		}
		fill(&spill, seed);
		page_out(&spill);
	}

	for (pass = 0; pass < passes; pass++) {
		uint64_t s = seed + pass;

		for (i = 0; i < nr; i++)
			fill(&r[i], s);
		/*
		 * SCHED_FIFO from the unmap until the pageout is done: the
		 * discard work that the unmap queues on this CPU cannot run
		 * in between (pin the task to see it every time).
		 */
		if (spill.len && sched_setscheduler(0, SCHED_FIFO, &fifo))
			perror("swapq-fill: SCHED_FIFO");
		if (spill.len)
			munmap(spill.mem, spill.len);
		for (i = 0; i < nr && pageout; i++)
			page_out(&r[i]);
		if (spill.len)
			sched_setscheduler(0, SCHED_OTHER, &other);
		spill.len = 0;
		for (i = 0; i < nr && holes; i++)
			touch(&r[i], holes * page);
		if (stop && pass == passes - 1)
			raise(SIGSTOP);
		for (time_t end = time(NULL) + bounce; !bad && time(NULL) < end; rounds++) {
			for (i = 0; i < nr; i++) {
				page_out(&r[i]);
				touch(&r[i], page);
				bad += verify(&r[i], s);
			}
		}
		for (i = 0; i < nr; i++)
			bad += verify(&r[i], s);
		if (bad)
			break;
	}
	if (!quiet || bad)
		printf("swapq-fill: %s: %d of %d passes, %ld bounces, %zu MiB, %ld mismatched words\n",
		       bad ? "FAILED" : "verified", bad ? pass + 1 : pass, passes,
		       rounds, (anon + shmem + shared + fsize) >> 20, bad);
	return bad ? 1 : 0;
}
