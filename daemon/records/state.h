/* state.h: the durable per-drive state file (atomic checkpoint and resume). */
#ifndef SSDT_STATE_H
#define SSDT_STATE_H

#include <limits.h>
#include <stdint.h>

#include "block.h"
#include "layout.h"
#include "statedir.h"

enum run_state {
	RUN_RUNNING = 0,
	RUN_PAUSED,
	RUN_STOPPED,
	RUN_FINISHED,
	RUN_FAILED
};

#define STATE_VERSION	1
#define CKPT_UNKNOWN	UINT64_MAX	/* a SMART figure not known */

/*
 * Blocks found lost (lost_flush) by the verify after a power loss, as
 * extents of blocks that all held generation `gen` when lost, sorted and
 * apart. At most LOST_MAX extents: the blocks of any past that are
 * counted but not listed (`unlisted`); a later verify cannot tell them
 * from a new loss and counts them again, saying so.
 */
#define LOST_MAX	256
struct lost_ext {
	uint64_t	start, len, gen;
};
struct lost_list {
	uint32_t	n;
	uint64_t	unlisted;	/* blocks lost past LOST_MAX */
	struct lost_ext	v[LOST_MAX];
};

struct dstate {
	uint64_t	instance;
	char		device[PATH_MAX];
	char		serial[128];
	struct layout	lay;
	enum run_state	run;
	struct progress	prog;		/* phase, cycle, position, ... */
	uint64_t	host_bytes_written;
	uint64_t	host_bytes_read;
	uint64_t	host_bytes_trimmed;
	uint64_t	write_ops;
	uint64_t	read_ops;
	uint64_t	flushes;	/* cache flushes the drive completed */
	uint64_t	errors[BLK_NCLASS];
	uint64_t	verify_passes;	/* completed verify passes */
	uint64_t	cycles_done;
	uint64_t	events_bytes;	/* length of events.jsonl at this checkpoint */
	uint64_t	created;	/* epoch seconds */
	uint64_t	updated;
	uint64_t	idle_until_ms;	/* epoch milliseconds, phase idle */
	uint64_t	failed_at_tbw;
	int		final_verify;	/* verify after stop_at_tbw, then finish */
	uint64_t	smart_snapshot_at; /* host bytes at the last SMART snapshot */
	/* the SMART baseline (first sight), the figures deltas need */
	int		sb_have;
	uint64_t	sb_time;
	uint64_t	sb_host_written;	/* our counter then */
	uint64_t	sb_host_written_lo;	/* ... when the read began */
	uint64_t	sb_device_written;	/* UINT64_MAX = not reported */
	uint64_t	sb_nand_written;
	uint64_t	sb_media_errors;
	uint64_t	sb_reallocated;
	uint64_t	sb_percent_used_x100;
	/* error maps (errmap.h): the last pass number given, and the
	 * scheduled verify pass under way (0: none) with its map's length
	 * and verify_error runs at this checkpoint */
	uint64_t	err_pass;
	uint64_t	err_verify_pass;
	uint64_t	err_map_bytes;
	uint64_t	err_runs;
	/*
	 * Performance checkpoints (phase_checkpoint.c): how many are done,
	 * the step of the one running, one asked for at the next boundary;
	 * when the last (or running) one began, in host bytes written and in
	 * epoch seconds, with the SMART figures then (CKPT_UNKNOWN: not
	 * known); the length of checkpoints.jsonl at this checkpoint; the
	 * host bytes the checkpoints wrote.
	 */
	uint64_t	ckpt_done;
	uint64_t	ckpt_step;
	int		ckpt_asked;
	uint64_t	ckpt_at;
	uint64_t	ckpt_started;
	uint64_t	ckpt_pu_x100;
	uint64_t	ckpt_temp_x100;
	uint64_t	ckpt_results_bytes;
	uint64_t	probe_bytes_written;
	/*
	 * Full checkpoints (the long tests): is the one running full, how
	 * many were, and the host bytes written when the last began.
	 */
	int		ckpt_full;
	unsigned	ckpt_tests;	/* its parts (LP_* bits), at its start */
	uint64_t	ckpt_step_at;	/* epoch s: its step's job handed out */
	uint64_t	full_done;
	uint64_t	full_at;
	uint64_t	degrade_initial_x100;	/* IOPS; 0: not known */
	unsigned	ckpt_trim_failed;	/* CL_* bits: TRIMs not done */
	/* this checkpoint's fresh read, for the aged read (0: none); the
	 * first aged read's ratios to it, x1000 (0: none yet): its baseline */
	uint64_t	fresh_bps, fresh_p999_ns;
	uint64_t	aged_base_tput_x1000, aged_base_p999_x1000;
	/*
	 * Power loss (drive_power.c): the boot the daemon last ran the
	 * drive in, and whether it stopped it cleanly since; a verify owed
	 * after a loss and how far it got (it resumes there), the losses
	 * seen, and the writes past the recorded flushed position that the
	 * drive kept (all losses); that count and the lost_flush count
	 * before the verify owed.
	 */
	char		boot_id[40];
	int		stopped_clean;
	int		power_verify;
	uint64_t	power_verify_pos;
	uint64_t	power_losses;
	uint64_t	unflushed_kept;
	uint64_t	kept_base;
	uint64_t	lost_base;
	/* the verify owed counts as kept only the pass's items below
	 * kept_end when kept_bounded (a cut's item; not for a loss whose
	 * moment is not known) */
	int		kept_bounded;
	uint64_t	kept_end;
	/* the blocks the verifies after losses found lost, not rewritten
	 * since (a later loss finding them so finds no new lost_flush) */
	struct lost_list lost;
	/*
	 * Power cuts on purpose (drive_cut.c): how many, the one due in
	 * this cycle's write pass (the item it comes at; 0: none) and the
	 * cycle it was drawn for, one asked for by the operator, and a cut
	 * under way whose power may be off (the next start powers it on).
	 */
	uint64_t	power_cuts;
	uint64_t	cut_at;
	uint64_t	cut_cycle;
	int		cut_asked;
	int		cut_pending;
	/*
	 * The device's bytes when the cut under way took its power (0: not
	 * known) and the item its pass stood at; whether the device came
	 * back refused (another serial or size): the cut is counted and told
	 * then, its verify owed by the start that takes the drive once the
	 * device is as it was (drive_cut.c).
	 */
	uint64_t	cut_capacity;
	uint64_t	cut_position;
	int		cut_refused;
	char		reason[256];	/* why failed / finished / stopped */
};

/* List blocks [start, start + n) as lost holding `gen` (replacing what
 * the list said of them). */
void		 lost_add(struct lost_list *, uint64_t start, uint64_t n,
		    uint64_t gen);
/* Take blocks [start, start + n) off the list (written again). */
void		 lost_forget(struct lost_list *, uint64_t start, uint64_t n);
/* Is block b listed as lost holding generation gen? */
int		 lost_has(const struct lost_list *, uint64_t b, uint64_t gen);
/* Keep only the extents `keep` says 1 of. */
void		 lost_filter(struct lost_list *,
		    int (*keep)(const struct lost_ext *, void *), void *arg);

const char	*run_state_name(enum run_state);
/* The state word of the protocol: "refused", or the run state's name. */
const char	*state_word(enum run_state, int refused);
int		 run_state_from_name(const char *);
/* Returns 0, or -1 with errno (ENOENT: no state yet) or a message. */
int		 state_load(const char *path, struct dstate *,
		    char *err, size_t errlen);
/* Temp file, fsync, rename, fsync of the directory. */
int		 state_save(const char *path, const struct dstate *);
/* state_save in steps (statedir_stage): the batched checkpoint. */
int		 state_stage(struct staged *, const char *path,
		    const struct dstate *, int spare);

#endif
