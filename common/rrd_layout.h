/*
 * rrd_layout.h: the layout of a drive's RRD archive, shared by the daemon
 * (which creates and updates it) and ssdctl (which graphs it).
 */
#ifndef SSDT_RRD_LAYOUT_H
#define SSDT_RRD_LAYOUT_H

#define RRD_STEP		1	/* seconds */
#define RRD_FAST_HEARTBEAT	5	/* per-second sources */

/* Data sources, in this order in every archive. */
#define RRD_DS_WRITE_BPS	"write_bps"	/* bytes/s written, last second */
#define RRD_DS_READ_BPS		"read_bps"
#define RRD_DS_WRITE_IOPS	"write_iops"
#define RRD_DS_READ_IOPS	"read_iops"
#define RRD_DS_HOST_WRITTEN	"host_written"	/* cumulative bytes (TBW) */
#define RRD_DS_HOST_READ	"host_read"
#define RRD_DS_LAT_P99		"lat_p99_us"	/* write latency, last second */
/* from SMART: the latest reading, repeated every second (UNKNOWN before
 * the first one), heartbeat longer than smart_interval */
#define RRD_DS_PERCENT_USED	"percent_used"
#define RRD_DS_SPARE		"spare"
#define RRD_DS_TEMPERATURE	"temperature"
#define RRD_DS_MEDIA_ERRORS	"media_errors"
#define RRD_DS_DEVICE_WRITTEN	"device_written"
#define RRD_DS_NAND_WRITTEN	"nand_written"
#define RRD_DS_WAF		"waf"
#define RRD_NDS			14

/* Archives: 1 s for 2 h, 30 s for 2 days, 5 min for 35 days, 1 h for
 * 3 years; each as AVERAGE, MIN and MAX. */
#define RRD_RRAS { \
	"RRA:%s:0.5:1:7200", \
	"RRA:%s:0.5:30:5760", \
	"RRA:%s:0.5:300:10080", \
	"RRA:%s:0.5:3600:26280" }

#endif
