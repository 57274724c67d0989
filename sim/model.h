/*
 * model.h: the simulated SSD's model. Pure and deterministic: it keeps no
 * clock of its own and does no I/O. Every call is given the time `now`
 * (nanoseconds on the caller's monotonic clock, never going backwards),
 * and the same profile, seed and sequence of calls always give the same
 * answers. The front-end (FUSE, ssdsim.c) holds the data; the model says
 * when each request completes, what fails, what a power cut loses, and
 * what the drive's own counters read. What the model did is written as
 * truth records (one JSON object per line) through the caller's emit
 * function, for tests to compare with what ssdtortured found.
 */
#ifndef SSDSIM_MODEL_H
#define SSDSIM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"		/* struct sim_profile: the drive's facts */

struct sim_model;

/* The drive's life, as its host sees it. */
enum sim_life {
	SIM_LIFE_OK,
	SIM_LIFE_READONLY,	/* spare exhausted: reads work, writes fail */
	SIM_LIFE_GONE,		/* dead: every request fails */
};

/* One request's answer. */
struct sim_io {
	uint64_t	done;		/* when it completes (ns, caller's clock) */
	int		error;		/* 0, or an errno (EIO, EROFS, ENODEV) */
	/* a read of a bad range in a profile that returns damaged data:
	 * the front-end damages [damage_off, +damage_len) of what it
	 * returns (absolute drive offsets, inside the request) */
	uint64_t	damage_off, damage_len;
	/* an accepted write: its number (1, 2, ... for the model's life),
	 * the name sim_range and sim_durable_fn give it; else 0 */
	uint64_t	seq;
};

/*
 * Bytes of writes a power cut may lose or lost: [off, +len) of the writes
 * numbered seq_lo to seq_hi (writes that continue one another, in order
 * of address; a range may cover only part of them). flushed: a lying
 * drive's write it had acknowledged as flushed.
 */
struct sim_range {
	uint64_t	off, len;
	uint64_t	seq_lo, seq_hi;
	int		flushed;
};

/* The drive's counters, as an NVMe drive reports them (log page 02h). */
struct sim_counters {
	uint64_t	host_read_bytes, host_written_bytes;
	uint64_t	nand_read_bytes, nand_written_bytes;
	uint64_t	host_read_cmds, host_write_cmds;
	unsigned	percentage_used;	/* may exceed 100, as NVMe allows */
	unsigned	available_spare;	/* % */
	unsigned	available_spare_threshold;
	unsigned	critical_warning;	/* NVMe bits: 0 spare below its
						 * threshold, 1 temperature, 2
						 * spare spent, 3 read-only */
	uint64_t	media_errors;		/* uncorrectable reads */
	uint64_t	error_log_entries;
	double		temperature_c;
	uint64_t	warning_temp_minutes, critical_temp_minutes;
	uint64_t	thermal_transitions[2];	/* TMT1, TMT2 entry counts */
	uint64_t	thermal_seconds[2];	/* time in TMT1, TMT2 */
	uint64_t	power_cycles, unsafe_shutdowns;
	uint64_t	power_on_seconds;
	uint64_t	erase_count_avg, erase_count_max, rated_erase_count;
	enum sim_life	life;
};

/*
 * Truth records: {"t_ns":T,"event":"NAME",...}, T the model's time of the
 * event on the caller's clock; emitted synchronously from the call that
 * caused them (a record may be dated after that call's `now`, e.g. at
 * the completion of the request that filled the cache). Events, fields:
 *  start        profile seed capacity page pages_per_block blocks
 *               spare_blocks slc_mode slc_bytes slc_free_share slc_mbps
 *               level1_share level2_mbps post native_mbps read_mbps
 *               rated_pe read_factor age_ms age_read_factor tmt1_c
 *               tmt1_factor tmt2_c tmt2_factor death_pe bad_mode
 *               cache_bytes lie_flushed read_slowdown ("whole_read": a
 *               read of worn or aged data, its overhead, transfer and
 *               latency, takes its factor times as long: a read retry
 *               reads again; so at any queue depth)
 *  cache        the cache as a pass starts (the first write after start,
 *               idle work, TRIM, power-on, or the cache emptying): mode
 *               bytes used level1_bytes mbps level2_mbps post post_mbps
 *               fold_share drive_free. A cache made of free space shrinks
 *               as it folds behind direct writes; that is not told write
 *               by write.
 *  cache_full   host_bytes (written at cache speed since it was empty)
 *               bytes; dated at the completion of the filling request
 *  fold         a fold stall, host writes at zero: t_ns its start, end_ns
 *               stall_ns freed_bytes cache_used
 *  idle_fold    an idle period's work, dated when it ended: start_ns
 *               folded_bytes gc_bytes cache_used free_blocks
 *  round        a round of writes (round_ms of the caller's time from
 *               its first write; ended early by idle, TRIM, a flush,
 *               power-on): start_ns iops wa random host_bytes after
 *               ("start", "idle", "trim", "flush", "power_on" for the
 *               first round after one, else "")
 *  gc           state "start" (the first write GC relocated for) or
 *               "stop" (a round without relocation), wa (NAND/host)
 *  steady       random-write steady state by SNIA's rule on the rounds
 *               (five in a row within 20 % of their mean, fitted change
 *               within 10 %): iops (their mean) wa rounds
 *  reads        a run of reads begins: the first read after none for a
 *               second or more: since_read_ns (since the last; 0: the
 *               first ever)
 *  throttle     level factor temp_c (on entering a level)
 *  throttle_end from_level temp_c since_ns
 *  bad          off len block: host data a failed block held, unreadable
 *               until rewritten or trimmed
 *  retire       block erases retired_blocks available_spare
 *  readonly     host_written_bytes retired_blocks gone_ns (0: never)
 *  gone         host_written_bytes nand_written_bytes
 *  power_off    unsafe lost_bytes lost:[{off len flushed}]
 *  power_on     power_cycles
 */
typedef void	sim_emit_fn(void *arg, const char *json_line);

/* A model of a fresh drive; NULL on ENOMEM. `now` is its power-on time. */
struct sim_model *sim_model_new(const struct sim_profile *p, uint64_t seed,
	    uint64_t now, sim_emit_fn *emit, void *arg);
void	sim_model_free(struct sim_model *m);

/*
 * Requests: fill *r; offsets and lengths in bytes, any 512 B multiple
 * (a write or read of part of a 4 KiB page touches the whole page; a trim
 * frees only whole pages). Beyond the capacity: EINVAL; writes and trims
 * on a read-only drive: EROFS; anything on a drive off or gone: ENODEV.
 * Not thread-safe: the caller makes one call at a time.
 */
void	sim_model_read(struct sim_model *m, uint64_t now, uint64_t off,
	    uint64_t len, struct sim_io *r);
void	sim_model_write(struct sim_model *m, uint64_t now, uint64_t off,
	    uint64_t len, struct sim_io *r);
void	sim_model_trim(struct sim_model *m, uint64_t now, uint64_t off,
	    uint64_t len, struct sim_io *r);
void	sim_model_flush(struct sim_model *m, uint64_t now, struct sim_io *r);

/*
 * Power: off loses what the drive's volatile cache held (and, in a lying
 * profile, flushed writes too) and returns those ranges, oldest writes
 * first (*lost is the caller's to free; may be NULL with *n 0): 0, or -1
 * with errno ENOMEM (nothing changed). While off every request fails with ENODEV. On
 * counts a power cycle. Every cut counts as an unsafe shutdown.
 */
int	sim_model_power_off(struct sim_model *m, uint64_t now,
	    struct sim_range **lost, size_t *n);
void	sim_model_power_on(struct sim_model *m, uint64_t now);

/*
 * What a cut can still lose. A write is losable from when it is accepted
 * until the model makes it durable: a flush (an honest drive), the
 * volatile cache destaging it (cache_bytes), a newer durable write or a
 * trim covering it, or (lying) K newer flushed requests. Bytes a cut
 * loses are always losable, so what a cut leaves of them is the content
 * before the oldest lost write: no durable write is newer than a
 * losable one on the same bytes. sim_durable_fn is called, during the
 * call that made them durable, for every range of losable bytes as it
 * stops being losable (each byte once; not at a cut, which loses the
 * rest): the caller may then forget what it kept to undo those bytes.
 * sim_model_next_seq: the number the next accepted write gets.
 */
typedef void	sim_durable_fn(void *arg, const struct sim_range *r);
void	sim_model_on_durable(struct sim_model *m, sim_durable_fn *fn,
	    void *arg);
uint64_t sim_model_next_seq(const struct sim_model *m);

/* The counters at `now` (idle work, cooling and power-on time included). */
void	sim_model_counters(struct sim_model *m, uint64_t now,
	    struct sim_counters *c);

/* The host-visible capacity in bytes. */
uint64_t sim_model_capacity(const struct sim_model *m);

#endif
