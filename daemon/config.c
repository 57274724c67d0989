/* config.c: the configuration file (inih), validation, and the resolved plan. */
#include <ctype.h>
#include <grp.h>
#include <errno.h>
#include <stdarg.h>
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

struct key {
	const char	*name;
	int		(*parse)(struct parse *, struct drive_conf *, const char *);
};

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
	if (strcmp(v, "sequential") == 0)
		d->order_random = 0;
	else if (strcmp(v, "random") == 0)
		d->order_random = 1;
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
	if (strcmp(v, "stop") == 0)
		d->on_io_error = ON_ERROR_STOP;
	else if (strcmp(v, "continue") == 0)
		d->on_io_error = ON_ERROR_CONTINUE;
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
	if (strcmp(v, "auto") == 0)
		d->smart = 1;
	else if (strcmp(v, "off") == 0)
		d->smart = 0;
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

static const struct key drive_keys[] = {
	{ "device", k_device },
	{ "size", k_size },
	{ "serial", k_serial },
	{ "span", k_span },
	{ "order", k_order },
	{ "block_size", k_block_size },
	{ "queue_depth", k_queue_depth },
	{ "static_fraction", k_static_fraction },
	{ "trim", k_trim },
	{ "idle", k_idle },
	{ "cycles", k_cycles },
	{ "stop_at_tbw", k_stop_at_tbw },
	{ "on_io_error", k_on_io_error },
	{ "autostart", k_autostart },
	{ "smart", k_smart },
	{ "smart_interval", k_smart_interval },
	{ "snapshot_every", k_snapshot_every },
	{ "stop_at_wear", k_stop_at_wear },
	{ "max_new_bad_blocks", k_max_new_bad_blocks },
	{ "io_timeout", k_io_timeout },
	{ NULL, NULL }
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

/* [daemon] keys. */
static int
daemon_key(struct parse *p, const char *name, const char *v)
{
	struct config	*c = p->conf;
	char		**dst;
	uint64_t	 n;

	if (strcmp(name, "socket_group") == 0)
		return group_key(p, name, v, &c->socket_group, &c->socket_gid);
	if (strcmp(name, "admin_group") == 0)
		return group_key(p, name, v, &c->admin_group, &c->admin_gid);
	if (strcmp(name, "max_connections") == 0) {
		if (count_key(p, name, v, 1, 4096, &n) == 0)
			c->max_connections = (unsigned)n;
		return 0;
	}
	if (strcmp(name, "client_timeout") == 0) {
		if (units_parse_duration(v, &c->client_timeout) == -1 ||
		    c->client_timeout == 0)
			conf_err(p, p->line, "client_timeout: '%s' is not a "
			    "duration of at least 1s", v);
		return 0;
	}
	if (strcmp(name, "rrdcached") == 0) {
		if (strncmp(v, "unix:", 5) != 0 && strchr(v, ':') == NULL &&
		    v[0] != '/') {
			conf_err(p, p->line, "rrdcached: '%s': expected "
			    "unix:/path or host:port", v);
			return -1;
		}
		return set_str(&c->rrdcached, v);
	}
	if (strcmp(name, "state_dir") == 0)
		dst = &c->state_dir;
	else if (strcmp(name, "prometheus_textfile") == 0)
		dst = &c->prometheus_textfile;
	else if (strcmp(name, "rrdcached_dir") == 0)
		dst = &c->rrdcached_dir;
	else if (strcmp(name, "socket") == 0)
		dst = &c->socket;
	else {
		conf_err(p, p->line, "unknown key '%s' in [daemon]", name);
		return -1;
	}
	if (v[0] != '/') {
		conf_err(p, p->line, "%s: an absolute path is required", name);
		return -1;
	}
	return set_str(dst, v);
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
	d->io_timeout = 120;
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

/* inih's reader: one line at a time, counted and syntax-checked. */
static char *
conf_reader(char *str, int num, void *stream)
{
	struct parse	*p = stream;
	char		 buf[LINE_MAX_LEN + 2];
	size_t		 n;

	if (fgets(buf, sizeof(buf), p->fp) == NULL)
		return NULL;
	p->line++;
	n = strlen(buf);
	if (n > 0 && buf[n - 1] != '\n' && !feof(p->fp)) {
		int	c;

		conf_err(p, p->line, "line too long (more than %d bytes)",
		    LINE_MAX_LEN);
		while ((c = fgetc(p->fp)) != EOF && c != '\n')
			;
		buf[0] = '\0';	/* hand inih an empty line */
	} else if ((size_t)num <= strlen(buf) + (buf[n - 1] == '\n' ? 0 : 1)) {
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
