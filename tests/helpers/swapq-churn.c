// SPDX-License-Identifier: GPL-2.0
/*
 * swapq-churn: swap devices off and on again in a loop, with the system
 * calls themselves (a swapoff and swapon process per cycle costs more than
 * the cycle under QEMU TCG).
 *
 * Usage: swapq-churn [--prio P]... [--discard] [--pause MS] [--bound S]
 *                    [--cycles N] [--stop-file PATH] [--lenient] DEV...
 *
 * Each cycle picks a random DEV, swaps it off, swaps it on again at a random
 * one of the --prio values (default 0, "-p 0"), and checks that /proc/swaps
 * shows it back at that priority. --discard swaps on with discard (at
 * swapon and of freed clusters). --pause keeps the device on for up to MS
 * milliseconds before the next cycle, so that it gets allocations. --bound
 * interrupts a swapoff that takes longer than S seconds (an error).
 * --lenient: a swapoff that fails but leaves the device on (ENOMEM at a
 * memcg limit) is counted as refused, not as an error. Stops after N cycles
 * attempted, or once PATH exists, or on SIGTERM.
 *
 * Prints "cycles N refused N errors N" and one line per error on stderr.
 * Exit status: 0 no error, 1 errors, 2 usage or system error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <time.h>
#include <unistd.h>

#ifndef SWAP_FLAG_DISCARD
#define SWAP_FLAG_DISCARD 0x10000
#endif

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* Priority of @dev in /proc/swaps; 0 if listed, -1 if not */
static int swap_prio(const char *dev, int *prio)
{
	FILE *f = fopen("/proc/swaps", "r");
	char line[512], name[256];
	int p, found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %*s %*s %*s %d", name, &p) == 2 &&
		    !strcmp(name, dev)) {
			*prio = p;
			found = 0;
		}
	}
	fclose(f);
	return found;
}

static void pause_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "prio", required_argument, NULL, 'p' },
		{ "discard", no_argument, NULL, 'd' },
		{ "pause", required_argument, NULL, 'P' },
		{ "bound", required_argument, NULL, 'b' },
		{ "cycles", required_argument, NULL, 'n' },
		{ "stop-file", required_argument, NULL, 's' },
		{ "lenient", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	struct sigaction sa = { .sa_handler = on_alarm };
	int prios[16], nprio = 0, discard = 0, lenient = 0, c;
	unsigned int pause = 0, bound = 0;
	long max_cycles = -1, attempts = 0, cycles = 0, refused = 0, errors = 0;
	const char *stop_file = NULL;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (nprio == 16)
				return 2;
			prios[nprio++] = atoi(optarg);
			break;
		case 'd': discard = 1; break;
		case 'P': pause = atoi(optarg); break;
		case 'b': bound = atoi(optarg); break;
		case 'n': max_cycles = atol(optarg); break;
		case 's': stop_file = optarg; break;
		case 'l': lenient = 1; break;
		default: return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: swapq-churn [--prio P]... [--discard] [--pause MS] [--bound S] [--cycles N] [--stop-file PATH] [--lenient] DEV...\n");
		return 2;
	}
	if (!nprio)
		prios[nprio++] = 0;
	/* no SA_RESTART: the alarm interrupts a swapoff that takes too long */
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	srandom(getpid() ^ time(NULL));

	/* a device that keeps failing is not worth hammering on */
	while (!stop && attempts++ != max_cycles && errors < 100 &&
	       !(stop_file && access(stop_file, F_OK) == 0)) {
		const char *dev = argv[optind + random() % (argc - optind)];
		int prio = prios[random() % nprio], now, err;
		int flags = SWAP_FLAG_PREFER |
			    ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);

		if (discard)
			flags |= SWAP_FLAG_DISCARD;
		alarm(bound);
		err = swapoff(dev) ? errno : 0;
		alarm(0);
		if (err == EINTR && stop)
			break;
		if (err) {
			if (lenient && swap_prio(dev, &now) == 0) {
				refused++;
				continue;
			}
			if (err == EINTR && bound)
				fprintf(stderr, "swapoff %s: not done within %us\n", dev, bound);
			else
				fprintf(stderr, "swapoff %s: %s\n", dev, strerror(err));
			errors++;
			/* an interrupted swapoff leaves the device on */
			if (swap_prio(dev, &now))
				swapon(dev, flags);
			continue;
		}
		if (swapon(dev, flags)) {
			fprintf(stderr, "swapon %s: %s\n", dev, strerror(errno));
			errors++;
			swapon(dev, flags);
			continue;
		}
		if (swap_prio(dev, &now)) {
			fprintf(stderr, "%s: not in /proc/swaps after swapon\n", dev);
			errors++;
			continue;
		}
		if (now != prio) {
			fprintf(stderr, "%s: back at priority %d, not %d\n", dev, now, prio);
			errors++;
			continue;
		}
		cycles++;
		if (pause)
			pause_ms(random() % (pause + 1));
	}
	printf("cycles %ld refused %ld errors %ld\n", cycles, refused, errors);
	return errors ? 1 : 0;
}
