/*
 * purge.c: prepare = format | sanitize on NVMe (libnvme), and what both
 * kinds of drive share: the refusals before anything is written, the
 * names, the errors. The ATA side is purge_ata.c.
 */
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

/* Format NVM may take long on a large drive: the ioctl waits this long. */
#define FORMAT_TIMEOUT_MS	(4U * 3600 * 1000)

const char *
purge_name(enum purge_how how)
{
	static const char *const names[] = {
		[PURGE_NONE] = "none",
		[PURGE_NVME_FORMAT] = "NVMe Format NVM (user data erase)",
		[PURGE_NVME_BLOCK] = "NVMe Sanitize (block erase)",
		[PURGE_NVME_CRYPTO] = "NVMe Sanitize (crypto erase)",
		[PURGE_ATA_BLOCK] = "ATA SANITIZE (block erase)",
		[PURGE_ATA_CRYPTO] = "ATA SANITIZE (crypto scramble)",
	};

	return (unsigned)how < sizeof(names) / sizeof(names[0]) ?
	    names[how] : "unknown";
}

void
purge_strerror(int err, char *buf, size_t len)
{
	if (err == PURGE_ERR_FAILED)
		snprintf(buf, len, "the drive reports that it failed");
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

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition",
	    major(rdev), minor(rdev));
	return stat(path, &sb) == 0;
}

/* Another active namespace on the controller besides nsid: its id, or 0. */
static uint32_t
other_namespace(int fd, uint32_t nsid)
{
	struct nvme_ns_list	list;
	size_t			i;

	if (nvme_identify_active_ns_list(fd, 0, &list) != 0)
		return 0;
	for (i = 0; i < NVME_ID_NS_LIST_MAX && list.ns[i] != 0; i++)
		if (le32toh(list.ns[i]) != nsid)
			return le32toh(list.ns[i]);
	return 0;
}

static int
check_format(int fd, const struct nvme_id_ctrl *id, struct purge *p,
    char *why, size_t len)
{
	struct nvme_id_ns	ns;
	uint32_t		other;

	if (!(le16toh(id->oacs) & NVME_CTRL_OACS_FORMAT)) {
		snprintf(why, len, "the controller does not support Format "
		    "NVM (Identify Controller OACS bit 1)");
		return -1;
	}
	if ((id->fna & (NVME_CTRL_FNA_FMT_ALL_NAMESPACES |
	    NVME_CTRL_FNA_SEC_ALL_NAMESPACES)) &&
	    (other = other_namespace(fd, p->nsid)) != 0) {
		snprintf(why, len, "the controller formats all its namespaces "
		    "at once (FNA 0x%x) and namespace %" PRIu32 " is active "
		    "besides this one", id->fna, other);
		return -1;
	}
	if (nvme_identify_ns(fd, p->nsid, &ns) != 0) {
		snprintf(why, len, "cannot read Identify Namespace %" PRIu32
		    " (to keep its format)", p->nsid);
		return -1;
	}
	p->how = PURGE_NVME_FORMAT;
	p->lbaf = ns.flbas & 0x0f;
	p->lbafu = (ns.flbas >> 5) & 0x03;
	p->mset = (ns.flbas >> 4) & 0x01;
	p->pi = ns.dps & 0x07;
	p->pil = (ns.dps >> 3) & 0x01;
	return 0;
}

static int
check_sanitize(int fd, const struct nvme_id_ctrl *id, struct purge *p,
    char *why, size_t len)
{
	uint32_t	cap = le32toh(id->sanicap), other;

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
	if ((other = other_namespace(fd, p->nsid)) != 0) {
		snprintf(why, len, "Sanitize erases the whole NVM subsystem "
		    "and namespace %" PRIu32 " is active besides this one",
		    other);
		return -1;
	}
	return 0;
}

/* The NVMe side: 1 (not an NVMe namespace), 0 (*p), -1 (why). */
static int
purge_nvme_check(int fd, int prepare, struct purge *p, char *why,
    size_t len)
{
	struct nvme_id_ctrl	id;

	if (nvme_get_nsid(fd, &p->nsid) != 0)
		return 1;
	if (nvme_identify_ctrl(fd, &id) != 0) {
		snprintf(why, len, "cannot read Identify Controller: %s",
		    strerror(errno));
		return -1;
	}
	return prepare == PREPARE_FORMAT ? check_format(fd, &id, p, why, len) :
	    check_sanitize(fd, &id, p, why, len);
}

int
target_purge_check(const struct target *t, int prepare, uint64_t span,
    struct purge *p, char *why, size_t len)
{
	int	rc;

	memset(p, 0, sizeof(*p));
	if (!t->is_blockdev) {
		snprintf(why, len, "a file has no drive to ask; only a block "
		    "device can be formatted or sanitized");
		return -1;
	}
	if (is_partition(t->rdev)) {
		snprintf(why, len, "the device is a partition, and the drive "
		    "would erase all of its disk");
		return -1;
	}
	if (span < t->capacity) {
		snprintf(why, len, "the span (%" PRIu64 " bytes) is less than "
		    "the device (%" PRIu64 " bytes), all of which the drive "
		    "would erase", span, t->capacity);
		return -1;
	}
	if ((rc = purge_nvme_check(t->fd, prepare, p, why, len)) <= 0)
		return rc;
	if (prepare == PREPARE_FORMAT) {
		snprintf(why, len, "the device is not an NVMe namespace (Format "
		    "NVM is an NVMe command; a SATA drive can be sanitized)");
		return -1;
	}
	return purge_ata_check(t->fd, p, why, len);
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
	if (status == NVME_SANITIZE_SSTAT_STATUS_IN_PROGESS)
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

int
purge_start(int fd, const struct purge *p)
{
	switch (p->how) {
	case PURGE_NVME_FORMAT:
		return nvme_format(fd, p);
	case PURGE_NVME_BLOCK:
	case PURGE_NVME_CRYPTO:
		return nvme_sanitize(fd, p);
	case PURGE_ATA_BLOCK:
	case PURGE_ATA_CRYPTO:
		return purge_ata_start(fd, p);
	default:
		return EINVAL;
	}
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

int
purge_poll(int fd, const struct purge *p, uint32_t *done)
{
	*done = 0;
	switch (p->how) {
	case PURGE_NVME_FORMAT:		/* purge_start waited for it */
		return 1;
	case PURGE_NVME_BLOCK:
	case PURGE_NVME_CRYPTO:
		return nvme_sanitize_poll(fd, done);
	case PURGE_ATA_BLOCK:
	case PURGE_ATA_CRYPTO:
		return purge_ata_poll(fd, done);
	default:
		return -EINVAL;
	}
}
