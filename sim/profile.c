/*
 * profile.c: a simulated drive's profile. KEYS is the one place a key is
 * spelled, with its section, default, limits and unit; the defaults are
 * written as a profile would write them and parsed by the same code, so
 * a default can never escape the limits.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ini.h>

#include "profile.h"

enum ptype { P_NAME, P_BYTES, P_DBL, P_U32, P_ENUM };

struct pkey {
	const char	*section, *key;
	enum ptype	 type;
	size_t		 off;
	const char	*def;
	double		 min, max;	/* P_BYTES, P_DBL, P_U32 */
	const char	*unit;		/* or, for P_ENUM, "a|b|c" */
};

#define F(x)	offsetof(struct sim_profile, x)
#define GIB	1073741824.0

static const struct pkey KEYS[] = {
	{ "drive", "name", P_NAME, F(name), "default", 0, 0, "" },
	{ "drive", "capacity", P_BYTES, F(capacity), "256M", 16 << 20,
	    64 * GIB, "bytes" },
	{ "timing", "read_lat_us", P_DBL, F(read_lat_us), "80", 0, 1e6, "us" },
	{ "timing", "write_lat_us", P_DBL, F(write_lat_us), "30", 0, 1e6,
	    "us" },
	{ "timing", "trim_lat_us", P_DBL, F(trim_lat_us), "20", 0, 1e6, "us" },
	{ "timing", "flush_lat_us", P_DBL, F(flush_lat_us), "200", 0, 1e6,
	    "us" },
	{ "timing", "overhead_us", P_DBL, F(overhead_us), "100", 0, 1e6,
	    "us" },
	{ "timing", "read_mbps", P_DBL, F(read_mbps), "250", 0.1, 1e5,
	    "MB/s" },
	{ "timing", "native_mbps", P_DBL, F(native_mbps), "100", 0.1, 1e5,
	    "MB/s" },
	{ "timing", "native_slow_after", P_DBL, F(native_slow_after), "1", 0,
	    1, "share" },
	{ "timing", "native_slow_mbps", P_DBL, F(native_slow_mbps), "0", 0,
	    1e5, "MB/s" },
	{ "timing", "gc_mbps", P_DBL, F(gc_mbps), "100", 0.1, 1e5, "MB/s" },
	{ "ftl", "pages_per_block", P_U32, F(pages_per_block), "64", 4, 4096,
	    "pages" },
	{ "ftl", "op_share", P_DBL, F(op_share), "0.07", 0.01, 1, "share" },
	{ "ftl", "gc_free_blocks", P_U32, F(gc_free_blocks), "4", 2, 1024,
	    "blocks" },
	{ "ftl", "round_ms", P_DBL, F(round_ms), "1000", 1, 1e9, "ms" },
	{ "slc", "mode", P_ENUM, F(slc_mode), "none", 0, 0,
	    "none|fixed|free_share" },
	{ "slc", "bytes", P_BYTES, F(slc_bytes), "0", 0, 64 * GIB, "bytes" },
	{ "slc", "free_share", P_DBL, F(slc_free_share), "0.333333", 0, 1,
	    "share" },
	{ "slc", "mbps", P_DBL, F(slc_mbps), "200", 0.1, 1e5, "MB/s" },
	{ "slc", "level1_share", P_DBL, F(slc_level1_share), "1", 0, 1,
	    "share" },
	{ "slc", "level2_mbps", P_DBL, F(slc_level2_mbps), "200", 0.1, 1e5,
	    "MB/s" },
	{ "slc", "bits_per_cell", P_U32, F(bits_per_cell), "3", 1, 4, "bits" },
	{ "slc", "post_cache", P_ENUM, F(post_cache), "direct", 0, 0,
	    "direct|fold" },
	{ "slc", "fold_share", P_DBL, F(fold_share), "0.25", 0.001, 1,
	    "share" },
	{ "slc", "fold_mbps", P_DBL, F(fold_mbps), "60", 0.1, 1e5, "MB/s" },
	{ "slc", "idle_delay_ms", P_DBL, F(idle_delay_ms), "500", 0, 1e9,
	    "ms" },
	{ "slc", "idle_fold_mbps", P_DBL, F(idle_fold_mbps), "0", 0, 1e5,
	    "MB/s" },
	{ "slc", "idle_gc_mbps", P_DBL, F(idle_gc_mbps), "0", 0, 1e5,
	    "MB/s" },
	{ "thermal", "idle_c", P_DBL, F(temp_idle_c), "40", -40, 150, "C" },
	{ "thermal", "per_gib_c", P_DBL, F(temp_per_gib_c), "0", 0, 1e4,
	    "C/GiB" },
	{ "thermal", "cool_tau_s", P_DBL, F(cool_tau_s), "30", 0.1, 1e6, "s" },
	{ "thermal", "tmt1_c", P_DBL, F(tmt1_c), "200", -40, 300, "C" },
	{ "thermal", "tmt1_factor", P_DBL, F(tmt1_factor), "0.5", 0.01, 1,
	    "share" },
	{ "thermal", "tmt2_c", P_DBL, F(tmt2_c), "250", -40, 300, "C" },
	{ "thermal", "tmt2_factor", P_DBL, F(tmt2_factor), "0.2", 0.01, 1,
	    "share" },
	{ "thermal", "hysteresis_c", P_DBL, F(hysteresis_c), "3", 0, 100,
	    "C" },
	{ "thermal", "warning_c", P_DBL, F(warning_c), "75", -40, 300, "C" },
	{ "thermal", "critical_c", P_DBL, F(critical_c), "85", -40, 300, "C" },
	{ "wear", "rated_pe", P_U32, F(rated_pe), "3000", 1, 1e7, "cycles" },
	{ "wear", "read_factor", P_DBL, F(wear_read_factor), "0", 0, 1e3,
	    "x per 100 %" },
	{ "wear", "age_ms", P_DBL, F(age_ms), "0", 0, 1e12, "ms" },
	{ "wear", "age_read_factor", P_DBL, F(age_read_factor), "1", 1, 1e3,
	    "x" },
	{ "wear", "death_pe", P_U32, F(death_pe), "0", 0, 1e7, "cycles" },
	{ "wear", "death_spread", P_DBL, F(death_spread), "0.1", 0, 1,
	    "share" },
	{ "wear", "bad_mode", P_ENUM, F(bad_mode), "eio", 0, 0, "eio|damage" },
	{ "wear", "spare_threshold_pct", P_U32, F(spare_threshold_pct), "10",
	    0, 100, "%" },
	{ "wear", "gone_after_ms", P_DBL, F(gone_after_ms), "0", 0, 1e12,
	    "ms" },
	{ "power", "cache_bytes", P_BYTES, F(cache_bytes), "0", 0, 64 * GIB,
	    "bytes" },
	{ "power", "lie_flushed", P_U32, F(lie_flushed), "0", 0, 1e6,
	    "requests" },
};
#define NKEYS	(sizeof(KEYS) / sizeof(KEYS[0]))

/* "4096", "64k", "16M", "1G" (binary multiples). */
static int
parse_bytes(const char *s, uint64_t *out)
{
	char	*end;
	double	 v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || v < 0)
		return -1;
	switch (*end) {
	case 'k': case 'K':	v *= 1024; end++; break;
	case 'm': case 'M':	v *= 1024 * 1024; end++; break;
	case 'g': case 'G':	v *= GIB; end++; break;
	default:		break;
	}
	if (*end != '\0' || v > 1e18)
		return -1;
	*out = (uint64_t)llround(v);
	return 0;
}

/* The index of s in "a|b|c", or -1. */
static int
parse_enum(const char *names, const char *s)
{
	size_t	 n = strlen(s);
	int	 i = 0;

	for (const char *p = names; *p != '\0'; i++) {
		const char	*bar = strchr(p, '|');
		size_t		 len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && strncasecmp(p, s, n) == 0)
			return i;
		p += len + (bar ? 1 : 0);
	}
	return -1;
}

/* A profile name is written into truth records: keep it plain. */
static int
plain_name(const char *s)
{
	size_t	i, n = strlen(s);

	if (n == 0 || n >= sizeof(((struct sim_profile *)0)->name))
		return 0;
	for (i = 0; i < n; i++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789._-", s[i]) == NULL)
			return 0;
	return 1;
}

/* Set one key's field from its text; 0, or -1 with why. */
static int
set_key(const struct pkey *k, const char *v, struct sim_profile *p,
    const char **why)
{
	char		*f = (char *)p + k->off, *end;
	double		 d;
	uint64_t	 b;
	int		 e;

	switch (k->type) {
	case P_NAME:
		if (!plain_name(v))
			return *why = "must be 1-63 of [A-Za-z0-9._-]", -1;
		snprintf(f, sizeof(p->name), "%s", v);
		return 0;
	case P_ENUM:
		if ((e = parse_enum(k->unit, v)) < 0)
			return *why = k->unit, -1;
		memcpy(f, &e, sizeof(e));
		return 0;
	case P_BYTES:
		if (parse_bytes(v, &b) < 0)
			return *why = "not a size", -1;
		d = (double)b;
		break;
	default:
		errno = 0;
		d = strtod(v, &end);
		if (errno != 0 || end == v || *end != '\0' || !isfinite(d))
			return *why = "not a number", -1;
		if (k->type == P_U32 && d != floor(d))
			return *why = "not a whole number", -1;
		b = (uint64_t)d;
		break;
	}
	if (d < k->min || d > k->max)
		return *why = "out of range", -1;
	if (k->type == P_BYTES)
		memcpy(f, &b, sizeof(b));
	else if (k->type == P_U32)
		*(uint32_t *)(void *)f = (uint32_t)d;
	else
		*(double *)(void *)f = d;
	return 0;
}

void
sim_profile_defaults(struct sim_profile *p)
{
	const char	*why;
	size_t		 i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < NKEYS; i++)
		if (set_key(&KEYS[i], KEYS[i].def, p, &why) < 0)
			abort();	/* a default outside its own limits */
}

struct pstate {
	struct sim_profile	*p;
	char			*err;
	size_t			 errlen;
	int			 failed;
};

static int
handler(void *user, const char *section, const char *name, const char *value)
{
	struct pstate	*s = user;
	const char	*why = "unknown key";
	size_t		 i;

	for (i = 0; i < NKEYS; i++) {
		if (strcmp(KEYS[i].section, section) != 0 ||
		    strcmp(KEYS[i].key, name) != 0)
			continue;
		if (set_key(&KEYS[i], value, s->p, &why) == 0)
			return 1;
		break;
	}
	if (!s->failed)
		snprintf(s->err, s->errlen, "[%s] %s = %s: %s", section, name,
		    value, why);
	s->failed = 1;
	return 0;
}

/* Facts that only make sense together. */
static int
check(const struct sim_profile *p, char *err, size_t errlen)
{
	const char	*why = NULL;

	if (p->capacity % 4096 != 0)
		why = "drive capacity must be a multiple of 4 KiB";
	else if (p->slc_mode == SIM_SLC_FIXED &&
	    (p->slc_bytes == 0 || p->slc_bytes > p->capacity / 2))
		why = "a fixed cache needs slc bytes in (0, capacity / 2]";
	else if (p->tmt2_c < p->tmt1_c)
		why = "thermal tmt2_c must not be under tmt1_c";
	else if (p->capacity / 4096 / p->pages_per_block < 16)
		why = "fewer than 16 erase blocks";
	else if ((uint64_t)(p->capacity / 4096 * p->op_share) /
	    p->pages_per_block < p->gc_free_blocks + 4)
		why = "op_share leaves fewer spare blocks than gc_free_blocks + 4";
	if (why == NULL)
		return 0;
	snprintf(err, errlen, "%s", why);
	return -1;
}

static int
finish(int rc, struct pstate *s)
{
	if (rc > 0 && !s->failed)
		snprintf(s->err, s->errlen, "line %d: cannot parse", rc);
	else if (rc < 0 && !s->failed)
		snprintf(s->err, s->errlen, "%s",
		    rc == -1 ? strerror(errno) : "out of memory");
	if (rc != 0)
		return -1;
	return check(s->p, s->err, s->errlen);
}

int
sim_profile_load(const char *path, struct sim_profile *p, char *err,
    size_t errlen)
{
	struct pstate	s = { p, err, errlen, 0 };

	sim_profile_defaults(p);
	return finish(ini_parse(path, handler, &s), &s);
}

int
sim_profile_parse(const char *text, struct sim_profile *p, char *err,
    size_t errlen)
{
	struct pstate	s = { p, err, errlen, 0 };

	sim_profile_defaults(p);
	return finish(ini_parse_string(text, handler, &s), &s);
}
