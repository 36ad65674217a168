/* touch: allocates MIB mebibytes and writes a byte in each of their pages,
   so that its peak resident set is MIB MiB above the few hundred KiB of the
   program itself; then exits. The peak-memory checks run it under GNU time
   and under flybench and compare the two (man fb-pair(1), rss_peak).

   usage: touch MIB */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: touch MIB\n");
		return 2;
	}
	char *end;
	long mib = strtol(argv[1], &end, 10);
	if (*end != '\0' || mib < 0 || mib > 1 << 20) {
		fprintf(stderr, "touch: %s is not a size in MiB\n", argv[1]);
		return 2;
	}
	size_t n = (size_t)mib << 20;
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = malloc(n ? n : 1);
	if (p == NULL) {
		fprintf(stderr, "touch: cannot allocate %ld MiB\n", mib);
		return 1;
	}
	for (size_t i = 0; i < n; i += (size_t)page)
		p[i] = 1;
	return 0;
}
