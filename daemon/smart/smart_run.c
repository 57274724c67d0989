/*
 * smart_run.c: running smartctl and collecting its output within a
 * deadline. A leaf (no threads, no sd-event) so that it can be tested
 * with a stand-in command.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "smart_read.h"

extern char **environ;

#define OUTPUT_CHUNK	65536
#define OUTPUT_MAX	(16 * 1024 * 1024)	/* smartctl prints ~100 KB */

/* Milliseconds left until `end` (CLOCK_MONOTONIC); 0 once it has passed. */
static int
ms_left(const struct timespec *end)
{
	struct timespec	now;
	long long	ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(end->tv_sec - now.tv_sec) * 1000 +
	    (end->tv_nsec - now.tv_nsec) / 1000000;
	return ms > 0 ? (int)ms : 0;
}

/*
 * Read a child's output to its end within a deadline: 0 at the end, else
 * -1 with errno (ETIMEDOUT at the deadline, EFBIG past OUTPUT_MAX). Only
 * a poll that found the pipe readable leads to a read, so a child that
 * hangs with its stdout open cannot hold the read past the deadline.
 * *buf (NUL-terminated) is the caller's to free, also after an error.
 */
static int
read_all(int fd, int timeout_sec, char **buf, size_t *len)
{
	struct pollfd	 p = { fd, POLLIN, 0 };
	struct timespec	 end;
	size_t		 cap = 0;
	ssize_t		 n;
	int		 left, rc;
	char		*nb;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += timeout_sec;
	*buf = NULL;
	*len = 0;
	for (;;) {
		if ((left = ms_left(&end)) == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		if ((rc = poll(&p, 1, left)) == 0 || (rc == -1 &&
		    errno == EINTR))
			continue;	/* the deadline is checked above */
		if (rc == -1)
			return -1;
		if (*len + OUTPUT_CHUNK > cap) {
			if (cap >= OUTPUT_MAX) {
				errno = EFBIG;
				return -1;
			}
			if ((nb = realloc(*buf, cap + OUTPUT_CHUNK + 1)) == NULL)
				return -1;
			*buf = nb;
			cap += OUTPUT_CHUNK;
		}
		if ((n = read(fd, *buf + *len, cap - *len)) == 0)
			return 0;
		if (n == -1 && errno != EINTR && errno != EAGAIN)
			return -1;
		if (n > 0) {
			*len += (size_t)n;
			(*buf)[*len] = '\0';
		}
	}
}

char *
smart_run(char *const argv[], int timeout_sec, size_t *len, char *err,
    size_t errlen)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t	 at;
	sigset_t		 none, all;
	pid_t			 pid;
	int			 pfd[2], st, rc;
	char			*out;

	if (pipe2(pfd, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
	    O_WRONLY, 0);
	/* the poller thread blocks every signal (they are the loop's): the
	 * child gets none blocked and default actions, so that a TERM from
	 * an operator or from systemd ends a hung command */
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK |
	    POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (rc != 0) {
		close(pfd[0]);
		snprintf(err, errlen, "%s: %s", argv[0], strerror(rc));
		return NULL;
	}
	rc = read_all(pfd[0], timeout_sec, &out, len) == -1 ? errno : 0;
	close(pfd[0]);
	kill(pid, SIGKILL);	/* no-op when it has exited; ends a hung one */
	waitpid(pid, &st, 0);
	if (rc == ETIMEDOUT)
		snprintf(err, errlen, "%s: timed out after %d s", argv[0],
		    timeout_sec);
	else if (rc != 0)
		snprintf(err, errlen, "%s: reading its output: %s", argv[0],
		    strerror(rc));
	else if (*len == 0)
		snprintf(err, errlen, "%s: no output", argv[0]);
	if (rc != 0 || *len == 0) {
		free(out);
		return NULL;
	}
	return out;
}
