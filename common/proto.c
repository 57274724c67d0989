/* proto.c: the control protocol's interface and method table. */
#include <string.h>

#include "proto.h"

#define PROTO_STR_(x)	#x
#define PROTO_STR(x)	PROTO_STR_(x)

const struct proto_method proto_methods[] = {
	{ PROTO_SERVICE, "GetInfo", PROTO_READ, 0 },
	{ PROTO_SERVICE, "GetInterfaceDescription", PROTO_READ, 0 },
	{ PROTO_INTERFACE, "Status", PROTO_READ, 0 },
	{ PROTO_INTERFACE, "Events", PROTO_READ, 1 },
	{ PROTO_INTERFACE, "Smart", PROTO_READ, 0 },
	{ PROTO_INTERFACE, "ErrorMap", PROTO_READ, 0 },
	{ PROTO_INTERFACE, "Checkpoints", PROTO_READ, 0 },
	{ PROTO_INTERFACE, "Snapshots", PROTO_READ, 0 },
	{ PROTO_INTERFACE, "Timelines", PROTO_READ, 0 },
	{ PROTO_INTERFACE, "Series", PROTO_READ, 0 },
	{ PROTO_INTERFACE, "Start", PROTO_WRITE, 0 },
	{ PROTO_INTERFACE, "Stop", PROTO_WRITE, 0 },
	{ PROTO_INTERFACE, "Pause", PROTO_WRITE, 0 },
	{ PROTO_INTERFACE, "Resume", PROTO_WRITE, 0 },
	{ PROTO_INTERFACE, "Verify", PROTO_WRITE, 0 },
	{ PROTO_INTERFACE, "Checkpoint", PROTO_WRITE, 0 },
	{ PROTO_INTERFACE, "PowerCut", PROTO_WRITE, 0 },
	{ PROTO_INTERFACE, "Reload", PROTO_WRITE, 0 },
	{ NULL, NULL, PROTO_READ, 0 }
};

const char proto_manager_idl[] =
"# Endurance and data-consistency testing of dedicated drives.\n"
"interface io.ssdtorture.Manager\n"
"\n"
"type Errors (\n"
"  corrupt: int,\n"
"  misdirected: int,\n"
"  stale: int,\n"
"  foreign: int,\n"
"  unwritten: int,\n"
"  io_error: int,\n"
"  lost_flush: int,\n"
"  torn: int\n"
")\n"
"\n"
"# Whether the drive's state and events are on disk: when not, for how\n"
"# long and why (\"disk full\", \"read-only\", \"I/O error\", ...), and\n"
"# the lines kept in memory meanwhile.\n"
"type Records (\n"
"  current: bool,\n"
"  behind_seconds: int,\n"
"  why: string,\n"
"  kept_lines: int\n"
")\n"
"\n"
"type DriveStatus (\n"
"  name: string,\n"
"  device: string,\n"
"  serial: string,\n"
"  model: string,\n"
"  # running, paused, stopped, finished or failed\n"
"  state: string,\n"
"  # why the drive is failed, finished or stopped\n"
"  reason: string,\n"
"  # the safety checks refused the device: nothing was written\n"
"  refused: bool,\n"
"  # static, write, verify, checkpoint, trim or idle\n"
"  phase: string,\n"
"  phase_progress: float,\n"
"  eta_seconds: int,\n"
"  # an on-demand verify pass is running\n"
"  verifying: bool,\n"
"  cycle: int,\n"
"  cycles_done: int,\n"
"  capacity: int,\n"
"  span_bytes: int,\n"
"  host_bytes_written: int,\n"
"  host_bytes_read: int,\n"
"  write_bytes_per_sec: float,\n"
"  read_bytes_per_sec: float,\n"
"  # cache flushes the drive completed (one a second while writing)\n"
"  flushes: int,\n"
"  # latency of the last flush and the slowest, since the drive's\n"
"  # worker started; null before the first\n"
"  flush_latency_seconds: ?float,\n"
"  flush_latency_max_seconds: ?float,\n"
"  errors: Errors,\n"
"  # the verify errors: every class but torn (a write a crash or power\n"
"  # loss cut is no fault of the drive)\n"
"  errors_total: int,\n"
"  # power losses seen (the host restarted while the drive ran, without\n"
"  # a clean stop), the writes past the recorded flushed position that\n"
"  # the drive kept through them (counted by the verify after each; an\n"
"  # upper bound), and whether that verify is still owed\n"
"  power_losses: int,\n"
"  unflushed_kept: int,\n"
"  power_verify_owed: bool,\n"
"  # power cuts made on purpose (power_cut_command; each also a power\n"
"  # loss), and the step of one under way: draining, off, going, on,\n"
"  # returning or reading_smart; null when none is\n"
"  power_cuts: int,\n"
"  power_cut: ?string,\n"
"  # SMART and wear, null when not read\n"
"  smart: ?object,\n""  # its records on disk; a drive paused for them resumes by itself\n"
"  records: Records,\n"
"  # the RRD archive: file, and the rrdcached address (\"\" for none)\n"
"  archive: ?object,\n"
"  # performance checkpoints: number (done, or the one running), step\n"
"  # (a probe id, \"fill\", \"check\", \"restore\"; \"\" when none runs),\n"
"  # index and steps (the running one's step and their count), pending\n"
"  # (one is asked for or due at the next cycle boundary), next_at_bytes\n"
"  # (the host_bytes_written it is due at; 0: checkpoint = off); null\n"
"  # when the drive has none\n"
"  checkpoint: ?object,\n"
"  # bytes the checkpoints' probes wrote over the drive's life (counted\n"
"  # in host_bytes_written too)\n"
"  probe_bytes_written: int,\n"
"  # the endurance its maker rates it for (rated_tbw), null when not given\n"
"  rated_tbw_bytes: ?int,\n"
"  # when the run on this drive began (seconds since 1970; 0: not yet)\n"
"  created: int\n"
")\n"
"\n"
"# All drives, or the one named.\n"
"method Status(drive: ?string) -> (drives: []DriveStatus)\n"
"\n"
"# The last `count` events of a drive (default 20); with \"more\", then\n"
"# every new event as it happens.\n"
"method Events(drive: string, count: ?int) -> (events: []object)\n"
"\n"
"# SMART of a drive: the latest reading, the baseline (first sight) and\n"
"# what changed since; status is the summary Status carries.\n"
"method Smart(drive: string) -> (\n"
"  latest: object,\n"
"  baseline: ?object,\n"
"  baseline_host_bytes_written: int,\n"
"  delta: object,\n"
"  status: object\n"
")\n"
"\n"
"# A run of bad blocks of one class in an error map.\n"
"type ErrorExtent (\n"
"  offset: int,\n"
"  blocks: int,\n"
"  class: string\n"
")\n"
"\n"
"# The error map of a verify pass (the latest when pass is not given):\n"
"# every bad block of the pass, as extents in offset order (the first\n"
"# ones: truncated says there are more), and counts. With resolution\n"
"# (1 to " PROTO_STR(PROTO_MAX_RESOLUTION) ", e.g. the pixels of a picture of the\n"
"# drive), extents of one class less than span_bytes / resolution\n"
"# apart are listed as one (its blocks then count the good blocks\n"
"# between them too): at most resolution + 1 extents a class; the\n"
"# counts stay exact. With again, only the blocks of the pass that an\n"
"# earlier pass found bad too (where the drive fails again); extents\n"
"# and counts are of those.\n"
"method ErrorMap(drive: string, pass: ?int, resolution: ?int,\n"
"    again: ?bool) -> (\n"
"  pass: int,\n"
"  passes: int,\n"
"  block_size: int,\n"
"  # bytes the map's offsets range over (the drive's span)\n"
"  span_bytes: int,\n"
"  # the pass is still running: the map up to the last checkpoint\n"
"  in_progress: bool,\n"
"  # only the blocks an earlier pass found bad too\n"
"  again: bool,\n"
"  blocks: int,\n"
"  counts: Errors,\n"
"  extents_total: int,\n"
"  extents: []ErrorExtent,\n"
"  truncated: bool\n"
")\n"
"\n"
"# The results of a drive's performance checkpoints: every line of its\n"
"# checkpoints.jsonl, one object per probe per checkpoint, in file order\n"
"# (ssdctl(8), checkpoints --json, lists the fields); empty when there\n"
"# are none yet.\n"
"method Checkpoints(drive: string) -> (probes: []object)\n"
"\n"
"# A drive's SMART snapshots: every line of its smart.jsonl (the baseline,\n"
"# then a reading every snapshot_every bytes written: time, why,\n"
"# host_bytes_written, cycle, write_bytes_per_sec, waf and the reading as\n"
"# Smart's \"smart\"), in file order; empty when there are none.\n"
"method Snapshots(drive: string) -> (snapshots: []object)\n"
"\n"
"# The timelines of a drive's write passes that are kept (timeline_every;\n"
"# pass 0 is the static fill), by pass: without pass, each one's figures\n"
"# without its times (t_us); with it, that pass's whole, or none.\n"
"method Timelines(drive: string, pass: ?int) -> (timelines: []object)\n"
"# The per-second figures (iops, bytes_per_sec, p99_us) of the long tests\n"
"# of a full checkpoint (the degradation run, the recovery runs), by\n"
"# step: of that checkpoint, or without it of the latest that has any.\n"
"method Series(drive: string, checkpoint: ?int) -> (series: []object)\n"
"\n"
"# Start a stopped, failed or refused drive (safety checks run again).\n"
"method Start(drive: string) -> ()\n"
"# Stop a drive: it stays stopped across daemon restarts.\n"
"method Stop(drive: string) -> ()\n"
"method Pause(drive: string) -> ()\n"
"method Resume(drive: string) -> ()\n"
"# A read-only verify pass now, against what the drive should hold.\n"
"method Verify(drive: string) -> ()\n"
"# A performance checkpoint at the drive's next cycle boundary\n"
"# (InvalidState when it cannot have one: checkpoint = off, failed, ...).\n"
"method Checkpoint(drive: string) -> ()\n"
"# A power cut (power_cut_command) in the write pass running, or at the\n"
"# next one (InvalidState when the drive has no power_cut_command, does\n"
"# not run, or a cut is under way).\n"
"method PowerCut(drive: string) -> ()\n"
"# Re-read the configuration; an invalid one is rejected and kept.\n"
"method Reload() -> ()\n"
"\n"
"error NoSuchDrive (drive: string)\n"
"# The drive has no SMART reading (a file, a loop device, or none yet).\n"
"error NoSmart (drive: string)\n"
"error InvalidState (drive: string, state: string, message: string)\n"
"error ReloadFailed (errors: []string)\n"
"# No verify pass of that number (or none yet), or its map is unreadable.\n"
"error NoErrorMap (drive: string, pass: int)\n"
"error MessageTooLarge (limit: int)\n";

const char proto_service_idl[] =
"# The Varlink Service Interface is provided by every varlink service.\n"
"interface org.varlink.service\n"
"\n"
"method GetInfo() -> (\n"
"  vendor: string,\n"
"  product: string,\n"
"  version: string,\n"
"  url: string,\n"
"  interfaces: []string\n"
")\n"
"\n"
"method GetInterfaceDescription(interface: string) -> (description: string)\n"
"\n"
"error InterfaceNotFound (interface: string)\n"
"error MethodNotFound (method: string)\n"
"error MethodNotImplemented (method: string)\n"
"error InvalidParameter (parameter: string)\n"
"error PermissionDenied ()\n"
"error ExpectedMore ()\n";

/*
 * How many bytes the character led by `b` takes, and the range its second
 * byte must be in: narrower than 80-BF after E0 and F0 (no overlong
 * form), ED (no surrogate) and F4 (nothing past U+10FFFF). 0: no lead.
 */
static int
utf8_lead(unsigned char b, unsigned char *lo, unsigned char *hi)
{
	*lo = 0x80;
	*hi = 0xbf;
	if (b < 0x80)
		return 1;
	if (b >= 0xc2 && b <= 0xdf)
		return 2;
	if (b >= 0xe0 && b <= 0xef) {
		if (b == 0xe0)
			*lo = 0xa0;
		else if (b == 0xed)
			*hi = 0x9f;
		return 3;
	}
	if (b >= 0xf0 && b <= 0xf4) {
		if (b == 0xf0)
			*lo = 0x90;
		else if (b == 0xf4)
			*hi = 0x8f;
		return 4;
	}
	return 0;	/* a continuation byte, C0, C1 or F5-FF */
}

size_t
proto_utf8_char(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	unsigned char		 lo, hi;
	size_t			 k;
	int			 n;

	if (len == 0 || (n = utf8_lead(p[0], &lo, &hi)) == 0 ||
	    len < (size_t)n)
		return 0;
	if (n > 1 && (p[1] < lo || p[1] > hi))
		return 0;
	for (k = 2; k < (size_t)n; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return (size_t)n;
}

int
proto_utf8_valid(const char *s, size_t len)
{
	size_t	i = 0, n;

	while (i < len) {
		if ((n = proto_utf8_char(s + i, len - i)) == 0)
			return 0;
		i += n;
	}
	return 1;
}

const struct proto_method *
proto_find(const char *full, int *iface_known)
{
	const char	*dot = strrchr(full, '.');
	size_t		 ilen;
	int		 i;

	*iface_known = 0;
	if (dot == NULL || dot == full || dot[1] == '\0')
		return NULL;
	ilen = (size_t)(dot - full);
	for (i = 0; proto_methods[i].name != NULL; i++) {
		const struct proto_method *m = &proto_methods[i];

		if (strlen(m->interface) != ilen ||
		    strncmp(m->interface, full, ilen) != 0)
			continue;
		*iface_known = 1;
		if (strcmp(m->name, dot + 1) == 0)
			return m;
	}
	return NULL;
}

/* The input parameter list of `name` in `idl`, just past its "(". */
static const char *
idl_method_params(const char *idl, const char *name)
{
	const char	*p = idl;
	size_t		 n = strlen(name);

	while ((p = strstr(p, "\nmethod ")) != NULL) {
		p += strlen("\nmethod ");
		if (strncmp(p, name, n) == 0 && p[n] == '(')
			return p + n + 1;
	}
	return NULL;
}

int
proto_declares(const struct proto_method *m, const char *param)
{
	const char	*idl = strcmp(m->interface, PROTO_SERVICE) == 0 ?
			    proto_service_idl : proto_manager_idl;
	const char	*p = idl_method_params(idl, m->name);
	size_t		 n = strlen(param);

	/* "(a: T, b: ?T)": the methods' input types hold no "," or ")" */
	while (p != NULL && *p != ')' && *p != '\0') {
		p += strspn(p, " \n,");
		if (strncmp(p, param, n) == 0 && p[n] == ':')
			return 1;
		p += strcspn(p, ",)");
	}
	return 0;
}

const char *const proto_state_names[PROTO_NSTATES] = {
	[PROTO_RUNNING] = "running", [PROTO_PAUSED] = "paused",
	[PROTO_STOPPED] = "stopped", [PROTO_FINISHED] = "finished",
	[PROTO_FAILED] = "failed", [PROTO_REFUSED] = "refused"
};

const char *const proto_phase_names[PROTO_NPHASES] = {
	"static", "write", "verify", "trim", "idle", "checkpoint", "prepare",
	"none"
};

int
proto_word(const char *const *names, int n, const char *word)
{
	int	i;

	for (i = 0; word != NULL && i < n; i++)
		if (strcmp(names[i], word) == 0)
			return i;
	return -1;
}
