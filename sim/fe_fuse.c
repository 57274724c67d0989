/*
 * fe_fuse.c: the FUSE low-level operations of ssdsim's one file, `drive`.
 * Each data request is served at once, under the front-end's lock,
 * against the backing file and the model; its reply goes to the reply
 * queue for the model's completion time. The file is opened with
 * direct_io, so the page cache never stands between the host and the
 * model, and every attribute and entry times out at once, so that a
 * power cut (the file gone) is seen at the next lookup.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fe.h"
#include "fe_undo.h"
#include "fe_reply.h"

#define INO_ROOT	FUSE_ROOT_ID
#define INO_DRIVE	2
#define DRIVE_NAME	"drive"

static struct fe *
fe_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static void
root_attr(struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = INO_ROOT;
	st->st_mode = S_IFDIR | 0755;
	st->st_nlink = 2;
	st->st_uid = getuid();
	st->st_gid = getgid();
}

/* The drive: the model's capacity, the backing file's allocation. */
static void
drive_attr(struct fe *fe, struct stat *st)
{
	struct stat	b;

	memset(st, 0, sizeof(*st));
	if (fstat(fe->datafd, &b) == 0) {
		st->st_blocks = b.st_blocks;
		st->st_atim = b.st_atim;
		st->st_mtim = b.st_mtim;
		st->st_ctim = b.st_ctim;
	}
	st->st_ino = INO_DRIVE;
	st->st_mode = S_IFREG | 0600;
	st->st_nlink = 1;
	st->st_uid = getuid();
	st->st_gid = getgid();
	st->st_size = (off_t)fe->capacity;
	st->st_blksize = FE_BLKSIZE;
}

static void
op_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* 1 MiB requests (the kernel's max_pages allows 256 pages) */
	conn->max_write = FE_MAX_IO;
	conn->max_read = FE_MAX_IO;	/* as the mount's max_read says */
	conn->max_readahead = 0;
	/* io_uring's queue depth reaches the model as requests in flight:
	 * async direct I/O, and room for them in the background queue */
	if (conn->capable & FUSE_CAP_ASYNC_DIO)
		conn->want |= FUSE_CAP_ASYNC_DIO;
	conn->want &= ~(unsigned)FUSE_CAP_WRITEBACK_CACHE;
	conn->max_background = 128;
	conn->congestion_threshold = 96;
}

static void
op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fe		*fe = fe_of(req);
	struct fuse_entry_param	 e;
	int			 on;

	pthread_mutex_lock(&fe->lock);
	on = fe->powered;
	if (on && parent == INO_ROOT && strcmp(name, DRIVE_NAME) == 0)
		drive_attr(fe, &e.attr);
	pthread_mutex_unlock(&fe->lock);
	if (!on || parent != INO_ROOT || strcmp(name, DRIVE_NAME) != 0) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	e.ino = INO_DRIVE;
	e.generation = 1;
	e.attr_timeout = 0;
	e.entry_timeout = 0;
	fuse_reply_entry(req, &e);
}

static void
op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct fe	*fe = fe_of(req);
	struct stat	 st;
	int		 on;

	(void)fi;
	if (ino == INO_ROOT) {
		root_attr(&st);
		fuse_reply_attr(req, &st, 0);
		return;
	}
	pthread_mutex_lock(&fe->lock);
	on = fe->powered;
	drive_attr(fe, &st);
	pthread_mutex_unlock(&fe->lock);
	if (!on)
		fuse_reply_err(req, ENOENT);
	else
		fuse_reply_attr(req, &st, 0);
}

/* A drive's size is fixed, its owner and mode too; times are ignored. */
static void
op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
    struct fuse_file_info *fi)
{
	struct fe	*fe = fe_of(req);

	(void)fi;
	if (ino != INO_DRIVE) {
		fuse_reply_err(req, EPERM);
		return;
	}
	if ((to_set & FUSE_SET_ATTR_SIZE) &&
	    (uint64_t)attr->st_size != fe->capacity) {
		fuse_reply_err(req, EINVAL);	/* as a block device says */
		return;
	}
	if (to_set & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID |
	    FUSE_SET_ATTR_GID)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	op_getattr(req, ino, NULL);
}

static void
op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct fe	*fe = fe_of(req);
	int		 on;

	if (ino != INO_DRIVE) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	pthread_mutex_lock(&fe->lock);
	on = fe->powered;
	fi->fh = fe->power_gen;
	pthread_mutex_unlock(&fe->lock);
	if (!on) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fi->direct_io = 1;
	fi->keep_cache = 0;
	fi->noflush = 1;	/* a close is no flush to a drive */
	fuse_reply_open(req, fi);
}

/*
 * Can a data request go to the model? 0, or the errno: ENODEV while the
 * power is off, EIO on a handle opened before the last power cut (the
 * device it named went away). Called under fe->lock.
 */
static int
handle_err(const struct fe *fe, const struct fuse_file_info *fi)
{
	if (!fe->powered)
		return ENODEV;
	return fi->fh != fe->power_gen ? EIO : 0;
}

/* The model's unit covering [off, off+len), within the capacity. */
static void
cover(const struct fe *fe, uint64_t off, uint64_t len, uint64_t *aoff,
    uint64_t *alen)
{
	uint64_t	end = (off + len + FE_SECTOR - 1) & ~(FE_SECTOR - 1);

	if (end > fe->capacity)
		end = fe->capacity;
	*aoff = off & ~(FE_SECTOR - 1);
	*alen = end - *aoff;
}

/* Damage what the model says is damaged: every byte inverted. */
static void
damage(char *buf, uint64_t off, uint64_t len, const struct sim_io *io)
{
	uint64_t	a = io->damage_off, b = io->damage_off + io->damage_len;

	if (a < off)
		a = off;
	if (b > off + len)
		b = off + len;
	for (; a < b; a++)
		buf[a - off] = (char)~buf[a - off];
}

static void
read_locked(struct fe *fe, size_t size, uint64_t off,
    struct fuse_file_info *fi, struct fe_reply *r)
{
	struct sim_io	io;
	uint64_t	len, aoff, alen, now = fe_now();
	ssize_t		n;

	r->done = now;
	if ((r->err = handle_err(fe, fi)) != 0)
		return;
	if (off >= fe->capacity) {
		r->kind = FE_R_BUF;	/* end of file: no data */
		return;
	}
	len = size < fe->capacity - off ? size : fe->capacity - off;
	if ((r->buf = malloc(len)) == NULL) {
		r->err = ENOMEM;
		return;
	}
	if ((n = pread(fe->datafd, r->buf, len, (off_t)off)) < 0) {
		r->err = EIO;
		return;
	}
	memset((char *)r->buf + n, 0, len - (uint64_t)n);
	cover(fe, off, len, &aoff, &alen);
	sim_model_read(fe->m, now, aoff, alen, &io);
	fe_busy(fe, now, io.done);
	r->done = io.done;
	if ((r->err = io.error) != 0)
		return;
	if (io.damage_len > 0)
		damage(r->buf, off, len, &io);
	r->kind = FE_R_BUF;
	r->size = len;
}

static void
op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	struct fe	*fe = fe_of(req);
	struct fe_reply	 r = { .req = req, .kind = FE_R_ERR };

	(void)ino;
	pthread_mutex_lock(&fe->lock);
	r.gen = fe->power_gen;
	read_locked(fe, size, (uint64_t)off, fi, &r);
	pthread_mutex_unlock(&fe->lock);
	if (r.err != 0) {
		free(r.buf);
		r.buf = NULL;
		r.kind = FE_R_ERR;
	}
	fe_reply_push(fe->rq, &r);
}

static void
write_locked(struct fe *fe, const char *buf, size_t size, uint64_t off,
    struct fuse_file_info *fi, struct fe_reply *r)
{
	struct sim_io	io;
	uint64_t	len, aoff, alen, now = fe_now();
	ssize_t		n;

	r->done = now;
	if ((r->err = handle_err(fe, fi)) != 0)
		return;
	if (off >= fe->capacity) {
		r->err = ENOSPC;	/* past the end of a drive */
		return;
	}
	len = size < fe->capacity - off ? size : fe->capacity - off;
	cover(fe, off, len, &aoff, &alen);
	/* what it replaces, for a power cut that loses it */
	if (fe_undo_keep(fe, aoff, alen) != 0) {
		r->err = EIO;	/* no memory, or the host's disk */
		return;
	}
	sim_model_write(fe->m, now, aoff, alen, &io);
	fe_undo_done(fe, io.seq);
	fe_busy(fe, now, io.done);
	r->done = io.done;
	if ((r->err = io.error) != 0)
		return;
	n = pwrite(fe->datafd, buf, len, (off_t)off);
	if (n < 0 || (uint64_t)n != len) {
		r->err = EIO;	/* the host's disk under the data file */
		return;
	}
	r->kind = FE_R_WRITE;
	r->size = len;
}

static void
op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
    off_t off, struct fuse_file_info *fi)
{
	struct fe	*fe = fe_of(req);
	struct fe_reply	 r = { .req = req, .kind = FE_R_ERR };

	(void)ino;
	pthread_mutex_lock(&fe->lock);
	r.gen = fe->power_gen;
	write_locked(fe, buf, size, (uint64_t)off, fi, &r);
	pthread_mutex_unlock(&fe->lock);
	if (r.err != 0)
		r.kind = FE_R_ERR;
	fe_reply_push(fe->rq, &r);
}

/*
 * A discard: the whole sectors inside the range go to the model, which
 * frees the whole pages among them; those pages, and only those, are
 * punched out of the data file (what is left of a partial page keeps its
 * bytes, as the drive keeps it).
 */
static void
trim_locked(struct fe *fe, uint64_t off, uint64_t len,
    struct fuse_file_info *fi, struct fe_reply *r)
{
	struct sim_io	io;
	uint64_t	a, b, now = fe_now();

	r->done = now;
	if ((r->err = handle_err(fe, fi)) != 0)
		return;
	b = off + len < fe->capacity ? off + len : fe->capacity;
	a = (off + FE_SECTOR - 1) & ~(FE_SECTOR - 1);
	b &= ~(FE_SECTOR - 1);
	if (off >= fe->capacity || a >= b)
		return;
	sim_model_trim(fe->m, now, a, b - a, &io);
	fe_busy(fe, now, io.done);
	r->done = io.done;
	if ((r->err = io.error) != 0)
		return;
	a = (a + FE_PAGE - 1) & ~(FE_PAGE - 1);
	b &= ~(FE_PAGE - 1);
	if (a < b && fallocate(fe->datafd, FALLOC_FL_PUNCH_HOLE |
	    FALLOC_FL_KEEP_SIZE, (off_t)a, (off_t)(b - a)) == -1)
		r->err = EIO;
}

static void
op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off,
    off_t length, struct fuse_file_info *fi)
{
	struct fe	*fe = fe_of(req);
	struct fe_reply	 r = { .req = req, .kind = FE_R_ERR };

	(void)ino;
	if (mode != (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE) ||
	    off < 0 || length <= 0) {
		/* a drive has nothing to allocate: discard is all it does */
		fuse_reply_err(req, mode != (FALLOC_FL_PUNCH_HOLE |
		    FALLOC_FL_KEEP_SIZE) ? EOPNOTSUPP : EINVAL);
		return;
	}
	pthread_mutex_lock(&fe->lock);
	r.gen = fe->power_gen;
	trim_locked(fe, (uint64_t)off, (uint64_t)length, fi, &r);
	pthread_mutex_unlock(&fe->lock);
	fe_reply_push(fe->rq, &r);
}

/* fsync and fdatasync: a FLUSH of the drive's volatile cache. */
static void
op_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
    struct fuse_file_info *fi)
{
	struct fe	*fe = fe_of(req);
	struct fe_reply	 r = { .req = req, .kind = FE_R_ERR };
	struct sim_io	 io;

	(void)ino;
	(void)datasync;
	pthread_mutex_lock(&fe->lock);
	r.gen = fe->power_gen;
	r.done = fe_now();
	if ((r.err = handle_err(fe, fi)) == 0) {
		sim_model_flush(fe->m, r.done, &io);
		fe_busy(fe, r.done, io.done);
		r.done = io.done;
		r.err = io.error;
	}
	pthread_mutex_unlock(&fe->lock);
	fe_reply_push(fe->rq, &r);
}

static void
op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static void
op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static void
op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	struct fe	*fe = fe_of(req);
	static const char *const names[] = { ".", "..", DRIVE_NAME };
	struct stat	 st;
	char		 buf[512];
	size_t		 used = 0, n;
	int		 i, count;

	(void)fi;
	if (ino != INO_ROOT) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	pthread_mutex_lock(&fe->lock);
	count = fe->powered ? 3 : 2;
	pthread_mutex_unlock(&fe->lock);
	memset(&st, 0, sizeof(st));
	for (i = (int)off; i < count; i++) {
		st.st_ino = i == 2 ? INO_DRIVE : INO_ROOT;
		st.st_mode = i == 2 ? S_IFREG : S_IFDIR;
		n = fuse_add_direntry(req, buf + used, sizeof(buf) - used,
		    names[i], &st, i + 1);
		if (used + n > size || used + n > sizeof(buf))
			break;
		used += n;
	}
	fuse_reply_buf(req, buf, used);
}

static void
op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct fe	*fe = fe_of(req);
	struct statvfs	 sv;

	(void)ino;
	memset(&sv, 0, sizeof(sv));
	sv.f_bsize = FE_BLKSIZE;
	sv.f_frsize = FE_BLKSIZE;
	sv.f_blocks = fe->capacity / FE_BLKSIZE;
	sv.f_files = 2;
	sv.f_namemax = 255;
	fuse_reply_statfs(req, &sv);
}

static const struct fuse_lowlevel_ops ops = {
	.init = op_init,
	.lookup = op_lookup,
	.getattr = op_getattr,
	.setattr = op_setattr,
	.open = op_open,
	.read = op_read,
	.write = op_write,
	.flush = op_flush,
	.release = op_release,
	.fsync = op_fsync,
	.readdir = op_readdir,
	.statfs = op_statfs,
	.fallocate = op_fallocate,
};

const struct fuse_lowlevel_ops *
fe_fuse_ops(void)
{
	return &ops;
}

/* The file went away: the kernel forgets its name at once. */
void
fe_fuse_forget_drive(struct fe *fe)
{
	if (fe->se != NULL)
		fuse_lowlevel_notify_inval_entry(fe->se, INO_ROOT, DRIVE_NAME,
		    strlen(DRIVE_NAME));
}
