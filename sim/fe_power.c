/*
 * fe_power.c: a power cut and its return. At the cut the model says what
 * the drive lost (its volatile cache; in a lying profile flushed writes
 * too); those ranges are zeroed (punched) in the data file, so that what
 * the host reads back after the power returns is what the drive kept.
 * Requests still in flight fail, the file vanishes, handles opened
 * before the cut fail for good.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>

#include "fe.h"
#include "fe_reply.h"

/* Zero the lost ranges; the bytes zeroed, or -1 (errno) on failure. */
static int64_t
zero_lost(struct fe *fe, const struct sim_range *lost, size_t n)
{
	uint64_t	a, b, total = 0;
	size_t		i;

	for (i = 0; i < n; i++) {
		a = lost[i].off;
		b = lost[i].off + lost[i].len;
		if (b > fe->capacity)
			b = fe->capacity;
		if (a >= b)
			continue;
		if (fallocate(fe->datafd, FALLOC_FL_PUNCH_HOLE |
		    FALLOC_FL_KEEP_SIZE, (off_t)a, (off_t)(b - a)) == -1)
			return -1;
		total += b - a;
	}
	return (int64_t)total;
}

int
fe_power_off(struct fe *fe, size_t *nlost, uint64_t *lost_bytes, char *msg,
    size_t len)
{
	struct sim_range	*lost = NULL;
	size_t			 n = 0;
	int64_t			 zeroed = 0;
	int			 rc;

	pthread_mutex_lock(&fe->lock);
	if (!fe->powered) {
		pthread_mutex_unlock(&fe->lock);
		snprintf(msg, len, "the power is off already");
		return -1;
	}
	rc = sim_model_power_off(fe->m, fe_now(), &lost, &n);
	if (rc == 0)
		zeroed = zero_lost(fe, lost, n);
	if (rc == 0) {
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
	if (zeroed < 0) {
		snprintf(msg, len, "cannot zero the lost ranges in the data "
		    "file");
		return -1;
	}
	*nlost = n;
	*lost_bytes = (uint64_t)zeroed;
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
