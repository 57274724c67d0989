/*
 * drive_core.c: the services of a drive's core that its features call
 * (checkpoints, power cuts, the opening of the target...), kept below
 * them: a feature that tells the manager of a change, names the drive's
 * event log or makes an event's common fields calls this file, not the
 * lifecycle's (drive.c).
 */
#include <json-c/json.h>

#include "drive_priv.h"

/* The drive changed (its run state, its status): the manager is told. */
void
drive_notify(struct drive *d)
{
	if (d->changed != NULL)
		d->changed(d, d->changed_arg);
}

void
drive_events_path(const struct drive *d, char *buf, size_t len)
{
	statedir_path(buf, len, d->dir, STATEDIR_EVENTS);
}

/* An event with the common fields: cycle, phase, TBW. */
json_object *
drive_ev_obj(struct drive *d)
{
	json_object	*o = json_object_new_object();

	json_object_object_add(o, "serial", json_object_new_string(
	    d->tgt.serial[0] ? d->tgt.serial : d->st.serial));
	json_object_object_add(o, "cycle",
	    json_object_new_uint64(d->st.prog.cycle));
	json_object_object_add(o, "phase",
	    json_object_new_string(phase_name(d->st.prog.phase)));
	json_object_object_add(o, "host_bytes_written",
	    json_object_new_uint64(d->st.host_bytes_written));
	return o;
}

/* The blocks found bad, torn ones aside (counted apart). */
uint64_t
drive_errors_total(const struct drive *d)
{
	uint64_t	s = 0;
	int		i;

	for (i = 1; i < BLK_NCLASS; i++)
		if (blk_class_is_error(i))	/* torn: counted apart */
			s += d->st.errors[i];
	return s;
}
