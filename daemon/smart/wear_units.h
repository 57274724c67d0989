/*
 * wear_units.h: what the vendor-specific write counters of SATA SSDs
 * count, keyed on the attribute name smartctl prints. Data, in one
 * place; every entry has a test.
 */
#ifndef SSDT_WEAR_UNITS_H
#define SSDT_WEAR_UNITS_H

#include <stdint.h>

enum wear_kind {
	WEAR_HOST_WRITES,	/* what the host wrote, as the drive counts it */
	WEAR_NAND_WRITES,	/* what the drive wrote to flash */
	WEAR_HOST_READS
};

struct wear_unit {
	const char	*name;		/* smartctl attribute name */
	enum wear_kind	 kind;
	uint64_t	 unit_bytes;	/* bytes per raw count; 0 = logical sectors */
	uint64_t	 page_bytes;	/* page counters: bytes per page, else 0 */
};

extern const struct wear_unit wear_units[];

/* The entry for an attribute name, or NULL. */
const struct wear_unit	*wear_unit_find(const char *name);
/* Bytes for a raw count; lbs is the logical block size for sector units. */
uint64_t		 wear_unit_bytes(const struct wear_unit *, uint64_t raw,
			    uint32_t lbs);

#endif
