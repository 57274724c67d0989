/*
 * statedir.c: the state directory has one owner. Two processes on one
 * state directory would resume the same drives, write them at the same
 * time and overwrite each other's state: every verify would then find
 * errors the drive never made. The owner holds flock(LOCK_EX) on
 * STATEDIR_LOCK; the kernel drops it when the process ends, however it
 * ends, so a lock file left by a killed daemon never blocks a restart.
 * The pid in the file is only there to tell the next one who owns it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "statedir.h"

/* "%s" is the drive's name. */
static const char *const file_names[] = {
	[STATEDIR_STATE] = "state",
	[STATEDIR_EVENTS] = "events.jsonl",
	[STATEDIR_SMART] = "smart.jsonl",
	[STATEDIR_CHECKPOINTS] = "checkpoints.jsonl",
	[STATEDIR_ERRMAPS] = "errors",
	[STATEDIR_TIMELINES] = "timelines",
	[STATEDIR_SERIES] = "series",
	[STATEDIR_ARCHIVE] = "%s.rrd"
};

int
statedir_drive_dir(char *buf, size_t len, const char *state_dir,
    const char *drive)
{
	int	n = snprintf(buf, len, "%s/%s", state_dir, drive);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int
statedir_path(char *buf, size_t len, const char *drive_dir,
    enum statedir_file f)
{
	const char	*slash = strrchr(drive_dir, '/');
	int		 n;

	n = snprintf(buf, len, "%s/", drive_dir);
	if (n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, file_names[f],
		    slash != NULL ? slash + 1 : drive_dir);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/*
 * "DIR/.BASE.SUFFIX" beside path: SUFFIX "XXXXXX" (mkostemp's) for a new
 * temporary file, "spare" for the spare; -1 with errno when too long.
 */
static int
side_name(const char *path, const char *suffix, char *buf, size_t len)
{
	const char	*slash = strrchr(path, '/');
	int		 dl = slash ? (int)(slash - path + 1) : 0, r;

	if (*path == '\0' || (slash != NULL && slash[1] == '\0')) {
		errno = *path == '\0' ? ENOENT : EISDIR;
		return -1;
	}
	r = snprintf(buf, len, "%.*s.%s.%s", dl, path, path + dl, suffix);
	if (r < 0 || (size_t)r >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* Open the directory holding path, for the fsync that makes a rename
 * durable. */
static int
open_dir(const char *path)
{
	char		 dir[PATH_MAX];
	const char	*slash = strrchr(path, '/');

	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 :
		    (int)(slash - path), path);
	return open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* The content into fp and flushed to the kernel; -1 with errno. */
static int
fill_file(FILE *fp, int (*fill)(FILE *, void *), void *arg)
{
	errno = 0;
	if (fill(fp, arg) == -1 || fflush(fp) != 0 || ferror(fp)) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* Close and remove the temporary file, keeping errno. */
static void
drop_temp(struct staged *s)
{
	int	saved = errno;

	if (s->fp != NULL)
		fclose(s->fp);
	else if (s->fd != -1)
		close(s->fd);
	unlink(s->tmp);
	s->fp = NULL;
	s->fd = -1;
	errno = saved;
}

/* The temporary file: a new one, or the spare rewritten in place. */
static int
open_temp(struct staged *s, const char *path, mode_t mode)
{
	if (side_name(path, s->spare ? "spare" : "XXXXXX", s->tmp,
	    sizeof(s->tmp)) == -1)
		return -1;
	if (!s->spare)
		return s->fd = mkostemp(s->tmp, O_CLOEXEC);
	return s->fd = open(s->tmp, O_WRONLY | O_CREAT | O_CLOEXEC |
	    O_NOFOLLOW, mode);
}

int
statedir_stage(struct staged *s, const char *path, mode_t mode, int spare,
    int (*fill)(FILE *, void *), void *arg)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->spare = spare;
	s->fd = s->dir_fd = -1;
	if (open_temp(s, path, mode) == -1)
		return -1;
	if (fchmod(s->fd, mode) == -1 ||
	    (s->fp = fdopen(s->fd, "w")) == NULL ||
	    fill_file(s->fp, fill, arg) == -1 ||
	    ftruncate(s->fd, ftello(s->fp)) == -1) {	/* the spare's rest */
		drop_temp(s);
		return -1;
	}
	return 0;
}

/*
 * The spare swapped with path: no inode made or freed (on ext4 most of a
 * checkpoint's cost); the old content is the next spare. Where the
 * filesystem cannot swap, or path does not exist yet, a plain rename.
 */
static int
put_in_place(const struct staged *s)
{
	if (s->spare && renameat2(AT_FDCWD, s->tmp, AT_FDCWD, s->path,
	    RENAME_EXCHANGE) == 0)
		return 0;
	return rename(s->tmp, s->path);
}

int
statedir_commit(struct staged *s)
{
	int	rc;

	if (s->sync_res < 0) {
		errno = -s->sync_res;
		drop_temp(s);
		return -1;
	}
	rc = fclose(s->fp);
	s->fp = NULL;
	s->fd = -1;
	if (rc != 0 || put_in_place(s) == -1) {
		drop_temp(s);
		return -1;
	}
	s->dir_fd = open_dir(s->path);
	return s->dir_fd == -1 ? -1 : 0;
}

int
statedir_finish(struct staged *s)
{
	if (s->dir_fd != -1)
		close(s->dir_fd);
	s->dir_fd = -1;
	/* a directory that cannot be synced (EINVAL) needs no sync */
	if (s->dir_res < 0 && s->dir_res != -EINVAL) {
		errno = -s->dir_res;
		return -1;
	}
	return 0;
}

void
statedir_abort(struct staged *s)
{
	if (s->fp != NULL || s->fd != -1)
		drop_temp(s);
	if (s->dir_fd != -1)
		close(s->dir_fd);
	s->dir_fd = -1;
}

int
statedir_replace(const char *path, mode_t mode, int (*fill)(FILE *, void *),
    void *arg)
{
	struct staged	s;

	if (statedir_stage(&s, path, mode, 0, fill, arg) == -1)
		return -1;
	s.sync_res = fsync(s.fd) == -1 ? -errno : 0;
	if (statedir_commit(&s) == -1)
		return -1;
	s.dir_res = fsync(s.dir_fd) == -1 ? -errno : 0;
	return statedir_finish(&s);
}

int
statedir_mkdirs(const char *path, mode_t mode)
{
	char	buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) == -1 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, mode) == -1 && errno != EEXIST ? -1 : 0;
}

/*
 * The pid the owner wrote; 0 when none (yet). An owner writes it right
 * after taking the lock, so an empty file is read again for a moment.
 */
static long
owner_pid(int fd)
{
	struct timespec	ts = { 0, 10000000 };
	char		buf[32];
	ssize_t		n;
	int		tries = 50;

	do {
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			return strtol(buf, NULL, 10);
		}
		nanosleep(&ts, NULL);
	} while (--tries > 0);
	return 0;
}

/* The systemd service a process runs in ("" when none), from its cgroup. */
static void
owner_unit(long pid, char *unit, size_t len)
{
	char	path[64], line[1024], *s;
	FILE	*fp;
	size_t	n;

	unit[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/cgroup", pid);
	if ((fp = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		s = strrchr(line, '/');
		n = s != NULL ? strlen(++s) : 0;
		if (n > 8 && strcmp(s + n - 8, ".service") == 0) {
			snprintf(unit, len, "%s", s);
			break;
		}
	}
	fclose(fp);
}

/* Who holds the lock, and how to stop it. */
static void
owner_describe(int fd, const char *dir, char *err, size_t len)
{
	char	unit[256];
	long	pid = owner_pid(fd);

	if (pid <= 0) {
		snprintf(err, len, "state directory %s is in use by another "
		    "process (its pid is not in %s/%s yet)", dir, dir,
		    STATEDIR_LOCK);
		return;
	}
	owner_unit(pid, unit, sizeof(unit));
	if (unit[0] != '\0')
		snprintf(err, len, "state directory %s is in use by pid %ld "
		    "(%s); stop it first: systemctl stop %s", dir, pid, unit,
		    unit);
	else
		snprintf(err, len, "state directory %s is in use by pid %ld; "
		    "stop it first: kill %ld", dir, pid, pid);
}

int
statedir_lock(const char *dir, char *err, size_t len)
{
	char	path[PATH_MAX + 16], buf[32];
	int	fd, wfd, n;

	if (statedir_mkdirs(dir, 0750) == -1) {
		snprintf(err, len, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, STATEDIR_LOCK);
	/*
	 * Held read-only: a file held open for writing would keep the state
	 * filesystem from being remounted read-only under the daemon. The
	 * pid goes in through a second, short-lived descriptor.
	 */
	if ((fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0640)) == -1) {
		snprintf(err, len, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno == EWOULDBLOCK)
			owner_describe(fd, dir, err, len);
		else
			snprintf(err, len, "cannot lock %s: %s", path,
			    strerror(errno));
		close(fd);
		return -1;
	}
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if ((wfd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) == -1 ||
	    write(wfd, buf, (size_t)n) != n) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(errno));
		if (wfd != -1)
			close(wfd);
		close(fd);
		return -1;
	}
	close(wfd);
	return fd;
}

char *
statedir_slurp(const char *path, size_t max)
{
	struct stat	 st;
	char		*buf = NULL;
	ssize_t		 r;
	size_t		 got = 0;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) ==
	    -1)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size <= max &&
	    (buf = malloc((size_t)st.st_size + 1)) != NULL) {
		while (got < (size_t)st.st_size && (r = read(fd, buf + got,
		    (size_t)st.st_size - got)) > 0)
			got += (size_t)r;
		buf[got] = '\0';
	}
	close(fd);
	return buf;
}
