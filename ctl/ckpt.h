/*
 * ckpt.h: ssdctl's views of a drive's performance checkpoints: the
 * figures of a results line (checkpoints.jsonl, from the daemon's
 * Checkpoints method or read from a state directory), the grid of probes
 * by checkpoint, and the table `ssdctl checkpoints` prints.
 */
#ifndef SSDT_CKPT_H
#define SSDT_CKPT_H

#include <stdio.h>

#include <json-c/json.h>

/* The figures a view shows of a probe. */
enum ckpt_figure {
	CKPT_IOPS,		/* read_iops + write_iops */
	CKPT_MBPS,		/* (read + write bytes per second) / 1e6 */
	CKPT_P99,		/* the higher p99 of the directions, us */
	CKPT_P999,		/* the higher p99.9 of the directions, us */
	CKPT_CACHE,		/* a pass's write-cache estimate, GB */
	CKPT_NFIGURES
};

/* Largest block size whose headline figure is IOPS. */
#define CKPT_IOPS_MAX_BS	4096

/*
 * The figure a probe is best read by: IOPS when its block size is
 * CKPT_IOPS_MAX_BS or less or it has a split of sizes (a mix), else MB/s;
 * for a full checkpoint's clean or dirty pass, its write cache.
 */
enum ckpt_figure ckpt_headline(json_object *line);
/* A pass's cache figure when it showed no knee: below any graph's axis. */
#define CKPT_NO_KNEE	(-1.0)
/*
 * Is the line void: the probe ran, but no window of it was the drive's
 * (the daemon stopped or kept from every CPU for a stretch, or the system
 * suspended)? Its "void" says why.
 */
int		 ckpt_void(json_object *line);
/* The figure of a line; NAN when it has none (skipped, void, not measured). */
double		 ckpt_value(json_object *line, enum ckpt_figure);
/* The change from `base` to `now` in percent; NAN when not computable. */
double		 ckpt_change(double base, double now);
/* "iops", "mbps", "p99", "p99.9", "cache" (the --figure words) */
const char	*ckpt_figure_word(enum ckpt_figure);
/* The unit a person reads: "IOPS", "MB/s", "us p99", "us p99.9". */
const char	*ckpt_figure_unit(enum ckpt_figure);
/* The figure of a --figure word; -1 for none. */
int		 ckpt_figure_parse(const char *word);
/* A figure for a table cell: "-" for NAN, "?" for what no drive does. */
void		 ckpt_format(double v, enum ckpt_figure, char *buf,
		    size_t len);
/* "0.00 TB", "10.0 TB", "250 TB": host bytes written as a heading. */
void		 ckpt_tbw(double bytes, char *buf, size_t len);
/* The mark of a line's flags ("!throughput,latency"); "" for none. */
void		 ckpt_flag_mark(json_object *line, char *buf, size_t len);

/* The lines as a grid: a row per probe (suite order), a column per
 * checkpoint (ascending). Lines are borrowed from the array given. */
struct ckpt_grid {
	size_t		  nrows, ncols;
	const char	**ids;		/* [nrows] */
	long long	 *numbers;	/* [ncols] checkpoint numbers */
	double		 *hbw;		/* [ncols] host_bytes_written */
	json_object	**cell;		/* [nrows * ncols]; NULL: no line */
};

int	ckpt_grid_build(json_object *lines, struct ckpt_grid *);
void	ckpt_grid_free(struct ckpt_grid *);
json_object *ckpt_cell(const struct ckpt_grid *, size_t row, size_t col);
/* The column a row's figures are compared with; -1 for none. */
long	ckpt_baseline_col(const struct ckpt_grid *, size_t row);
/* The row's latest column with a line; -1 for none. */
long	ckpt_latest_col(const struct ckpt_grid *, size_t row);

/* Most columns a table shows: the first, then the latest CKPT_COLS - 1. */
#define CKPT_COLS	6

/* The table of `ssdctl checkpoints`; latency: p99.9 instead of the
 * headline figure. */
void	ckpt_table(FILE *, const struct ckpt_grid *, int latency);

/*
 * The results of `drive` in a copy of the state directory, `state_dir`
 * (STATE_DIR/DRIVE/checkpoints.jsonl) into `lines`; skipped lines are
 * told on stderr. 0, or -1 with a message.
 */
int	ckpt_load_dir(const char *state_dir, const char *drive,
	    json_object *lines);

#endif
