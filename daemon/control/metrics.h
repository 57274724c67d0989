/* metrics.h: counters and gauges of every drive as a Prometheus text file (for node_exporter's textfile collector). */
#ifndef SSDT_METRICS_H
#define SSDT_METRICS_H
#include <stddef.h>
#include "drive.h"
#include "loop.h"
/* Write all drives' metrics to path atomically (a temp file in the same directory, fsync, rename). 0, or -1 with errno. */
int metrics_write(const char *path, struct drive *const *drives, size_t n,
    const struct loop_stats *loop);
#endif
