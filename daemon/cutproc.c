/* cutproc.c: a command of a power cut, watched from the main loop. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "cutproc.h"

extern char **environ;

/* A killed child not dead yet: reaped when its pidfd says so. */
struct reaper {
	pid_t		 pid;
	int		 pidfd;
	sd_event_source	*src;
};

void
cutproc_init(struct cutproc *p)
{
	memset(p, 0, sizeof(*p));
	p->pidfd = -1;
}

int
cutproc_running(const struct cutproc *p)
{
	return p->pid > 0;
}

static void
unwatch(struct cutproc *p)
{
	p->src = sd_event_source_disable_unref(p->src);
	p->timer = sd_event_source_disable_unref(p->timer);
	if (p->pidfd >= 0)
		close(p->pidfd);
	p->pidfd = -1;
	p->seconds = (double)(mono_ns() - p->t0) / 1e9;
	p->pid = 0;
}

static int
on_reaped(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	struct reaper	*r = arg;

	(void)fd;
	(void)revents;
	if (waitpid(r->pid, NULL, WNOHANG) == 0)
		return 0;	/* not yet (a spurious wake-up) */
	sd_event_source_disable_unref(s);
	close(r->pidfd);
	free(r);
	return 0;
}

/* Kill the group; reap now if it is dead, else when it dies. */
static void
kill_group(struct cutproc *p)
{
	sd_event		*ev = sd_event_source_get_event(p->src);
	struct reaper		*r;

	kill(-p->pid, SIGKILL);
	if (waitpid(p->pid, NULL, WNOHANG) != 0 ||
	    (r = calloc(1, sizeof(*r))) == NULL) {
		unwatch(p);	/* reaped (or a zombie left to our exit) */
		return;
	}
	r->pid = p->pid;
	r->pidfd = p->pidfd;
	p->pidfd = -1;
	if (sd_event_add_io(ev, &r->src, r->pidfd, EPOLLIN, on_reaped, r) < 0) {
		close(r->pidfd);
		free(r);
	}
	unwatch(p);
}

void
cutproc_kill(struct cutproc *p)
{
	if (p->pid > 0)
		kill_group(p);
}

void
cutproc_detach(struct cutproc *p)
{
	if (p->pid > 0)
		unwatch(p);
}

static int
on_exit_fd(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	struct cutproc	*p = arg;
	char		 why[96] = "";
	int		 status = 0, ok;

	(void)s;
	(void)fd;
	(void)revents;
	if (waitpid(p->pid, &status, WNOHANG) <= 0)
		return 0;
	kill(-p->pid, SIGKILL);	/* what it left running in its group */
	ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (WIFEXITED(status) && !ok)
		snprintf(why, sizeof(why), "exited %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(why, sizeof(why), "killed by signal %d",
		    WTERMSIG(status));
	unwatch(p);
	p->done(p->arg, ok, why);
	return 0;
}

static int
on_deadline(sd_event_source *s, uint64_t usec, void *arg)
{
	struct cutproc	*p = arg;

	(void)s;
	(void)usec;
	kill_group(p);
	p->done(p->arg, 0, "did not end within power_cut_timeout");
	return 0;
}

/* The child: its own group, signals as at a login, stdin /dev/null. */
static int
spawn(pid_t *pid, char *const argv[])
{
	posix_spawn_file_actions_t	fa;
	posix_spawnattr_t		at;
	sigset_t			none, all;
	int				rc;

	sigemptyset(&none);
	sigfillset(&all);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
	    POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	rc = posix_spawn(pid, argv[0], &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

int
cutproc_run(struct cutproc *p, sd_event *ev, char *const argv[],
    uint64_t timeout_us, cutproc_fn done, void *arg)
{
	uint64_t	now;
	int		rc;

	if (argv[0] == NULL) {
		errno = ENOENT;
		return -1;
	}
	if ((rc = spawn(&p->pid, argv)) != 0) {
		p->pid = 0;
		errno = rc;
		return -1;
	}
	p->t0 = mono_ns();
	p->done = done;
	p->arg = arg;
	if ((p->pidfd = pidfd_open(p->pid, 0)) == -1 ||
	    sd_event_add_io(ev, &p->src, p->pidfd, EPOLLIN, on_exit_fd, p) < 0 ||
	    sd_event_now(ev, CLOCK_MONOTONIC, &now) < 0 ||
	    sd_event_add_time(ev, &p->timer, CLOCK_MONOTONIC, now + timeout_us,
	    10000, on_deadline, p) < 0) {
		kill(-p->pid, SIGKILL);
		if (p->src == NULL)	/* nothing to reap it later: now */
			waitpid(p->pid, NULL, 0);
		else
			kill_group(p);
		unwatch(p);
		errno = EIO;
		return -1;
	}
	return 0;
}
