/*
 * model_int.h: the simulated drive's state, shared by the model's parts
 * (model.c timing and requests, model_ftl.c mapping and garbage
 * collection, model_slc.c the SLC cache and idle work, model_thermal.c,
 * model_wear.c, model_power.c, model_truth.c the truth records). Not for
 * the front-end: it sees model.h only.
 */
#ifndef SSDSIM_MODEL_INT_H
#define SSDSIM_MODEL_INT_H

#include <stdint.h>

#include "model.h"

#define SIM_PAGE	4096u		/* the mapping unit */
#define SIM_NONE	UINT32_MAX	/* an unmapped page or LBA */
#define NS		1000000000.0

/* Erase block states. */
enum { BLK_FREE, BLK_OPEN, BLK_FULL, BLK_RETIRED };

/* Rounds of writes: the steady-state rule and the GC state. */
struct sim_window {
	uint64_t	host, nand;	/* bytes in this round */
	uint64_t	cmds, seq;	/* writes, of which sequential */
	uint64_t	gc_pages;
	uint64_t	t0;		/* the round's start (0: none yet) */
	uint64_t	prev_end;	/* the last round's end (0: a reset) */
	uint64_t	last_done, next_off;
	double		iops[5];	/* the last rounds' IOPS */
	unsigned	nrand;		/* random rounds in a row */
	int		steady, gc_on;
	const char	*after;		/* what came before this round */
};

/* Losable bytes of one request (req: its number, once flushed). */
struct sim_pw {
	struct sim_range	r;
	uint64_t		req;
};

struct sim_model {
	struct sim_profile	 p;
	sim_emit_fn		*emit;
	void			*arg;
	uint64_t		 seed;
	uint64_t		 now;	/* of the call being handled */

	/* geometry */
	uint32_t	nlba, ppb, nblocks, user_blocks, spare_blocks;
	uint32_t	reserve;	/* blocks GC must always have */
	/* FTL */
	uint32_t	*l2p, *p2l, *valid, *erases, *death;
	uint8_t		*bstate;
	uint64_t	*bprog;		/* when each block was opened */
	uint32_t	 nfree, frontier, wp, mapped;
	uint64_t	 total_erases;
	uint64_t	 gc_pages;	/* relocated in the current request */
	int		 in_gc;
	/* per-LBA bits: unreadable, held in the SLC cache */
	uint8_t		*bad, *inslc;
	/* SLC cache: a log of LBAs in the order they went in */
	uint32_t	*ring;
	uint32_t	 ring_head, ring_len, slc_live;
	uint64_t	 cache_cap, slc_used, host_since_empty;
	int		 cache_full_said, cache_decide;
	uint64_t	 fold_debt_ns;	/* GC deferred behind the cache */
	uint64_t	 behind;	/* direct bytes not yet folded behind */
	/* idle work */
	uint64_t	 last_busy, idle_cursor, idle_start;
	uint64_t	 idle_folded, idle_gc, idle_end;
	/* transfer pipes */
	uint64_t	 rpipe, wpipe;
	uint64_t	 last_read;	/* the last read's arrival (0: none) */
	/* thermal */
	double		 temp;
	uint64_t	 temp_t, level_since;
	int		 level;
	uint64_t	 warn_ns, crit_ns, tmt_ns[2];
	/* wear and life */
	uint32_t	 retired;
	enum sim_life	 life;
	uint64_t	 ro_t, gone_t;
	uint64_t	 rng;
	/* power: unflushed writes, and the lying profile's flushed ones */
	struct sim_pw	*unfl;
	size_t		 unfl_head, unfl_n, unfl_cap;
	uint64_t	 unfl_bytes;
	struct sim_pw	*hist;
	size_t		 hist_n, hist_cap;
	uint64_t	 wseq, nreq;	/* writes, flushed requests so far */
	sim_durable_fn	*durable;
	void		*durable_arg;
	int		 off;
	uint64_t	 on_since, on_ns;
	/* counters and random-write windows */
	struct sim_counters	c;
	struct sim_window	w;
};

/* model_bits.c */
uint64_t sim_xfer_ns(uint64_t len, double mbps, double factor);
int	sim_bit(const uint8_t *bits, uint32_t i);
void	sim_bit_set(uint8_t *bits, uint32_t i, int v);

/* model_truth.c: one truth record {"t_ns":..,"event":"..", rest} */
void	sim_truth(struct sim_model *m, uint64_t t, const char *event,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void	sim_truth_start(struct sim_model *m);
void	sim_truth_lost(struct sim_model *m, const struct sim_range *r,
	    size_t n, size_t nflushed);

/* model_ftl.c */
int	sim_ftl_init(struct sim_model *m);
void	sim_ftl_free(struct sim_model *m);
void	sim_ftl_write(struct sim_model *m, uint32_t lba);
void	sim_ftl_trim(struct sim_model *m, uint32_t lba);
int	sim_ftl_gc_one(struct sim_model *m);
uint32_t sim_ftl_block_of(const struct sim_model *m, uint32_t lba);

/* model_slc.c */
int	sim_slc_init(struct sim_model *m);
uint64_t sim_slc_admit(struct sim_model *m, uint64_t start, uint64_t len,
	    double *mbps, int *cached);
void	sim_slc_put(struct sim_model *m, uint32_t lba);
void	sim_slc_drop(struct sim_model *m, uint32_t lba);
void	sim_slc_idle(struct sim_model *m, uint64_t now);
void	sim_slc_busy(struct sim_model *m, uint64_t now);
void	sim_slc_filled(struct sim_model *m, uint64_t done);
int64_t	sim_idle_gc(struct sim_model *m, int64_t budget);

/* model_thermal.c */
void	sim_thermal_update(struct sim_model *m, uint64_t now);
void	sim_thermal_heat(struct sim_model *m, uint64_t bytes);
double	sim_speed_factor(const struct sim_model *m);

/* model_wear.c */
void	sim_wear_init(struct sim_model *m);
void	sim_wear_erased(struct sim_model *m, uint32_t blk);
void	sim_wear_closed(struct sim_model *m, uint32_t blk);
void	sim_wear_life(struct sim_model *m, uint64_t now);
double	sim_wear_read_factor(const struct sim_model *m, uint32_t blk,
	    uint64_t now);
unsigned sim_wear_spare(const struct sim_model *m);

/* model_power.c */
uint64_t sim_power_wrote(struct sim_model *m, uint64_t off, uint64_t len);
void	sim_power_flushed(struct sim_model *m);
void	sim_power_trimmed(struct sim_model *m, uint64_t off, uint64_t len);
void	sim_power_free(struct sim_model *m);

/* model_window.c: rounds, GC state changes and the steady-state rule */
void	sim_window_write(struct sim_model *m, uint64_t off, uint64_t len,
	    uint64_t nand, uint64_t done);
void	sim_window_reset(struct sim_model *m, const char *after);

#endif
