/*
 * fe_power.c: a power cut and its return. The model says at the cut what
 * the drive lost (its volatile cache; in a lying profile flushed writes
 * too); the drive then holds, in those ranges, what it held before the
 * lost writes (fe_undo.c puts it back). Requests still in flight fail,
 * the file vanishes, handles opened before the cut fail for good.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"
#include "fe_reply.h"
#include "fe_undo.h"

int
fe_power_off(struct fe *fe, size_t *nlost, uint64_t *lost_bytes, char *msg,
    size_t len)
{
	struct sim_range	*lost = NULL;
	size_t			 n = 0;
	int64_t			 restored = 0;
	int			 rc, err = 0;

	pthread_mutex_lock(&fe->lock);
	if (!fe->powered) {
		pthread_mutex_unlock(&fe->lock);
		snprintf(msg, len, "the power is off already");
		return -1;
	}
	rc = sim_model_power_off(fe->m, fe_now(), &lost, &n);
	if (rc == 0) {
		if ((restored = fe_undo_restore(fe, lost, n)) < 0)
			err = errno;
		fe_undo_clear(fe);
		fe->powered = 0;
		fe->power_gen++;
		fe_reply_fail_before(fe->rq, fe->power_gen, EIO);
	}
	pthread_mutex_unlock(&fe->lock);
	free(lost);
	if (rc != 0) {
		snprintf(msg, len, "the model refused the power cut");
		return -1;
	}
	fe_fuse_forget_drive(fe);
	if (restored < 0) {
		snprintf(msg, len, "cannot put back what the lost writes "
		    "replaced: %s", strerror(err));
		return -1;
	}
	*nlost = n;
	*lost_bytes = (uint64_t)restored;
	msg[0] = '\0';
	return 0;
}

int
fe_power_on(struct fe *fe, char *msg, size_t len)
{
	pthread_mutex_lock(&fe->lock);
	if (fe->powered) {
		pthread_mutex_unlock(&fe->lock);
		snprintf(msg, len, "the power is on already");
		return -1;
	}
	sim_model_power_on(fe->m, fe_now());
	fe->powered = 1;
	pthread_mutex_unlock(&fe->lock);
	fe_fuse_forget_drive(fe);	/* a negative entry, if one was kept */
	msg[0] = '\0';
	return 0;
}
