/*
 * graph.h: ssdctl graph: draw a drive's RRD archive (throughput, TBW,
 * wear, temperature, latency, errors, flush) as a PNG or SVG through
 * librrd, or its error maps (errormap) as SVG.
 */
#ifndef SSDT_GRAPH_H
#define SSDT_GRAPH_H

#include <json-c/json.h>

#include "errgraph.h"

/* What the daemon said of the drive, and how to ask it for error maps,
 * for the checkpoint results (the Checkpoints reply's probes) and for
 * the write passes' timelines (the Timelines reply's: pass < 0, every
 * kept one's figures; else that pass whole); NULL after a message. */
struct graph_src {
	json_object	*drive;
	errgraph_fetch	 fetch;
	void		*arg;
	json_object	*(*ckpt)(void *arg, const char *drive);
	json_object	*(*timelines)(void *arg, const char *drive, long pass);
	/* the Series reply's: of checkpoint `ckpt` (0: the latest) */
	json_object	*(*series)(void *arg, const char *drive, long ckpt);
};

/*
 * ssdctl graph: argv are the words after "graph" (DRIVE first, then
 * options). src->drive: the DriveStatus JSON object from the daemon's
 * Status reply (fields name, model, serial, and "archive": {"file": "...",
 * "daemon": "" or "unix:/path" or "host:port"}); src is NULL when --rrd
 * FILE or --map-dir DIR is given (offline).
 * Returns 0, 1 (error, message printed to stderr), or 2 (usage).
 */
int		 graph_main(int argc, char **argv, const struct graph_src *src);

/*
 * Whether graph_main needs the daemon: not with --rrd FILE or --map-dir
 * DIR, nor for --help or a usage error (graph_main says it). Prints
 * nothing.
 */
int		 graph_needs_daemon(int argc, char **argv);

/* Is --what `kind` drawn from the RRD archive (--rrd FILE offline)? */
int		 graph_kind_from_archive(const char *kind);

#endif
