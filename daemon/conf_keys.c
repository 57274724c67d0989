/*
 * conf_keys.c: every configuration key in one table (section, name, kind
 * of value, field, default, bounds, reload policy), and what reads it:
 * the parser of each value, the defaults, -n, --list-keys and the checks
 * of a reload.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <grp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "cmdline.h"
#include "conf_priv.h"
#include "probes.h"
#include "proto.h"
#include "units.h"

/* Words of the keys that take one of a few; the index is the value. */
/* Problems are reported here, below the file reader that uses it too. */
void
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

static const char *const order_words[] = { "sequential", "random", NULL };
static const char *const on_error_words[] = { "stop", "continue", NULL };
static const char *const lost_flush_words[] = { "continue", "fail", NULL };
static const char *const smart_words[] = { "off", "auto", NULL };
static const char *const bool_words[] = { "no", "yes", NULL };
static const char *const checkpoint_words[] = { "off", "quick", "full",
    NULL };
static const char *const wait_words[] = { "sleep", "poll", NULL };
static const char *const prepare_words[] = { "none", "trim", "format",
    "sanitize", NULL };

const char *
config_prepare_name(int prepare)
{
	return prepare >= 0 && prepare <= PREPARE_SANITIZE ?
	    prepare_words[prepare] : "unknown";
}
static const char *const part_words[] = { "degrade", "recovery", "trim",
    "cache", "full90", "thermal", NULL };

/*
 * A key's field in a struct config or struct drive_conf. Integers are 4
 * or 8 bytes wide (int, unsigned, uint32_t, uint64_t): `size` says which.
 */
static void *
field(const struct conf_key *k, void *base)
{
	return (char *)base + k->off;
}

static uint64_t
get_uint(const struct conf_key *k, const void *base)
{
	uint32_t	v32;
	uint64_t	v64;

	if (k->size == sizeof(v32)) {
		memcpy(&v32, (const char *)base + k->off, sizeof(v32));
		return v32;
	}
	memcpy(&v64, (const char *)base + k->off, sizeof(v64));
	return v64;
}

static void
put_uint(const struct conf_key *k, void *base, uint64_t v)
{
	uint32_t	v32 = (uint32_t)v;

	if (k->size == sizeof(v32))
		memcpy(field(k, base), &v32, sizeof(v32));
	else
		memcpy(field(k, base), &v, sizeof(v));
}

static double
get_double(const struct conf_key *k, const void *base)
{
	double	v;

	memcpy(&v, (const char *)base + k->off, sizeof(v));
	return v;
}

static const char *
get_str(const struct conf_key *k, const void *base)
{
	const char	*s;

	memcpy(&s, (const char *)base + k->off, sizeof(s));
	return s;
}

static int
put_str(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	char	*s, **dst = field(k, base);

	if ((s = strdup(v)) == NULL) {
		conf_err(p, p->line, "%s: out of memory", k->name);
		return -1;
	}
	free(*dst);
	*dst = s;
	return 0;
}

/* An optional key (no default) left at zero is not set. */
static int
unset(const struct conf_key *k, uint64_t v)
{
	return k->def == NULL && v == 0;
}

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

/*
 * Values as -n shows them: in the file's syntax, exact (a size with the
 * largest unit that divides it, a duration in parts), "" when not set.
 */
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

/* Comparisons of a field's value, and the shows shared by several kinds. */
static int
cmp_uint(const struct conf_key *k, const void *a, const void *b)
{
	uint64_t	x = get_uint(k, a), y = get_uint(k, b);

	return (x > y) - (x < y);
}

static int
cmp_double(const struct conf_key *k, const void *a, const void *b)
{
	double	x = get_double(k, a), y = get_double(k, b);

	return (x > y) - (x < y);
}

static int
cmp_str(const struct conf_key *k, const void *a, const void *b)
{
	const char	*x = get_str(k, a), *y = get_str(k, b);

	if (x == NULL || y == NULL)
		return (x != NULL) - (y != NULL);
	return strcmp(x, y);
}

static void
show_str(const struct conf_key *k, const void *base, char *b, size_t n)
{
	const char	*s = get_str(k, base);

	snprintf(b, n, "%s", s != NULL ? s : "");
}

static void
show_word(const struct conf_key *k, const void *base, char *b, size_t n)
{
	snprintf(b, n, "%s", k->words[get_uint(k, base)]);
}

static void
show_count(const struct conf_key *k, const void *base, char *b, size_t n)
{
	snprintf(b, n, "%llu", (unsigned long long)get_uint(k, base));
}

/* An absolute path. */
static int
p_path(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	if (v[0] != '/') {
		conf_err(p, p->line, "%s: an absolute path is required",
		    k->name);
		return -1;
	}
	return put_str(p, k, base, v);
}

/* A program and its arguments (cmdline.h), kept as written. */
static int
p_command(struct parse *p, const struct conf_key *k, void *base,
    const char *v)
{
	char	**argv, why[128];

	if ((argv = cmdline_split(v, why, sizeof(why))) == NULL) {
		conf_err(p, p->line, "%s: %s", k->name, why);
		return -1;
	}
	cmdline_free(argv);
	return put_str(p, k, base, v);
}

/* Any text but an empty one. */
static int
p_text(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	if (v[0] == '\0') {
		conf_err(p, p->line, "%s: empty (%s)", k->name, k->note);
		return -1;
	}
	return put_str(p, k, base, v);
}

/*
 * A device type as smartctl's -d takes it (sat, megaraid,N, cciss,N,
 * sntjmicron, sat+megaraid,N, areca,N/E...): lower-case letters, digits
 * and , + _ - /, beginning with a letter or a digit, so that it is one
 * argument and never an option.
 */
static int
p_devtype(struct parse *p, const struct conf_key *k, void *base,
    const char *v)
{
	size_t	n = strlen(v);

	if (n == 0 || n > 32 || strspn(v, "abcdefghijklmnopqrstuvwxyz"
	    "0123456789,+_-/") != n || !isalnum((unsigned char)v[0])) {
		conf_err(p, p->line, "%s: '%s': expected a smartctl device "
		    "type (%s)", k->name, v, k->note);
		return -1;
	}
	return put_str(p, k, base, v);
}

/* A group name that must exist on this system; its id goes to `aux`. */
static int
p_group(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	struct group	*gr;

	if ((gr = getgrnam(v)) == NULL) {
		conf_err(p, p->line, "%s: no such group '%s'", k->name, v);
		return -1;
	}
	memcpy((char *)base + k->aux, &gr->gr_gid, sizeof(gr->gr_gid));
	return put_str(p, k, base, v);
}

/* An rrdcached address as rrdtool takes it. */
static int
p_endpoint(struct parse *p, const struct conf_key *k, void *base,
    const char *v)
{
	if (strncmp(v, "unix:", 5) != 0 && strchr(v, ':') == NULL &&
	    v[0] != '/') {
		conf_err(p, p->line, "%s: '%s': expected unix:/path or "
		    "host:port", k->name, v);
		return -1;
	}
	return put_str(p, k, base, v);
}

static int
p_bool(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	int	b;

	if (units_parse_bool(v, &b) == -1) {
		conf_err(p, p->line, "%s: '%s': expected yes or no", k->name, v);
		return -1;
	}
	put_uint(k, base, (uint64_t)b);
	return 0;
}

/* One of the key's words: "expected a, b or c". */
static int
p_choice(struct parse *p, const struct conf_key *k, void *base,
    const char *v)
{
	char	list[128];
	size_t	used = 0;
	int	i;

	if ((i = word_index(k->words, v)) != -1) {
		put_uint(k, base, (uint64_t)i);
		return 0;
	}
	list[0] = '\0';
	for (i = 0; k->words[i] != NULL && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
		    "%s%s", i == 0 ? "" : k->words[i + 1] == NULL ? " or " :
		    ", ", k->words[i]);
	conf_err(p, p->line, "%s: '%s': expected %s", k->name, v, list);
	return -1;
}

static void
show_bool(const struct conf_key *k, const void *base, char *b, size_t n)
{
	snprintf(b, n, "%s", bool_words[get_uint(k, base) != 0]);
}

/* A count within [min, max]; a count without bound says "a count". */
static int
p_count(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	char		*end;
	uint64_t	 n;

	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno == 0 && end != v && *end == '\0' && v[0] != '-' &&
	    n >= k->min && n <= k->max) {
		put_uint(k, base, n);
		return 0;
	}
	if (k->max == UINT64_MAX)
		conf_err(p, p->line, "%s: '%s': expected a count%s%s%s",
		    k->name, v, k->note ? " (" : "", k->note ? k->note : "",
		    k->note ? ")" : "");
	else
		conf_err(p, p->line, "%s: '%s': expected %llu to %llu",
		    k->name, v, (unsigned long long)k->min,
		    (unsigned long long)k->max);
	return -1;
}

/* A duration of at least `min` seconds, and at most `max` (0: no bound). */
static int
p_duration(struct parse *p, const struct conf_key *k, void *base,
    const char *v)
{
	uint64_t	s;
	char		hi[32];

	if (units_parse_duration(v, &s) == 0 && s >= k->min &&
	    (k->max == 0 || s <= k->max)) {
		put_uint(k, base, s);
		return 0;
	}
	if (k->max != 0 && units_parse_duration(v, &s) == 0 && s > k->max) {
		fmt_duration(hi, sizeof(hi), k->max);
		conf_err(p, p->line, "%s: '%s': expected a duration of at "
		    "most %s", k->name, v, hi);
	} else if (k->min == 0)
		conf_err(p, p->line, "%s: '%s' is not a duration (%s)",
		    k->name, v, k->note);
	else
		conf_err(p, p->line, "%s: '%s': expected a duration of at "
		    "least %llus", k->name, v, (unsigned long long)k->min);
	return -1;
}

static void
show_duration(const struct conf_key *k, const void *base, char *b, size_t n)
{
	fmt_duration(b, n, get_uint(k, base));
}

/*
 * One rule for zero: a key takes 0 only where its description gives 0 a
 * meaning ("0 = forever", "0: never", a duration of 0s). Elsewhere (an
 * amount of bytes, a rating, a wear limit) 0 would be a limit or figure
 * of nothing, so it is refused, not taken silently as "not set": the
 * message says how to get what was likely meant.
 */
static int
zero_refused(struct parse *p, const struct conf_key *k, const char *v)
{
	if (k->def == NULL)
		conf_err(p, p->line, "%s: '%s': must be above 0; to leave it "
		    "unset, leave the key out (or comment it out)", k->name, v);
	else
		conf_err(p, p->line, "%s: '%s': must be above 0; for the "
		    "default (%s), leave the key out", k->name, v, k->def);
	return -1;
}

/*
 * A byte count of at least `min` (above 0: see zero_refused), read by
 * `parse` (binary or decimal units), "a `what`" in its message; shown by
 * `fmt`, or not set.
 */
static int
p_scaled(struct parse *p, const struct conf_key *k, void *base, const char *v,
    int (*parse)(const char *, uint64_t *), const char *what)
{
	uint64_t	s;

	if (parse(v, &s) == 0 && s >= k->min) {
		put_uint(k, base, s);
		return 0;
	}
	if (parse(v, &s) == 0 && s == 0)
		return zero_refused(p, k, v);
	conf_err(p, p->line, "%s: '%s' is not a %s (%s)", k->name, v, what,
	    k->note);
	return -1;
}

static void
show_scaled(const struct conf_key *k, const void *base, char *b, size_t n,
    void (*fmt)(char *, size_t, uint64_t))
{
	uint64_t	v = get_uint(k, base);

	if (unset(k, v))
		b[0] = '\0';
	else
		fmt(b, n, v);
}

static int
p_size(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	return p_scaled(p, k, base, v, units_parse_size, "size");
}

static void
show_size(const struct conf_key *k, const void *base, char *b, size_t n)
{
	show_scaled(k, base, b, n, fmt_bin);
}

static int
p_bytes(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	return p_scaled(p, k, base, v, units_parse_decimal,
	    "decimal byte count");
}

static void
show_bytes(const struct conf_key *k, const void *base, char *b, size_t n)
{
	show_scaled(k, base, b, n, fmt_dec);
}

/* A block size: a multiple of `min` in [min, max]. */
static int
p_block(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	char		lo[16], hi[16];
	uint64_t	s;

	if (units_parse_size(v, &s) == -1) {
		conf_err(p, p->line, "%s: '%s' is not a size", k->name, v);
		return -1;
	}
	if (s < k->min || s > k->max || s % k->min != 0) {
		fmt_bin(lo, sizeof(lo), k->min);
		fmt_bin(hi, sizeof(hi), k->max);
		conf_err(p, p->line, "%s: %s: must be a multiple of %s between "
		    "%s and %s", k->name, v, lo, lo, hi);
		return -1;
	}
	put_uint(k, base, s);
	return 0;
}

/* A fraction from 0 to `fmax`, or a percentage. */
static int
p_fraction(struct parse *p, const struct conf_key *k, void *base,
    const char *v)
{
	double	f;

	if (units_parse_fraction(v, &f) == 0 && f <= k->fmax) {
		memcpy(field(k, base), &f, sizeof(f));
		return 0;
	}
	conf_err(p, p->line, "%s: '%s': expected 0 to %g (or 0%% to %g%%%s%s)",
	    k->name, v, k->fmax, k->fmax * 100, k->note ? "; " : "",
	    k->note ? k->note : "");
	return -1;
}

static void
show_fraction(const struct conf_key *k, const void *base, char *b, size_t n)
{
	snprintf(b, n, "%.15g", get_double(k, base));
}

static void
show_percent(const struct conf_key *k, const void *base, char *b, size_t n)
{
	snprintf(b, n, "%.15g%%", get_double(k, base) * 100);
}

/* SMART's percentage used: above 0, at most `fmax`; "%" may follow. */
static int
p_wear(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	char	*end;
	double	 f;

	f = strtod(v, &end);
	if (end != v && (*end == '\0' || strcmp(end, "%") == 0) && f == 0)
		return zero_refused(p, k, v);
	if (end == v || (*end != '\0' && strcmp(end, "%") != 0) ||
	    !(f > 0 && f <= k->fmax)) {
		conf_err(p, p->line, "%s: '%s': expected a percentage used, 1 "
		    "to %g", k->name, v, k->fmax);
		return -1;
	}
	memcpy(field(k, base), &f, sizeof(f));
	return 0;
}

static void
show_wear(const struct conf_key *k, const void *base, char *b, size_t n)
{
	double	f = get_double(k, base);

	if (k->def == NULL && f == 0)
		b[0] = '\0';
	else
		snprintf(b, n, "%.15g", f);
}

/* A drive's span: a size, or a percentage of the target (two fields). */
static int
p_span(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	struct drive_conf	*d = base;
	double			 f;
	size_t			 n = strlen(v);

	if (n > 0 && v[n - 1] == '%') {
		if (units_parse_fraction(v, &f) == 0 && f == 0.0)
			return zero_refused(p, k, v);
		if (units_parse_fraction(v, &f) == -1 || f <= 0.0) {
			conf_err(p, p->line, "%s: '%s' is not a percentage "
			    "in (0%%, 100%%]", k->name, v);
			return -1;
		}
		d->span = 0;
		d->span_percent = f * 100.0;
		return 0;
	}
	if (units_parse_size(v, &d->span) == 0 && d->span == 0)
		return zero_refused(p, k, v);
	if (units_parse_size(v, &d->span) == -1) {
		conf_err(p, p->line, "%s: '%s' is neither a size nor a "
		    "percentage", k->name, v);
		return -1;
	}
	return 0;
}

static void
show_span(const struct conf_key *k, const void *base, char *b, size_t n)
{
	const struct drive_conf	*d = base;

	(void)k;
	if (d->span != 0)
		fmt_bin(b, n, d->span);
	else
		snprintf(b, n, "%.15g%%", d->span_percent);
}

static int
cmp_span(const struct conf_key *k, const void *a, const void *b)
{
	const struct drive_conf	*x = a, *y = b;

	(void)k;
	if (x->span != y->span)
		return (x->span > y->span) - (x->span < y->span);
	return (x->span_percent > y->span_percent) -
	    (x->span_percent < y->span_percent);
}

/* A selection of the checkpoint's probes (probes.h). */
static int
p_probes(struct parse *p, const struct conf_key *k, void *base,
    const char *v)
{
	char	why[160];

	if (probe_spec_check(v, why, sizeof(why)) == -1) {
		conf_err(p, p->line, "%s: %s", k->name, why);
		return -1;
	}
	return put_str(p, k, base, v);
}

/* A set of the key's words, apart by commas or blanks, or "all": bits. */
static int
p_set(struct parse *p, const struct conf_key *k, void *base, const char *v)
{
	char		 buf[256], *w, *save = NULL;
	uint64_t	 bits = 0;
	int		 i;

	snprintf(buf, sizeof(buf), "%s", v);
	for (w = strtok_r(buf, ", \t", &save); w != NULL;
	    w = strtok_r(NULL, ", \t", &save)) {
		if (strcmp(w, "all") == 0)
			i = -2;
		else if ((i = word_index(k->words, w)) == -1) {
			conf_err(p, p->line, "%s: '%s': expected all or "
			    "words of %s", k->name, w, k->note);
			return -1;
		}
		bits |= i == -2 ? UINT32_MAX : 1ULL << i;
	}
	for (i = 0; k->words[i] != NULL; i++)
		;
	bits &= (1ULL << i) - 1;
	if (bits == 0 || strlen(v) >= sizeof(buf)) {
		conf_err(p, p->line, "%s: '%s': expected all or words of %s",
		    k->name, v, k->note);
		return -1;
	}
	put_uint(k, base, bits);
	return 0;
}

static void
show_set(const struct conf_key *k, const void *base, char *b, size_t n)
{
	uint64_t	bits = get_uint(k, base);
	size_t		used = 0;
	int		i;

	b[0] = '\0';
	for (i = 0; k->words[i] != NULL && used < n; i++)
		if (bits & (1ULL << i))
			used += (size_t)snprintf(b + used, n - used, "%s%s",
			    used == 0 ? "" : ",", k->words[i]);
}

static const struct conf_kind
	kind_path = { p_path, show_str, cmp_str, 1 },
	kind_command = { p_command, show_str, cmp_str, 1 },
	kind_devtype = { p_devtype, show_str, cmp_str, 1 },
	kind_probes = { p_probes, show_str, cmp_str, 1 },
	kind_text = { p_text, show_str, cmp_str, 1 },
	kind_group = { p_group, show_str, cmp_str, 1 },
	kind_endpoint = { p_endpoint, show_str, cmp_str, 1 },
	kind_bool = { p_bool, show_bool, cmp_uint, 0 },
	kind_choice = { p_choice, show_word, cmp_uint, 0 },
	kind_set = { p_set, show_set, cmp_uint, 0 },
	kind_count = { p_count, show_count, cmp_uint, 0 },
	kind_duration = { p_duration, show_duration, cmp_uint, 0 },
	kind_size = { p_size, show_size, cmp_uint, 0 },
	kind_block = { p_block, show_size, cmp_uint, 0 },
	kind_bytes = { p_bytes, show_bytes, cmp_uint, 0 },
	kind_fraction = { p_fraction, show_fraction, cmp_double, 0 },
	kind_percent = { p_fraction, show_percent, cmp_double, 0 },
	kind_wear = { p_wear, show_wear, cmp_double, 0 },
	kind_span = { p_span, show_span, cmp_span, 0 };

#define DAEMON(f)	.sec = CONF_DAEMON, .name = #f,			\
	.off = offsetof(struct config, f),				\
	.size = sizeof(((struct config *)0)->f)
#define DRIVE(key, f)	.sec = CONF_DRIVE, .name = #key,		\
	.off = offsetof(struct drive_conf, f),				\
	.size = sizeof(((struct drive_conf *)0)->f)

/*
 * The order is -n's. A [daemon] key not read again on reload is
 * CONF_RESTART; a drive's keys apply at once unless they define what is
 * on the drive (its layout, its identity), which a test under way keeps.
 */
const struct conf_key conf_keys[] = {
	{ DAEMON(state_dir), .kind = &kind_path,
	    .def = "/var/lib/ssdtorture", .reload = CONF_RESTART },
	{ DAEMON(socket), .kind = &kind_path, .def = PROTO_DEFAULT_SOCKET,
	    .reload = CONF_RESTART },
	{ DAEMON(socket_group), .kind = &kind_group,
	    .aux = offsetof(struct config, socket_gid),
	    .reload = CONF_RESTART },
	{ DAEMON(admin_group), .kind = &kind_group,
	    .aux = offsetof(struct config, admin_gid), .reload = CONF_LIVE },
	{ DAEMON(max_connections), .kind = &kind_count, .def = "32",
	    .min = 1, .max = 4096, .reload = CONF_LIVE },
	{ DAEMON(client_timeout), .kind = &kind_duration, .def = "10s",
	    .min = 1, .reload = CONF_LIVE },
	{ DAEMON(rrdcached), .kind = &kind_endpoint, .reload = CONF_RESTART },
	{ DAEMON(rrdcached_dir), .kind = &kind_path, .reload = CONF_RESTART },
	{ DAEMON(prometheus_textfile), .kind = &kind_path,
	    .reload = CONF_RESTART },

	{ DRIVE(device, device), .kind = &kind_path, .reload = CONF_FIXED },
	{ DRIVE(size, size), .kind = &kind_size, .min = 1,
	    .note = "e.g. 1G, 512M", .reload = CONF_FIXED },
	{ DRIVE(serial, serial), .kind = &kind_text,
	    .note = "use 'none' for devices that report no serial",
	    .reload = CONF_FIXED },
	{ DRIVE(span, span), .kind = &kind_span, .def = "100%",
	    .reload = CONF_FIXED },
	{ DRIVE(prepare, prepare), .kind = &kind_choice,
	    .words = prepare_words, .def = "none",
	    .note = "before a fresh run: the span discarded (trim), the "
	    "namespace formatted (format) or the drive sanitized",
	    .reload = CONF_LIVE },
	{ DRIVE(order, order_random), .kind = &kind_choice,
	    .words = order_words, .def = "sequential", .reload = CONF_LIVE },
	{ DRIVE(block_size, block_size), .kind = &kind_block, .def = "128K",
	    .min = BLK_MIN_SIZE, .max = BLK_MAX_SIZE, .reload = CONF_FIXED },
	{ DRIVE(queue_depth, queue_depth), .kind = &kind_count, .def = "32",
	    .min = 1, .max = 1024, .reload = CONF_NO_RAISE },
	{ DRIVE(static_fraction, static_fraction), .kind = &kind_fraction,
	    .def = "0.25", .fmax = 0.95, .reload = CONF_FIXED },
	{ DRIVE(trim, trim), .kind = &kind_bool, .def = "yes",
	    .reload = CONF_LIVE },
	{ DRIVE(idle, idle_sec), .kind = &kind_duration, .def = "0s",
	    .note = "e.g. 30s, 5m, 1h", .reload = CONF_LIVE },
	{ DRIVE(cycles, cycles), .kind = &kind_count, .def = "0",
	    .max = UINT64_MAX, .note = "0 = forever", .reload = CONF_LIVE },
	{ DRIVE(stop_at_tbw, stop_at_tbw), .kind = &kind_bytes, .min = 1,
	    .note = "e.g. 600TB, 1.2PB", .reload = CONF_LIVE },
	{ DRIVE(on_io_error, on_io_error), .kind = &kind_choice,
	    .words = on_error_words, .def = "stop", .reload = CONF_LIVE },
	{ DRIVE(on_lost_flush, on_lost_flush), .kind = &kind_choice,
	    .words = lost_flush_words, .def = "continue",
	    .reload = CONF_LIVE },
	{ DRIVE(power_cut_command, power_cut_command), .kind = &kind_path,
	    .note = "run as PROGRAM off|on NAME SERIAL", .reload = CONF_LIVE },
	{ DRIVE(power_cut_every, power_cut_every), .kind = &kind_count,
	    .def = "0", .max = UINT32_MAX,
	    .note = "cycles; 0 = only by ssdctl powercut", .reload = CONF_LIVE },
	{ DRIVE(power_cut_timeout, power_cut_timeout), .kind = &kind_duration,
	    .def = "2m", .min = 1, .max = 3600,
	    .note = "each step: the command, the device going, coming back",
	    .reload = CONF_LIVE },
	{ DRIVE(autostart, autostart), .kind = &kind_bool, .def = "yes",
	    .reload = CONF_LIVE },
	{ DRIVE(smart, smart), .kind = &kind_choice, .words = smart_words,
	    .def = "auto", .reload = CONF_LIVE },
	{ DRIVE(smart_command, smart_command), .kind = &kind_command,
	    .note = "PROGRAM ARGS... printing smartctl's JSON",
	    .reload = CONF_LIVE },
	{ DRIVE(smart_device_type, smart_device_type), .kind = &kind_devtype,
	    .note = "e.g. sat, megaraid,N, cciss,N, sntjmicron",
	    .reload = CONF_LIVE },
	{ DRIVE(smart_interval, smart_interval), .kind = &kind_duration,
	    .def = "1m", .min = 5, .reload = CONF_LIVE },
	{ DRIVE(thermal_interval, thermal_interval), .kind = &kind_duration,
	    .def = "5s", .min = 1, .max = 3600,
	    .note = "NVMe, during write passes and checkpoints",
	    .reload = CONF_LIVE },
	{ DRIVE(snapshot_every, snapshot_every), .kind = &kind_bytes,
	    .def = "1TB", .min = 1, .note = "e.g. 1TB, 500GB",
	    .reload = CONF_LIVE },
	{ DRIVE(rated_tbw, rated_tbw), .kind = &kind_bytes, .min = 1,
	    .note = "the maker's rating, e.g. 600TB", .reload = CONF_LIVE },
	{ DRIVE(stop_at_wear, stop_at_wear), .kind = &kind_wear, .fmax = 255,
	    .reload = CONF_LIVE },
	{ DRIVE(max_new_bad_blocks, max_new_bad_blocks), .kind = &kind_count,
	    .def = "10", .max = UINT64_MAX, .reload = CONF_LIVE },
	{ DRIVE(max_error_events, max_error_events), .kind = &kind_count,
	    .def = "1000", .max = UINT32_MAX, .reload = CONF_LIVE },
	{ DRIVE(max_bad_fraction, max_bad_fraction), .kind = &kind_percent,
	    .def = "1%", .fmax = 1, .note = "0 = off", .reload = CONF_LIVE },
	{ DRIVE(timeline_every, timeline_every), .kind = &kind_count,
	    .def = "10", .min = 1, .max = UINT32_MAX,
	    .note = "the first, every Nth and the latest 3 are kept",
	    .reload = CONF_LIVE },
	{ DRIVE(io_timeout, io_timeout), .kind = &kind_duration, .def = "2m",
	    .min = 5, .reload = CONF_LIVE },
	{ DRIVE(max_unrecorded, max_unrecorded), .kind = &kind_duration,
	    .def = "1m", .min = 1, .reload = CONF_LIVE },
	{ DRIVE(reservation, reservation), .kind = &kind_bool, .def = "no",
	    .reload = CONF_FIXED },
	{ DRIVE(checkpoint, checkpoint), .kind = &kind_choice,
	    .words = checkpoint_words, .def = "quick", .reload = CONF_LIVE },
	{ DRIVE(checkpoint_every, checkpoint_every), .kind = &kind_bytes,
	    .def = "10TB", .min = 1, .note = "e.g. 10TB, 500GB",
	    .reload = CONF_LIVE },
	{ DRIVE(checkpoint_region, checkpoint_region), .kind = &kind_size,
	    .def = "32G", .min = 1 << 20, .note = "e.g. 32G, 1G",
	    .reload = CONF_LIVE },
	{ DRIVE(probe_seconds, probe_seconds), .kind = &kind_duration,
	    .def = "40s", .min = 1, .max = 86400, .reload = CONF_LIVE },
	{ DRIVE(probe_ramp, probe_ramp), .kind = &kind_duration, .def = "5s",
	    .max = 3600, .note = "e.g. 5s, 0s", .reload = CONF_LIVE },
	{ DRIVE(probe_wait, probe_wait), .kind = &kind_choice,
	    .words = wait_words, .def = "sleep",
	    .note = "poll: up to 100 us for each completion",
	    .reload = CONF_LIVE },
	{ DRIVE(checkpoint_probes, checkpoint_probes), .kind = &kind_probes,
	    .def = "all", .note = "ids, families or patterns",
	    .reload = CONF_LIVE },
	{ DRIVE(full_checkpoint_every, full_checkpoint_every),
	    .kind = &kind_bytes, .def = "100TB", .min = 1,
	    .note = "checkpoint = full: the long tests", .reload = CONF_LIVE },
	{ DRIVE(full_checkpoint_tests, full_checkpoint_tests),
	    .kind = &kind_set, .words = part_words, .def = "all",
	    .note = "degrade, recovery, trim, cache, full90, thermal",
	    .reload = CONF_LIVE },
	{ DRIVE(degrade_duration, degrade_duration), .kind = &kind_duration,
	    .def = "2h", .min = 1, .max = 86400, .reload = CONF_LIVE },
	{ DRIVE(degrade_round, degrade_round), .kind = &kind_duration,
	    .def = "60s", .min = 1, .max = 3600,
	    .note = "steady state: SNIA's rounds", .reload = CONF_LIVE },
	{ DRIVE(gc_idle, gc_idle), .kind = &kind_duration, .def = "15m",
	    .max = 86400, .note = "e.g. 15m, 0s", .reload = CONF_LIVE },
	{ DRIVE(recovery_duration, recovery_duration), .kind = &kind_duration,
	    .def = "60s", .min = 1, .max = 3600, .reload = CONF_LIVE },
	{ DRIVE(thermal_duration, thermal_duration), .kind = &kind_duration,
	    .def = "10m", .min = 1, .max = 3600,
	    .note = "each: sequential write, then read", .reload = CONF_LIVE },
	{ .name = NULL }
};

const char *
config_section_name(enum conf_section sec)
{
	return sec == CONF_DAEMON ? "daemon" : "drive";
}

const struct conf_key *
conf_key_find(enum conf_section sec, const char *name)
{
	const struct conf_key	*k;

	for (k = conf_keys; k->name != NULL; k++)
		if (k->sec == sec && strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

void
conf_defaults(struct parse *p, enum conf_section sec, void *base)
{
	const struct conf_key	*k;

	for (k = conf_keys; k->name != NULL; k++)
		if (k->sec == sec && k->def != NULL)
			k->kind->parse(p, k, base, k->def);
}

void
conf_free_strings(enum conf_section sec, void *base)
{
	const struct conf_key	*k;
	char			**s;

	for (k = conf_keys; k->name != NULL; k++)
		if (k->sec == sec && k->kind->owns) {
			s = field(k, base);
			free(*s);
			*s = NULL;
		}
}

int
config_drive_copy(struct drive_conf *dst, const struct drive_conf *src)
{
	const struct conf_key	*k;
	char			**s;
	int			 failed = 0;

	*dst = *src;
	for (k = conf_keys; k->name != NULL; k++) {
		if (k->sec != CONF_DRIVE || !k->kind->owns)
			continue;
		s = field(k, dst);
		/* after a failure the rest are left unowned: NULL */
		if (*s != NULL && (failed || (*s = strdup(*s)) == NULL)) {
			*s = NULL;
			failed = 1;
		}
	}
	return failed ? -1 : 0;
}

void
config_drive_release(struct drive_conf *c)
{
	conf_free_strings(CONF_DRIVE, c);
}

void
config_key_show(const struct conf_key *k, const void *base, char *b,
    size_t n)
{
	k->kind->show(k, base, b, n);
}

int
config_key_cmp(const struct conf_key *k, const void *a, const void *b)
{
	return k->kind->cmp(k, a, b);
}

void
config_list_keys(FILE *out)
{
	static const char *const reload[] = {
		[CONF_LIVE] = "live", [CONF_RESTART] = "restart",
		[CONF_FIXED] = "fixed", [CONF_NO_RAISE] = "no-raise"
	};
	const struct conf_key	*k;

	for (k = conf_keys; k->name != NULL; k++)
		fprintf(out, "%s %s %s %s\n", config_section_name(k->sec),
		    k->name, reload[k->reload], k->def != NULL ? k->def : "-");
}

/* One "KEY = VALUE" line of -n for each key of a section. */
static void
print_section(enum conf_section sec, const void *base, FILE *out,
    const char *indent)
{
	const struct conf_key	*k;
	char			 v[PATH_MAX + 64];
	int			 width = 0;

	for (k = conf_keys; k->name != NULL; k++)
		if ((int)strlen(k->name) > width)
			width = (int)strlen(k->name);
	for (k = conf_keys; k->name != NULL; k++) {
		if (k->sec != sec)
			continue;
		config_key_show(k, base, v, sizeof(v));
		fprintf(out, "%s%-*s = %s\n", indent, width, k->name,
		    v[0] != '\0' ? v : "(not set)");
	}
}

void
config_print_daemon(const struct config *c, FILE *out, const char *indent)
{
	print_section(CONF_DAEMON, c, out, indent);
}

void
config_print_drive(const struct drive_conf *d, FILE *out, const char *indent)
{
	print_section(CONF_DRIVE, d, out, indent);
}

/* Add "NAME[TAIL]" to a comma-separated list in buf. */
static void
list_add(char *buf, size_t len, const char *name, const char *tail)
{
	size_t	n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "%s%s%s", n > 0 ? ", " : "", name,
		    tail);
}

const char *
config_drive_fixed(const struct drive_conf *run,
    const struct drive_conf *next, char *buf, size_t len)
{
	const struct conf_key	*k;
	int			 c;

	buf[0] = '\0';
	for (k = conf_keys; k->name != NULL; k++) {
		if (k->sec != CONF_DRIVE || (c = config_key_cmp(k, run,
		    next)) == 0)
			continue;
		if (k->reload == CONF_FIXED)
			list_add(buf, len, k->name, "");
		else if (k->reload == CONF_NO_RAISE && c < 0)
			list_add(buf, len, k->name, " (only a decrease applies "
			    "without restart)");
	}
	return buf[0] != '\0' ? buf : NULL;
}

/* Exchange `n` bytes at `off` of two structs. */
static void
swap_at(void *a, void *b, size_t off, size_t n)
{
	unsigned char	t[sizeof(uint64_t)], *x = (unsigned char *)a + off,
			*y = (unsigned char *)b + off;

	memcpy(t, x, n);
	memcpy(x, y, n);
	memcpy(y, t, n);
}

const char *
config_daemon_reload(struct config *run, struct config *next, char *buf,
    size_t len)
{
	const struct conf_key	*k;

	buf[0] = '\0';
	for (k = conf_keys; k->name != NULL; k++) {
		if (k->sec != CONF_DAEMON)
			continue;
		if (k->reload == CONF_RESTART &&
		    config_key_cmp(k, run, next) != 0)
			list_add(buf, len, k->name, "");
		else if (k->reload == CONF_LIVE) {
			swap_at(run, next, k->off, k->size);
			if (k->aux != 0)
				swap_at(run, next, k->aux, sizeof(gid_t));
		}
	}
	return buf[0] != '\0' ? buf : NULL;
}
