/*
 * errmap.h: the exact map of the bad blocks of one verify pass, in
 * STATE_DIR/NAME/errors/pass-N.map. However many blocks go bad, the
 * events of a pass stop at max_error_events; this map keeps every one.
 *
 * The file: an 16-byte header (ERRMAP_MAGIC, then the block size as a
 * little-endian u32, then 4 zero bytes), then one record per extent in
 * ascending block order: LEB128 varints gap and length, then the class
 * byte. The gap is counted from the end of the extent before (from block
 * 0 for the first), so a record takes 3 bytes when blocks go bad close
 * together: the map stays below 3 bytes a block of the drive, and a run
 * of bad blocks of one class is one record whatever its length.
 */
#ifndef SSDT_ERRMAP_H
#define SSDT_ERRMAP_H

#include <stddef.h>
#include <stdint.h>

#include "block.h"

#define ERRMAP_MAGIC	"ssdtmap1"
#define ERRMAP_HDR	16
#define ERRMAP_BUF	4096

struct errext {
	uint64_t	start;		/* first block */
	uint64_t	len;		/* blocks */
	enum blk_class	cls;
};

/* What a map holds, per class (index: enum blk_class). */
struct errmap_counts {
	uint64_t	blocks[BLK_NCLASS];
	uint64_t	extents[BLK_NCLASS];
	uint64_t	first[BLK_NCLASS];	/* first bad block */
	uint64_t	end[BLK_NCLASS];	/* block after the last bad one */
	uint32_t	block_size;
};

/* A map open for appending (one verify pass). */
struct errmap {
	int		 fd;
	uint64_t	 pass;
	uint64_t	 size;		/* bytes of whole records on disk */
	uint64_t	 next;		/* end of the last extent written */
	struct errext	 pend;		/* extent still growing */
	int		 has_pend;
	unsigned char	 buf[ERRMAP_BUF];	/* records not yet written */
	size_t		 nbuf;
	/*
	 * What the last successful sync put on disk, and the bytes written
	 * since: after a failed fsync they may be on disk nowhere (the
	 * kernel marks the pages it could not write clean), so the next
	 * flush cuts the file back to `synced` and writes them again.
	 */
	uint64_t	 synced;
	unsigned char	*unsynced;
	size_t		 nunsynced, unsynced_cap;
	int		 rewrite;
	int		 retired;	/* its pass ended: no more records, open
					 * until a checkpoint has synced it */
	int		 sync_busy;	/* between flush_begin (an fd) and its end */
	uint64_t	 sync_to;	/* what that flush covers */
	int		 err;		/* errno of the last failed flush, 0 */
	int		 warned;
	struct errmap_counts c;		/* the pass so far, pend included */
};

/* STATE_DIR/NAME/errors/pass-N.map */
void	errmap_path(char *buf, size_t len, const char *drive_dir,
	    uint64_t pass);
/*
 * Open the map of `pass` (making errors/ and the file), keeping its first
 * `keep` bytes (0: a new pass) and counting what they hold. 0, or -1 with
 * errno (the map is then closed and takes nothing).
 */
int	errmap_open(struct errmap *, const char *drive_dir, uint64_t pass,
	    uint32_t block_size, uint64_t keep);
/* Count `n` bad blocks of class `cls` from `start`, in ascending order. */
void	errmap_add(struct errmap *, uint64_t start, uint64_t n,
	    enum blk_class cls);
/*
 * Write what is held and sync: the length it returns, what is synced, is
 * what a checkpoint records (errmap_open keeps it on resume). A failed
 * write or sync is said once (m->err says it until a flush works), and
 * what it left unsure is written again at the next flush.
 */
uint64_t errmap_flush(struct errmap *);
/*
 * errmap_flush in two steps, for a checkpoint that syncs many files at
 * once: begin writes what is held and gives the descriptor to fdatasync
 * (-1: nothing to sync), or -1 when a write failed (m->err; no end then);
 * end takes the sync's result (0 or -errno) and returns the length synced.
 * Only on an open map.
 */
int	 errmap_flush_begin(struct errmap *, int *fd);
uint64_t errmap_flush_end(struct errmap *, int res);
/* As events_set_sync_waiter, for maps whose flush is in flight (records
 * written meanwhile are kept apart from what it covers). */
void	errmap_set_sync_waiter(void (*fn)(void));
void	errmap_close(struct errmap *);
/* Taking records: open and not retired. */
int	errmap_is_open(const struct errmap *);
/*
 * The pass ended: what is held is written (not synced) and the map takes
 * no more records; it stays open for the next checkpoint to sync, and is
 * closed once one has (errmap_flush_end). Waiting for no disk, the end of
 * a pass does not hold up the main loop.
 */
void	errmap_retire(struct errmap *);
/* A file is open (taking records, or retired and not synced yet). */
int	errmap_has_file(const struct errmap *);

/* One extent of a map being read; returns 0 to go on. */
typedef int (*errmap_fn)(const struct errext *, void *arg);
/*
 * Read a map (up to `limit` bytes, UINT64_MAX: all), calling fn with each
 * extent, adjacent records of one class merged into one; counts into `c`
 * (may be NULL). A record cut short at the end (a crash while a pass that
 * was not resumed wrote) ends the map. 0, or -1 with errno.
 */
int	errmap_read(const char *path, uint64_t limit, errmap_fn fn, void *arg,
	    struct errmap_counts *c);
/* Same for a map in memory (header included). */
int	errmap_parse(const unsigned char *p, size_t len, errmap_fn fn,
	    void *arg, struct errmap_counts *c);
/* Sum of c->blocks over the bad classes. */
uint64_t errmap_total(const struct errmap_counts *);

#endif
