/*
 * purge_ata.c: prepare = sanitize on a SATA drive, through the kernel's
 * SCSI-ATA translation (SG_IO, ATA PASS-THROUGH (16), SAT): IDENTIFY
 * DEVICE says which SANITIZE commands the drive has (ACS word 59), then
 * SANITIZE DEVICE with BLOCK ERASE EXT or CRYPTO SCRAMBLE EXT, and
 * SANITIZE STATUS EXT polled for its progress. The registers a command
 * returns come back in the sense data (CK_COND).
 */
#include <errno.h>
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

static void
cdb_fill(uint8_t cdb[16], const struct ata_cmd *c)
{
	memset(cdb, 0, 16);
	cdb[0] = ATA_PT16;
	if (c->data != NULL) {
		cdb[1] = 4 << 1;	/* PIO data-in */
		cdb[2] = 0x0e;		/* from the device, in blocks of COUNT */
	} else {
		cdb[1] = 3 << 1 | 1;	/* non-data, 48-bit */
		cdb[2] = 0x20;		/* CK_COND: the registers back */
	}
	cdb[3] = c->feature >> 8;
	cdb[4] = c->feature & 0xff;
	cdb[5] = c->count >> 8;
	cdb[6] = c->count & 0xff;
	cdb[7] = (c->lba >> 24) & 0xff;
	cdb[8] = c->lba & 0xff;
	cdb[9] = (c->lba >> 32) & 0xff;
	cdb[10] = (c->lba >> 8) & 0xff;
	cdb[11] = (c->lba >> 40) & 0xff;
	cdb[12] = (c->lba >> 16) & 0xff;
	cdb[13] = 0x40;			/* LBA mode */
	cdb[14] = c->cmd;
}

/* 0 (sent; the sense data may say more), or errno. */
static int
ata_send(int fd, struct ata_cmd *c)
{
	struct sg_io_hdr	io;
	uint8_t			cdb[16];

	cdb_fill(cdb, c);
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
	/* a SCSI device that knows no ATA PASS-THROUGH: illegal request */
	if (io.status != 0 && c->sense_len >= 3 &&
	    (((c->sense[0] & 0x7f) == 0x72 ? c->sense[1] : c->sense[2]) & 0x0f)
	    == 0x05)
		return EOPNOTSUPP;
	return io.host_status != 0 || io.driver_status > 0x08 ? EIO : 0;
}

int
ata_regs_from_sense(const uint8_t *s, size_t len, struct ata_regs *r)
{
	size_t	i;

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

int
purge_ata_check(int fd, struct purge *p, char *why, size_t len)
{
	struct ata_cmd	c = { .cmd = ATA_IDENTIFY, .count = 1,
			    .timeout_ms = 10000 };
	uint16_t	id[256];
	int		rc;

	c.data = id;
	if ((rc = ata_send(fd, &c)) != 0) {
		snprintf(why, len, "the device is neither an NVMe namespace "
		    "nor an ATA drive (IDENTIFY DEVICE through SG_IO: %s)",
		    strerror(rc));
		return -1;
	}
	p->how = ata_sanitize_how(id);
	if (p->how == PURGE_NONE) {
		snprintf(why, len, "the drive supports neither BLOCK ERASE nor "
		    "CRYPTO SCRAMBLE of the SANITIZE feature set (IDENTIFY "
		    "DEVICE word 59 = 0x%04x)", id[59]);
		return -1;
	}
	return 0;
}

/* SANITIZE STATUS EXT: 1 done, 0 under way (*done), -err. */
int
purge_ata_poll(int fd, uint32_t *done)
{
	struct ata_cmd	c = { .cmd = ATA_SANITIZE, .feature = SAN_STATUS_EXT,
			    .timeout_ms = 10000 };
	struct ata_regs	r;
	int		rc;

	*done = 0;
	if ((rc = ata_send(fd, &c)) != 0)
		return -rc;
	if (ata_regs_from_sense(c.sense, (size_t)c.sense_len, &r) == -1)
		return -EIO;
	return ata_sanitize_status(&r, done);
}

int
purge_ata_start(int fd, const struct purge *p)
{
	struct ata_cmd	c = { .cmd = ATA_SANITIZE, .timeout_ms = 60000 };
	struct ata_regs	r;
	uint32_t	done;
	int		rc;

	/* one under way (a restart during it): wait for it */
	if (purge_ata_poll(fd, &done) == 0)
		return 0;
	c.feature = p->how == PURGE_ATA_BLOCK ? SAN_BLOCK_EXT : SAN_CRYPTO_EXT;
	c.lba = p->how == PURGE_ATA_BLOCK ? SIG_BLOCK : SIG_CRYPTO;
	if ((rc = ata_send(fd, &c)) != 0)
		return rc;
	if (ata_regs_from_sense(c.sense, (size_t)c.sense_len, &r) == 0 &&
	    (r.status & ATA_ERR))
		return PURGE_ERR_ATA(r.status, r.error);
	return 0;
}
