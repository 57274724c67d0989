/* block.h: the on-disk block format, payload generation and classification. */
#ifndef SSDT_BLOCK_H
#define SSDT_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#define BLK_MAGIC	0x31545254445353ULL	/* "SSDTRT1\0" little-endian */
#define BLK_VERSION	1
#define BLK_HDR_SIZE	64
#define BLK_MIN_SIZE	512
#define BLK_MAX_SIZE	(1024 * 1024)

/* The header at the start of every block; all fields little-endian. */
struct blk_hdr {
	uint64_t	magic;
	uint32_t	version;
	uint32_t	block_size;
	uint64_t	instance;	/* random id of the drive's run */
	uint64_t	offset;		/* byte offset of this block */
	uint64_t	generation;	/* pass that wrote it; 0 = static area */
	uint64_t	write_time_ns;	/* CLOCK_REALTIME at encode */
	uint64_t	reserved;	/* zero */
	uint64_t	checksum;	/* XXH3 over header (this field excluded) and payload */
};

enum blk_class {
	BLK_OK = 0,
	BLK_CORRUPT,		/* checksum fails, or garbage where data should be */
	BLK_MISDIRECTED,	/* valid block of this instance for another offset */
	BLK_STALE,		/* right offset, generation other than expected */
	BLK_FOREIGN,		/* valid block of another instance */
	BLK_UNWRITTEN,		/* zeros (or ones) where data should be */
	BLK_IO_ERROR,		/* the read failed */
	/*
	 * After a power loss: an older generation, or nothing, where a
	 * write was covered by a completed cache flush (the drive did not
	 * keep what it promised). Only the engine gives it, from a stale or
	 * unwritten block (engine.c).
	 */
	BLK_LOST_FLUSH,
	/*
	 * A block a write may have been cut in (its expectation allows the
	 * old content and a newer write over it: a write pass's blocks past
	 * the flushed position, a checkpoint's region while its units may be
	 * there) that holds, logical block by logical block, part the one
	 * and part the other: the write was not atomic (a crash in a page
	 * copy on a file system that emulates direct I/O, a drive without
	 * power-loss protection losing its power). blk_check gives it only
	 * when the expectation's tear_unit is set.
	 */
	BLK_TORN,
	BLK_NCLASS
};

/* What a piece of a torn block holds (blk_result.torn_head/torn_tail). */
enum blk_part {
	BLK_PART_GEN_LO,	/* the older generation the block may hold */
	BLK_PART_GEN_HI,	/* the newer one */
	BLK_PART_BLANK,		/* zeros or ones, where that may be */
	BLK_PART_UNITS,		/* a checkpoint's probe units */
	BLK_NPARTS
};

/*
 * What a block may hold: a generation in [gen_lo, gen_hi] when has_gen,
 * and/or nothing at all (zeros) when allow_unwritten. gen is the one to
 * report as "expected".
 */
struct blk_expect {
	int		has_gen;
	uint64_t	gen_lo, gen_hi;
	int		allow_unwritten;
	/*
	 * Or anything at all: a block this run has not written yet holds
	 * what the device held before (a used drive: another run's blocks,
	 * garbage); blk_check says ok, its result filled in as found.
	 */
	int		allow_any;
	/*
	 * Or, when probe_unit is not 0: a whole run of blocks of probe_unit
	 * bytes, each at its own offset, of generation probe_gen (what a
	 * performance checkpoint's probes write; blk_check_units).
	 */
	uint32_t	probe_unit;
	uint64_t	probe_gen;
	/*
	 * Not 0: the device's logical block (512 at least), the size of the
	 * pieces a write can be cut into. A corrupt block whose pieces each
	 * hold one of the contents it may hold, not all the same one, a
	 * newer write among them, is BLK_TORN. 0: no such check.
	 */
	uint32_t	tear_unit;
};

/* What was found in a block that is not ok. */
struct blk_result {
	enum blk_class	cls;
	int		hdr_valid;	/* magic and checksum were good */
	int		no_header;	/* corrupt: no block header at all (garbage) */
	uint64_t	found_instance;
	uint64_t	found_offset;
	uint64_t	found_gen;
	uint64_t	found_time_ns;
	int32_t		first_bad_byte;	/* corrupt: first byte differing from expected, -1 if unknown */
	uint32_t	bad_bytes;	/* corrupt: how many bytes differ */
	/* torn: the piece size; the first byte of the first piece unlike
	 * the block's first; what the first piece holds (enum blk_part) and
	 * what that one holds; how often the content changes, piece by piece */
	uint32_t	torn_unit;
	uint32_t	torn_at;
	uint8_t		torn_head, torn_tail;
	uint32_t	torn_changes;
	uint64_t	torn_head_gen, torn_tail_gen;	/* of a generation part */
};

const char	*blk_class_name(enum blk_class);
/*
 * Does a finding of this class count against the drive (errors_total,
 * the archive's bad blocks, max_bad_fraction, the exit status)? Every
 * class but ok and torn: a write cut at a crash or a power loss is what
 * the interface allows (atomic only up to the drive's atomic write unit),
 * no fault of the medium; torn blocks are counted apart.
 */
int		 blk_class_is_error(enum blk_class);
int		 blk_class_from_name(const char *);
void		 blk_encode(void *buf, uint32_t bs, uint64_t instance,
		    uint64_t offset, uint64_t gen, uint64_t time_ns);
/* blk_encode of n blocks of one pass, faster than one by one. */
void		 blk_encode_many(void *const bufs[], const uint64_t offsets[],
		    unsigned n, uint32_t bs, uint64_t instance, uint64_t gen,
		    uint64_t time_ns);
enum blk_class	 blk_check(const void *buf, uint32_t bs, uint64_t instance,
		    uint64_t offset, const struct blk_expect *,
		    struct blk_result *);
/*
 * A block of `bs` bytes that blk_check found bad: is it instead the run of
 * probe units its expectation allows (every unit valid, at its own offset,
 * of probe_gen)? 1 if so.
 */
int		 blk_check_units(const void *buf, uint32_t bs, uint64_t instance,
		    uint64_t offset, const struct blk_expect *);
/* What a corrupt block holds, in words ("garbage: no valid block header"). */
void		 blk_corrupt_text(const struct blk_result *, char *, size_t);
/* What a torn block holds, in words ("generation 2 in bytes 0 to 696319, ..."). */
void		 blk_torn_text(const struct blk_result *, char *, size_t);
/* A torn block's part: "generation 2", "blank", "probe units". */
void		 blk_part_text(enum blk_part, uint64_t gen, char *, size_t);
/*
 * The vector code the payload's generation uses: the widest the CPU has,
 * or no wider than blk_isa_limit's (for the tests and the benchmark, each
 * way on one machine; before any thread uses this file). Returns the one
 * that will be used.
 */
enum blk_isa { BLK_ISA_BASE, BLK_ISA_AVX2, BLK_ISA_AVX512 };
enum blk_isa	 blk_isa_limit(enum blk_isa);
/* Fill the payload part only (exposed for the benchmark). */
void		 blk_fill_payload(void *buf, uint32_t len, uint64_t seed);
uint64_t	 blk_seed(uint64_t instance, uint64_t offset, uint64_t gen);

#endif
