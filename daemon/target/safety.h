/* safety.h: the checks that decide whether a target may be written at all. */
#ifndef SSDT_SAFETY_H
#define SSDT_SAFETY_H

#include <stdint.h>
#include <sys/types.h>

#include "config.h"

/* The word for a device without a serial: the `serial` key's value for one,
 * the state's, the journal's SERIAL= and the metrics' label. */
#define SERIAL_NONE	"none"

struct target {
	int		fd;		/* O_RDWR|O_DIRECT (|O_EXCL for block devices) */
	int		is_blockdev;
	dev_t		rdev;
	uint64_t	capacity;	/* bytes */
	uint32_t	logical_block;	/* bytes */
	char		serial[128];	/* reported by the device; "" = none */
	char		model[128];
	int		created;	/* a file target made by this open */
	dev_t		created_dev;	/* ... and which file it was */
	ino_t		created_ino;
	uint64_t	resv_key;	/* a reservation held; 0 = none */
	const char	*resv_name;	/* ... for drive `resv_name` */
};

/* The target's serial, or SERIAL_NONE. */
static inline const char *
target_serial(const struct target *t)
{
	return t->serial[0] != '\0' ? t->serial : SERIAL_NONE;
}

/*
 * What a target is, whatever path names it: a block device by its device
 * number (a symlink under /dev/disk/by-*, a second device node), a file by
 * its device and inode (a hard link, a path through a symlink).
 */
struct target_id {
	int		is_blockdev;
	dev_t		dev;		/* st_rdev of a block device, else st_dev */
	ino_t		ino;		/* 0 for a block device */
};

/* -1 when the path names nothing (yet) or neither kind of target. */
int	safety_target_id(const char *path, struct target_id *);
int	safety_fd_target_id(int fd, struct target_id *);
int	safety_same_target(const struct target_id *, const struct target_id *);

/*
 * Open a target for writing after every safety check has passed. `owned`
 * says the state directory has a state file for this drive (a known
 * instance id is then checked against block 0). On refusal returns -1
 * and puts every reason found in `why`; nothing has been written.
 */
int	safety_open(const struct drive_conf *, int owned, uint64_t instance,
	    uint32_t block_size, struct target *, char *why, size_t whylen);
/* Close, releasing a reservation the target holds. */
void	safety_close(struct target *);
/*
 * reservation = yes: reserve a block device for this host (the key from
 * the host and the drive name), else refuse with the reason in `why`.
 */
int	safety_reserve(struct target *, const char *name, char *why,
	    size_t whylen);
/* Close after a refusal: a file the open created goes too. */
void	safety_discard(struct target *, const char *device);
/* Read-only probe for -n: capacity and serial when reachable. */
int	safety_probe(const char *device, uint64_t *capacity, char *serial,
	    size_t serlen);

#endif
