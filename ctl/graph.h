/*
 * graph.h: ssdctl graph: draw a drive's RRD archive (throughput, TBW,
 * wear, temperature, latency, errors) as a PNG or SVG through librrd.
 */
#ifndef SSDT_GRAPH_H
#define SSDT_GRAPH_H

#include <json-c/json.h>

/*
 * ssdctl graph: argv are the words after "graph" (DRIVE first, then
 * options). drive: the DriveStatus JSON object from the daemon's Status
 * reply (fields name, model, serial, and "archive": {"file": "...",
 * "daemon": "" or "unix:/path" or "host:port"}), or NULL when --rrd FILE
 * is given (offline).
 * Returns 0, 1 (error, message printed to stderr), or 2 (usage).
 */
int		 graph_main(int argc, char **argv, json_object *drive);

/*
 * Parse just enough of argv to know whether --rrd FILE was given (then no
 * daemon call is needed). Returns the file or NULL. Prints nothing.
 */
const char	*graph_offline_file(int argc, char **argv);

#endif
