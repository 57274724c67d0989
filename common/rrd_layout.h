/*
 * rrd_layout.h: the layout of a drive's RRD archive, shared by the daemon
 * (which creates and updates it) and ssdctl (which graphs it).
 */
#ifndef SSDT_RRD_LAYOUT_H
#define SSDT_RRD_LAYOUT_H

#define RRD_STEP		1	/* seconds */
#define RRD_FAST_HEARTBEAT	5	/* per-second sources */

/*
 * The data sources, in archive order: X(ID, name, kind). The one list
 * every user derives from (create, layout check, update line, graphs).
 *   RRD_FAST   per second, heartbeat RRD_FAST_HEARTBEAT, minimum 0;
 *   RRD_SMART  the latest SMART reading, repeated every second (unknown
 *              before the first), heartbeat longer than smart_interval,
 *              minimum 0; RRD_SMART_SIGNED: no minimum.
 * Sources added after the first layout (RRD_NDS_FIRST) go at the end; an
 * archive made before them gets them added (rrd_tune) when it is opened.
 */
#define RRD_SOURCES(X) \
	X(DS_WBPS,	"write_bps",	RRD_FAST)	/* bytes/s written */ \
	X(DS_RBPS,	"read_bps",	RRD_FAST) \
	X(DS_WIOPS,	"write_iops",	RRD_FAST) \
	X(DS_RIOPS,	"read_iops",	RRD_FAST) \
	X(DS_HOSTW,	"host_written",	RRD_FAST)	/* cumulative bytes (TBW) */ \
	X(DS_HOSTR,	"host_read",	RRD_FAST) \
	X(DS_LAT,	"lat_p99_us",	RRD_FAST)	/* write latency, last second */ \
	X(DS_PUSED,	"percent_used",	RRD_SMART) \
	X(DS_SPARE,	"spare",	RRD_SMART) \
	X(DS_TEMP,	"temperature",	RRD_SMART_SIGNED) \
	X(DS_MERR,	"media_errors",	RRD_SMART) \
	X(DS_DEVW,	"device_written", RRD_SMART) \
	X(DS_NANDW,	"nand_written",	RRD_SMART) \
	X(DS_WAF,	"waf",		RRD_SMART) \
	X(DS_FLUSH,	"flush_lat_us",	RRD_FAST)	/* cache flush done in the last second */ \
	X(DS_BAD,	"bad_blocks",	RRD_FAST)	/* verify findings, cumulative, every class but torn */ \
	X(DS_CUTS,	"power_cuts",	RRD_FAST)	/* power cuts on purpose, cumulative */

enum rrd_kind { RRD_FAST, RRD_SMART, RRD_SMART_SIGNED };

#define RRD_DS_ENUM(id, name, kind)	id,
enum rrd_ds { RRD_SOURCES(RRD_DS_ENUM) RRD_NDS };
#undef RRD_DS_ENUM

#define RRD_NDS_FIRST	14	/* sources of the first layout */

/* Archives: 1 s for 2 h, 30 s for 2 days, 5 min for 35 days, 1 h for
 * 3 years; each as AVERAGE, MIN and MAX. */
#define RRD_RRAS { \
	"RRA:%s:0.5:1:7200", \
	"RRA:%s:0.5:30:5760", \
	"RRA:%s:0.5:300:10080", \
	"RRA:%s:0.5:3600:26280" }

#endif
