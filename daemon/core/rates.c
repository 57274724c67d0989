/*
 * rates.c: a drive's throughput, IOPS, write and read latency and flush
 * latency over the last tick, and the stall rule of io_timeout.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "drive_priv.h"

/*
 * 99th percentile (us) of the latencies of one direction since the last
 * tick (within the histogram's 1 %), -1 without any.
 */
static double
p99_since(const struct drive *d, enum lat_dir dir)
{
	struct lathist	delta;

	lathist_delta(&delta, &d->last.lat[dir], &d->rates.hist[dir]);
	if (delta.count == 0)
		return -1;
	return (double)lathist_percentile(&delta, 99) / 1e3;
}

void
rates_reset(struct drive *d)
{
	d->rates.t = mono_ns();
	d->rates.w = d->st.host_bytes_written;
	d->rates.r = d->st.host_bytes_read;
	d->rates.wops = d->st.write_ops;
	d->rates.rops = d->st.read_ops;
	d->rates.flushes = d->last.flushes;
	d->rates.rlat_p99_us = -1;
	d->rates.flush_lat_us = -1;
}

void
rates_tick(struct drive *d)
{
	uint64_t	t = mono_ns();
	double		dt = (double)(t - d->rates.t) / 1e9;

	if (dt < 0.2)
		return;
	d->rates.wbps = (double)(d->st.host_bytes_written - d->rates.w) / dt;
	d->rates.rbps = (double)(d->st.host_bytes_read - d->rates.r) / dt;
	d->rates.wiops = (double)(d->st.write_ops - d->rates.wops) / dt;
	d->rates.riops = (double)(d->st.read_ops - d->rates.rops) / dt;
	d->rates.lat_p99_us = p99_since(d, LAT_WRITE);
	d->rates.rlat_p99_us = p99_since(d, LAT_READ);
	d->rates.flush_lat_us = d->last.flushes == d->rates.flushes ? -1 :
	    (double)d->last.flush_lat_last_us;
	d->rates.flushes = d->last.flushes;
	d->rates.t = t;
	d->rates.w = d->st.host_bytes_written;
	d->rates.r = d->st.host_bytes_read;
	d->rates.wops = d->st.write_ops;
	d->rates.rops = d->st.read_ops;
	memcpy(d->rates.hist, d->last.lat, sizeof(d->rates.hist));
}

/*
 * A read or write that never completes leaves the worker stuck in the
 * kernel. The rule counts only what the device holds: I/Os the kernel
 * took and has not completed, none completing for io_timeout, fail the
 * drive (the other drives go on). A worker with nothing in flight (busy,
 * starting, or waiting for us) is never the device's fault.
 */
int
rates_stalled(const struct drive *d, char *why, size_t len)
{
	uint64_t	n, since, now = mono_ns();

	engine_inflight(d->eng, &n, &since);
	if (n == 0 || since >= now ||
	    now - since < d->conf.io_timeout * 1000000000ULL)
		return 0;
	snprintf(why, len, "the device stopped answering: %" PRIu64 " I/O%s "
	    "in flight, none completed for %.1f s (io_timeout %" PRIu64 " s)",
	    n, n == 1 ? "" : "s", (double)(now - since) / 1e9,
	    d->conf.io_timeout);
	return 1;
}
