/*
 * test_purge.c: what the ATA side of prepare = sanitize reads from a
 * drive: the SANITIZE commands IDENTIFY DEVICE word 59 names (ACS-3
 * 7.12.7.33: bit 12 the feature set, 13 CRYPTO SCRAMBLE EXT, 14
 * OVERWRITE EXT, 15 BLOCK ERASE EXT), the registers of the SAT ATA
 * Status Return sense descriptor (code 09h), and SANITIZE STATUS EXT's
 * answer (COUNT bit 15 done, 14 under way, 13 frozen; LBA 15:0 the
 * progress of 65536), the drive's size (words 100-103, 106, 117-118) and
 * the ATA PASS-THROUGH (16) CDBs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "purge.h"

static void
test_word59(void **state)
{
	uint16_t	id[256];

	(void)state;
	memset(id, 0, sizeof(id));
	assert_int_equal(ata_sanitize_how(id), PURGE_NONE);
	id[59] = 1u << 15 | 1u << 13;	/* commands, but no feature set */
	assert_int_equal(ata_sanitize_how(id), PURGE_NONE);
	id[59] = 1u << 12 | 1u << 14;	/* overwrite only: not a purge we use */
	assert_int_equal(ata_sanitize_how(id), PURGE_NONE);
	id[59] = 1u << 12 | 1u << 13;
	assert_int_equal(ata_sanitize_how(id), PURGE_ATA_CRYPTO);
	id[59] = 1u << 12 | 1u << 13 | 1u << 15 | 0x0010;
	assert_int_equal(ata_sanitize_how(id), PURGE_ATA_BLOCK);
}

/* Descriptor sense: an information descriptor (00h) first, then ATA
 * Status Return with every register distinct. */
static size_t
sense_fill(uint8_t *s, uint8_t status)
{
	static const uint8_t info[12] = { 0x00, 0x0a, 0x80 };
	uint8_t	d[14] = { 0x09, 0x0c, 0x01, 0x04,
			  0xc0, 0x11,		/* COUNT 15:8, 7:0 */
			  0x24, 0x07,		/* LBA 31:24, 7:0 */
			  0x32, 0x15,		/* LBA 39:32, 15:8 */
			  0x40, 0x23,		/* LBA 47:40, 23:16 */
			  0xa0, 0 };

	memset(s, 0, 64);
	s[0] = 0x72;
	s[1] = 0x01;		/* recovered error: registers available */
	s[2] = 0x00;
	s[3] = 0x1d;
	s[7] = sizeof(info) + sizeof(d);
	memcpy(s + 8, info, sizeof(info));
	d[13] = status;
	memcpy(s + 8 + sizeof(info), d, sizeof(d));
	return 8 + sizeof(info) + sizeof(d);
}

static void
test_sense_regs(void **state)
{
	uint8_t		s[64];
	size_t		n = sense_fill(s, 0x50);
	struct ata_regs	r;

	(void)state;
	assert_int_equal(ata_regs_from_sense(s, n, &r), 0);
	assert_int_equal(r.status, 0x50);
	assert_int_equal(r.error, 0x04);
	assert_int_equal(r.device, 0xa0);
	assert_int_equal(r.count, 0xc011);
	assert_int_equal(r.lba, 0x403224231507ULL);
	assert_true(r.full);
	/* cut short: the descriptor is not all there */
	assert_int_equal(ata_regs_from_sense(s, n - 1, &r), -1);
	/* no ATA descriptor among them */
	s[8 + 12] = 0x02;
	assert_int_equal(ata_regs_from_sense(s, n, &r), -1);
}

/* Fixed format (SAT: what libata gives a command that failed, by
 * default): ERROR, STATUS, DEVICE, COUNT 7:0 in INFORMATION, LBA 23:0 in
 * COMMAND-SPECIFIC INFORMATION; COUNT 15:8 is not there (not full). */
static void
test_sense_fixed(void **state)
{
	uint8_t		s[18] = { 0x70, 0, 0x0b, 0x04, 0x51, 0xa0, 0x11, 10,
				  0x40, 0x07, 0x15, 0x23, 0x00, 0x00 };
	struct ata_regs	r;
	uint32_t	done;

	(void)state;
	assert_int_equal(ata_regs_from_sense(s, sizeof(s), &r), 0);
	assert_false(r.full);
	assert_int_equal(r.error, 0x04);
	assert_int_equal(r.status, 0x51);
	assert_int_equal(r.device, 0xa0);
	assert_int_equal(r.count, 0x11);
	assert_int_equal(r.lba, 0x231507);
	/* its ERR is seen: a sanitize refused is no sanitize done */
	assert_int_equal(ata_sanitize_status(&r, &done), -PURGE_ERR_FAILED);
	assert_int_equal(ata_regs_from_sense(s, 11, &r), -1);
}

/* IDENTIFY's size: 48-bit max LBA times the logical sector. */
static void
test_capacity(void **state)
{
	uint16_t	id[256];

	(void)state;
	memset(id, 0, sizeof(id));
	id[100] = 0x6db0;		/* 1953525168 sectors: a 1 TB drive */
	id[101] = 0x7470;
	assert_int_equal(ata_capacity(id), 1953525168ULL * 512);
	id[103] = 0x0001;		/* the top word counts */
	assert_int_equal(ata_capacity(id), (1953525168ULL + (1ULL << 48)) *
	    512);
	id[103] = 0;
	id[106] = 0x4000 | 0x1000;	/* logical sectors of 2048 words */
	id[117] = 2048;
	assert_int_equal(ata_capacity(id), 1953525168ULL * 4096);
	id[106] = 0x1000;		/* word 106 not valid: 512 */
	assert_int_equal(ata_capacity(id), 1953525168ULL * 512);
}

/* The CDBs as SAT lays them out: SANITIZE BLOCK ERASE EXT (non-data,
 * 48-bit, CK_COND; FEATURE 0012h, LBA "BkEr") and IDENTIFY (PIO in). */
static void
test_cdb(void **state)
{
	static const uint8_t block[16] = { 0x85, 0x07, 0x20, 0x00, 0x12,
		0x00, 0x00, 0x42, 0x72, 0x00, 0x45, 0x00, 0x6b, 0x40, 0xb4,
		0x00 };
	static const uint8_t ident[16] = { 0x85, 0x08, 0x0e, 0x00, 0x00,
		0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0xec,
		0x00 };
	uint8_t	cdb[16];

	(void)state;
	ata_cdb(cdb, 0xb4, 0x0012, 0, 0x426b4572ULL, 0);
	assert_memory_equal(cdb, block, 16);
	ata_cdb(cdb, 0xec, 0, 1, 0, 1);
	assert_memory_equal(cdb, ident, 16);
}

static void
test_status(void **state)
{
	struct ata_regs	r = { .status = 0x50 };
	uint32_t	done;

	(void)state;
	r.count = 1u << 14;
	r.lba = 0xabcd8000ULL;		/* only LBA 15:0 is progress */
	assert_int_equal(ata_sanitize_status(&r, &done), 0);
	assert_int_equal(done, 0x8000);
	r.count = 1u << 15;
	assert_int_equal(ata_sanitize_status(&r, &done), 1);
	r.count = 1u << 13;
	assert_int_equal(ata_sanitize_status(&r, &done), -PURGE_ERR_FROZEN);
	r.count = 1u << 15 | 1u << 13;	/* done, and frozen since */
	assert_int_equal(ata_sanitize_status(&r, &done), 1);
	r.count = 0;			/* neither done nor under way */
	assert_int_equal(ata_sanitize_status(&r, &done), -PURGE_ERR_FAILED);
	r.status = 0x51;		/* ERR: failed, whatever COUNT says */
	r.count = 1u << 15;
	assert_int_equal(ata_sanitize_status(&r, &done), -PURGE_ERR_FAILED);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_word59),
		cmocka_unit_test(test_sense_regs),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_sense_fixed),
		cmocka_unit_test(test_capacity),
		cmocka_unit_test(test_cdb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
