/*
 * mapguard.c: SIGBUS from a mapped file, returned to the guarded caller.
 * The handler jumps back only when the faulting thread is inside
 * mapguard_run (a thread-local jump target); a SIGBUS anywhere else takes
 * its default action, as it would without us.
 */
#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mapguard.h"

static _Thread_local sigjmp_buf	*guard_jmp;
static pthread_once_t		 guard_once = PTHREAD_ONCE_INIT;

static void
on_sigbus(int sig)
{
	if (guard_jmp != NULL)
		siglongjmp(*guard_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
install(void)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

void
mapguard_init(void)
{
	pthread_once(&guard_once, install);
}

int
mapguard_run(void (*fn)(void *), void *arg)
{
	sigjmp_buf	jb;

	if (sigsetjmp(jb, 1) != 0) {	/* the mask is restored too */
		guard_jmp = NULL;
		return -1;
	}
	guard_jmp = &jb;
	fn(arg);
	guard_jmp = NULL;
	return 0;
}

/* Close our descriptors open on `path`. */
static void
release_fds(const char *path)
{
	DIR		*d;
	struct dirent	*e;
	char		 link[64], target[PATH_MAX];
	ssize_t		 n;
	int		 fd;

	if ((d = opendir("/proc/self/fd")) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		fd = atoi(e->d_name);
		if (e->d_name[0] == '.' || fd == dirfd(d))
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		if ((n = readlink(link, target, sizeof(target) - 1)) <= 0)
			continue;
		target[n] = '\0';
		if (strcmp(target, path) == 0)
			close(fd);
	}
	closedir(d);
}

/* Unmap our mappings of `path`. */
static void
release_maps(const char *path)
{
	FILE		*fp;
	char		 line[PATH_MAX + 128], name[PATH_MAX];
	uintptr_t	 lo, hi;

	if ((fp = fopen("/proc/self/maps", "re")) == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %*s %*s %*s %*s %s",
		    &lo, &hi, name) == 3 && strcmp(name, path) == 0)
			munmap((void *)lo, hi - lo);
	fclose(fp);
}

void
mapguard_release(const char *path)
{
	char	abs[PATH_MAX];

	/* the kernel names files by their absolute path */
	if (path[0] != '/' && getcwd(abs, sizeof(abs)) != NULL &&
	    strlen(abs) + strlen(path) + 2 <= sizeof(abs)) {
		strcat(abs, "/");
		strcat(abs, path);
		path = abs;
	}
	release_fds(path);
	release_maps(path);
}
