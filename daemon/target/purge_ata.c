/*
 * purge_ata.c: prepare = sanitize on a SATA drive, through the kernel's
 * SCSI-ATA translation (SG_IO, ATA PASS-THROUGH (16), SAT): IDENTIFY
 * DEVICE says which SANITIZE commands the drive has (ACS word 59), then
 * SANITIZE DEVICE with BLOCK ERASE EXT or CRYPTO SCRAMBLE EXT, and
 * SANITIZE STATUS EXT polled for its progress. The registers a command
 * returns come back in the sense data (CK_COND).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include <scsi/sg.h>

#include "purge.h"

#define ATA_PT16		0x85
#define ATA_IDENTIFY		0xec
#define ATA_SANITIZE		0xb4
#define SAN_STATUS_EXT		0x0000
#define SAN_CRYPTO_EXT		0x0011
#define SAN_BLOCK_EXT		0x0012
/* the LBA field's signatures the commands require ("Cryp", "BkEr") */
#define SIG_CRYPTO		0x43727970ULL
#define SIG_BLOCK		0x426b4572ULL
/* word 59 */
#define W59_SANITIZE		(1u << 12)
#define W59_CRYPTO		(1u << 13)
#define W59_BLOCK		(1u << 15)
/* SANITIZE STATUS EXT: COUNT bits */
#define SS_DONE_OK		(1u << 15)
#define SS_IN_PROGRESS		(1u << 14)
#define SS_FROZEN		(1u << 13)
#define ATA_ERR			0x01	/* status: the command failed */

/* One ATA command through SG_IO: its registers (ck_cond) and sense. */
struct ata_cmd {
	uint8_t		cmd;
	uint16_t	feature, count;
	uint64_t	lba;
	void		*data;		/* PIO data-in of 512 bytes, or NULL */
	unsigned	timeout_ms;
	uint8_t		sense[32];
	int		sense_len;
};

void
ata_cdb(uint8_t cdb[16], uint8_t cmd, uint16_t feature, uint16_t count,
    uint64_t lba, int data_in)
{
	memset(cdb, 0, 16);
	cdb[0] = ATA_PT16;
	if (data_in) {
		cdb[1] = 4 << 1;	/* PIO data-in */
		cdb[2] = 0x0e;		/* from the device, in blocks of COUNT */
	} else {
		cdb[1] = 3 << 1 | 1;	/* non-data, 48-bit */
		cdb[2] = 0x20;		/* CK_COND: the registers back */
	}
	cdb[3] = feature >> 8;
	cdb[4] = feature & 0xff;
	cdb[5] = count >> 8;
	cdb[6] = count & 0xff;
	cdb[7] = (lba >> 24) & 0xff;
	cdb[8] = lba & 0xff;
	cdb[9] = (lba >> 32) & 0xff;
	cdb[10] = (lba >> 8) & 0xff;
	cdb[11] = (lba >> 40) & 0xff;
	cdb[12] = (lba >> 16) & 0xff;
	cdb[13] = 0x40;			/* LBA mode */
	cdb[14] = cmd;
}

/* The sense key, ASC and ASCQ of fixed or descriptor sense data. */
static void
sense_key(const uint8_t *s, int len, unsigned *key, unsigned *asc_q)
{
	int	desc = (s[0] & 0x7f) >= 0x72;

	*key = len >= 3 ? (desc ? s[1] : s[2]) & 0x0f : 0;
	*asc_q = desc ? (len >= 4 ? (unsigned)s[2] << 8 | s[3] : 0) :
	    (len >= 14 ? (unsigned)s[12] << 8 | s[13] : 0);
}

/*
 * What a CHECK CONDITION says: the registers returned (RECOVERED ERROR,
 * ATA PASS-THROUGH INFORMATION AVAILABLE, or NO SENSE): 0; a SCSI device
 * that knows no ATA PASS-THROUGH (ILLEGAL REQUEST): EOPNOTSUPP; the
 * command failed: its status and error, or EIO.
 */
static int
check_condition(const struct ata_cmd *c)
{
	struct ata_regs	r;
	unsigned	key, asc_q;

	sense_key(c->sense, c->sense_len, &key, &asc_q);
	if (key == 0x00 || (key == 0x01 && asc_q == 0x001d))
		return 0;
	if (key == 0x05)
		return EOPNOTSUPP;
	if (ata_regs_from_sense(c->sense, (size_t)c->sense_len, &r) == 0 &&
	    (r.status & ATA_ERR))
		return PURGE_ERR_ATA(r.status, r.error);
	return EIO;
}

/* 0 (done; with CK_COND the registers in the sense data), or an error:
 * errno or PURGE_ERR_ATA. A data-in command brought all its bytes. */
static int
ata_send(int fd, struct ata_cmd *c)
{
	struct sg_io_hdr	io;
	uint8_t			cdb[16];

	ata_cdb(cdb, c->cmd, c->feature, c->count, c->lba, c->data != NULL);
	memset(c->sense, 0, sizeof(c->sense));
	memset(&io, 0, sizeof(io));
	io.interface_id = 'S';
	io.cmdp = cdb;
	io.cmd_len = sizeof(cdb);
	io.sbp = c->sense;
	io.mx_sb_len = sizeof(c->sense);
	io.dxfer_direction = c->data != NULL ? SG_DXFER_FROM_DEV : SG_DXFER_NONE;
	io.dxferp = c->data;
	io.dxfer_len = c->data != NULL ? 512 : 0;
	io.timeout = c->timeout_ms;
	if (ioctl(fd, SG_IO, &io) == -1)
		return errno;
	c->sense_len = io.sb_len_wr;
	/* the transport or the driver failed (DRIVER_SENSE alone is not) */
	if (io.host_status != 0 || (io.driver_status & 0x07) != 0)
		return EIO;
	if (io.status == 0x02)		/* CHECK CONDITION */
		return check_condition(c);
	if (io.status != 0)
		return EIO;
	return c->data != NULL && io.resid != 0 ? EIO : 0;
}

int
ata_regs_from_sense(const uint8_t *s, size_t len, struct ata_regs *r)
{
	size_t	i;

	memset(r, 0, sizeof(*r));
	if (len >= 12 && ((s[0] & 0x7f) == 0x70 || (s[0] & 0x7f) == 0x71)) {
		/* SAT fixed format: INFORMATION and COMMAND-SPECIFIC bytes */
		r->error = s[3];
		r->status = s[4];
		r->device = s[5];
		r->count = s[6];
		r->lba = (uint64_t)s[11] << 16 | (uint64_t)s[10] << 8 | s[9];
		return 0;
	}
	if (len < 8 || (s[0] & 0x7f) != 0x72)
		return -1;
	for (i = 8; i + 14 <= len && i < 8 + (size_t)s[7];
	    i += 2 + (size_t)s[i + 1]) {
		const uint8_t *d = s + i;

		if (d[0] != 0x09)	/* ATA Status Return */
			continue;
		r->error = d[3];
		r->count = (uint16_t)(d[4] << 8 | d[5]);
		r->lba = (uint64_t)d[10] << 40 | (uint64_t)d[8] << 32 |
		    (uint64_t)d[6] << 24 | (uint64_t)d[11] << 16 |
		    (uint64_t)d[9] << 8 | d[7];
		r->device = d[12];
		r->status = d[13];
		r->full = 1;
		return 0;
	}
	return -1;
}

enum purge_how
ata_sanitize_how(const uint16_t id[256])
{
	unsigned	w = id[59];

	if (!(w & W59_SANITIZE))
		return PURGE_NONE;
	if (w & W59_BLOCK)
		return PURGE_ATA_BLOCK;
	return (w & W59_CRYPTO) ? PURGE_ATA_CRYPTO : PURGE_NONE;
}

int
ata_sanitize_status(const struct ata_regs *r, uint32_t *done)
{
	*done = r->lba & 0xffff;
	if (r->status & ATA_ERR)
		return (r->count & SS_FROZEN) ? -PURGE_ERR_FROZEN :
		    -PURGE_ERR_FAILED;
	if (r->count & SS_IN_PROGRESS)
		return 0;
	if (r->count & SS_DONE_OK)
		return 1;
	return (r->count & SS_FROZEN) ? -PURGE_ERR_FROZEN : -PURGE_ERR_FAILED;
}

/* Words 100-103, the logical sector size where word 106 gives one. */
uint64_t
ata_capacity(const uint16_t id[256])
{
	uint64_t	lbas = (uint64_t)id[103] << 48 | (uint64_t)id[102] << 32 |
			    (uint64_t)id[101] << 16 | id[100];
	uint64_t	sector = 512;

	/* word 106 valid (bits 15:14 = 01b), words 117-118 in use (bit 12) */
	if ((id[106] & 0xc000) == 0x4000 && (id[106] & 0x1000))
		sector = 2 * ((uint64_t)id[118] << 16 | id[117]);
	return lbas * sector;
}

int
purge_ata_check(int fd, uint64_t capacity, struct purge *p, char *why,
    size_t len)
{
	struct ata_cmd	c = { .cmd = ATA_IDENTIFY, .count = 1,
			    .timeout_ms = 10000 };
	uint16_t	id[256];
	int		rc;

	memset(id, 0, sizeof(id));
	c.data = id;
	if ((rc = ata_send(fd, &c)) != 0) {
		snprintf(why, len, "the device is neither an NVMe namespace "
		    "nor an ATA drive (IDENTIFY DEVICE through SG_IO: %s)",
		    rc < 0x100000 ? strerror(rc) : "the command failed");
		return -1;
	}
	p->how = ata_sanitize_how(id);
	if (p->how == PURGE_NONE) {
		snprintf(why, len, "the drive supports neither BLOCK ERASE nor "
		    "CRYPTO SCRAMBLE of the SANITIZE feature set (IDENTIFY "
		    "DEVICE word 59 = 0x%04x)", id[59]);
		return -1;
	}
	if (ata_capacity(id) != capacity) {
		snprintf(why, len, "the drive holds %" PRIu64 " bytes (IDENTIFY "
		    "DEVICE), the device %" PRIu64 ": the drive would erase "
		    "what the device does not show", ata_capacity(id), capacity);
		return -1;
	}
	return 0;
}

/* SANITIZE STATUS EXT: 1 done, 0 under way (*done), -err. A failed
 * sanitize answers with ERR set: its registers still say why. */
int
purge_ata_poll(int fd, uint32_t *done)
{
	struct ata_cmd	c = { .cmd = ATA_SANITIZE, .feature = SAN_STATUS_EXT,
			    .timeout_ms = 10000 };
	struct ata_regs	r;
	int		rc;

	*done = 0;
	rc = ata_send(fd, &c);
	if (rc != 0 && (rc & 0xf00000) != 0x200000)
		return -rc;
	if (ata_regs_from_sense(c.sense, (size_t)c.sense_len, &r) == -1)
		return rc != 0 ? -rc : -EIO;
	if (!r.full)		/* fixed format: COUNT 15:8 is not there */
		return rc != 0 ? -rc : -PURGE_ERR_NOSTATUS;
	return ata_sanitize_status(&r, done);
}

int
purge_ata_start(int fd, const struct purge *p)
{
	struct ata_cmd	c = { .cmd = ATA_SANITIZE, .timeout_ms = 60000 };
	uint32_t	done;
	int		rc;

	/* under way; or ended since this daemon started it (a pause) */
	rc = purge_ata_poll(fd, &done);
	if (rc == 0 || (rc == 1 && p->again))
		return 0;
	c.feature = p->how == PURGE_ATA_BLOCK ? SAN_BLOCK_EXT : SAN_CRYPTO_EXT;
	c.lba = p->how == PURGE_ATA_BLOCK ? SIG_BLOCK : SIG_CRYPTO;
	return ata_send(fd, &c);
}
