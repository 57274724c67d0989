/* units.c: parsing and formatting of sizes, decimal byte counts and durations. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "units.h"

struct suffix {
	const char	*name;
	double		 mult;
};

static const struct suffix bin_suffixes[] = {
	{ "", 1.0 }, { "b", 1.0 },
	{ "k", 1024.0 }, { "kb", 1024.0 }, { "kib", 1024.0 },
	{ "m", 1048576.0 }, { "mb", 1048576.0 }, { "mib", 1048576.0 },
	{ "g", 1073741824.0 }, { "gb", 1073741824.0 }, { "gib", 1073741824.0 },
	{ "t", 1099511627776.0 }, { "tb", 1099511627776.0 },
	{ "tib", 1099511627776.0 },
	{ "p", 1125899906842624.0 }, { "pb", 1125899906842624.0 },
	{ "pib", 1125899906842624.0 },
	{ NULL, 0 }
};

static const struct suffix dec_suffixes[] = {
	{ "", 1.0 }, { "b", 1.0 },
	{ "k", 1e3 }, { "kb", 1e3 }, { "m", 1e6 }, { "mb", 1e6 },
	{ "g", 1e9 }, { "gb", 1e9 }, { "t", 1e12 }, { "tb", 1e12 },
	{ "p", 1e15 }, { "pb", 1e15 }, { "e", 1e18 }, { "eb", 1e18 },
	{ NULL, 0 }
};

/* Split "  1.5 GiB " into a number and a suffix; reject anything else. */
static int
parse_number_suffix(const char *s, double *num, const char **suffix)
{
	char	*end;

	while (isspace((unsigned char)*s))
		s++;
	/* decimal digits and one point only: no sign, hex or exponent */
	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	for (end = (char *)s; isdigit((unsigned char)*end) || *end == '.';
	    end++)
		;
	if (*end == 'x' || *end == 'X' || *end == 'e' || *end == 'E' ||
	    *end == 'p' || *end == 'P')
		if (isdigit((unsigned char)end[1]) || end[1] == '+' ||
		    end[1] == '-')
			return -1;
	errno = 0;
	*num = strtod(s, &end);
	if (errno != 0 || end == s || !isfinite(*num) || *num < 0)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	*suffix = end;
	return 0;
}

/* Compare a suffix ignoring case and trailing spaces. */
static int
suffix_eq(const char *have, const char *want)
{
	size_t	n = strlen(have);

	while (n > 0 && isspace((unsigned char)have[n - 1]))
		n--;
	return n == strlen(want) && strncasecmp(have, want, n) == 0;
}

/* Number with a suffix from a table; exact integer result required. */
static int
parse_with_table(const char *s, const struct suffix *tab, uint64_t *out)
{
	const char	*suf;
	double		 num, v;
	int		 i;

	if (s == NULL || parse_number_suffix(s, &num, &suf) == -1)
		return -1;
	for (i = 0; tab[i].name != NULL; i++) {
		if (!suffix_eq(suf, tab[i].name))
			continue;
		/* "1.2PB" is not exact in binary floating point: allow a
		 * rounding error, but not a fraction of a byte */
		v = num * tab[i].mult;
		if (fabs(v - round(v)) > 1e-9 * (v > 1.0 ? v : 1.0))
			return -1;
		v = round(v);
		if (v >= 18446744073709551615.0)
			return -1;
		*out = (uint64_t)v;
		return 0;
	}
	return -1;
}

int
units_parse_size(const char *s, uint64_t *out)
{
	return parse_with_table(s, bin_suffixes, out);
}

int
units_parse_decimal(const char *s, uint64_t *out)
{
	return parse_with_table(s, dec_suffixes, out);
}

/* Seconds per duration unit letter, 0 when unknown. */
static uint64_t
duration_unit(char c)
{
	switch (tolower((unsigned char)c)) {
	case 's': return 1;
	case 'm': return 60;
	case 'h': return 3600;
	case 'd': return 86400;
	case 'w': return 604800;
	default: return 0;
	}
}

int
units_parse_duration(const char *s, uint64_t *out_sec)
{
	uint64_t	 total = 0, v, mult;
	char		*end;
	int		 parts = 0;

	if (s == NULL)
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	while (*s != '\0' && !isspace((unsigned char)*s)) {
		if (!isdigit((unsigned char)*s))
			return -1;
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno != 0)
			return -1;
		s = end;
		mult = 1;
		if (*s != '\0' && !isspace((unsigned char)*s)) {
			if ((mult = duration_unit(*s)) == 0)
				return -1;
			s++;
		} else if (parts > 0)
			return -1;
		if (v > UINT64_MAX / mult || total + v * mult < total)
			return -1;
		total += v * mult;
		parts++;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (parts == 0 || *s != '\0')
		return -1;
	*out_sec = total;
	return 0;
}

int
units_parse_fraction(const char *s, double *out)
{
	const char	*suf;
	double		 num;

	if (s == NULL || parse_number_suffix(s, &num, &suf) == -1)
		return -1;
	if (suffix_eq(suf, "%"))
		num /= 100.0;
	else if (!suffix_eq(suf, ""))
		return -1;
	if (num < 0.0 || num > 1.0)
		return -1;
	*out = num;
	return 0;
}

int
units_parse_bool(const char *s, int *out)
{
	static const char *yes[] = { "yes", "true", "on", "1", NULL };
	static const char *no[] = { "no", "false", "off", "0", NULL };
	int	 i;

	if (s == NULL)
		return -1;
	for (i = 0; yes[i] != NULL; i++)
		if (strcasecmp(s, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
	for (i = 0; no[i] != NULL; i++)
		if (strcasecmp(s, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	return -1;
}

/* Format with a table of units of a given base. */
static char *
fmt_scaled(uint64_t bytes, double base, const char *const *names,
    char *buf, size_t len)
{
	double	v = (double)bytes;
	int	i = 0;

	int	prec;

	while (v >= base && names[i + 1] != NULL) {
		v /= base;
		i++;
	}
	if (i == 0) {
		snprintf(buf, len, "%llu %s", (unsigned long long)bytes,
		    names[0]);
		return buf;
	}
	/* precision from the value as it will print: 9.9996 is "10.00" */
	prec = v < 9.9995 ? 3 : v < 99.995 ? 2 : 1;
	if (v >= base - 0.05 && names[i + 1] != NULL) {
		v /= base;	/* 1023.97 KiB prints as 1.000 MiB */
		i++;
		prec = 3;
	}
	snprintf(buf, len, "%.*f %s", prec, v, names[i]);
	return buf;
}

char *
units_fmt_bin(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] =
	    { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", NULL };

	return fmt_scaled(bytes, 1024.0, names, buf, len);
}

char *
units_fmt_dec(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] =
	    { "B", "kB", "MB", "GB", "TB", "PB", "EB", NULL };

	return fmt_scaled(bytes, 1000.0, names, buf, len);
}

char *
units_fmt_duration(uint64_t sec, char *buf, size_t len)
{
	uint64_t	d = sec / 86400, h = sec / 3600 % 24, m = sec / 60 % 60;
	uint64_t	s = sec % 60;

	if (d > 0)
		snprintf(buf, len, "%llud%02lluh%02llum", (unsigned long long)d,
		    (unsigned long long)h, (unsigned long long)m);
	else if (h > 0)
		snprintf(buf, len, "%lluh%02llum%02llus", (unsigned long long)h,
		    (unsigned long long)m, (unsigned long long)s);
	else if (m > 0)
		snprintf(buf, len, "%llum%02llus", (unsigned long long)m,
		    (unsigned long long)s);
	else
		snprintf(buf, len, "%llus", (unsigned long long)s);
	return buf;
}
