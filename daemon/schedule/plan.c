/* plan.c: the resolved plan of each drive, printed by ssdtortured -n. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "layout.h"
#include "plan.h"
#include "safety.h"
#include "units.h"

/* Capacity of a target without opening it for writing. */
static int
plan_capacity(const struct drive_conf *d, uint64_t *cap, char *serial,
    size_t serlen, char *note, size_t notelen)
{
	struct stat	st;

	serial[0] = '\0';
	if (stat(d->device, &st) == -1) {
		if (errno == ENOENT && d->size != 0) {
			*cap = d->size;
			snprintf(note, notelen, "file, created sparse at start");
			return 0;
		}
		snprintf(note, notelen, "%s", strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		*cap = d->size != 0 ? d->size : (uint64_t)st.st_size;
		snprintf(note, notelen, "file");
		return 0;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(note, notelen, "neither a block device nor a file");
		return -1;
	}
	if (safety_probe(d->device, cap, serial, serlen) == -1) {
		snprintf(note, notelen, "block device, cannot read capacity: %s",
		    strerror(errno));
		return -1;
	}
	snprintf(note, notelen, "block device, serial '%s'",
	    serial[0] ? serial : SERIAL_NONE);
	return 0;
}

/* Print one drive's resolved layout (its keys are printed before). */
static void
plan_layout(const struct layout *l, FILE *out)
{
	char	a[32], b[32];
	uint64_t dyn = layout_dynamic_blocks(l);

	fprintf(out, "  span          %s (%llu bytes)\n",
	    units_fmt_bin(l->span_bytes, a, sizeof(a)),
	    (unsigned long long)l->span_bytes);
	fprintf(out, "  blocks        %llu\n", (unsigned long long)l->nblocks);
	fprintf(out, "  static area   %llu blocks, %s (written once, verified "
	    "every cycle)\n", (unsigned long long)l->static_blocks,
	    units_fmt_bin(l->static_blocks * l->block_size, a, sizeof(a)));
	fprintf(out, "  dynamic area  %llu blocks, %s\n",
	    (unsigned long long)dyn,
	    units_fmt_bin(dyn * l->block_size, b, sizeof(b)));
}

/* One drive; returns 1 when its plan has a problem. */
static int
plan_drive(const struct config *c, const struct drive_conf *d, FILE *out,
    FILE *errf)
{
	struct layout	l;
	char		serial[128], note[256], err[256], a[32];
	uint64_t	cap;

	if (d->device == NULL)
		return 0;	/* already reported by the parser */
	fprintf(out, "drive %s\n", d->name);
	config_print_drive(d, out, "  ");
	fprintf(out, "  state         %s/%s\n", c->state_dir, d->name);
	if (plan_capacity(d, &cap, serial, sizeof(serial), note,
	    sizeof(note)) == -1) {
		fprintf(out, "  capacity      unknown (%s)\n", note);
		fprintf(errf, "%s:%d: [drive:%s]: %s: %s\n", c->path, d->line,
		    d->name, d->device, note);
		return 1;
	}
	fprintf(out, "  target        %s\n", note);
	fprintf(out, "  capacity      %s (%llu bytes)\n",
	    units_fmt_bin(cap, a, sizeof(a)), (unsigned long long)cap);
	if (layout_init(&l, cap, config_span_bytes(d, cap), d->block_size,
	    d->static_fraction, err, sizeof(err)) == -1) {
		fprintf(errf, "%s:%d: [drive:%s]: %s\n", c->path, d->line,
		    d->name, err);
		return 1;
	}
	plan_layout(&l, out);
	return 0;
}

int
plan_print(const struct config *c, FILE *out, FILE *errf)
{
	size_t	i;
	int	problems = 0;

	fprintf(out, "daemon\n");
	config_print_daemon(c, out, "  ");
	if (c->ndrives == 0)
		fprintf(out, "no drives configured\n");
	for (i = 0; i < c->ndrives; i++)
		problems += plan_drive(c, &c->drives[i], out, errf);
	return problems;
}
