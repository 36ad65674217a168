/*
 * span.c: a program that reports its own spans to fb-record over the span
 * protocol (man fb-span(7)). It connects to the Unix socket named by
 * FLYBENCH_RECORD_SOCKET, times each iteration of a loop with
 * clock_gettime(CLOCK_MONOTONIC) and writes one "span NAME WALL_NS
 * OUTCOME" line per finished span, the efficient form: fb-record's clock
 * is not involved, so the socket's latency is not in the value.
 *
 *	cc -O2 -o span span.c
 *	fb-record -- ./span 10000 | fb-analyze | fb-report
 *
 * Lines are collected in a buffer and written when it is nearly full,
 * always whole lines: a write is one system call per few hundred spans.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static char buf[16384];
static size_t used;

static int flush_lines(int fd)
{
	size_t off = 0;
	while (off < used) {
		ssize_t n = write(fd, buf + off, used - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		off += (size_t)n;
	}
	used = 0;
	return 0;
}

static int span(int fd, const char *name, int64_t wall_ns, const char *outcome)
{
	if (used > sizeof buf - 256 && flush_lines(fd) < 0)
		return -1;
	used += (size_t)snprintf(buf + used, sizeof buf - used, "span %s %lld %s\n", name, (long long)wall_ns, outcome);
	return 0;
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* work is the measured operation: a sum of n mixed integers. */
static uint64_t work(unsigned n)
{
	uint64_t x = 0x9e3779b97f4a7c15u;
	for (unsigned i = 0; i < n; i++)
		x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9u + i;
	return x;
}

static int connect_recorder(void)
{
	const char *path = getenv("FLYBENCH_RECORD_SOCKET");
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (path == NULL || strlen(path) >= sizeof addr.sun_path) {
		fprintf(stderr, "span: FLYBENCH_RECORD_SOCKET is not set (run me under fb-record)\n");
		return -1;
	}
	strcpy(addr.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
		perror("span: connect");
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	long spans = argc > 1 ? atol(argv[1]) : 1000;
	int fd = connect_recorder();
	if (fd < 0)
		return 1;
	used = (size_t)snprintf(buf, sizeof buf, "flybench-span 1\nbenchmark short-sum\nbenchmark long-sum\n");
	volatile uint64_t sink = 0;
	for (long i = 0; i < spans; i++) {
		int64_t t0 = now_ns();
		sink += work(100);
		int64_t t1 = now_ns();
		sink += work(10000);
		int64_t t2 = now_ns();
		/* Every 100th long sum counts as a failure, to show outcomes. */
		if (span(fd, "short-sum", t1 - t0, "success") < 0 ||
		    span(fd, "long-sum", t2 - t1, i % 100 == 99 ? "failure" : "success") < 0) {
			perror("span: write");
			return 1;
		}
	}
	if (flush_lines(fd) < 0) {
		perror("span: write");
		return 1;
	}
	close(fd);
	return 0;
}
