/*
 * profile.h: a simulated drive's facts, read from a profile file (INI,
 * one key per fact, each with its source named in the file's comments).
 * The key table in profile.c is the one place keys, defaults and limits
 * are spelled; the field names below follow the keys (section_key).
 * Speeds are in MB/s (10^6 bytes a second), times in the unit their
 * name ends with, temperatures in degrees Celsius.
 */
#ifndef SSDSIM_PROFILE_H
#define SSDSIM_PROFILE_H

#include <stddef.h>
#include <stdint.h>

/* Where host writes go first. */
enum sim_slc_mode {
	SIM_SLC_NONE,		/* straight to the native (TLC/QLC/MLC) NAND */
	SIM_SLC_FIXED,		/* a cache of slc_bytes whatever the fill */
	SIM_SLC_FREE_SHARE,	/* slc_free_share of the free space */
};

/* What a full cache does with further writes. */
enum sim_post_cache {
	SIM_POST_DIRECT,	/* write to native NAND at native speed */
	SIM_POST_FOLD,		/* stall while part of the cache is folded */
};

/* What a read of a bad range returns. */
enum sim_bad_mode {
	SIM_BAD_EIO,		/* the request fails with EIO */
	SIM_BAD_DAMAGE,		/* it succeeds with damaged data */
};

struct sim_profile {
	char		name[64];
	uint64_t	capacity;	/* host-visible bytes */
	/* [timing] */
	double		read_lat_us, write_lat_us, trim_lat_us, flush_lat_us;
	double		overhead_us;	/* per request, on the transfer pipe */
	double		read_mbps;	/* read transfer speed */
	double		native_mbps;	/* direct writes to native NAND */
	double		native_slow_after; /* share of the drive mapped ... */
	double		native_slow_mbps;  /* ... beyond which direct writes
					    * run at this speed (0: never) */
	double		gc_mbps;	/* garbage collection relocation */
	/* [ftl] */
	uint32_t	pages_per_block;	/* 4 KiB pages an erase block */
	double		op_share;	/* raw NAND beyond capacity, share */
	uint32_t	gc_free_blocks;	/* GC runs under this many free */
	double		round_ms;	/* the model's rounds of writes */
	/* [slc] */
	enum sim_slc_mode slc_mode;
	uint64_t	slc_bytes;	/* fixed cache size */
	double		slc_free_share;	/* share of free space as cache */
	double		slc_mbps;	/* first level speed */
	double		slc_level1_share; /* of the cache at slc_mbps */
	double		slc_level2_mbps;  /* the rest of the cache */
	uint32_t	bits_per_cell;	/* native mode: 2 MLC, 3 TLC, 4 QLC */
	enum sim_post_cache post_cache;
	double		fold_share;	/* of the cache folded in one stall */
	double		fold_mbps;	/* SLC to native NAND, host bytes */
	double		idle_delay_ms;	/* idle time before idle work */
	double		idle_fold_mbps;	/* cache folded back at idle (0 none) */
	double		idle_gc_mbps;	/* GC relocation at idle (0 none) */
	/* [thermal] */
	double		temp_idle_c;	/* where an idle drive settles */
	double		temp_per_gib_c;	/* rise per GiB moved */
	double		cool_tau_s;	/* time constant of the fall */
	double		tmt1_c, tmt1_factor;	/* light throttle: speed x */
	double		tmt2_c, tmt2_factor;	/* heavy throttle */
	double		hysteresis_c;	/* leave a level this far below it */
	double		warning_c, critical_c;	/* NVMe WCTEMP, CCTEMP */
	/* [wear] */
	uint32_t	rated_pe;	/* rated program/erase cycles */
	double		wear_read_factor; /* read latency x (1 + f * used) */
	double		age_ms;		/* data older than this ... */
	double		age_read_factor;  /* ... reads this many times slower */
	uint32_t	death_pe;	/* mean erase count of a block's death
					 * (0: blocks never go bad) */
	double		death_spread;	/* its spread, share of the mean */
	enum sim_bad_mode bad_mode;
	uint32_t	spare_threshold_pct; /* NVMe available spare threshold */
	double		gone_after_ms;	/* read-only to gone (0: never) */
	/* [power] */
	uint64_t	cache_bytes;	/* volatile cache holds at most this
					 * much unflushed (0: no limit) */
	uint32_t	lie_flushed;	/* a cut also loses the last N flushed
					 * write requests (0: honest) */
};

/* Read a profile file: 0, or -1 with the reason in err. */
int	sim_profile_load(const char *path, struct sim_profile *p, char *err,
	    size_t errlen);
/* The same from a string (the tests' profiles). */
int	sim_profile_parse(const char *text, struct sim_profile *p, char *err,
	    size_t errlen);
/* Every key at its default (name "default", capacity 256 MiB). */
void	sim_profile_defaults(struct sim_profile *p);

#endif
