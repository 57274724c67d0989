/*
 * errmap.c: the exact map of the bad blocks of one verify pass (format in
 * errmap.h). The engine commits findings in item order, so extents come
 * in ascending block order; the map is appended to and, like events.jsonl,
 * cut back on resume to the length the last checkpoint recorded, so a
 * pass resumed after a crash neither loses nor counts an extent twice.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errmap.h"
#include "log.h"
#include "statedir.h"

/* Set by checkpoint.c on the main thread, the only one with maps. */
static void	(*sync_waiter)(void);

void
errmap_set_sync_waiter(void (*fn)(void))
{
	sync_waiter = fn;
}

/* A flush of the map is in flight: let it end before touching the file. */
static void
sync_wait(const struct errmap *m)
{
	if (m->sync_busy && sync_waiter != NULL)
		sync_waiter();
}

void
errmap_path(char *buf, size_t len, const char *drive_dir, uint64_t pass)
{
	size_t	n;

	statedir_path(buf, len, drive_dir, STATEDIR_ERRMAPS);
	n = strlen(buf);
	snprintf(buf + n, len - n, "/pass-%llu.map", (unsigned long long)pass);
}

uint64_t
errmap_total(const struct errmap_counts *c)
{
	uint64_t	s = 0;
	int		i;

	for (i = 1; i < BLK_NCLASS; i++)
		s += c->blocks[i];
	return s;
}

static size_t
put_varint(unsigned char *p, uint64_t v)
{
	size_t	n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

/* 0 and the value, or -1 when the bytes end first (or it overflows). */
static int
get_varint(const unsigned char *p, size_t len, size_t *at, uint64_t *v)
{
	unsigned	shift = 0;

	*v = 0;
	while (*at < len && shift < 64) {
		unsigned char b = p[(*at)++];

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
		shift += 7;
	}
	return -1;
}

/* Count one extent, merging it with the one before when it continues it. */
static void
count_extent(struct errmap_counts *c, const struct errext *x, int continues)
{
	c->blocks[x->cls] += x->len;
	if (!continues)
		c->extents[x->cls]++;
	if (c->blocks[x->cls] == x->len)
		c->first[x->cls] = x->start;
	c->end[x->cls] = x->start + x->len;
}

static void
header(unsigned char *h, uint32_t block_size)
{
	memset(h, 0, ERRMAP_HDR);
	memcpy(h, ERRMAP_MAGIC, 8);
	h[8] = (unsigned char)block_size;
	h[9] = (unsigned char)(block_size >> 8);
	h[10] = (unsigned char)(block_size >> 16);
	h[11] = (unsigned char)(block_size >> 24);
}

/* Hand fn the extent held, if any. */
static int
emit(errmap_fn fn, void *arg, const struct errext *x, int has)
{
	return has && fn != NULL ? fn(x, arg) : 0;
}

int
errmap_parse(const unsigned char *p, size_t len, errmap_fn fn, void *arg,
    struct errmap_counts *c)
{
	struct errmap_counts	 tmp;
	struct errext		 cur = { 0, 0, BLK_OK }, x;
	uint64_t		 gap, next = 0;
	size_t			 at = ERRMAP_HDR;
	int			 has = 0;

	if (c == NULL)
		c = &tmp;
	memset(c, 0, sizeof(*c));
	if (len < ERRMAP_HDR || memcmp(p, ERRMAP_MAGIC, 8) != 0) {
		errno = EINVAL;
		return -1;
	}
	c->block_size = (uint32_t)p[8] | (uint32_t)p[9] << 8 |
	    (uint32_t)p[10] << 16 | (uint32_t)p[11] << 24;
	while (at < len) {
		if (get_varint(p, len, &at, &gap) == -1 ||
		    get_varint(p, len, &at, &x.len) == -1 || at >= len)
			break;		/* a record cut short: the map ends */
		x.cls = (enum blk_class)p[at++];
		if (x.cls <= BLK_OK || x.cls >= BLK_NCLASS || x.len == 0 ||
		    gap > UINT64_MAX - next - x.len) {
			errno = EINVAL;
			return -1;
		}
		x.start = next + gap;
		next = x.start + x.len;
		if (has && gap == 0 && x.cls == cur.cls) {
			count_extent(c, &x, 1);
			cur.len += x.len;
			continue;
		}
		count_extent(c, &x, 0);
		if (emit(fn, arg, &cur, has) != 0)
			return 0;
		cur = x;
		has = 1;
	}
	emit(fn, arg, &cur, has);
	return 0;
}

/* The whole file (or its first `limit` bytes) in memory. */
static unsigned char *
slurp(int fd, uint64_t limit, size_t *len)
{
	struct stat	 st;
	unsigned char	*p;
	size_t		 n, got = 0;
	ssize_t		 r;

	if (fstat(fd, &st) == -1)
		return NULL;
	n = (uint64_t)st.st_size < limit ? (size_t)st.st_size : (size_t)limit;
	if ((p = malloc(n + 1)) == NULL)
		return NULL;
	while (got < n && (r = pread(fd, p + got, n - got, (off_t)got)) > 0)
		got += (size_t)r;
	*len = got;
	return p;
}

int
errmap_read(const char *path, uint64_t limit, errmap_fn fn, void *arg,
    struct errmap_counts *c)
{
	unsigned char	*p;
	size_t		 len;
	int		 fd, rc, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	p = slurp(fd, limit, &len);
	saved = errno;
	close(fd);
	if (p == NULL) {
		errno = saved;
		return -1;
	}
	rc = errmap_parse(p, len, fn, arg, c);
	free(p);
	return rc;
}

int
errmap_is_open(const struct errmap *m)
{
	return m->fd >= 0 && !m->retired;
}

int
errmap_has_file(const struct errmap *m)
{
	return m->fd >= 0;
}

/* Keep a copy of bytes written and not yet synced. */
static int
unsynced_add(struct errmap *m, const unsigned char *p, size_t len)
{
	size_t		 cap = m->unsynced_cap ? m->unsynced_cap : ERRMAP_BUF;
	unsigned char	*nb;

	while (cap < m->nunsynced + len)
		cap *= 2;
	if (cap != m->unsynced_cap) {
		if ((nb = realloc(m->unsynced, cap)) == NULL)
			return -1;
		m->unsynced = nb;
		m->unsynced_cap = cap;
	}
	memcpy(m->unsynced + m->nunsynced, p, len);
	m->nunsynced += len;
	return 0;
}

/* What the kept part holds: counts, and where the next extent starts. */
static int
errmap_recount(struct errmap *m, uint32_t block_size)
{
	unsigned char	*p, h[ERRMAP_HDR];
	size_t		 len;
	int		 rc;

	if (m->size < ERRMAP_HDR) {	/* new, or cut inside the header */
		header(h, block_size);
		if (ftruncate(m->fd, 0) == -1 ||
		    pwrite(m->fd, h, ERRMAP_HDR, 0) != ERRMAP_HDR ||
		    unsynced_add(m, h, ERRMAP_HDR) == -1)
			return -1;
		m->size = ERRMAP_HDR;
		return 0;
	}
	m->synced = m->size;	/* kept by a checkpoint, which synced it */
	if ((p = slurp(m->fd, m->size, &len)) == NULL)
		return -1;
	rc = errmap_parse(p, len, NULL, NULL, &m->c);
	free(p);
	if (rc == 0 && m->c.block_size != block_size) {
		errno = EINVAL;
		return -1;
	}
	for (int i = 1; i < BLK_NCLASS; i++)
		if (m->c.end[i] > m->next)
			m->next = m->c.end[i];
	return rc;
}

int
errmap_open(struct errmap *m, const char *drive_dir, uint64_t pass,
    uint32_t block_size, uint64_t keep)
{
	char		path[4096];
	struct stat	st;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	m->pass = pass;
	statedir_path(path, sizeof(path), drive_dir, STATEDIR_ERRMAPS);
	if (statedir_mkdirs(path, 0750) == -1)
		return -1;
	errmap_path(path, sizeof(path), drive_dir, pass);
	if ((m->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640)) == -1 ||
	    fstat(m->fd, &st) == -1)
		goto fail;
	m->size = (uint64_t)st.st_size < keep ? (uint64_t)st.st_size : keep;
	if (ftruncate(m->fd, (off_t)m->size) == -1 ||
	    errmap_recount(m, block_size) == -1)
		goto fail;

	m->c.block_size = block_size;
	return 0;
fail:
	errmap_close(m);
	return -1;
}

/* Say once that the map cannot be written; m->err says it until it can. */
static void
errmap_warn(struct errmap *m, const char *what, int err)
{
	m->err = err;
	if (!m->warned)
		log_warnx("error map of pass %llu: cannot %s: %s (kept in "
		    "memory, tried again)", (unsigned long long)m->pass, what,
		    strerror(err));
	m->warned = 1;
}

/*
 * Write `len` bytes at the end of what is written; on failure the file is
 * cut back to it.
 */
static int
errmap_append(struct errmap *m, const unsigned char *p, size_t len)
{
	ssize_t	n;

	n = pwrite(m->fd, p, len, (off_t)m->size);
	if (n == (ssize_t)len) {
		m->size += len;
		return 0;
	}
	errmap_warn(m, "write", n == -1 ? errno : ENOSPC);
	(void)!ftruncate(m->fd, (off_t)m->size);
	return -1;
}

/* Write the record buffer, kept until synced. */
static int
errmap_write(struct errmap *m)
{
	if (m->nbuf == 0)
		return 0;
	if (unsynced_add(m, m->buf, m->nbuf) == -1) {
		errmap_warn(m, "write", ENOMEM);
		return -1;
	}
	if (errmap_append(m, m->buf, m->nbuf) == -1) {
		m->nunsynced -= m->nbuf;
		return -1;
	}
	m->nbuf = 0;
	return 0;
}

/* After a failed sync: cut back to what is on disk, write the rest again. */
static int
errmap_rewrite(struct errmap *m)
{
	if (ftruncate(m->fd, (off_t)m->synced) == -1) {
		errmap_warn(m, "write", errno);
		return -1;
	}
	m->size = m->synced;
	if (errmap_append(m, m->unsynced, m->nunsynced) == -1)
		return -1;
	m->rewrite = 0;
	return 0;
}

/* Move the extent held into the record buffer. */
static void
errmap_put(struct errmap *m)
{
	if (!m->has_pend)
		return;
	if (m->nbuf + 21 > sizeof(m->buf))
		errmap_write(m);	/* bounded; a failed write keeps it */
	if (m->nbuf + 21 > sizeof(m->buf))
		return;			/* the disk refuses; counted, not mapped */
	m->nbuf += put_varint(m->buf + m->nbuf, m->pend.start - m->next);
	m->nbuf += put_varint(m->buf + m->nbuf, m->pend.len);
	m->buf[m->nbuf++] = (unsigned char)m->pend.cls;
	m->next = m->pend.start + m->pend.len;
	m->has_pend = 0;
}

void
errmap_add(struct errmap *m, uint64_t start, uint64_t n, enum blk_class cls)
{
	struct errext	 x = { start, n, cls };
	uint64_t	 last_end = m->has_pend ? m->pend.start + m->pend.len :
	    m->next;
	int		 continues = start == last_end && m->c.blocks[cls] > 0 &&
	    m->c.end[cls] == last_end;

	if (m->fd < 0 || m->retired || n == 0 || start < last_end)
		return;
	count_extent(&m->c, &x, continues);
	if (m->has_pend && continues) {
		m->pend.len += n;
		return;
	}
	errmap_put(m);
	m->pend = x;
	m->has_pend = 1;
}

int
errmap_flush_begin(struct errmap *m, int *fd)
{
	*fd = -1;
	sync_wait(m);
	/* a later extent continuing this one is a record of its own, merged
	 * again when the map is read */
	errmap_put(m);
	if ((m->rewrite && errmap_rewrite(m) == -1) || errmap_write(m) == -1)
		return -1;
	if (m->size > m->synced)
		*fd = m->fd;
	m->sync_busy = *fd >= 0;
	m->sync_to = m->size;
	return 0;
}

/* A flush answered: the bytes up to `to` are on disk; records written
 * after it was sent stay to be synced. */
static void
synced_to(struct errmap *m, uint64_t to)
{
	size_t	n = (size_t)(to - m->synced);

	if (n >= m->nunsynced) {	/* the common case holds nothing between */
		free(m->unsynced);
		m->unsynced = NULL;
		m->nunsynced = m->unsynced_cap = 0;
	} else {
		memmove(m->unsynced, m->unsynced + n, m->nunsynced - n);
		m->nunsynced -= n;
	}
	m->synced = to;
}

uint64_t
errmap_flush_end(struct errmap *m, int res)
{
	m->sync_busy = 0;
	if (res < 0) {
		errmap_warn(m, "sync", -res);
		m->rewrite = 1;
		return m->synced;
	}
	synced_to(m, m->sync_to);
	m->err = 0;
	m->warned = 0;
	if (m->retired && m->synced == m->size && m->nbuf == 0) {
		close(m->fd);	/* nothing left: closed without a sync */
		m->fd = -1;
	}
	return m->synced;
}

void
errmap_retire(struct errmap *m)
{
	errmap_put(m);
	(void)errmap_write(m);	/* a failure is kept and written again */
	m->retired = 1;
}

uint64_t
errmap_flush(struct errmap *m)
{
	int	fd;

	if (m->fd < 0)
		return 0;
	if (errmap_flush_begin(m, &fd) == -1)
		return m->synced;
	return errmap_flush_end(m, fd >= 0 && fdatasync(fd) == -1 ? -errno :
	    0);
}

void
errmap_close(struct errmap *m)
{
	sync_wait(m);
	errmap_flush(m);	/* may close a retired map it synced */
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
	free(m->unsynced);
	m->unsynced = NULL;
	m->nunsynced = m->unsynced_cap = 0;
}
