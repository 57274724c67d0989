/* reserve.c: persistent reservations through the block layer's PR ioctls. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <linux/pr.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <xxhash.h>

#include "config.h"
#include "log.h"
#include "reserve.h"
#include "sysblk.h"

#define MACHINE_ID	"/etc/machine-id"

uint64_t
reserve_key(const char *name, char *why, size_t len)
{
	char		buf[64 + CONF_NAME_MAX];
	char		id[64];
	FILE		*fp;
	uint64_t	key;

	if ((fp = fopen(MACHINE_ID, "r")) == NULL ||
	    fgets(id, sizeof(id), fp) == NULL || strlen(id) < 32) {
		snprintf(why, len, "reservation = yes needs the host's %s: %s",
		    MACHINE_ID, fp == NULL ? strerror(errno) : "empty");
		if (fp != NULL)
			fclose(fp);
		return 0;
	}
	fclose(fp);
	id[strcspn(id, "\n")] = '\0';
	snprintf(buf, sizeof(buf), "%s/%s", id, name);
	key = XXH3_64bits(buf, strlen(buf));
	return key != 0 ? key : 1;	/* 0 unregisters */
}

/* An NVMe namespace, whose driver passes NVMe status codes through. */
static int
is_nvme(int fd)
{
	struct stat	st;
	char		link[64], real[PATH_MAX];

	if (fstat(fd, &st) == -1 ||
	    sysblk_path(link, sizeof(link), st.st_rdev, NULL) == -1)
		return 0;
	return realpath(link, real) != NULL && strstr(real, "/nvme/") != NULL;
}

/*
 * An ioctl's outcome as words: -1 is an errno; older kernels pass the
 * device's own status through as a positive value (SCSI status 0x18 is a
 * reservation conflict; NVMe generic status 0x01, invalid opcode, a
 * controller without reservations).
 */
static void
pr_failed(int fd, const char *what, int rc, char *why, size_t len)
{
	if ((rc == -1 && (errno == EOPNOTSUPP || errno == ENOTTY)) ||
	    (rc > 0 && is_nvme(fd) && (rc & 0x7ff) == 0x001))
		snprintf(why, len, "reservation = yes: the device does not "
		    "support persistent reservations (%s failed: %s)", what,
		    rc == -1 ? strerror(errno) : "NVMe invalid opcode");
	else if ((rc == -1 && errno == RESERVE_CONFLICT_ERRNO) ||
	    (rc > 0 && !is_nvme(fd) && (rc & 0xff) == 0x18))
		snprintf(why, len, "reservation = yes: %s failed: %s", what,
		    RESERVE_CONFLICT_REASON);
	else if (rc == -1)
		snprintf(why, len, "reservation = yes: %s failed: %s", what,
		    strerror(errno));
	else
		snprintf(why, len, "reservation = yes: %s failed: device "
		    "status 0x%x", what, (unsigned)rc);
}

int
reserve_take(int fd, uint64_t key, char *why, size_t len)
{
	/* a key left by this host's last run is replaced, not an error */
	struct pr_registration	reg = { .new_key = key,
				    .flags = PR_FL_IGNORE_KEY };
	struct pr_reservation	rsv = { .key = key,
				    .type = PR_WRITE_EXCLUSIVE };
	int			rc;

	if ((rc = ioctl(fd, IOC_PR_REGISTER, &reg)) != 0) {
		pr_failed(fd, "register", rc, why, len);
		return -1;
	}
	if ((rc = ioctl(fd, IOC_PR_RESERVE, &rsv)) != 0) {
		pr_failed(fd, "reserve", rc, why, len);
		reg.old_key = key;
		reg.new_key = 0;
		reg.flags = 0;
		(void)ioctl(fd, IOC_PR_REGISTER, &reg);
		return -1;
	}
	return 0;
}

void
reserve_drop(int fd, uint64_t key, const char *name, const char *serial)
{
	struct pr_reservation	rsv = { .key = key,
				    .type = PR_WRITE_EXCLUSIVE };
	struct pr_registration	reg = { .old_key = key };
	char			why[256];
	int			rc;

	if ((rc = ioctl(fd, IOC_PR_RELEASE, &rsv)) != 0) {
		pr_failed(fd, "release", rc, why, sizeof(why));
		log_drive(LOG_WARNING, name, serial, 0, "%s", why);
	}
	if ((rc = ioctl(fd, IOC_PR_REGISTER, &reg)) != 0) {
		pr_failed(fd, "unregister", rc, why, sizeof(why));
		log_drive(LOG_WARNING, name, serial, 0, "%s", why);
	}
}
