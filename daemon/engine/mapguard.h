/*
 * mapguard.h: calls into a library that maps files (librrd), guarded
 * against SIGBUS. A page of a mapped file that cannot be read back (a
 * failing disk) raises SIGBUS in the thread that touches it; under the
 * guard that returns to the caller instead of ending the daemon.
 */
#ifndef SSDT_MAPGUARD_H
#define SSDT_MAPGUARD_H

/* Install the handler (once; any thread). */
void	mapguard_init(void);
/* fn(arg) with SIGBUS caught in this thread: 0, or -1 when it was. */
int	mapguard_run(void (*fn)(void *), void *arg);
/*
 * After a caught SIGBUS: what the interrupted call held of `path` (its
 * descriptors and mappings) is released, so that a disk failing for a
 * weekend leaks nothing. Only for files nothing else of ours opens.
 */
void	mapguard_release(const char *path);

#endif
