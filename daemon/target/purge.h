/*
 * purge.h: prepare = format | sanitize, the drive's own commands that
 * bring every block back to a known state before a fresh run (the SNIA
 * Performance Test Specification's purge): NVMe Format NVM with user data
 * erase, NVMe Sanitize, ATA SANITIZE through SG_IO. The main thread asks
 * whether it can be done (target_purge_check), before anything is
 * written; the drive's worker runs it (purge_start, then purge_poll until
 * it ends), so a drive that takes hours blocks nothing but itself.
 */
#ifndef SSDT_PURGE_H
#define SSDT_PURGE_H

#include <stddef.h>
#include <stdint.h>

struct target;

enum purge_how {
	PURGE_NONE,
	PURGE_NVME_FORMAT,	/* Format NVM, SES = 1 (user data erase) */
	PURGE_NVME_BLOCK,	/* Sanitize, block erase */
	PURGE_NVME_CRYPTO,	/* Sanitize, crypto erase */
	PURGE_ATA_BLOCK,	/* SANITIZE DEVICE, BLOCK ERASE EXT */
	PURGE_ATA_CRYPTO	/* SANITIZE DEVICE, CRYPTO SCRAMBLE EXT */
};

/* How to purge one target: what target_purge_check found. */
struct purge {
	enum purge_how	how;
	int		prepare;	/* the PREPARE_* it was found for */
	/* a sanitize this daemon has started already (a job given again
	 * after a pause): one the drive reports ended is that one */
	int		again;
	uint32_t	nsid;		/* NVMe: the namespace */
	/* Format NVM: the namespace's current format, kept as it is */
	uint8_t		lbaf, lbafu, mset, pi, pil;
};

/* Progress steps of a purge: the NVMe and ATA sanitize progress scale. */
#define PURGE_STEPS	65536

/*
 * Errors of purge_start and purge_poll: an errno value, or a status the
 * drive answered with (purge_strerror tells them apart).
 */
#define PURGE_ERR_NVME(s)	(0x100000 | ((s) & 0xffff))
#define PURGE_ERR_ATA(st, er)	(0x200000 | ((st) & 0xff) << 8 | ((er) & 0xff))
#define PURGE_ERR_FAILED	0x300000	/* the drive reports it failed */
#define PURGE_ERR_FROZEN	0x300001	/* ATA: sanitize frozen */
#define PURGE_ERR_NOSTATUS	0x300002	/* ATA: no registers returned */

/*
 * Can prepare (PREPARE_FORMAT or PREPARE_SANITIZE) be done on target t,
 * whose run covers span bytes? 0 and *p filled, or -1 and why. Refused:
 * a file, a partition, a device mapped over others (device-mapper, md), a
 * span short of the device (the commands erase all of it), a drive whose
 * own size is not the device's, a drive that lacks the command, an NVMe
 * command that would also erase other namespaces or may reach other
 * controllers'.
 */
int	target_purge_check(const struct target *t, int prepare, uint64_t span,
	    struct purge *p, char *why, size_t len);
/* Start it (Format NVM runs to its end here): 0 or an error. A sanitize
 * already under way (a daemon restarted during one) is waited for. */
int	purge_start(int fd, const struct purge *p);
/* 1: ended well; 0: under way, *done of PURGE_STEPS; -err */
int	purge_poll(int fd, const struct purge *p, uint32_t *done);
/* "NVMe Format NVM (user data erase)"... */
const char *purge_name(enum purge_how);
void	purge_strerror(int err, char *buf, size_t len);

/* ATA (purge_ata.c), pure: decoded for tests */
/* IDENTIFY DEVICE word 59: the SANITIZE commands the drive has. */
enum purge_how	ata_sanitize_how(const uint16_t id[256]);
/* IDENTIFY DEVICE: the drive's bytes (48-bit max LBA, words 100-103,
 * times the logical sector, words 106 and 117-118). */
uint64_t	ata_capacity(const uint16_t id[256]);
/* The ATA PASS-THROUGH (16) CDB of a command: PIO data-in of COUNT
 * sectors (data_in), else non-data 48-bit with CK_COND. */
void	ata_cdb(uint8_t cdb[16], uint8_t cmd, uint16_t feature,
	    uint16_t count, uint64_t lba, int data_in);
/*
 * The registers an ATA PASS-THROUGH returned, from its sense data: the
 * ATA Status Return descriptor (descriptor format: all of them, full),
 * or the fixed format's (status, error, device, COUNT 7:0, LBA 23:0:
 * not full). 0, or -1 (neither).
 */
struct ata_regs {
	uint8_t		status, error, device;
	uint16_t	count;
	uint64_t	lba;
	int		full;
};
int	ata_regs_from_sense(const uint8_t *sense, size_t len,
	    struct ata_regs *r);
/* SANITIZE STATUS EXT's answer: 1 done, 0 under way (*done), -err. */
int	ata_sanitize_status(const struct ata_regs *r, uint32_t *done);

/* The ATA side of target_purge_check, purge_start and purge_poll. */
int	purge_ata_check(int fd, uint64_t capacity, struct purge *p,
	    char *why, size_t len);
int	purge_ata_start(int fd, const struct purge *p);
int	purge_ata_poll(int fd, uint32_t *done);

#endif
