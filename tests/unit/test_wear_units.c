/* test_wear_units.c: the SATA write/read counter table, one test per entry. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wear_units.h"

/*
 * What each entry must be, spelled out independently of wear_units.c:
 * bytes for a raw count of 3 with 4096-byte logical sectors.
 */
static const struct expect {
	const char	*name;
	enum wear_kind	 kind;
	uint64_t	 bytes_for_3;	/* raw 3, lbs 4096 */
	uint64_t	 page_bytes;
} expects[] = {
	{ "Total_LBAs_Written",		WEAR_HOST_WRITES, 3 * 4096, 0 },
	{ "Host_Writes_32MiB",		WEAR_HOST_WRITES, 100663296, 0 },
	{ "Host_Writes_GiB",		WEAR_HOST_WRITES, 3221225472, 0 },
	{ "Host_Writes_MiB",		WEAR_HOST_WRITES, 3145728, 0 },
	{ "Lifetime_Writes_GiB",	WEAR_HOST_WRITES, 3221225472, 0 },
	{ "Total_Writes_GiB",		WEAR_HOST_WRITES, 3221225472, 0 },
	{ "Host_Reades_GiB",		WEAR_HOST_READS, 3221225472, 0 },
	{ "Total_LBAs_Read",		WEAR_HOST_READS, 3 * 4096, 0 },
	{ "Host_Reads_32MiB",		WEAR_HOST_READS, 100663296, 0 },
	{ "Host_Reads_GiB",		WEAR_HOST_READS, 3221225472, 0 },
	{ "Host_Reads_MiB",		WEAR_HOST_READS, 3145728, 0 },
	{ "Lifetime_Reads_GiB",		WEAR_HOST_READS, 3221225472, 0 },
	{ "Total_Reads_GiB",		WEAR_HOST_READS, 3221225472, 0 },
	{ "NAND_Writes_1GiB",		WEAR_NAND_WRITES, 3221225472, 0 },
	{ "NAND_Writes_32MiB",		WEAR_NAND_WRITES, 100663296, 0 },
	{ "NAND_Writes_GiB",		WEAR_NAND_WRITES, 3221225472, 0 },
	{ "Flash_Writes_GiB",		WEAR_NAND_WRITES, 3221225472, 0 },
	{ "Flash_Writes_32MiB",		WEAR_NAND_WRITES, 100663296, 0 },
	{ "Flash_Writes_LBAs",		WEAR_NAND_WRITES, 3 * 4096, 0 },
	{ "Total_NAND_Writes_GiB",	WEAR_NAND_WRITES, 3221225472, 0 },
	{ "Total_NAND_Prog_Ct_GiB",	WEAR_NAND_WRITES, 3221225472, 0 },
	{ "Lifetime_NAND_Prg_GiB",	WEAR_NAND_WRITES, 3221225472, 0 },
	{ "NAND_GiB_Written",		WEAR_NAND_WRITES, 3221225472, 0 },
	{ "Host_Program_Page_Count",	WEAR_HOST_WRITES, 3 * 16384, 16384 },
	{ "FTL_Program_Page_Count",	WEAR_NAND_WRITES, 3 * 16384, 16384 },
	{ "Bckgnd_Program_Page_Cnt",	WEAR_NAND_WRITES, 3 * 16384, 16384 },
};
#define NEXPECT	(sizeof(expects) / sizeof(expects[0]))

/* One entry: found by its exact name, of its kind, converting right. */
static void
test_entry(void **state)
{
	const struct expect	*e = *state;
	const struct wear_unit	*u = wear_unit_find(e->name);

	assert_non_null(u);
	assert_string_equal(u->name, e->name);
	assert_int_equal(u->kind, e->kind);
	assert_int_equal(u->page_bytes, e->page_bytes);
	assert_int_equal(wear_unit_bytes(u, 3, 4096), e->bytes_for_3);
	assert_int_equal(wear_unit_bytes(u, 0, 4096), 0);
	/* sector units follow the logical block size, the others do not */
	if (u->unit_bytes == 0)
		assert_int_equal(wear_unit_bytes(u, 3, 512), 3 * 512);
	else
		assert_int_equal(wear_unit_bytes(u, 3, 512), e->bytes_for_3);
}

/* Every table entry has an expectation above, and the other way round:
 * a new entry without a test fails here. */
static void
test_table_complete(void **state)
{
	const struct wear_unit	*u;
	size_t			 i, n = 0;
	int			 found;

	(void)state;
	for (u = wear_units; u->name != NULL; u++, n++) {
		found = 0;
		for (i = 0; i < NEXPECT; i++)
			found += strcmp(expects[i].name, u->name) == 0;
		if (found != 1)
			fail_msg("%s: %d expectations", u->name, found);
		/* names are unique, so find() returns this very entry */
		assert_ptr_equal(wear_unit_find(u->name), u);
	}
	assert_int_equal(n, NEXPECT);
}

static void
test_unknown_names(void **state)
{
	static const char *const unknown[] = {
		"", "Unknown_Attribute", "Power_On_Hours",
		"total_lbas_written",		/* case-sensitive */
		"Total_LBAs_Written ",		/* exact */
		"Total_LBAs",			/* not a prefix match */
		"NAND_GB_Written_TLC",		/* left out on purpose */
		"Total_Writes_GB", "Total_Host_Writes",
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		assert_null(wear_unit_find(unknown[i]));
	assert_null(wear_unit_find(NULL));
	assert_int_equal(wear_unit_bytes(NULL, 5, 512), 0);
}

static void
test_saturation(void **state)
{
	const struct wear_unit	*gib = wear_unit_find("Host_Writes_GiB");
	const struct wear_unit	*lba = wear_unit_find("Total_LBAs_Written");
	uint64_t		 max = UINT64_MAX / (1ULL << 30);

	(void)state;
	assert_int_equal(wear_unit_bytes(gib, max, 512), max << 30);
	assert_int_equal(wear_unit_bytes(gib, max + 1, 512), UINT64_MAX);
	assert_int_equal(wear_unit_bytes(gib, UINT64_MAX, 512), UINT64_MAX);
	assert_int_equal(wear_unit_bytes(lba, UINT64_MAX / 4096, 4096),
	    (UINT64_MAX / 4096) * 4096);
	assert_int_equal(wear_unit_bytes(lba, UINT64_MAX / 4096 + 1, 4096),
	    UINT64_MAX);
	/* 48-bit raw values, the largest ATA can hold, never saturate */
	assert_int_equal(wear_unit_bytes(lba, 0xffffffffffffULL, 4096),
	    0xffffffffffffULL * 4096);
}

/* No logical block size known: sectors are 512 bytes. */
static void
test_default_lbs(void **state)
{
	(void)state;
	assert_int_equal(wear_unit_bytes(wear_unit_find("Total_LBAs_Read"),
	    7, 0), 7 * 512);
}

int
main(void)
{
	static const struct CMUnitTest	fixed[] = {
		cmocka_unit_test(test_table_complete),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_default_lbs),
	};
	struct CMUnitTest	tests[NEXPECT + 4];
	size_t			i;

	/* one named test per table entry, so a failure names the entry */
	for (i = 0; i < NEXPECT; i++) {
		memset(&tests[i], 0, sizeof(tests[i]));
		tests[i].name = expects[i].name;
		tests[i].test_func = test_entry;
		tests[i].initial_state = (void *)&expects[i];
	}
	for (i = 0; i < 4; i++)
		tests[NEXPECT + i] = fixed[i];
	return _cmocka_run_group_tests("wear_units", tests, NEXPECT + 4,
	    NULL, NULL);
}
