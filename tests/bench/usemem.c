// SPDX-License-Identifier: GPL-2.0
/*
 * usemem: N processes each map SIZE of private anonymous memory and touch
 * every page of it, optionally reading it all back PASSES times. Run in a
 * memory cgroup whose limit is below N * SIZE, this pushes anonymous memory
 * through swap out (and, with re-read passes, swap in).
 *
 * Usage: usemem [-n NPROC] [-r PASSES] [-f] [-H] [-s SEED] [-w LOOPS]
 *               [-x COMMAND] [-v] SIZE
 *   -n NPROC   worker processes (default 1)
 *   -r PASSES  read every touched page back PASSES times (default 0)
 *   -f         write every word of a page, not only its first one
 *   -H         madvise(MADV_HUGEPAGE) the mapping
 *   -s SEED    seed of the per-page values (default: the parent's pid)
 *   -w LOOPS   extra work per page touched: a loop of LOOPS iterations of
 *              two instructions on x86-64 (the benchmark's positive
 *              control: a known cost per page)
 *   -x COMMAND run COMMAND (sh -c) once every worker has touched its
 *              memory, before they let it go: it sees the swap in use
 *   -v         one line per worker as well
 * SIZE takes K, M or G.
 *
 * The workers map their memory, report ready, and start together; each
 * keeps its memory until all have touched it, so that the working set does
 * reach NPROC * SIZE however the workers are scheduled. Elapsed time runs
 * from the start until the last worker has exited (its memory and swap
 * freed). Throughput is the requested total (NPROC * SIZE) divided by
 * the elapsed time, not a sum of per-worker rates. touched_s runs from the
 * start until every worker has touched its memory (before -x COMMAND).
 * The result is one line:
 *
 *   usemem nproc=4 size_mib=96 total_mib=384 passes=1 elapsed_s=12.345678
 *          touched_s=11.234567 mib_s=31.11 utime_s=0.120 stime_s=8.901
 *          failed=0
 *
 * (on a single line); utime_s and stime_s are the workers' CPU time from
 * getrusage(RUSAGE_CHILDREN). A value read back that differs from the one
 * written fails the worker. Exit status: 0 all workers succeeded, 1 a worker
 * failed or was killed, 2 usage or system error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "../helpers/parse-size.h"

#define MAX_WORKERS	1024

struct job {
	size_t size;		/* bytes per worker */
	int passes;		/* re-read passes */
	int full;		/* write every word, not one per page */
	int huge;		/* MADV_HUGEPAGE */
	int verbose;
	long work;		/* extra loop iterations per page */
	uint64_t seed;
};

static size_t page_size;

static int parse_int(const char *s, int min, int max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "usemem: bad %s '%s' (%d..%d)\n", what, s, min, max);
		exit(2);
	}
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double tv_sec(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

/* The value stored in word @i of page @pg: never zero, unique per page. */
static inline uint64_t value(uint64_t seed, size_t pg, size_t i)
{
	uint64_t z = seed + pg * 0x9e3779b97f4a7c15ULL + i;

	z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ULL;
	return z | 1;
}

/* @loops iterations of two instructions, whatever the compiler does */
static inline void extra_work(long loops)
{
#if defined(__x86_64__)
	if (loops > 0)
		asm volatile("1: dec %0\n\tjnz 1b" : "+r" (loops) : : "cc");
#else
	for (volatile long i = 0; i < loops; i++)
		;
#endif
}

static void touch(uint64_t *mem, const struct job *job, uint64_t seed)
{
	size_t words = page_size / sizeof(*mem);
	size_t pages = job->size / page_size;
	size_t pg, i;

	for (pg = 0; pg < pages; pg++) {
		uint64_t *p = mem + pg * words;

		extra_work(job->work);
		if (!job->full) {
			p[0] = value(seed, pg, 0);
			continue;
		}
		for (i = 0; i < words; i++)
			p[i] = value(seed, pg, i);
	}
}

static long reread(const uint64_t *mem, const struct job *job, uint64_t seed)
{
	size_t words = page_size / sizeof(*mem);
	size_t pages = job->size / page_size;
	size_t pg, i, n = job->full ? words : 1;
	long bad = 0;

	for (pg = 0; pg < pages; pg++) {
		const volatile uint64_t *p = mem + pg * words;

		for (i = 0; i < n; i++)
			if (p[i] != value(seed, pg, i))
				bad++;
	}
	return bad;
}

/* Block until the parent closes the write end of @fd. */
static void wait_eof(int fd)
{
	char c;

	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

/*
 * One worker: map, tell the parent it is ready (a byte on @ready), wait for
 * the start (EOF on @start), touch and re-read, tell the parent it is done
 * (another byte), keep the memory until the release (EOF on @release).
 * Never returns.
 */
static void worker(int id, const struct job *job, int ready, int start,
		   int release)
{
	uint64_t seed = job->seed + id * 0x100000001ULL;
	double t0, t1;
	uint64_t *mem;
	long bad = 0;
	char c = 0;
	int pass;

	mem = mmap(NULL, job->size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED) {
		perror("usemem: mmap");
		_exit(2);
	}
	if (job->huge && madvise(mem, job->size, MADV_HUGEPAGE))
		perror("usemem: MADV_HUGEPAGE");
	if (write(ready, &c, 1) != 1)
		_exit(2);
	wait_eof(start);

	t0 = now();
	touch(mem, job, seed);
	for (pass = 0; pass < job->passes && !bad; pass++)
		bad = reread(mem, job, seed);
	t1 = now();
	if (bad)
		fprintf(stderr, "usemem: worker %d: %ld words read back wrong\n",
			id, bad);
	if (job->verbose)
		printf("usemem-worker id=%d elapsed_s=%.6f mib_s=%.2f\n", id,
		       t1 - t0, (job->size / 1048576.0) / (t1 - t0));
	fflush(stdout);
	if (write(ready, &c, 1) != 1)
		_exit(2);
	close(ready);
	wait_eof(release);
	_exit(bad ? 1 : 0);
}

/* Read up to @want bytes from @fd (fewer at EOF); return how many came. */
static int count_bytes(int fd, int want, char *buf, size_t size)
{
	int got = 0;

	while (got < want) {
		size_t len = (size_t)(want - got) < size ? (size_t)(want - got) : size;
		ssize_t n = read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	return got;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: usemem [-n NPROC] [-r PASSES] [-f] [-H] [-s SEED] [-w LOOPS] [-x COMMAND] [-v] SIZE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct job job = { .seed = getpid() };
	int ready[2], start[2], release[2];
	int nproc = 1, i, c, failed = 0;
	struct rusage ru;
	double t0, t1, t_touched, total;
	const char *at_touched = NULL;
	pid_t *pids;
	char buf[64];

	while ((c = getopt(argc, argv, "n:r:fHs:w:x:v")) != -1) {
		switch (c) {
		case 'n': nproc = parse_int(optarg, 1, MAX_WORKERS, "NPROC"); break;
		case 'r': job.passes = parse_int(optarg, 0, 1000, "PASSES"); break;
		case 'f': job.full = 1; break;
		case 'H': job.huge = 1; break;
		case 's': job.seed = strtoull(optarg, NULL, 0); break;
		case 'w': job.work = parse_int(optarg, 0, 1 << 30, "LOOPS"); break;
		case 'x': at_touched = optarg; break;
		case 'v': job.verbose = 1; break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	page_size = sysconf(_SC_PAGESIZE);
	job.size = parse_size("usemem", argv[optind]);
	job.size -= job.size % page_size;
	if (!job.size) {
		fprintf(stderr, "usemem: SIZE is less than a page\n");
		return 2;
	}

	pids = calloc(nproc, sizeof(*pids));
	if (!pids || pipe(ready) || pipe(start) || pipe(release)) {
		perror("usemem");
		return 2;
	}
	fflush(stdout);
	for (i = 0; i < nproc; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("usemem: fork");
			while (i--)
				kill(pids[i], SIGKILL);
			return 2;
		}
		if (!pids[i]) {
			close(ready[0]);
			close(start[1]);
			close(release[1]);
			worker(i, &job, ready[1], start[0], release[0]);
		}
	}
	close(ready[1]);
	close(start[0]);
	close(release[0]);

	/* Every worker has mapped its memory: start them all at once. */
	i = count_bytes(ready[0], nproc, buf, sizeof(buf));
	if (i < nproc)
		fprintf(stderr, "usemem: only %d of %d workers ready\n", i, nproc);
	t0 = now();
	close(start[1]);
	/* Every worker has touched its memory (or died): let them all go. */
	count_bytes(ready[0], nproc, buf, sizeof(buf));
	t_touched = now();
	if (at_touched) {
		fflush(stdout);
		if (system(at_touched))
			fprintf(stderr, "usemem: -x '%s' failed\n", at_touched);
	}
	close(release[1]);

	for (i = 0; i < nproc; i++) {
		int status;

		while (waitpid(pids[i], &status, 0) < 0) {
			if (errno != EINTR) {
				perror("usemem: waitpid");
				return 2;
			}
		}
		if (WIFSIGNALED(status)) {
			fprintf(stderr, "usemem: worker %d killed by signal %d%s\n",
				i, WTERMSIG(status),
				WTERMSIG(status) == SIGKILL ? " (OOM?)" : "");
			failed++;
		} else if (WEXITSTATUS(status)) {
			failed++;
		}
	}
	t1 = now();

	getrusage(RUSAGE_CHILDREN, &ru);
	total = (double)job.size * nproc / 1048576.0;
	printf("usemem nproc=%d size_mib=%.1f total_mib=%.1f passes=%d elapsed_s=%.6f touched_s=%.6f mib_s=%.2f utime_s=%.3f stime_s=%.3f failed=%d\n",
	       nproc, job.size / 1048576.0, total, job.passes, t1 - t0,
	       t_touched - t0, total / (t1 - t0), tv_sec(&ru.ru_utime),
	       tv_sec(&ru.ru_stime), failed);
	free(pids);
	return failed ? 1 : 0;
}
