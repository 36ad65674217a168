/*
 * worker.c: a flybench worker (man fb-worker(7)) in C, and a conformance
 * check of the protocol from outside Go. Two implementations of one
 * operation, adding up a table of words: sum adds one word per iteration,
 * sum-unrolled four per four iterations into independent accumulators.
 * Each batch is timed with clock_gettime(CLOCK_MONOTONIC) around the
 * iterations alone; the result goes to a volatile sink after the ending
 * timestamp, so the compiler must compute it without a barrier inside the
 * loop. The table is filled at run time, so nothing is folded.
 *
 *	cc -O2 -o cworker worker.c
 *	printf 'run sum 1000\nquit\n' | ./cworker
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WORDS 1024 /* a power of two */

static uint64_t table[WORDS];
static volatile uint64_t sink;

static uint64_t sum(long long n)
{
	uint64_t s = 0;
	for (long long i = 0; i < n; i++)
		s += table[i & (WORDS - 1)];
	return s;
}

static uint64_t sum_unrolled(long long n)
{
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	long long i = 0;
	for (; i + 4 <= n; i += 4) {
		s0 += table[i & (WORDS - 1)];
		s1 += table[(i + 1) & (WORDS - 1)];
		s2 += table[(i + 2) & (WORDS - 1)];
		s3 += table[(i + 3) & (WORDS - 1)];
	}
	for (; i < n; i++)
		s0 += table[i & (WORDS - 1)];
	return s0 + s1 + s2 + s3;
}

static const struct {
	const char *name;
	uint64_t (*fn)(long long);
} cases[] = {{"sum", sum}, {"sum-unrolled", sum_unrolled}};

#define NCASES (sizeof cases / sizeof cases[0])

static long long ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

/* run answers one request: the iterations between two clock reads. */
static void run(const char *name, long long n)
{
	for (size_t c = 0; c < NCASES; c++) {
		if (strcmp(name, cases[c].name) != 0)
			continue;
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		uint64_t r = cases[c].fn(n);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		sink = r;
		printf("done %s %lld elapsed_ns=%lld\n", name, n, ns(&t1) - ns(&t0));
		return;
	}
	printf("error %s unknown case\n", name);
}

int main(void)
{
	uint64_t x = (uint64_t)time(NULL) | 1; /* unknown to the compiler */
	for (int i = 0; i < WORDS; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		table[i] = x;
	}
	struct timespec res;
	if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
		res.tv_sec = 0, res.tv_nsec = 1;

	printf("flybench-worker 1\n");
	for (size_t c = 0; c < NCASES; c++)
		printf("case %s\n", cases[c].name);
	printf("timer source=clock_gettime(CLOCK_MONOTONIC) resolution_ns=%lld\n", ns(&res));
	printf("ready\n");
	fflush(stdout);

	char line[256], name[64], extra[2];
	while (fgets(line, sizeof line, stdin) != NULL) {
		long long n;
		if (strcmp(line, "quit\n") == 0)
			return 0;
		if (sscanf(line, "run %63s %lld%1s", name, &n, extra) != 2 || n < 1) {
			fprintf(stderr, "cworker: bad request: %s", line);
			return 2;
		}
		run(name, n);
		if (fflush(stdout) != 0) {
			fprintf(stderr, "cworker: write: %s\n", strerror(errno));
			return 1;
		}
	}
	return 0;
}
