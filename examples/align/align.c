/*
 * align: a loop whose speed depends on where the stack starts, for
 * flybench's layout-bias demonstration (make bench, section layout).
 *
 * It sums 16-byte loads from a buffer on main's stack at offset 8 of every
 * 64-byte stride. The initial stack pointer is 16-byte aligned; where it
 * lands modulo 64 depends on the size of the environment and arguments
 * the process was started with (execve copies them onto the stack), and
 * on the kernel's stack randomization. When the buffer sits at 48 modulo
 * 64, every load straddles two cache lines and the loop runs slower; at
 * the other three alignments it does not. Same code, same work: only the
 * layout differs.
 *
 * Usage: align [-n REPS] [-v]   (default 600000 repetitions of 16 loads;
 * in flybench's batch mode FLYBENCH_N multiplies them). -v prints the
 * buffer's offset modulo 64 and the time per repetition on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

typedef long long v2 __attribute__((vector_size(16)));

__attribute__((noinline)) static v2 loads(const char *buf, long reps)
{
	v2 a = {0, 0}, b = a, c = a, d = a;
	for (long r = 0; r < reps; r++) {
		for (int k = 0; k < 4096; k += 256) {
			v2 x, y, z, w;
			memcpy(&x, buf + k + 8, 16);
			memcpy(&y, buf + k + 64 + 8, 16);
			memcpy(&z, buf + k + 128 + 8, 16);
			memcpy(&w, buf + k + 192 + 8, 16);
			a += x;
			b += y;
			c += z;
			d += w;
		}
		__asm__ volatile("" : "+x"(a), "+x"(b), "+x"(c), "+x"(d));
	}
	return a + b + c + d;
}

int main(int argc, char **argv)
{
	long reps = 600000;
	int verbose = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			reps = atol(argv[++i]);
		else if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else {
			fprintf(stderr, "usage: align [-n REPS] [-v]\n");
			return 2;
		}
	}
	const char *n = getenv("FLYBENCH_N");
	if (n != NULL)
		reps *= atol(n);
	char buf[4096 + 64];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (char)i;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	v2 s = loads(buf, reps);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (verbose)
		fprintf(stderr, "offset %lu ns/rep %.2f\n", (unsigned long)((uintptr_t)buf % 64),
			((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / (double)reps);
	return s[0] == 42 && s[1] == 42;
}
