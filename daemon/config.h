/* config.h: the configuration file and the resolved plan of each drive. */
#ifndef SSDT_CONFIG_H
#define SSDT_CONFIG_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define CONF_DEFAULT_PATH	"/etc/ssdtorture/ssdtortured.conf"
#define CONF_NAME_MAX		64

/* In the order of their words in conf_keys.c (on_error_words). */
enum on_error { ON_ERROR_STOP, ON_ERROR_CONTINUE };
/* In the order of lost_flush_words: a lost_flush finding fails or not */
enum on_lost_flush { LOST_FLUSH_CONTINUE, LOST_FLUSH_FAIL };

struct drive_conf {
	char		 name[CONF_NAME_MAX];
	int		 line;		/* where the section starts */
	char		*device;
	uint64_t	 size;		/* file targets; 0 = use the file as it is */
	char		*serial;	/* NULL = not given; "none" allowed */
	uint64_t	 span;		/* bytes; 0 = span_percent applies */
	double		 span_percent;	/* 0..100, default 100 */
	int		 order_random;
	uint32_t	 block_size;
	uint32_t	 queue_depth;
	double		 static_fraction;
	int		 trim;
	uint64_t	 idle_sec;
	uint64_t	 cycles;	/* 0 = forever */
	uint64_t	 stop_at_tbw;	/* bytes, 0 = none */
	enum on_error	 on_io_error;
	enum on_lost_flush on_lost_flush;
	/* power cuts on purpose (drive_cut.c) */
	char		*power_cut_command; /* NULL: none */
	uint64_t	 power_cut_every; /* cycles; 0: only when asked */
	uint64_t	 power_cut_timeout; /* seconds, each wait of a cut */
	int		 autostart;
	int		 smart;		/* read SMART (auto) or not (off) */
	char		*smart_command;	/* SMART from this; NULL: the device */
	char		*smart_device_type; /* smartctl -d TYPE; NULL: none */
	uint64_t	 smart_interval; /* seconds */
	uint64_t	 thermal_interval; /* seconds, NVMe under load */
	uint64_t	 snapshot_every; /* bytes written between snapshots */
	uint64_t	 rated_tbw;	/* the maker's rated endurance; 0 unknown */
	double		 stop_at_wear;	/* percent used, 0 = none */
	uint64_t	 max_new_bad_blocks;
	uint64_t	 max_error_events; /* verify_error events a pass */
	double		 max_bad_fraction; /* of a verify pass: failed; 0 off */
	uint64_t	 timeline_every; /* write-pass timelines kept: every Nth */
	uint64_t	 io_timeout;	/* seconds without a completion: failed */
	uint64_t	 max_unrecorded; /* seconds records may lag: paused */
	int		 reservation;	/* persistent reservation (block devices) */
	/* performance checkpoints (phase_checkpoint.c) */
	int		 checkpoint;	/* CKPT_OFF, CKPT_QUICK, CKPT_FULL */
	uint64_t	 checkpoint_every; /* host bytes between two */
	uint64_t	 checkpoint_region; /* bytes probed, at most */
	uint64_t	 probe_seconds;	/* measured, each probe */
	uint64_t	 probe_ramp;	/* seconds before, not counted */
	int		 probe_wait;	/* PROBE_SLEEP, PROBE_POLL */
	int		 prepare;	/* PREPARE_* */
	char		*checkpoint_probes; /* a selection (probes.h) */
	/* the long tests of a full checkpoint (schedule.h: CL_*) */
	uint64_t	 full_checkpoint_every; /* host bytes between two */
	unsigned	 full_checkpoint_tests; /* LP_* bits */
	uint64_t	 degrade_duration; /* seconds of the degradation run */
	uint64_t	 degrade_round;	/* seconds of a steady-state round */
	uint64_t	 gc_idle;	/* seconds idle before a recovery run */
	uint64_t	 recovery_duration; /* seconds of each recovery run */
	uint64_t	 thermal_duration; /* seconds of each thermal run */
};

/* What a checkpoint runs: the words of the key, in this order. */
enum { CKPT_OFF, CKPT_QUICK, CKPT_FULL };
/* How a probe waits for its completions: the words of probe_wait. */
enum { PROBE_SLEEP, PROBE_POLL };
/* How a fresh run begins (phase_prepare.c). */
enum { PREPARE_NONE, PREPARE_TRIM, PREPARE_FORMAT, PREPARE_SANITIZE };
/*
 * The parts of a full checkpoint's long tests (full_checkpoint_tests:
 * the words of the key, bit i the i-th): the degradation run, the idle
 * recovery after it, the recovery after a TRIM, the write cache's clean
 * and dirty passes, writes on a drive 90 % full, and the thermal runs.
 */
enum { LP_DEGRADE, LP_RECOVERY, LP_TRIM, LP_CACHE, LP_FULL90, LP_THERMAL,
    LP_COUNT };
#define LP_ALL		((1u << LP_COUNT) - 1)

struct config {
	char		*path;
	char		*state_dir;
	char		*socket;
	char		*socket_group;	/* NULL = root */
	char		*admin_group;	/* NULL = only uid 0 may change things */
	gid_t		 socket_gid;
	gid_t		 admin_gid;
	unsigned	 max_connections;
	char		*rrdcached;	/* "unix:/path" or "host:port"; NULL = files */
	char		*rrdcached_dir;	/* base of a local rrdcached */
	char		*prometheus_textfile;
	uint64_t	 client_timeout;	/* seconds, for a half-sent message */
	struct drive_conf *drives;
	size_t		 ndrives;
};

/*
 * Parse a file. Every problem is printed to `errf` as FILE:LINE: message;
 * returns the number of problems (0 = clean) and always fills *out with
 * what could be parsed (free it with config_free).
 */
int	config_load(const char *path, FILE *errf, struct config *out);
void	config_free(struct config *);
/*
 * A drive's section copied with strings of its own (every key the table
 * says owns one), and those freed: -1 when out of memory (then release).
 */
int	config_drive_copy(struct drive_conf *dst, const struct drive_conf *src);
void	config_drive_release(struct drive_conf *);
const struct drive_conf *config_find(const struct config *, const char *name);
/*
 * Every key of the [daemon] section, or of a drive's, with its value as
 * the file would give it, defaults included: one "KEY = VALUE" line each
 * ("(not set)" for an optional key left out), each line after `indent`.
 */
void	config_print_daemon(const struct config *, FILE *, const char *indent);
void	config_print_drive(const struct drive_conf *, FILE *,
	    const char *indent);
/*
 * The keys of the file: one table (conf_keys.c) from which the parser,
 * the defaults, -n, --list-keys and the reload checks all read.
 */
enum conf_section { CONF_DAEMON = 1, CONF_DRIVE };

/* What a reload may do to a key's value. */
enum conf_reload {
	CONF_LIVE = 1,		/* applied at once */
	CONF_RESTART,		/* read at start; a reload keeps the running one */
	CONF_FIXED,		/* what is on the drive: not while under test */
	CONF_NO_RAISE		/* under test it may go down, not up */
};

struct conf_kind;		/* how a key's value is parsed, shown, compared */

struct conf_key {
	enum conf_section	 sec;
	const char		*name;
	const struct conf_kind	*kind;
	size_t			 off;	/* in struct config or struct drive_conf */
	size_t			 size;	/* of that field */
	size_t			 aux;	/* a group's id: where it goes */
	const char		*def;	/* default, in the file's syntax;
					   NULL: none (not set, or required) */
	uint64_t		 min, max;	/* bounds of an integer */
	double			 fmax;		/* of a fraction or percentage */
	const char *const	*words;		/* a choice: index = value */
	const char		*note;		/* added to its error message */
	enum conf_reload	 reload;
};

/* Every key, [daemon]'s first; ends with a NULL name. */
extern const struct conf_key conf_keys[];

const char *config_section_name(enum conf_section);
/*
 * --list-keys: "SECTION KEY RELOAD DEFAULT" for each key of the table,
 * RELOAD being live, restart, fixed or no-raise (enum conf_reload),
 * DEFAULT in the file's syntax or "-" for none.
 */
void	config_list_keys(FILE *);
/*
 * The value of `k` in `base` (a struct config or struct drive_conf, as its
 * section says) as the file would give it; "" when not set.
 */
void	config_key_show(const struct conf_key *k, const void *base, char *,
	    size_t);
/* 0 when `k` has the same value in both, else <0 or >0 as a is lower. */
int	config_key_cmp(const struct conf_key *k, const void *a, const void *b);
/*
 * A reload of a drive under test: the keys the new settings change that
 * may not change then (CONF_FIXED, CONF_NO_RAISE raised), comma-separated
 * in `buf`; returns buf, or NULL when there is none.
 */
const char *config_drive_fixed(const struct drive_conf *run,
	    const struct drive_conf *next, char *buf, size_t len);
/*
 * A reload of the [daemon] section: the CONF_RESTART keys that differ,
 * named in `buf` as above (NULL when none), and every CONF_LIVE value of
 * `next` moved into `run` (what it replaces goes to `next`, freed with it).
 */
const char *config_daemon_reload(struct config *run, struct config *next,
	    char *buf, size_t len);

/* The span in bytes on a target of `capacity` bytes (before block rounding). */
uint64_t config_span_bytes(const struct drive_conf *, uint64_t capacity);
/* A prepare value's word (conf_keys.c: "none", "trim", "format", ...). */
const char *config_prepare_name(int prepare);

#endif
