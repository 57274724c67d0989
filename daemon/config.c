/* config.c: the configuration file (inih), validation, and the resolved plan. */
#include <ctype.h>
#include <grp.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "config.h"
#include "layout.h"
#include "safety.h"
#include "units.h"

#define LINE_MAX_LEN	1024

/* Parser state shared by the line reader and the key handler. */
struct parse {
	const char	*path;
	FILE		*fp;
	FILE		*errf;
	int		 line;
	int		 errors;
	struct config	*conf;
	enum { SEC_NONE, SEC_DAEMON, SEC_DRIVE, SEC_BAD } sec;
	struct drive_conf *drive;
	char		 seen[64][32];	/* keys seen in the current section */
	int		 nseen;
};

/*
 * A [drive:NAME] key: its parser, and how -n shows its value (in the
 * file's syntax; an empty string when not set).
 */
struct key {
	const char	*name;
	int		(*parse)(struct parse *, struct drive_conf *, const char *);
	void		(*show)(const struct drive_conf *, char *, size_t);
};

/* Words of the keys that take one of a few; the index is the value. */
static const char *const order_words[] = { "sequential", "random", NULL };
static const char *const on_error_words[] = { "stop", "continue", NULL };
static const char *const smart_words[] = { "off", "auto", NULL };

/* The index of `v` in a NULL-terminated word list, or -1. */
static int
word_index(const char *const *words, const char *v)
{
	int	i;

	for (i = 0; words[i] != NULL; i++)
		if (strcmp(words[i], v) == 0)
			return i;
	return -1;
}

/* Report one problem as FILE:LINE: message and count it. */
static void __attribute__((format(printf, 3, 4)))
conf_err(struct parse *p, int line, const char *fmt, ...)
{
	va_list	ap;

	p->errors++;
	if (p->errf == NULL)
		return;
	fprintf(p->errf, "%s:%d: ", p->path, line);
	va_start(ap, fmt);
	vfprintf(p->errf, fmt, ap);
	va_end(ap);
	fputc('\n', p->errf);
}

static int
set_str(char **dst, const char *v)
{
	char	*s;

	if ((s = strdup(v)) == NULL)
		return -1;
	free(*dst);
	*dst = s;
	return 0;
}

static int
k_device(struct parse *p, struct drive_conf *d, const char *v)
{
	if (v[0] != '/') {
		conf_err(p, p->line, "device: an absolute path is required");
		return -1;
	}
	return set_str(&d->device, v);
}

static int
k_size(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_size(v, &d->size) == -1 || d->size == 0) {
		conf_err(p, p->line, "size: '%s' is not a size (e.g. 1G, 512M)",
		    v);
		return -1;
	}
	return 0;
}

static int
k_serial(struct parse *p, struct drive_conf *d, const char *v)
{
	if (v[0] == '\0') {
		conf_err(p, p->line, "serial: empty (use 'none' for devices "
		    "that report no serial)");
		return -1;
	}
	return set_str(&d->serial, v);
}

static int
k_span(struct parse *p, struct drive_conf *d, const char *v)
{
	double	f;
	size_t	n = strlen(v);

	if (n > 0 && v[n - 1] == '%') {
		if (units_parse_fraction(v, &f) == -1 || f <= 0.0) {
			conf_err(p, p->line, "span: '%s' is not a percentage "
			    "in (0%%, 100%%]", v);
			return -1;
		}
		d->span = 0;
		d->span_percent = f * 100.0;
		return 0;
	}
	if (units_parse_size(v, &d->span) == -1 || d->span == 0) {
		conf_err(p, p->line, "span: '%s' is neither a size nor a "
		    "percentage", v);
		return -1;
	}
	return 0;
}

static int
k_order(struct parse *p, struct drive_conf *d, const char *v)
{
	int	i;

	if ((i = word_index(order_words, v)) != -1)
		d->order_random = i;
	else {
		conf_err(p, p->line, "order: '%s': expected sequential or "
		    "random", v);
		return -1;
	}
	return 0;
}

static int
k_block_size(struct parse *p, struct drive_conf *d, const char *v)
{
	uint64_t	bs;

	if (units_parse_size(v, &bs) == -1) {
		conf_err(p, p->line, "block_size: '%s' is not a size", v);
		return -1;
	}
	if (bs < BLK_MIN_SIZE || bs > BLK_MAX_SIZE || bs % 512 != 0) {
		conf_err(p, p->line, "block_size: %s: must be a multiple of "
		    "512 between 512 and 1M", v);
		return -1;
	}
	d->block_size = (uint32_t)bs;
	return 0;
}

static int
k_queue_depth(struct parse *p, struct drive_conf *d, const char *v)
{
	char	*end;
	long	 n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || *end != '\0' || end == v || n < 1 || n > 1024) {
		conf_err(p, p->line, "queue_depth: '%s': expected 1 to 1024",
		    v);
		return -1;
	}
	d->queue_depth = (uint32_t)n;
	return 0;
}

static int
k_static_fraction(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_fraction(v, &d->static_fraction) == -1 ||
	    d->static_fraction > 0.95) {
		conf_err(p, p->line, "static_fraction: '%s': expected 0 to "
		    "0.95 (or 0%% to 95%%)", v);
		return -1;
	}
	return 0;
}

static int
k_trim(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_bool(v, &d->trim) == -1) {
		conf_err(p, p->line, "trim: '%s': expected yes or no", v);
		return -1;
	}
	return 0;
}

static int
k_reservation(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_bool(v, &d->reservation) == -1) {
		conf_err(p, p->line, "reservation: '%s': expected yes or no",
		    v);
		return -1;
	}
	return 0;
}

static int
k_idle(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_duration(v, &d->idle_sec) == -1) {
		conf_err(p, p->line, "idle: '%s' is not a duration (e.g. 30s, "
		    "5m, 1h)", v);
		return -1;
	}
	return 0;
}

static int
k_cycles(struct parse *p, struct drive_conf *d, const char *v)
{
	char	*end;

	errno = 0;
	d->cycles = strtoull(v, &end, 10);
	if (errno != 0 || *end != '\0' || end == v || v[0] == '-') {
		conf_err(p, p->line, "cycles: '%s': expected a count (0 = "
		    "forever)", v);
		return -1;
	}
	return 0;
}

static int
k_stop_at_tbw(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_decimal(v, &d->stop_at_tbw) == -1) {
		conf_err(p, p->line, "stop_at_tbw: '%s' is not a decimal byte "
		    "count (e.g. 600TB, 1.2PB)", v);
		return -1;
	}
	return 0;
}

static int
k_on_io_error(struct parse *p, struct drive_conf *d, const char *v)
{
	int	i;

	if ((i = word_index(on_error_words, v)) != -1)
		d->on_io_error = (enum on_error)i;
	else {
		conf_err(p, p->line, "on_io_error: '%s': expected stop or "
		    "continue", v);
		return -1;
	}
	return 0;
}

static int
k_autostart(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_bool(v, &d->autostart) == -1) {
		conf_err(p, p->line, "autostart: '%s': expected yes or no", v);
		return -1;
	}
	return 0;
}

static int
k_smart(struct parse *p, struct drive_conf *d, const char *v)
{
	int	i;

	if ((i = word_index(smart_words, v)) != -1)
		d->smart = i;
	else {
		conf_err(p, p->line, "smart: '%s': expected auto or off", v);
		return -1;
	}
	return 0;
}

static int
k_smart_interval(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_duration(v, &d->smart_interval) == -1 ||
	    d->smart_interval < 5) {
		conf_err(p, p->line, "smart_interval: '%s': expected a duration "
		    "of at least 5s", v);
		return -1;
	}
	return 0;
}

static int
k_snapshot_every(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_decimal(v, &d->snapshot_every) == -1 ||
	    d->snapshot_every == 0) {
		conf_err(p, p->line, "snapshot_every: '%s' is not a decimal byte "
		    "count (e.g. 1TB, 500GB)", v);
		return -1;
	}
	return 0;
}

static int
k_stop_at_wear(struct parse *p, struct drive_conf *d, const char *v)
{
	char	*end;

	d->stop_at_wear = strtod(v, &end);
	if (end == v || (*end != '\0' && strcmp(end, "%") != 0) ||
	    !(d->stop_at_wear > 0 && d->stop_at_wear <= 255)) {
		conf_err(p, p->line, "stop_at_wear: '%s': expected a percentage "
		    "used, 1 to 255", v);
		return -1;
	}
	return 0;
}

static int
k_max_new_bad_blocks(struct parse *p, struct drive_conf *d, const char *v)
{
	char	*end;

	errno = 0;
	d->max_new_bad_blocks = strtoull(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0' || v[0] == '-') {
		conf_err(p, p->line, "max_new_bad_blocks: '%s': expected a "
		    "count", v);
		return -1;
	}
	return 0;
}

static int	count_key(struct parse *, const char *, const char *, uint64_t,
		    uint64_t, uint64_t *);

static int
k_max_error_events(struct parse *p, struct drive_conf *d, const char *v)
{
	return count_key(p, "max_error_events", v, 0, UINT32_MAX,
	    &d->max_error_events);
}

static int
k_max_bad_fraction(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_fraction(v, &d->max_bad_fraction) == -1) {
		conf_err(p, p->line, "max_bad_fraction: '%s': expected 0 to 1 "
		    "(or 0%% to 100%%; 0 = off)", v);
		return -1;
	}
	return 0;
}

static int
k_io_timeout(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_duration(v, &d->io_timeout) == -1 ||
	    d->io_timeout < 5) {
		conf_err(p, p->line, "io_timeout: '%s': expected a duration of "
		    "at least 5s", v);
		return -1;
	}
	return 0;
}

static int
k_max_unrecorded(struct parse *p, struct drive_conf *d, const char *v)
{
	if (units_parse_duration(v, &d->max_unrecorded) == -1 ||
	    d->max_unrecorded < 1) {
		conf_err(p, p->line, "max_unrecorded: '%s': expected a duration "
		    "of at least 1s", v);
		return -1;
	}
	return 0;
}

/*
 * Values as -n shows them: in the file's syntax, exact (a size with the
 * largest unit that divides it, a duration in parts), "" when not set.
 */
static void
set(char *b, size_t n, const char *v)
{
	snprintf(b, n, "%s", v != NULL ? v : "");
}

static void
fmt_exact(char *b, size_t n, uint64_t v, uint64_t base, const char *const *u)
{
	int	i = 0;

	while (v != 0 && v % base == 0 && u[i + 1] != NULL) {
		v /= base;
		i++;
	}
	snprintf(b, n, "%llu%s", (unsigned long long)v, u[i]);
}

static void
fmt_bin(char *b, size_t n, uint64_t v)
{
	static const char *const u[] = { "", "K", "M", "G", "T", "P", NULL };

	fmt_exact(b, n, v, 1024, u);
}

static void
fmt_dec(char *b, size_t n, uint64_t v)
{
	static const char *const u[] =
	    { "", "kB", "MB", "GB", "TB", "PB", "EB", NULL };

	fmt_exact(b, n, v, 1000, u);
}

static void
fmt_duration(char *b, size_t n, uint64_t sec)
{
	static const struct { uint64_t sec; char unit; } parts[] =
	    { { 86400, 'd' }, { 3600, 'h' }, { 60, 'm' }, { 1, 's' } };
	size_t	i, used = 0;

	b[0] = '\0';
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (sec >= parts[i].sec || (used == 0 && parts[i].sec == 1)) {
			used += (size_t)snprintf(b + used, n - used, "%llu%c",
			    (unsigned long long)(sec / parts[i].sec),
			    parts[i].unit);
			sec %= parts[i].sec;
			if (used >= n)
				return;
		}
}

#define SHOW(key, ...)							\
static void								\
s_##key(const struct drive_conf *d, char *b, size_t n)			\
{									\
	__VA_ARGS__;							\
}
SHOW(device, set(b, n, d->device))
SHOW(size, d->size ? fmt_bin(b, n, d->size) : set(b, n, NULL))
SHOW(serial, set(b, n, d->serial))
SHOW(span, d->span ? fmt_bin(b, n, d->span) :
    (void)snprintf(b, n, "%.15g%%", d->span_percent))
SHOW(order, set(b, n, order_words[d->order_random]))
SHOW(block_size, fmt_bin(b, n, d->block_size))
SHOW(queue_depth, snprintf(b, n, "%u", d->queue_depth))
SHOW(static_fraction, snprintf(b, n, "%.15g", d->static_fraction))
SHOW(trim, set(b, n, d->trim ? "yes" : "no"))
SHOW(idle, fmt_duration(b, n, d->idle_sec))
SHOW(cycles, snprintf(b, n, "%llu", (unsigned long long)d->cycles))
SHOW(stop_at_tbw, d->stop_at_tbw ? fmt_dec(b, n, d->stop_at_tbw) :
    set(b, n, NULL))
SHOW(on_io_error, set(b, n, on_error_words[d->on_io_error]))
SHOW(autostart, set(b, n, d->autostart ? "yes" : "no"))
SHOW(smart, set(b, n, smart_words[d->smart]))
SHOW(smart_interval, fmt_duration(b, n, d->smart_interval))
SHOW(snapshot_every, fmt_dec(b, n, d->snapshot_every))
SHOW(stop_at_wear, d->stop_at_wear > 0 ?
    (void)snprintf(b, n, "%.15g", d->stop_at_wear) : set(b, n, NULL))
SHOW(max_new_bad_blocks, snprintf(b, n, "%llu",
    (unsigned long long)d->max_new_bad_blocks))
SHOW(max_error_events, snprintf(b, n, "%llu",
    (unsigned long long)d->max_error_events))
SHOW(max_bad_fraction, snprintf(b, n, "%.15g%%", d->max_bad_fraction * 100))
SHOW(io_timeout, fmt_duration(b, n, d->io_timeout))
SHOW(max_unrecorded, fmt_duration(b, n, d->max_unrecorded))
SHOW(reservation, set(b, n, d->reservation ? "yes" : "no"))
#undef SHOW

#define KEY(name)	{ #name, k_##name, s_##name }
static const struct key drive_keys[] = {
	KEY(device),
	KEY(size),
	KEY(serial),
	KEY(span),
	KEY(order),
	KEY(block_size),
	KEY(queue_depth),
	KEY(static_fraction),
	KEY(trim),
	KEY(idle),
	KEY(cycles),
	KEY(stop_at_tbw),
	KEY(on_io_error),
	KEY(autostart),
	KEY(smart),
	KEY(smart_interval),
	KEY(snapshot_every),
	KEY(stop_at_wear),
	KEY(max_new_bad_blocks),
	KEY(max_error_events),
	KEY(max_bad_fraction),
	KEY(io_timeout),
	KEY(max_unrecorded),
	KEY(reservation),
	{ NULL, NULL, NULL }
};

/* A group name that must exist on this system. */
static int
group_key(struct parse *p, const char *name, const char *v, char **dst,
    gid_t *gid)
{
	struct group	*gr;

	if ((gr = getgrnam(v)) == NULL) {
		conf_err(p, p->line, "%s: no such group '%s'", name, v);
		return -1;
	}
	*gid = gr->gr_gid;
	return set_str(dst, v);
}

/* A count within [lo, hi]. */
static int
count_key(struct parse *p, const char *name, const char *v, uint64_t lo,
    uint64_t hi, uint64_t *out)
{
	char	*end;

	errno = 0;
	*out = strtoull(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0' || v[0] == '-' ||
	    *out < lo || *out > hi) {
		conf_err(p, p->line, "%s: '%s': expected %llu to %llu", name, v,
		    (unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	return 0;
}

/*
 * A [daemon] key: its parser and how -n shows it, like a drive's; `off`
 * is where its value sits in struct config, `gid` where a group's id does.
 */
struct daemon_key {
	const char	*name;
	int		(*parse)(struct parse *, const struct daemon_key *,
			    const char *);
	void		(*show)(const struct config *, const struct daemon_key *,
			    char *, size_t);
	size_t		 off, gid;
};

#define FIELD(c, k, type)	((type *)(void *)((char *)(c) + (k)->off))

/* An absolute path. */
static int
dk_path(struct parse *p, const struct daemon_key *k, const char *v)
{
	if (v[0] != '/') {
		conf_err(p, p->line, "%s: an absolute path is required",
		    k->name);
		return -1;
	}
	return set_str(FIELD(p->conf, k, char *), v);
}

static int
dk_group(struct parse *p, const struct daemon_key *k, const char *v)
{
	return group_key(p, k->name, v, FIELD(p->conf, k, char *),
	    (gid_t *)(void *)((char *)p->conf + k->gid));
}

static int
dk_max_connections(struct parse *p, const struct daemon_key *k,
    const char *v)
{
	uint64_t	n;

	if (count_key(p, k->name, v, 1, 4096, &n) == 0)
		p->conf->max_connections = (unsigned)n;
	return 0;
}

static int
dk_client_timeout(struct parse *p, const struct daemon_key *k,
    const char *v)
{
	if (units_parse_duration(v, &p->conf->client_timeout) == -1 ||
	    p->conf->client_timeout == 0)
		conf_err(p, p->line, "%s: '%s' is not a duration of at least "
		    "1s", k->name, v);
	return 0;
}

static int
dk_rrdcached(struct parse *p, const struct daemon_key *k, const char *v)
{
	if (strncmp(v, "unix:", 5) != 0 && strchr(v, ':') == NULL &&
	    v[0] != '/') {
		conf_err(p, p->line, "%s: '%s': expected unix:/path or "
		    "host:port", k->name, v);
		return -1;
	}
	return set_str(FIELD(p->conf, k, char *), v);
}

static void
ds_str(const struct config *c, const struct daemon_key *k, char *b, size_t n)
{
	set(b, n, *FIELD(c, k, char *const));
}

static void
ds_max_connections(const struct config *c, const struct daemon_key *k,
    char *b, size_t n)
{
	(void)k;
	snprintf(b, n, "%u", c->max_connections);
}

static void
ds_client_timeout(const struct config *c, const struct daemon_key *k,
    char *b, size_t n)
{
	(void)k;
	fmt_duration(b, n, c->client_timeout);
}

#define DKEY(name, parse, show, gid) \
	{ #name, parse, show, offsetof(struct config, name), gid }
static const struct daemon_key daemon_keys[] = {
	DKEY(state_dir, dk_path, ds_str, 0),
	DKEY(socket, dk_path, ds_str, 0),
	DKEY(socket_group, dk_group, ds_str,
	    offsetof(struct config, socket_gid)),
	DKEY(admin_group, dk_group, ds_str,
	    offsetof(struct config, admin_gid)),
	DKEY(max_connections, dk_max_connections, ds_max_connections, 0),
	DKEY(client_timeout, dk_client_timeout, ds_client_timeout, 0),
	DKEY(rrdcached, dk_rrdcached, ds_str, 0),
	DKEY(rrdcached_dir, dk_path, ds_str, 0),
	DKEY(prometheus_textfile, dk_path, ds_str, 0),
	{ NULL, NULL, NULL, 0, 0 }
};

/* [daemon] keys. */
static int
daemon_key(struct parse *p, const char *name, const char *v)
{
	int	i;

	for (i = 0; daemon_keys[i].name != NULL; i++)
		if (strcmp(daemon_keys[i].name, name) == 0)
			return daemon_keys[i].parse(p, &daemon_keys[i], v);
	conf_err(p, p->line, "unknown key '%s' in [daemon]", name);
	return -1;
}

/* A drive with its defaults. */
static void
drive_defaults(struct drive_conf *d)
{
	memset(d, 0, sizeof(*d));
	d->span_percent = 100.0;
	d->order_random = 0;
	d->block_size = 128 * 1024;
	d->queue_depth = 32;
	d->static_fraction = 0.25;
	d->trim = 1;
	d->on_io_error = ON_ERROR_STOP;
	d->autostart = 1;
	d->smart = 1;
	d->smart_interval = 60;
	d->snapshot_every = 1000000000000ULL;
	d->max_new_bad_blocks = 10;
	d->max_error_events = 1000;
	d->max_bad_fraction = 0.01;
	d->io_timeout = 120;
	d->max_unrecorded = 60;
}

/* Drive names: [A-Za-z0-9_.-], they become directory names. */
static int
valid_name(const char *s)
{
	size_t	i, n = strlen(s);

	if (n == 0 || n >= CONF_NAME_MAX || s[0] == '.')
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && strchr("_.-", s[i]) == NULL)
			return 0;
	return 1;
}

/* Start a [drive:NAME] section. */
static void
section_drive(struct parse *p, const char *name)
{
	struct config		*c = p->conf;
	struct drive_conf	*nd;
	size_t			 i;

	p->sec = SEC_BAD;
	if (!valid_name(name)) {
		conf_err(p, p->line, "invalid drive name '%s' (letters, digits, "
		    "'_', '-', '.'; at most %d)", name, CONF_NAME_MAX - 1);
		return;
	}
	for (i = 0; i < c->ndrives; i++)
		if (strcmp(c->drives[i].name, name) == 0) {
			conf_err(p, p->line, "drive '%s' already defined at "
			    "line %d", name, c->drives[i].line);
			return;
		}
	nd = realloc(c->drives, (c->ndrives + 1) * sizeof(*nd));
	if (nd == NULL) {
		conf_err(p, p->line, "out of memory");
		return;
	}
	c->drives = nd;
	p->drive = &c->drives[c->ndrives++];
	drive_defaults(p->drive);
	/* valid_name() bounded the length; checking the result says so to
	 * the compiler too, which cannot always see it (-O1 warns) */
	if ((size_t)snprintf(p->drive->name, sizeof(p->drive->name), "%s",
	    name) >= sizeof(p->drive->name))
		conf_err(p, p->line, "drive name '%s' too long", name);
	p->drive->line = p->line;
	p->sec = SEC_DRIVE;
}

/* Drop a " ; comment" or " # comment" after a section header. */
static void
cut_comment(char *s)
{
	char	*end = strchr(s, ']');
	size_t	 n;

	if (end != NULL && strspn(end + 1, " \t\r\n") != strlen(end + 1)) {
		char *c = end + 1 + strspn(end + 1, " \t");
		if (*c == ';' || *c == '#')
			end[1] = '\0';
	}
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/* A "[...]" line: which section it opens. */
static void
section_line(struct parse *p, const char *s)
{
	char	name[LINE_MAX_LEN];
	size_t	n;

	p->nseen = 0;
	p->drive = NULL;
	snprintf(name, sizeof(name), "%s", s + 1);
	n = strlen(name);
	while (n > 0 && isspace((unsigned char)name[n - 1]))
		name[--n] = '\0';
	cut_comment(name);
	n = strlen(name);
	if (n == 0 || name[n - 1] != ']') {
		conf_err(p, p->line, "syntax error: unterminated section "
		    "header");
		p->sec = SEC_BAD;
		return;
	}
	name[n - 1] = '\0';
	if (strcmp(name, "daemon") == 0)
		p->sec = SEC_DAEMON;
	else if (strncmp(name, "drive:", 6) == 0)
		section_drive(p, name + 6);
	else {
		conf_err(p, p->line, "unknown section [%s]", name);
		p->sec = SEC_BAD;
	}
}

/* Check one raw line's syntax; sections are handled here, keys by inih. */
static void
check_line(struct parse *p, const char *line)
{
	const char	*s = line;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0' || *s == ';' || *s == '#')
		return;
	if (*s == '[') {
		section_line(p, s);
		return;
	}
	if (strchr(s, '=') == NULL && strchr(s, ':') == NULL)
		conf_err(p, p->line, "syntax error: expected 'key = value'");
	else if (p->sec == SEC_NONE)
		conf_err(p, p->line, "key outside of any section");
}

/*
 * One line into buf (newline kept, at most size - 1 bytes): its length,
 * NUL bytes included (fgets() would hide them), or -1 at the end of the
 * file. *cut says the line was longer; the rest of it has been skipped.
 */
static long
read_line(FILE *fp, char *buf, size_t size, int *cut)
{
	size_t	n = 0;
	int	c = EOF;

	*cut = 0;
	while (n + 1 < size && (c = getc(fp)) != EOF) {
		buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	buf[n] = '\0';
	if (n == 0)
		return -1;
	if (n + 1 == size && buf[n - 1] != '\n' && (c = getc(fp)) != EOF) {
		*cut = 1;
		while (c != '\n' && (c = getc(fp)) != EOF)
			;
	}
	return (long)n;
}

/* inih's reader: one line at a time, counted and syntax-checked. */
static char *
conf_reader(char *str, int num, void *stream)
{
	struct parse	*p = stream;
	char		 buf[LINE_MAX_LEN + 2];
	long		 n;
	int		 cut;

	if ((n = read_line(p->fp, buf, sizeof(buf), &cut)) == -1)
		return NULL;
	p->line++;
	if (cut) {
		conf_err(p, p->line, "line too long (more than %d bytes)",
		    LINE_MAX_LEN);
		buf[0] = '\0';	/* hand inih an empty line */
	} else if (memchr(buf, '\0', (size_t)n) != NULL) {
		conf_err(p, p->line, "NUL byte in the line");
		buf[0] = '\0';
	} else if (num <= n + (buf[n - 1] == '\n' ? 0 : 1)) {
		/* inih's own line buffer is smaller: never let it cut a value */
		conf_err(p, p->line, "line too long (more than %d bytes)",
		    num - 2);
		buf[0] = '\0';
	} else
		check_line(p, buf);
	memcpy(str, buf, strlen(buf) + 1);
	return str;
}

/* Remember a key; a second occurrence in one section is an error. */
static int
key_seen(struct parse *p, const char *name)
{
	int	i;

	for (i = 0; i < p->nseen; i++)
		if (strcmp(p->seen[i], name) == 0)
			return 1;
	if (p->nseen < (int)(sizeof(p->seen) / sizeof(p->seen[0])))
		snprintf(p->seen[p->nseen++], sizeof(p->seen[0]), "%s", name);
	return 0;
}

/* inih's handler: one key = value. */
static int
conf_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct parse	*p = user;
	int		 i;

	(void)section;
	if (p->sec == SEC_BAD || p->sec == SEC_NONE)
		return 1;	/* already reported */
	if (key_seen(p, name)) {
		conf_err(p, p->line, "duplicate key '%s'", name);
		return 1;
	}
	if (p->sec == SEC_DAEMON) {
		daemon_key(p, name, value);
		return 1;
	}
	for (i = 0; drive_keys[i].name != NULL; i++)
		if (strcmp(drive_keys[i].name, name) == 0) {
			drive_keys[i].parse(p, p->drive, value);
			return 1;
		}
	conf_err(p, p->line, "unknown key '%s' in [drive:%s]", name,
	    p->drive->name);
	return 1;
}

/* Checks across keys of a drive, reported at the section's line. */
static void
validate_drive(struct parse *p, struct drive_conf *d)
{
	size_t	i;

	if (d->device == NULL) {
		conf_err(p, d->line, "[drive:%s]: 'device' is required",
		    d->name);
		return;
	}
	if (d->span != 0 && d->span % d->block_size != 0)
		conf_err(p, d->line, "[drive:%s]: span is not a multiple of "
		    "block_size", d->name);
	if (d->size != 0 && d->size % d->block_size != 0)
		conf_err(p, d->line, "[drive:%s]: size is not a multiple of "
		    "block_size", d->name);
	for (i = 0; &p->conf->drives[i] != d; i++)
		if (p->conf->drives[i].device != NULL &&
		    strcmp(p->conf->drives[i].device, d->device) == 0)
			conf_err(p, d->line, "[drive:%s]: device %s is "
			    "already used by drive '%s'", d->name, d->device,
			    p->conf->drives[i].name);
}

static void
validate(struct parse *p)
{
	size_t	i;

	if (p->conf->state_dir == NULL &&
	    (p->conf->state_dir = strdup(CONF_DEFAULT_STATE_DIR)) == NULL)
		p->errors++;
	if (p->conf->socket == NULL &&
	    (p->conf->socket = strdup(CONF_DEFAULT_SOCKET)) == NULL)
		p->errors++;
	if (p->conf->max_connections == 0)
		p->conf->max_connections = CONF_DEFAULT_MAX_CONN;
	if (p->conf->client_timeout == 0)
		p->conf->client_timeout = CONF_DEFAULT_CLIENT_TIMEOUT;
	for (i = 0; i < p->conf->ndrives; i++)
		validate_drive(p, &p->conf->drives[i]);
}

int
config_load(const char *path, FILE *errf, struct config *out)
{
	struct parse	p;
	int		rc;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	p.path = path;
	p.errf = errf;
	p.conf = out;
	out->path = strdup(path);
	if ((p.fp = fopen(path, "r")) == NULL) {
		if (errf != NULL)
			fprintf(errf, "%s: %s\n", path, strerror(errno));
		return 1;
	}
	ini_allow_multiline = false;
	rc = ini_parse_stream(conf_reader, &p, conf_handler, &p);
	fclose(p.fp);
	if (rc < 0) {
		conf_err(&p, 0, "cannot parse (out of memory)");
		return p.errors;
	}
	validate(&p);
	return p.errors;
}

void
config_free(struct config *c)
{
	size_t	i;

	for (i = 0; i < c->ndrives; i++) {
		free(c->drives[i].device);
		free(c->drives[i].serial);
	}
	free(c->drives);
	free(c->path);
	free(c->state_dir);
	free(c->socket);
	free(c->socket_group);
	free(c->admin_group);
	free(c->rrdcached);
	free(c->rrdcached_dir);
	free(c->prometheus_textfile);
	memset(c, 0, sizeof(*c));
}

const struct drive_conf *
config_find(const struct config *c, const char *name)
{
	size_t	i;

	for (i = 0; i < c->ndrives; i++)
		if (strcmp(c->drives[i].name, name) == 0)
			return &c->drives[i];
	return NULL;
}

uint64_t
config_span_bytes(const struct drive_conf *d, uint64_t capacity)
{
	if (d->span != 0)
		return d->span;
	return (uint64_t)((double)capacity * d->span_percent / 100.0);
}

/* One "KEY = VALUE" line of -n. */
static void
print_key(FILE *out, const char *indent, const char *name, const char *v)
{
	fprintf(out, "%s%-19s = %s\n", indent, name, v[0] != '\0' ? v :
	    "(not set)");
}

void
config_print_daemon(const struct config *c, FILE *out, const char *indent)
{
	char	v[PATH_MAX + 64];
	int	i;

	for (i = 0; daemon_keys[i].name != NULL; i++) {
		daemon_keys[i].show(c, &daemon_keys[i], v, sizeof(v));
		print_key(out, indent, daemon_keys[i].name, v);
	}
}

void
config_print_drive(const struct drive_conf *d, FILE *out, const char *indent)
{
	char	v[PATH_MAX + 64];
	int	i;

	for (i = 0; drive_keys[i].name != NULL; i++) {
		drive_keys[i].show(d, v, sizeof(v));
		print_key(out, indent, drive_keys[i].name, v);
	}
}
