/*
 * drive_archive.c: a drive's line of its RRD archive, one a second, in the
 * order of the data sources of rrd_layout.h.
 */
#include <stdio.h>
#include <string.h>

#include "drive_priv.h"
#include "rrd_layout.h"

/* One source's value of an update line; unknown is RRD's "U". */
struct rrd_val {
	int	known;
	double	v;
	int	decimals;
};

/* The SMART sources, from the summary: unknown before the first reading. */
static void
smart_values(const struct drive *d, struct rrd_val *v)
{
	static const struct {
		int			ds;
		enum smart_fig	fig;
		int			decimals;
	} map[] = {
		{ DS_PUSED, FIG_PERCENT_USED, 1 }, { DS_SPARE, FIG_SPARE, 0 },
		{ DS_TEMP, FIG_TEMPERATURE, 0 }, { DS_MERR, FIG_MEDIA_ERRORS, 0 },
		{ DS_DEVW, FIG_DEVICE_WRITTEN, 0 },
		{ DS_NANDW, FIG_NAND_WRITTEN, 0 }, { DS_WAF, FIG_WAF, 4 },
	};
	struct smart_summary	m;
	size_t			i;

	drive_smart_summary(d, &m);
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		v[map[i].ds] = (struct rrd_val){ m.v[map[i].fig].has,
		    smart_summary_double(&m, map[i].fig), map[i].decimals };
}

int
drive_archive_values(const struct drive *d, time_t now, char *buf,
    size_t len)
{
	struct rrd_val	v[RRD_NDS];
	size_t		n;
	int		i;

	if (!d->active)
		return -1;
	memset(v, 0, sizeof(v));	/* a source not set below is unknown */
	/* rates over the last second, whatever the worker does right now */
	v[DS_WBPS] = (struct rrd_val){ 1, d->rates.wbps, 0 };
	v[DS_RBPS] = (struct rrd_val){ 1, d->rates.rbps, 0 };
	v[DS_WIOPS] = (struct rrd_val){ 1, d->rates.wiops, 0 };
	v[DS_RIOPS] = (struct rrd_val){ 1, d->rates.riops, 0 };
	v[DS_HOSTW] = (struct rrd_val){ 1, (double)d->st.host_bytes_written, 0 };
	v[DS_HOSTR] = (struct rrd_val){ 1, (double)d->st.host_bytes_read, 0 };
	v[DS_LAT] = (struct rrd_val){ d->rates.lat_p99_us >= 0, d->rates.lat_p99_us, 0 };
	v[DS_FLUSH] = (struct rrd_val){ d->rates.flush_lat_us >= 0,
	    d->rates.flush_lat_us, 0 };
	v[DS_BAD] = (struct rrd_val){ 1, (double)drive_errors_total(d), 0 };
	v[DS_CUTS] = (struct rrd_val){ 1, (double)d->st.power_cuts, 0 };
	smart_values(d, v);
	n = (size_t)snprintf(buf, len, "%lld", (long long)now);
	for (i = 0; i < RRD_NDS && n < len; i++)
		n += (size_t)(v[i].known ? snprintf(buf + n, len - n, ":%.*f",
		    v[i].decimals, v[i].v) : snprintf(buf + n, len - n, ":U"));
	return n < len ? 0 : -1;
}

uint64_t
drive_smart_interval(const struct drive *d)
{
	return d->conf.smart_interval;
}

int
drive_archive_due(struct drive *d)
{
	if (!d->active || d->archived)
		return 0;
	d->archived = 1;
	return 1;
}
