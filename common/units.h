/* units.h: parsing and formatting of sizes, decimal byte counts and durations. */
#ifndef SSDT_UNITS_H
#define SSDT_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Binary size: "4096", "4k", "128K", "1G", "2TiB" (k = 1024). Returns 0 on success. */
int	units_parse_size(const char *s, uint64_t *out);
/* Decimal byte count: "600TB", "1.2PB", "500G" (T = 10^12). Returns 0 on success. */
int	units_parse_decimal(const char *s, uint64_t *out);
/* Duration: "30", "30s", "5m", "2h", "1d", "1h30m". Result in seconds. */
int	units_parse_duration(const char *s, uint64_t *out_sec);
/* Fraction: "0.5", "50%". Result in [0, 1]. */
int	units_parse_fraction(const char *s, double *out);
/* Boolean: yes/no/true/false/on/off/1/0. */
int	units_parse_bool(const char *s, int *out);

/* "1.500 GiB" */
char	*units_fmt_bin(uint64_t bytes, char *buf, size_t len);
/* "1.234 TB" (decimal, as vendors rate endurance) */
char	*units_fmt_dec(uint64_t bytes, char *buf, size_t len);
/* "1h02m03s" */
char	*units_fmt_duration(uint64_t sec, char *buf, size_t len);

#endif
