/*
 * wear_units.c: what the vendor write/read counters of SATA SSDs count.
 *
 * Keyed on the attribute name smartctl prints, which is the name the
 * smartmontools drive database (drivedb.h, here 7.3/5319) gives the
 * attribute for that drive family; the unit is the one in that name, which
 * smartmontools takes from the vendor's documentation. Only names that
 * occur in drivedb.h are listed, and only where the name states a unit.
 * Left out on purpose (unit not stated or counter split in two):
 * Total_Writes_GB / Total_Reads_GB (SK hynix: GB or GiB?),
 * Lifetime_Wts_Frm_Hst_GB / Lifetime_Wts_To_Flsh_GB (Seagate, same
 * question), NAND_GB_Written_TLC + NAND_GB_Written_SLC (WD Blue) and
 * TLC_Writes_32MiB + SLC_Writes_32MiB (Silicon Motion), which are two
 * halves of the NAND writes, NAND_Writes (Samsung 251), Total_Media_Writes
 * (SK hynix), Lifetime_Writes (Indilinx), Host_Writes (OCZ Trion).
 *
 * Caveat: Total_LBAs_Written / Total_LBAs_Read are also smartmontools'
 * *default* names for attributes 241 / 242, used for drives that are not
 * in the database, whatever those drives really count there.
 */
#include <stddef.h>
#include <string.h>

#include "wear_units.h"

#define MiB	(1024ULL * 1024)
#define GiB	(1024ULL * MiB)

/*
 * Crucial/Micron (drivedb "Crucial/Micron Client SSDs", "Micron 5100 /
 * 52x0 / 5300", "M500DC/M510DC") count NAND pages programmed for the host
 * (247) and by the FTL / background work (248). Micron's TN-FD-22 gives
 * write amplification as (host pages + FTL pages) / host pages; it does not
 * give a page size, which differs between NAND generations. smart_ata.c
 * therefore uses these counters as a ratio against the drive's sector
 * counter (Total_LBAs_Written); the page size below is only a nominal
 * 16 KiB (the page of Micron's 3D TLC) used when no sector counter exists.
 * The host page counter is filed as a host write counter so the ratio can
 * tell the two apart; page_bytes != 0 marks both as page counters.
 */
#define PAGE	(16 * 1024ULL)

const struct wear_unit wear_units[] = {
	/* host writes */
	{ "Total_LBAs_Written",		WEAR_HOST_WRITES, 0,	0 },
	{ "Host_Writes_32MiB",		WEAR_HOST_WRITES, 32 * MiB, 0 },
	{ "Host_Writes_GiB",		WEAR_HOST_WRITES, GiB,	0 },
	{ "Host_Writes_MiB",		WEAR_HOST_WRITES, MiB,	0 },
	{ "Lifetime_Writes_GiB",	WEAR_HOST_WRITES, GiB,	0 },
	{ "Total_Writes_GiB",		WEAR_HOST_WRITES, GiB,	0 },
	/* host reads */
	{ "Host_Reades_GiB",		WEAR_HOST_READS, GiB,	0 },	/* sic */
	{ "Total_LBAs_Read",		WEAR_HOST_READS, 0,	0 },
	{ "Host_Reads_32MiB",		WEAR_HOST_READS, 32 * MiB, 0 },
	{ "Host_Reads_GiB",		WEAR_HOST_READS, GiB,	0 },
	{ "Host_Reads_MiB",		WEAR_HOST_READS, MiB,	0 },
	{ "Lifetime_Reads_GiB",		WEAR_HOST_READS, GiB,	0 },
	{ "Total_Reads_GiB",		WEAR_HOST_READS, GiB,	0 },
	/* NAND (media) writes */
	{ "NAND_Writes_1GiB",		WEAR_NAND_WRITES, GiB,	0 },
	{ "NAND_Writes_32MiB",		WEAR_NAND_WRITES, 32 * MiB, 0 },
	{ "NAND_Writes_GiB",		WEAR_NAND_WRITES, GiB,	0 },
	{ "Flash_Writes_GiB",		WEAR_NAND_WRITES, GiB,	0 },
	{ "Flash_Writes_32MiB",		WEAR_NAND_WRITES, 32 * MiB, 0 },
	{ "Flash_Writes_LBAs",		WEAR_NAND_WRITES, 0,	0 },
	{ "Total_NAND_Writes_GiB",	WEAR_NAND_WRITES, GiB,	0 },
	{ "Total_NAND_Prog_Ct_GiB",	WEAR_NAND_WRITES, GiB,	0 },
	{ "Lifetime_NAND_Prg_GiB",	WEAR_NAND_WRITES, GiB,	0 },
	/* SanDisk SSD Plus 233 (drivedb after 7.3/5319; seen in a 7.3/5988
	 * capture, tests/unit/data/smartctl/sandisk_sdssda120g.json) */
	{ "NAND_GiB_Written",		WEAR_NAND_WRITES, GiB,	0 },
	/* NAND page counters (see PAGE above) */
	{ "Host_Program_Page_Count",	WEAR_HOST_WRITES, PAGE,	PAGE },
	{ "FTL_Program_Page_Count",	WEAR_NAND_WRITES, PAGE,	PAGE },
	{ "Bckgnd_Program_Page_Cnt",	WEAR_NAND_WRITES, PAGE,	PAGE },
	{ NULL,				WEAR_HOST_WRITES, 0,	0 }
};

const struct wear_unit *
wear_unit_find(const char *name)
{
	const struct wear_unit	*u;

	if (name == NULL)
		return NULL;
	for (u = wear_units; u->name != NULL; u++)
		if (strcmp(u->name, name) == 0)
			return u;
	return NULL;
}

/* Saturates rather than wraps: a wrapped byte count would look like a
 * drive that un-wrote data, which is worse than a pinned maximum. */
uint64_t
wear_unit_bytes(const struct wear_unit *u, uint64_t raw, uint32_t lbs)
{
	uint64_t	mul;

	if (u == NULL)
		return 0;
	mul = u->unit_bytes != 0 ? u->unit_bytes : (lbs != 0 ? lbs : 512);
	if (raw > UINT64_MAX / mul)
		return UINT64_MAX;
	return raw * mul;
}
