/*
 * drive_archive.c: a drive's line of its RRD archive, one a second, in the
 * order of the data sources of rrd_layout.h.
 */
#include <stdio.h>
#include <string.h>

#include "drive_features.h"
#include "drive_priv.h"
#include "rrd_layout.h"

int
drive_archive_values(const struct drive *d, time_t now, char *buf,
    size_t len)
{
	struct archive_val	v[RRD_NDS];
	size_t		n;
	int		i;

	if (!d->active)
		return -1;
	memset(v, 0, sizeof(v));	/* a source not set below is unknown */
	/* rates over the last second, whatever the worker does right now */
	v[DS_WBPS] = (struct archive_val){ 1, d->rates.wbps, 0 };
	v[DS_RBPS] = (struct archive_val){ 1, d->rates.rbps, 0 };
	v[DS_WIOPS] = (struct archive_val){ 1, d->rates.wiops, 0 };
	v[DS_RIOPS] = (struct archive_val){ 1, d->rates.riops, 0 };
	v[DS_HOSTW] = (struct archive_val){ 1, (double)d->st.host_bytes_written, 0 };
	v[DS_HOSTR] = (struct archive_val){ 1, (double)d->st.host_bytes_read, 0 };
	v[DS_LAT] = (struct archive_val){ d->rates.lat_p99_us >= 0, d->rates.lat_p99_us, 0 };
	v[DS_FLUSH] = (struct archive_val){ d->rates.flush_lat_us >= 0,
	    d->rates.flush_lat_us, 0 };
	v[DS_BAD] = (struct archive_val){ 1, (double)drive_errors_total(d), 0 };
	v[DS_CUTS] = (struct archive_val){ 1, (double)d->st.power_cuts, 0 };
	features_archive(d, v);	/* SMART's sources */
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
