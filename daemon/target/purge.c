/*
 * purge.c: prepare = format | sanitize on NVMe (libnvme), and what both
 * kinds of drive share: the refusals before anything is written, the
 * names, the errors. The ATA side is purge_ata.c.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libnvme.h>

#include "config.h"
#include "purge.h"
#include "safety.h"
#include "sysblk.h"

/* Format NVM may take long on a large drive: the ioctl waits this long. */
#define FORMAT_TIMEOUT_MS	(4U * 3600 * 1000)

void
purge_strerror(int err, char *buf, size_t len)
{
	if (err == PURGE_ERR_FAILED)
		snprintf(buf, len, "the drive reports that it failed");
	else if (err == PURGE_ERR_NOSTATUS)
		snprintf(buf, len, "the drive's answer holds no sanitize status "
		    "(no ATA Status Return in its sense data)");
	else if (err == PURGE_ERR_FROZEN)
		snprintf(buf, len, "the drive's sanitize is frozen (SANITIZE "
		    "FREEZE LOCK); a power cycle thaws it");
	else if ((err & 0xf00000) == 0x100000)
		snprintf(buf, len, "NVMe status 0x%x: %s", err & 0xffff,
		    nvme_status_to_string(err & 0xffff, false));
	else if ((err & 0xf00000) == 0x200000)
		snprintf(buf, len, "ATA status 0x%02x, error 0x%02x%s",
		    (err >> 8) & 0xff, err & 0xff, (err & 0x04) ?
		    " (command aborted)" : "");
	else
		snprintf(buf, len, "%s", strerror(err));
}

/* libnvme's answer as a purge error: 0, PURGE_ERR_NVME or errno. */
static int
nvme_err(int rc)
{
	if (rc == 0)
		return 0;
	return rc > 0 ? PURGE_ERR_NVME(rc) : (errno != 0 ? errno : EIO);
}

/* Is the block device a partition (sysfs says so)? */
static int
is_partition(dev_t rdev)
{
	char		path[96];
	struct stat	sb;

	return sysblk_path(path, sizeof(path), rdev, "partition") == 0 &&
	    stat(path, &sb) == 0;
}

/*
 * Is it stacked over other block devices (device-mapper, md: its sysfs
 * slaves)? Their ioctls reach the drive below, whose command would erase
 * all of it, not the part the mapping shows. The first one's name in
 * `below`.
 */
static int
is_stacked(dev_t rdev, char *below, size_t len)
{
	return sysblk_first(rdev, "slaves", below, len);
}

/*
 * Any namespace of the NVM subsystem besides nsid: its id in *other (0:
 * none); -1 when the list cannot be read (refused: nothing is known).
 * All the subsystem's namespaces where the controller manages them
 * (OACS bit 3: the allocated list), else those attached.
 */
static int
other_namespace(int fd, const struct nvme_id_ctrl *id, uint32_t nsid,
    uint32_t *other)
{
	struct nvme_ns_list	list;
	size_t			i;
	int			rc;

	*other = 0;
	rc = (le16toh(id->oacs) & NVME_CTRL_OACS_NS_MGMT) ?
	    nvme_identify_allocated_ns_list(fd, 0, &list) :
	    nvme_identify_active_ns_list(fd, 0, &list);
	if (rc != 0)
		return -1;
	for (i = 0; i < NVME_ID_NS_LIST_MAX && list.ns[i] != 0; i++)
		if (le32toh(list.ns[i]) != nsid) {
			*other = le32toh(list.ns[i]);
			break;
		}
	return 0;
}

/* What a command over the whole subsystem (WHAT) would also erase: 0 when
 * nothing, else -1 and why. */
static int
subsystem_alone(int fd, const struct nvme_id_ctrl *id, uint32_t nsid,
    const char *what, char *why, size_t len)
{
	uint32_t	other;

	if (id->cmic & NVME_CTRL_CMIC_MULTI_CTRL) {
		snprintf(why, len, "%s the whole NVM subsystem, which may have "
		    "other controllers and their namespaces (Identify "
		    "Controller CMIC bit 1)", what);
		return -1;
	}
	if (other_namespace(fd, id, nsid, &other) == -1) {
		snprintf(why, len, "%s the whole NVM subsystem, and its list "
		    "of namespaces cannot be read", what);
		return -1;
	}
	if (other != 0) {
		snprintf(why, len, "%s the whole NVM subsystem, and namespace "
		    "%" PRIu32 " is there besides this one", what, other);
		return -1;
	}
	return 0;
}

/*
 * The namespace as its Identify says it is: its format kept by Format
 * NVM, its size the target's (else the drive would erase what the
 * target does not show).
 */
static int
namespace_read(int fd, const struct target *t, struct purge *p, char *why,
    size_t len)
{
	struct nvme_id_ns	ns;
	unsigned		idx;
	uint64_t		bytes;

	if (nvme_identify_ns(fd, p->nsid, &ns) != 0) {
		snprintf(why, len, "cannot read Identify Namespace %" PRIu32,
		    p->nsid);
		return -1;
	}
	p->lbaf = ns.flbas & 0x0f;
	p->lbafu = (ns.flbas >> 5) & 0x03;
	p->mset = (ns.flbas >> 4) & 0x01;
	p->pi = ns.dps & 0x07;
	p->pil = (ns.dps >> 3) & 0x01;
	idx = (unsigned)p->lbafu << 4 | p->lbaf;
	bytes = ns.lbaf[idx].ds < 32 ? le64toh(ns.nsze) << ns.lbaf[idx].ds : 0;
	if (bytes != t->capacity) {
		snprintf(why, len, "namespace %" PRIu32 " holds %" PRIu64
		    " bytes (Identify Namespace NSZE), the device %" PRIu64
		    ": the drive would erase what the device does not show",
		    p->nsid, bytes, t->capacity);
		return -1;
	}
	return 0;
}

static int
check_format(int fd, const struct nvme_id_ctrl *id, struct purge *p,
    char *why, size_t len)
{
	if (!(le16toh(id->oacs) & NVME_CTRL_OACS_FORMAT)) {
		snprintf(why, len, "the controller does not support Format "
		    "NVM (Identify Controller OACS bit 1)");
		return -1;
	}
	if ((id->fna & (NVME_CTRL_FNA_FMT_ALL_NAMESPACES |
	    NVME_CTRL_FNA_SEC_ALL_NAMESPACES)) &&
	    subsystem_alone(fd, id, p->nsid, "Format NVM with user data "
	    "erase covers (FNA bits 0-1)", why, len) == -1)
		return -1;
	p->how = PURGE_NVME_FORMAT;
	return 0;
}

static int
check_sanitize(int fd, const struct nvme_id_ctrl *id, struct purge *p,
    char *why, size_t len)
{
	uint32_t	cap = le32toh(id->sanicap);

	if (cap & NVME_CTRL_SANICAP_BES)
		p->how = PURGE_NVME_BLOCK;
	else if (cap & NVME_CTRL_SANICAP_CES)
		p->how = PURGE_NVME_CRYPTO;
	else {
		snprintf(why, len, "the controller supports neither block "
		    "erase nor crypto erase Sanitize (Identify Controller "
		    "SANICAP 0x%" PRIx32 ")", cap);
		return -1;
	}
	return subsystem_alone(fd, id, p->nsid, "Sanitize erases", why, len);
}

/* The NVMe side: 1 (not an NVMe namespace), 0 (*p), -1 (why). */
static int
purge_nvme_check(const struct target *t, int prepare, struct purge *p,
    char *why, size_t len)
{
	struct nvme_id_ctrl	id;
	int			fd = t->fd;

	if (nvme_get_nsid(fd, &p->nsid) != 0)
		return 1;
	if (nvme_identify_ctrl(fd, &id) != 0) {
		snprintf(why, len, "cannot read Identify Controller: %s",
		    strerror(errno));
		return -1;
	}
	if ((prepare == PREPARE_FORMAT ? check_format(fd, &id, p, why, len) :
	    check_sanitize(fd, &id, p, why, len)) == -1)
		return -1;
	return namespace_read(fd, t, p, why, len);
}

/* What a block device must be for its drive to erase all of it: 0, or -1
 * and why. */
static int
whole_drive(const struct target *t, uint64_t span, char *why, size_t len)
{
	char	below[64];

	if (is_partition(t->rdev)) {
		snprintf(why, len, "the device is a partition, and the drive "
		    "would erase all of its disk");
		return -1;
	}
	if (is_stacked(t->rdev, below, sizeof(below))) {
		snprintf(why, len, "the device is mapped over %s (device-mapper "
		    "or md), and the drive below would erase all of it", below);
		return -1;
	}
	if (span < t->capacity) {
		snprintf(why, len, "the span (%" PRIu64 " bytes) is less than "
		    "the device (%" PRIu64 " bytes), all of which the drive "
		    "would erase", span, t->capacity);
		return -1;
	}
	return 0;
}

int
target_purge_check(const struct target *t, int prepare, uint64_t span,
    struct purge *p, char *why, size_t len)
{
	int	rc;

	memset(p, 0, sizeof(*p));
	p->prepare = prepare;
	if (!t->is_blockdev) {
		snprintf(why, len, "a file has no drive to ask; only a block "
		    "device can be formatted or sanitized");
		return -1;
	}
	if (whole_drive(t, span, why, len) == -1)
		return -1;
	if ((rc = purge_nvme_check(t, prepare, p, why, len)) <= 0)
		return rc;
	if (prepare == PREPARE_FORMAT) {
		snprintf(why, len, "the device is not an NVMe namespace (Format "
		    "NVM is an NVMe command; a SATA drive can be sanitized)");
		return -1;
	}
	return purge_ata_check(t->fd, t->capacity, p, why, len);
}

/* The Sanitize Status log: SSTAT's status and SPROG. */
static int
nvme_sanitize_log(int fd, unsigned *status, uint32_t *done)
{
	struct nvme_sanitize_log_page	log;
	int				rc;

	if ((rc = nvme_err(nvme_get_log_sanitize(fd, false, &log))) != 0)
		return rc;
	*status = le16toh(log.sstat) & NVME_SANITIZE_SSTAT_STATUS_MASK;
	*done = le16toh(log.sprog);
	return 0;
}

static int
nvme_format(int fd, const struct purge *p)
{
	struct nvme_format_nvm_args	a;

	memset(&a, 0, sizeof(a));
	a.args_size = sizeof(a);
	a.fd = fd;
	a.timeout = FORMAT_TIMEOUT_MS;
	a.nsid = p->nsid;
	a.lbaf = p->lbaf;
	a.lbafu = p->lbafu;
	a.mset = p->mset;
	a.pi = p->pi;
	a.pil = p->pil;
	a.ses = NVME_FORMAT_SES_USER_DATA_ERASE;
	return nvme_err(nvme_format_nvm(&a));
}

static int
nvme_sanitize(int fd, const struct purge *p)
{
	struct nvme_sanitize_nvm_args	a;
	unsigned			status;
	uint32_t			done;
	int				rc;

	if ((rc = nvme_sanitize_log(fd, &status, &done)) != 0)
		return rc;
	/* under way; or ended since this daemon started it (a pause) */
	if (status == NVME_SANITIZE_SSTAT_STATUS_IN_PROGESS || (p->again &&
	    (status == NVME_SANITIZE_SSTAT_STATUS_COMPLETE_SUCCESS ||
	    status == NVME_SANITIZE_SSTAT_STATUS_ND_COMPLETE_SUCCESS)))
		return 0;
	memset(&a, 0, sizeof(a));
	a.args_size = sizeof(a);
	a.fd = fd;
	a.timeout = NVME_DEFAULT_IOCTL_TIMEOUT;
	a.sanact = p->how == PURGE_NVME_BLOCK ?
	    NVME_SANITIZE_SANACT_START_BLOCK_ERASE :
	    NVME_SANITIZE_SANACT_START_CRYPTO_ERASE;
	return nvme_err(nvme_sanitize_nvm(&a));
}

/* An NVMe sanitize under way: the status log. */
static int
nvme_sanitize_poll(int fd, uint32_t *done)
{
	unsigned	status;
	int		rc;

	if ((rc = nvme_sanitize_log(fd, &status, done)) != 0)
		return -rc;
	switch (status) {
	case NVME_SANITIZE_SSTAT_STATUS_IN_PROGESS:
		return 0;
	case NVME_SANITIZE_SSTAT_STATUS_COMPLETE_SUCCESS:
	case NVME_SANITIZE_SSTAT_STATUS_ND_COMPLETE_SUCCESS:
		return 1;
	default:
		return -PURGE_ERR_FAILED;
	}
}

/* Format NVM: nothing to poll, purge_start waited for it. */
static int
format_poll(int fd, uint32_t *done)
{
	(void)fd;
	*done = 0;
	return 1;
}

/* Each way of purging: its name, its start and its poll. */
static const struct purge_method {
	const char	*name;
	int		(*start)(int fd, const struct purge *);
	int		(*poll)(int fd, uint32_t *done);
} methods[] = {
	[PURGE_NONE] = { "none", NULL, NULL },
	[PURGE_NVME_FORMAT] = { "NVMe Format NVM (user data erase)",
	    nvme_format, format_poll },
	[PURGE_NVME_BLOCK] = { "NVMe Sanitize (block erase)",
	    nvme_sanitize, nvme_sanitize_poll },
	[PURGE_NVME_CRYPTO] = { "NVMe Sanitize (crypto erase)",
	    nvme_sanitize, nvme_sanitize_poll },
	[PURGE_ATA_BLOCK] = { "ATA SANITIZE (block erase)",
	    purge_ata_start, purge_ata_poll },
	[PURGE_ATA_CRYPTO] = { "ATA SANITIZE (crypto scramble)",
	    purge_ata_start, purge_ata_poll },
};

static const struct purge_method *
method(enum purge_how how)
{
	return (unsigned)how < sizeof(methods) / sizeof(methods[0]) ?
	    &methods[how] : NULL;
}

const char *
purge_name(enum purge_how how)
{
	const struct purge_method	*m = method(how);

	return m != NULL ? m->name : "unknown";
}

int
purge_start(int fd, const struct purge *p)
{
	const struct purge_method	*m = method(p->how);

	return m != NULL && m->start != NULL ? m->start(fd, p) : EINVAL;
}

int
purge_poll(int fd, const struct purge *p, uint32_t *done)
{
	const struct purge_method	*m = method(p->how);

	*done = 0;
	return m != NULL && m->poll != NULL ? m->poll(fd, done) : -EINVAL;
}
