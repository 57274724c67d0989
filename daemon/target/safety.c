/*
 * safety.c: the checks that decide whether a target may be written at
 * all. A block device is refused, untouched, when it or a partition of it
 * is mounted, has holders, is active swap, cannot be opened exclusively,
 * carries a partition table or filesystem signature that is not ours, or
 * reports a serial other than the configured one. Every reason found is
 * reported, not only the first.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <blkid.h>

#include "block.h"
#include "dioalign.h"
#include "log.h"
#include "reserve.h"
#include "safety.h"
#include "sysblk.h"

#define MAX_DEVS	256

/* A whole disk and its partitions, as device numbers. */
struct devset {
	dev_t	devs[MAX_DEVS];
	size_t	n;
	char	sysdir[PATH_MAX];	/* /sys/dev/block/M:m */
};

/* Append a reason to the list. */
static void
why_add(char *why, size_t len, const char *reason)
{
	size_t	n = strlen(why);

	snprintf(why + n, len - n, "%s%s", n ? "; " : "", reason);
}

/* Read a small sysfs file, whitespace-trimmed. */
static int
read_trimmed(const char *path, char *out, size_t len)
{
	FILE	*fp;
	size_t	 n;
	char	*s;

	if (len == 0 || (fp = fopen(path, "r")) == NULL)
		return -1;
	n = fread(out, 1, len - 1, fp);
	fclose(fp);
	out[n] = '\0';
	for (s = out; *s && (isspace((unsigned char)*s) || !isprint((unsigned char)*s)); s++)
		;
	memmove(out, s, strlen(s) + 1);
	n = strlen(out);
	while (n > 0 && (isspace((unsigned char)out[n - 1]) ||
	    !isprint((unsigned char)out[n - 1])))
		out[--n] = '\0';
	return 0;
}

/* Parse "M:m" from a sysfs dev file. */
static int
read_devnum(const char *path, dev_t *d)
{
	char		buf[32];
	unsigned	ma, mi;

	if (read_trimmed(path, buf, sizeof(buf)) == -1 ||
	    sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -1;
	*d = makedev(ma, mi);
	return 0;
}

/* The disk and its partitions (subdirectories holding a "partition" file). */
static void
devset_fill(struct devset *ds, dev_t disk)
{
	char		 path[PATH_MAX + 300];
	struct dirent	*de;
	DIR		*dir;
	dev_t		 d;

	ds->n = 0;
	ds->devs[ds->n++] = disk;
	if (sysblk_path(ds->sysdir, sizeof(ds->sysdir), disk, NULL) == -1 ||
	    (dir = opendir(ds->sysdir)) == NULL)
		return;
	while ((de = readdir(dir)) != NULL && ds->n < MAX_DEVS) {
		snprintf(path, sizeof(path), "%s/%s/partition", ds->sysdir,
		    de->d_name);
		if (access(path, F_OK) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", ds->sysdir,
		    de->d_name);
		if (read_devnum(path, &d) == 0)
			ds->devs[ds->n++] = d;
	}
	closedir(dir);
}

static int
devset_has(const struct devset *ds, dev_t d)
{
	size_t	i;

	for (i = 0; i < ds->n; i++)
		if (ds->devs[i] == d)
			return 1;
	return 0;
}

/* Is the disk or a partition mounted anywhere (mountinfo field 3)? */
static int
check_mounted(const struct devset *ds, char *mnt, size_t len)
{
	FILE		*fp;
	char		 line[4096], point[2048];
	unsigned	 ma, mi;
	int		 found = 0;

	if ((fp = fopen("/proc/self/mountinfo", "r")) == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), fp) != NULL) {
		if (sscanf(line, "%*u %*u %u:%u %*s %2047s", &ma, &mi,
		    point) != 3)
			continue;
		if (devset_has(ds, makedev(ma, mi))) {
			snprintf(mnt, len, "%s", point);
			found = 1;
		}
	}
	fclose(fp);
	return found;
}

/* Does any holders/ directory of the disk or its partitions list something? */
static int
check_holders(const struct devset *ds, char *who, size_t len)
{
	size_t	i;

	for (i = 0; i < ds->n; i++)
		if (sysblk_first(ds->devs[i], "holders", who, len))
			return 1;
	return 0;
}

/* Is the disk or a partition active swap? */
static int
check_swap(const struct devset *ds)
{
	FILE		*fp;
	char		 line[4096], path[2048];
	struct stat	 st;
	int		 found = 0;

	if ((fp = fopen("/proc/swaps", "r")) == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "%2047s", path) == 1 && path[0] == '/' &&
		    stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
		    devset_has(ds, st.st_rdev))
			found = 1;
	fclose(fp);
	return found;
}

/* SCSI VPD page 0x80 (unit serial number): 4 header bytes, then ASCII. */
static int
read_vpd80(const char *sysdir, char *out, size_t len)
{
	char		 path[PATH_MAX + 64], buf[256];
	unsigned char	 n;
	FILE		*fp;
	size_t		 got, i, j = 0;

	snprintf(path, sizeof(path), "%s/device/vpd_pg80", sysdir);
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	got = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	if (got < 4 || (unsigned char)buf[1] != 0x80)
		return -1;
	n = (unsigned char)buf[3];
	for (i = 4; i < got && i < 4U + n && j + 1 < len; i++)
		if (isgraph((unsigned char)buf[i]) || (j > 0 && buf[i] == ' '))
			out[j++] = buf[i];
	while (j > 0 && out[j - 1] == ' ')
		j--;
	out[j] = '\0';
	return j > 0 ? 0 : -1;
}

/* The serial the device reports: NVMe, virtio, SCSI VPD 0x80, or udev. */
static void
read_serial(const char *sysdir, dev_t d, char *out, size_t len)
{
	static const char *const rel[] = { "device/serial", "serial", NULL };
	char	path[PATH_MAX + 64], line[512];
	FILE	*fp;
	int	i;

	out[0] = '\0';
	for (i = 0; rel[i] != NULL; i++) {
		snprintf(path, sizeof(path), "%s/%s", sysdir, rel[i]);
		if (read_trimmed(path, out, len) == 0 && out[0] != '\0')
			return;
	}
	if (read_vpd80(sysdir, out, len) == 0)
		return;
	snprintf(path, sizeof(path), "/run/udev/data/b%u:%u", major(d),
	    minor(d));
	if ((fp = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, "E:ID_SERIAL_SHORT=", 18) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%s", line + 18);
			break;
		}
	fclose(fp);
}

/*
 * Does the device carry a partition table or filesystem signature? 1 yes
 * (named in `what`), 0 no, -1 the probe itself failed. libblkid reads at
 * unaligned offsets, so it gets its own buffered descriptor: through the
 * O_DIRECT one every probe would fail.
 */
static int
check_signature(const char *dev, char *what, size_t len)
{
	blkid_probe	 pr;
	const char	*v = NULL;
	int		 rc, fd;

	if ((fd = open(dev, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if ((pr = blkid_new_probe()) == NULL ||
	    blkid_probe_set_device(pr, fd, 0, 0) != 0) {
		if (pr != NULL)
			blkid_free_probe(pr);
		close(fd);
		return -1;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0 && blkid_probe_lookup_value(pr, "TYPE", &v, NULL) != 0 &&
	    blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL) != 0)
		v = "unknown";
	if (rc == 0)
		snprintf(what, len, "%s", v);
	else if (rc == -2)
		snprintf(what, len, "several (ambivalent probe)");
	blkid_free_probe(pr);
	close(fd);
	if (rc == 0 || rc == -2)
		return 1;
	return rc == 1 ? 0 : -1;
}

/* Does block 0 hold a valid block of our instance? */
static int
block0_is_ours(int fd, uint32_t bs, uint64_t instance)
{
	struct blk_expect	 ex = { .has_gen = 1, .gen_hi = UINT64_MAX };
	struct blk_result	 r;
	void			*buf;
	int			 ours;

	if (posix_memalign(&buf, 4096, bs) != 0)
		return 0;
	ours = pread(fd, buf, bs, 0) == (ssize_t)bs &&
	    blk_check(buf, bs, instance, 0, &ex, &r) == BLK_OK;
	free(buf);
	return ours;
}

/* Capacity, logical block size, serial and model of an open device. */
static void
device_info(int fd, const struct devset *ds, dev_t rdev, struct target *t)
{
	char	path[PATH_MAX + 32];
	int	lbs = 512;

	if (ioctl(fd, BLKGETSIZE64, &t->capacity) == -1)
		t->capacity = 0;
	if (ioctl(fd, BLKSSZGET, &lbs) == -1)
		lbs = 512;
	t->logical_block = (uint32_t)lbs;
	read_serial(ds->sysdir, rdev, t->serial, sizeof(t->serial));
	snprintf(path, sizeof(path), "%s/device/model", ds->sysdir);
	if (read_trimmed(path, t->model, sizeof(t->model)) == -1)
		t->model[0] = '\0';
}

/* The checks that need no open file descriptor. */
static void
check_usage(const struct devset *ds, const char *dev, char *why,
    size_t whylen)
{
	char	buf[4096 + 128], who[4096];

	if (check_mounted(ds, who, sizeof(who)) == 1) {
		snprintf(buf, sizeof(buf), "%s (or a partition) is mounted on "
		    "%s", dev, who);
		why_add(why, whylen, buf);
	}
	if (check_holders(ds, who, sizeof(who))) {
		snprintf(buf, sizeof(buf), "%s has holders (%s: device-mapper, "
		    "md or LVM use it)", dev, who);
		why_add(why, whylen, buf);
	}
	if (check_swap(ds))
		why_add(why, whylen, "it (or a partition) is active swap");
}

/* Direct I/O on the target needs blocks of its logical block size. */
static int
check_alignment(uint32_t bs, const struct target *t, char *why,
    size_t whylen)
{
	char	buf[160];

	if (t->logical_block == 0 || bs % t->logical_block == 0)
		return 0;
	snprintf(buf, sizeof(buf), "block_size %u is not a multiple of the "
	    "logical block size %u", bs, t->logical_block);
	why_add(why, whylen, buf);
	return -1;
}

/* The checks on the opened device: signature and serial. */
static void
check_identity(const struct drive_conf *d, int owned, uint64_t instance,
    uint32_t bs, struct target *t, char *why, size_t whylen)
{
	char	buf[512], sig[128];
	int	rc;

	rc = check_signature(d->device, sig, sizeof(sig));
	if (rc == -1)
		why_add(why, whylen, "cannot probe it for filesystem or partition "
		    "signatures (libblkid)");
	else if (rc == 1 && !(owned && block0_is_ours(t->fd, bs, instance))) {
		snprintf(buf, sizeof(buf), "it carries a '%s' signature "
		    "(partition table or filesystem); wipe it (wipefs -a) if "
		    "it really is to be destroyed", sig);
		why_add(why, whylen, buf);
	}
	if (d->serial == NULL) {
		snprintf(buf, sizeof(buf), "serial = is required for block "
		    "devices; this one reports '%s'",
		    target_serial(t));
		why_add(why, whylen, buf);
	} else if (strcmp(d->serial, target_serial(t)) != 0) {
		snprintf(buf, sizeof(buf), "serial mismatch: configured '%s', "
		    "device reports '%s'", d->serial,
		    target_serial(t));
		why_add(why, whylen, buf);
	}
}

/*
 * O_EXCL open; a device just released by a previous instance (restart)
 * can stay busy for a few milliseconds, so EBUSY is retried for a second.
 */
static int
open_exclusive(const char *dev)
{
	struct timespec	ts = { 0, 50000000 };
	int		fd, tries = 20;

	while ((fd = open(dev, O_RDWR | O_EXCL | O_DIRECT | O_CLOEXEC)) == -1 &&
	    errno == EBUSY && --tries > 0)
		nanosleep(&ts, NULL);
	return fd;
}

/* A whole block device: every check, then an exclusive O_DIRECT open. */
static int
open_blockdev(const struct drive_conf *d, const struct stat *st, int owned,
    uint64_t instance, uint32_t bs, struct target *t, char *why,
    size_t whylen)
{
	struct devset	ds;
	char		path[PATH_MAX + 32], buf[512];

	devset_fill(&ds, st->st_rdev);
	snprintf(path, sizeof(path), "%s/partition", ds.sysdir);
	if (access(path, F_OK) == 0)
		why_add(why, whylen, "it is a partition; give the whole disk");
	check_usage(&ds, d->device, why, whylen);
	t->fd = open_exclusive(d->device);
	if (t->fd == -1) {
		snprintf(buf, sizeof(buf), "exclusive open failed: %s",
		    strerror(errno));
		why_add(why, whylen, buf);
		return -1;
	}
	t->is_blockdev = 1;
	t->rdev = st->st_rdev;
	device_info(t->fd, &ds, st->st_rdev, t);
	check_identity(d, owned, instance, bs, t, why, whylen);
	return why[0] ? -1 : 0;
}

/* Create a missing file target, sparse, of the configured size. */
static int
create_file(const struct drive_conf *d, struct target *t, char *why,
    size_t whylen)
{
	struct stat	st;
	char		buf[512];
	int		fd;

	if (d->size == 0) {
		why_add(why, whylen, "the file does not exist and no size = "
		    "is given");
		return -1;
	}
	fd = open(d->device, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd != -1 && fstat(fd, &st) == 0) {
		t->created = 1;
		t->created_dev = st.st_dev;
		t->created_ino = st.st_ino;
	} else if (fd != -1)
		unlink(d->device);	/* just made by O_EXCL: ours */
	if (fd == -1 || !t->created || ftruncate(fd, (off_t)d->size) == -1) {
		snprintf(buf, sizeof(buf), "cannot create: %s",
		    strerror(errno));
		why_add(why, whylen, buf);
		if (fd != -1)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* A regular file: never one that holds data that is not ours. */
static int
open_file(const struct drive_conf *d, const struct stat *st, int owned,
    struct target *t, char *why, size_t whylen)
{
	char	buf[512];

	if (!owned && st->st_blocks > 0) {
		why_add(why, whylen, "the file already holds data and the state "
		    "directory does not own it; remove it or name a new file");
		return -1;
	}
	if (d->size != 0 && (uint64_t)st->st_size != d->size && owned) {
		snprintf(buf, sizeof(buf), "size = %llu but the file, already "
		    "under test, has %llu bytes", (unsigned long long)d->size,
		    (unsigned long long)st->st_size);
		why_add(why, whylen, buf);
		return -1;
	}
	if ((t->fd = open(d->device, O_RDWR | O_DIRECT | O_CLOEXEC)) == -1) {
		if (errno == EINVAL)
			snprintf(buf, sizeof(buf), "open: the filesystem that "
			    "holds it does not support direct I/O (O_DIRECT); "
			    "put the file on another one");
		else
			snprintf(buf, sizeof(buf), "open: %s", strerror(errno));
		why_add(why, whylen, buf);
		return -1;
	}
	if (d->size != 0 && (uint64_t)st->st_size != d->size &&
	    ftruncate(t->fd, (off_t)d->size) == -1) {
		snprintf(buf, sizeof(buf), "resize: %s", strerror(errno));
		why_add(why, whylen, buf);
		return -1;
	}
	t->capacity = d->size != 0 ? d->size : (uint64_t)st->st_size;
	/* what O_DIRECT on this filesystem needs; 512 where it does not say */
	if (dio_offset_align(t->fd, &t->logical_block) == -1)
		t->logical_block = 512;
	return 0;
}

int
safety_open(const struct drive_conf *d, int owned, uint64_t instance,
    uint32_t block_size, struct target *t, char *why, size_t whylen)
{
	struct stat	st;
	char		buf[512];
	int		rc;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	why[0] = '\0';
	if (stat(d->device, &st) == -1 && errno == ENOENT) {
		/* a new empty file would pass for a drive that lost its data */
		if (owned) {
			why_add(why, whylen, "the file under test is gone, though "
			    "the state directory says it holds test data; "
			    "remove the drive's state directory to start over");
			return -1;
		}
		if (create_file(d, t, why, whylen) == -1) {
			safety_discard(t, d->device);
			return -1;
		}
	}
	if (stat(d->device, &st) == -1) {
		snprintf(buf, sizeof(buf), "%s", strerror(errno));
		why_add(why, whylen, buf);
		safety_discard(t, d->device);
		return -1;
	}
	if (S_ISBLK(st.st_mode))
		rc = open_blockdev(d, &st, owned, instance, block_size, t, why,
		    whylen);
	else if (S_ISREG(st.st_mode))
		rc = open_file(d, &st, owned, t, why, whylen);
	else {
		why_add(why, whylen, "neither a block device nor a regular "
		    "file");
		rc = -1;
	}
	if (rc == 0 && check_alignment(block_size, t, why, whylen) == -1)
		rc = -1;
	if (rc == -1)
		safety_discard(t, d->device);
	return rc;
}

void
safety_close(struct target *t)
{
	if (t->fd != -1 && t->resv_key != 0)
		reserve_drop(t->fd, t->resv_key, t->resv_name, t->serial);
	t->resv_key = 0;
	if (t->fd != -1)
		close(t->fd);
	t->fd = -1;
}

int
safety_reserve(struct target *t, const char *name, char *why, size_t whylen)
{
	uint64_t	key;

	if (!t->is_blockdev) {
		snprintf(why, whylen, "reservation = yes needs a block device");
		return -1;
	}
	if ((key = reserve_key(name, why, whylen)) == 0 ||
	    reserve_take(t->fd, key, why, whylen) == -1)
		return -1;
	t->resv_key = key;
	t->resv_name = name;
	log_drive(LOG_INFO, name, t->serial, 0, "reserved (write exclusive, "
	    "key 0x%016llx)", (unsigned long long)key);
	return 0;
}

/*
 * A refused drive leaves nothing behind, not even the file made for it;
 * but only that file: not one renamed onto its path since.
 */
void
safety_discard(struct target *t, const char *device)
{
	struct stat	st;

	safety_close(t);
	if (t->created && lstat(device, &st) == 0 &&
	    st.st_dev == t->created_dev && st.st_ino == t->created_ino)
		unlink(device);
	t->created = 0;
}

int
safety_probe(const char *device, uint64_t *capacity, char *serial,
    size_t serlen)
{
	struct devset	ds;
	struct stat	st;
	int		fd;

	if ((fd = open(device, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &st) == -1 || ioctl(fd, BLKGETSIZE64, capacity) == -1) {
		close(fd);
		return -1;
	}
	close(fd);
	devset_fill(&ds, st.st_rdev);
	read_serial(ds.sysdir, st.st_rdev, serial, serlen);
	return 0;
}

static int
stat_target_id(const struct stat *st, struct target_id *id)
{
	memset(id, 0, sizeof(*id));
	if (S_ISBLK(st->st_mode)) {
		id->is_blockdev = 1;
		id->dev = st->st_rdev;
	} else if (S_ISREG(st->st_mode)) {
		id->dev = st->st_dev;
		id->ino = st->st_ino;
	} else
		return -1;
	return 0;
}

int
safety_target_id(const char *path, struct target_id *id)
{
	struct stat	st;

	return stat(path, &st) == -1 ? -1 : stat_target_id(&st, id);
}

int
safety_fd_target_id(int fd, struct target_id *id)
{
	struct stat	st;

	return fstat(fd, &st) == -1 ? -1 : stat_target_id(&st, id);
}

int
safety_same_target(const struct target_id *a, const struct target_id *b)
{
	return a->is_blockdev == b->is_blockdev && a->dev == b->dev &&
	    a->ino == b->ino;
}
