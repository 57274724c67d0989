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

/* The SMART sources: the latest reading, unknown before the first. */
static void
smart_values(const struct drive *d, struct rrd_val *v)
{
	const struct smart *s = &d->smart.latest;
	int		 k = d->smart.have_latest;
	double		 waf = drive_waf(d);

	v[DS_PUSED] = (struct rrd_val){ k && s->has_percent_used,
	    s->percent_used, 1 };
	v[DS_SPARE] = (struct rrd_val){ k && s->has_spare,
	    s->available_spare, 0 };
	v[DS_TEMP] = (struct rrd_val){ k && s->has_temperature,
	    s->temperature_c, 0 };
	v[DS_MERR] = (struct rrd_val){ k && s->has_media_errors,
	    (double)s->media_errors, 0 };
	v[DS_DEVW] = (struct rrd_val){ k && s->has_device_written,
	    (double)s->device_bytes_written, 0 };
	v[DS_NANDW] = (struct rrd_val){ k && s->has_nand_written,
	    (double)s->nand_bytes_written, 0 };
	v[DS_WAF] = (struct rrd_val){ waf >= 0, waf, 4 };
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
drive_archive_opened(struct drive *d, int set)
{
	int	was = d->archived;

	if (set)
		d->archived = 1;
	return was;
}
