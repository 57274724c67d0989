/*
 * fuzz_file.h: for targets whose parser opens a path (the configuration,
 * the state file): the input is put in a memfd that the parser reads
 * through /proc/self/fd/N, so a run touches no disk. For targets that
 * write files (a saved state, a socket): a scratch directory of their own.
 */
#ifndef SSDT_FUZZ_FILE_H
#define SSDT_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Replace the memfd's contents with [data, data + size); its path in `path`. */
static inline void
fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	static int	 fd = -1;
	size_t		 off = 0;
	ssize_t		 n;

	if (fd == -1 && (fd = memfd_create("fuzz_input", MFD_CLOEXEC)) == -1)
		abort();
	if (ftruncate(fd, 0) == -1)
		abort();
	while (off < size) {
		if ((n = pwrite(fd, data + off, size - off, (off_t)off)) <= 0)
			abort();
		off += (size_t)n;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
}

/*
 * A new directory NAME.XXXXXX in tests/fuzz/run.sh's scratch directory
 * (FUZZ_SCRATCH, which it removes also after a crash, when the target's
 * atexit does not run), else in /dev/shm; its path in `dir`.
 */
static inline void
fuzz_scratch(char *dir, size_t len, const char *name)
{
	const char	*base = getenv("FUZZ_SCRATCH");

	if (snprintf(dir, len, "%s/%s.XXXXXX", base != NULL ? base :
	    "/dev/shm", name) >= (int)len || mkdtemp(dir) == NULL)
		abort();
}

#endif
