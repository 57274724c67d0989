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
	p->outfd = -1;
}

int
cutproc_running(const struct cutproc *p)
{
	return p->pid > 0;
}

/* Keep the last CUTPROC_TAIL bytes of what it printed. */
static void
out_keep(struct cutproc *p, const char *buf, size_t n)
{
	size_t	drop;

	p->out_bytes += n;
	if (n >= CUTPROC_TAIL) {
		memcpy(p->tail, buf + n - CUTPROC_TAIL, CUTPROC_TAIL);
		p->ntail = CUTPROC_TAIL;
		return;
	}
	if (p->ntail + n > CUTPROC_TAIL) {
		drop = p->ntail + n - CUTPROC_TAIL;
		memmove(p->tail, p->tail + drop, p->ntail - drop);
		p->ntail -= drop;
	}
	memcpy(p->tail + p->ntail, buf, n);
	p->ntail += n;
}

static void
out_close(struct cutproc *p)
{
	p->out_src = sd_event_source_disable_unref(p->out_src);
	if (p->outfd >= 0)
		close(p->outfd);
	p->outfd = -1;
}

/* Read what is there (the pipe does not block); at its end, close it. */
static void
out_drain(struct cutproc *p)
{
	char	buf[4096];
	ssize_t	n;

	while (p->outfd >= 0) {
		if ((n = read(p->outfd, buf, sizeof(buf))) > 0)
			out_keep(p, buf, (size_t)n);
		else if (n == -1 && errno == EINTR)
			continue;
		else {
			if (n == 0 || errno != EAGAIN)
				out_close(p);
			return;
		}
	}
}

static int
on_output(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	(void)s;
	(void)fd;
	(void)revents;
	out_drain(arg);
	return 0;
}

/* One byte as it is shown: printable ASCII as is, else \xNN. */
static size_t
out_byte(unsigned char c, char *o)
{
	if (c >= 0x20 && c < 0x7f && c != '\\') {
		o[0] = (char)c;
		return 1;
	}
	snprintf(o, 5, "\\x%02x", c);
	return 4;
}

uint64_t
cutproc_output(const struct cutproc *p, char *buf, size_t len)
{
	size_t	start, end = p->ntail, i, o = 0;
	int	lines = 0;

	buf[0] = '\0';
	while (end > 0 && p->tail[end - 1] == '\n')
		end--;		/* no empty last line */
	for (start = end; start > 0; start--)
		if (p->tail[start - 1] == '\n' && ++lines == CUTPROC_LINES)
			break;
	for (i = start; i < end && o + 5 <= len; i++)
		if (p->tail[i] == '\n')
			buf[o++] = '\n';
		else
			o += out_byte((unsigned char)p->tail[i], buf + o);
	buf[o] = '\0';
	return p->out_bytes;
}

static void
unwatch(struct cutproc *p)
{
	p->src = sd_event_source_disable_unref(p->src);
	p->timer = sd_event_source_disable_unref(p->timer);
	out_close(p);
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
	out_drain(p);		/* what it printed last */
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
	out_drain(p);		/* what it printed up to now */
	kill_group(p);
	p->done(p->arg, 0, "did not end within power_cut_timeout");
	return 0;
}

/*
 * The child: its own group, signals as at a login but SIGPIPE ignored
 * (cutproc.h), stdin /dev/null, stdout and stderr the pipe `out`.
 */
static int
spawn(pid_t *pid, char *const argv[], int out)
{
	posix_spawn_file_actions_t	fa;
	posix_spawnattr_t		at;
	sigset_t			none, all;
	int				rc;

	sigemptyset(&none);
	sigfillset(&all);
	sigdelset(&all, SIGPIPE);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, out, 2);
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
	int		rc, fds[2];

	if (argv[0] == NULL) {
		errno = ENOENT;
		return -1;
	}
	p->ntail = 0;
	p->out_bytes = 0;
	if (pipe2(fds, O_CLOEXEC) == -1)
		return -1;
	rc = spawn(&p->pid, argv, fds[1]);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		p->pid = 0;
		errno = rc;
		return -1;
	}
	/* the child's end blocks as any stdout; ours must not */
	p->outfd = fds[0];
	fcntl(p->outfd, F_SETFL, O_NONBLOCK);
	if (sd_event_add_io(ev, &p->out_src, p->outfd, EPOLLIN, on_output,
	    p) < 0)
		out_close(p);	/* the child gets EPIPE: its output is lost */
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
