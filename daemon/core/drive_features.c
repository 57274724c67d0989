/*
 * drive_features.c: the table of a drive's features and the core's
 * calls of their hooks (drive_features.h), each in the table's order.
 */
#include <stddef.h>

#include "drive_features.h"

extern const struct drive_feature drive_errors_feature;
extern const struct drive_feature drive_power_feature;
extern const struct drive_feature findings_feature;
extern const struct drive_feature records_feature;
extern const struct drive_feature drive_ckpt_feature;
extern const struct drive_feature drive_cut_feature;
extern const struct drive_feature drive_timeline_feature;
extern const struct drive_feature drive_smart_feature;

/*
 * The order is the order of the hooks' calls: a checkpoint's step is
 * prepared before a cut draws where the pass stops, a long test's second
 * recorded before a cut's tick may stop the I/O, and a checkpoint's start
 * takes SMART's figures before the phase's new reading is asked for.
 * The error records come first: a phase's errors_summary is written
 * before what the others add to its phase_end. A finding is mapped and
 * a lost block listed (power) before the findings merge it into the
 * run they hold; the findings' dio_emulated note is the first event
 * after the activation's, before a cut's; the records' health is in
 * Status before the others' parts.
 */
static const struct drive_feature *const features[] = {
	&drive_errors_feature,
	&drive_power_feature,
	&findings_feature,
	&records_feature,
	&drive_ckpt_feature,
	&drive_cut_feature,
	&drive_timeline_feature,
	&drive_smart_feature,
};
#define NFEATURES	(sizeof(features) / sizeof(features[0]))

/* Every feature's hook, where it has one. */
#define ALL(hook, ...) do {						\
	for (size_t i_ = 0; i_ < NFEATURES; i_++)			\
		if (features[i_]->hook != NULL)				\
			features[i_]->hook(__VA_ARGS__);		\
} while (0)

/* The first feature whose hook answers other than 0 or NULL: its answer
 * (one feature takes the matter; the others are not asked). */
#define FIRST(hook, none, ...) do {					\
	for (size_t i_ = 0; i_ < NFEATURES; i_++)			\
		if (features[i_]->hook != NULL) {			\
			__typeof__(features[i_]->hook(__VA_ARGS__)) r_ = \
			    features[i_]->hook(__VA_ARGS__);		\
			if (r_)						\
				return r_;				\
		}							\
	return none;							\
} while (0)

/* Every feature's hook that may fail the drive is called (each records
 * what it must); the first that fails it says why in why/len. */
#define VERDICT(hook, d, flag, why, len) do {				\
	char	later_[256];						\
	int	bad_ = 0;						\
									\
	for (size_t i_ = 0; i_ < NFEATURES; i_++)			\
		if (features[i_]->hook != NULL &&			\
		    features[i_]->hook((d), (flag), bad_ ? later_ : (why), \
		    bad_ ? sizeof(later_) : (len)))			\
			bad_ = 1;					\
	return bad_;							\
} while (0)

void
features_made(struct drive *d)
{
	ALL(made, d);
}

void
features_loaded(struct drive *d, int owned)
{
	ALL(loaded, d, owned);
}

int
features_away(const struct drive *d)
{
	FIRST(away, 0, d);
}

/* The opening found features_away(): the one feature that takes a
 * device away brings it back (not asked again: it may be back by now). */
int
features_bring_back(struct drive *d)
{
	for (size_t i = 0; i < NFEATURES; i++)
		if (features[i]->bring_back != NULL)
			return features[i]->bring_back(d);
	return 0;
}

void
features_opening(struct drive *d)
{
	ALL(opening, d);
}

void
features_closing(struct drive *d)
{
	ALL(closing, d);
}

/* Every feature looks (each may record what it saw): 1 when one saw a
 * loss. */
int
features_power_check(struct drive *d, int owned)
{
	int	lost = 0;

	for (size_t i = 0; i < NFEATURES; i++)
		if (features[i]->power_check != NULL &&
		    features[i]->power_check(d, owned))
			lost = 1;
	return lost;
}

void
features_activated(struct drive *d, int lost)
{
	ALL(activated, d, lost);
}

void
features_mark(struct drive *d)
{
	ALL(mark, d);
}

void
features_phase_started(struct drive *d)
{
	ALL(phase_started, d);
}

void
features_job_prepare(struct drive *d, struct job *j)
{
	ALL(job_prepare, d, j);
}

void
features_phase_ended(struct drive *d, json_object *ev)
{
	ALL(phase_ended, d, ev);
}

int
features_job_taken(struct drive *d, enum work was, enum job_end end)
{
	FIRST(job_taken, 0, d, was, end);
}

int
features_step_done(struct drive *d, int err)
{
	FIRST(step_done, 0, d, err);
}

void
features_tick(struct drive *d, int rated)
{
	ALL(tick, d, rated);
}

void
features_run_ended(struct drive *d, const char *state)
{
	ALL(run_ended, d, state);
}

void
features_asked(struct drive *d)
{
	ALL(asked, d);
}

const char *
features_holding(const struct drive *d)
{
	FIRST(holding, NULL, d);
}

int
features_hold_verify(const struct drive *d)
{
	FIRST(holds_verify, 0, d);
}

void
features_status(const struct drive *d, struct drive_status *s)
{
	ALL(status, d, s);
}

void
features_archive(const struct drive *d, struct archive_val *v)
{
	ALL(archive, d, v);
}

void
features_verify_begin(struct drive *d, int on_demand)
{
	ALL(verify_begin, d, on_demand);
}

void
features_verify_resume(struct drive *d)
{
	ALL(verify_resume, d);
}

/* Every feature's end of the pass is written; the first that fails the
 * drive says why. */
int
features_verify_end(struct drive *d, int whole, char *why, size_t len)
{
	VERDICT(verify_end, d, whole, why, len);
}

void
features_verify_job(struct drive *d, struct job *j)
{
	ALL(verify_job, d, j);
}

void
features_verify_progress(struct drive *d, uint64_t position)
{
	ALL(verify_progress, d, position);
}

int
features_verify_closed(struct drive *d, int done, char *why, size_t len)
{
	VERDICT(verify_closed, d, done, why, len);
}

void
features_power_lost(struct drive *d, int counted, int bounded,
    uint64_t kept_end)
{
	ALL(power_lost, d, counted, bounded, kept_end);
}

void
features_found(struct drive *d, const struct finding *f)
{
	ALL(found, d, f);
}

int
features_told(struct drive *d, const struct finding *f)
{
	FIRST(told, 0, d, f);
}

void
features_flush(struct drive *d)
{
	ALL(flush, d);
}

/* The features before the n-th, begun, are ended in reverse order, told
 * -err: their files were not synced (an end takes back what its begin
 * left in flight, such as the error map's sync_busy). */
static void
sync_unwind(struct drive *d, size_t n, int err)
{
	while (n-- > 0)
		if (features[n]->sync_begin != NULL &&
		    features[n]->sync_end != NULL)
			(void)features[n]->sync_end(d, -err);
}

/* The one file that rides with a checkpoint (drive_features.h); when a
 * feature cannot begin, those begun before it are ended, and there is
 * nothing to sync. */
int
features_sync_begin(struct drive *d, int *fd)
{
	int	f, err;

	*fd = -1;
	for (size_t i = 0; i < NFEATURES; i++) {
		if (features[i]->sync_begin == NULL)
			continue;
		f = -1;
		if ((err = features[i]->sync_begin(d, &f)) != 0) {
			sync_unwind(d, i, err);
			*fd = -1;
			return err;
		}
		if (*fd < 0)
			*fd = f;
	}
	return 0;
}

/* Every feature begun is ended, whatever an earlier one's end said: the
 * first errno is the answer. */
int
features_sync_end(struct drive *d, int res)
{
	int	err, first = 0;

	for (size_t i = 0; i < NFEATURES; i++)
		if (features[i]->sync_end != NULL &&
		    (err = features[i]->sync_end(d, res)) != 0 && first == 0)
			first = err;
	return first;
}

void
features_checkpointed(struct drive *d, int err, int state_err)
{
	ALL(checkpointed, d, err, state_err);
}

int
features_behind(const struct drive *d)
{
	FIRST(behind, 0, d);
}

/* The first feature that asks something of the run is heard; the others
 * are asked again the next second. */
enum run_ask
features_run_check(struct drive *d, char *why, size_t len)
{
	FIRST(run_check, ASK_GO_ON, d, why, len);
}

int
features_refuse_resume(const struct drive *d, char *err, size_t len)
{
	FIRST(refuse_resume, 0, d, err, len);
}

uint64_t
features_seen_before(struct drive *d, const struct finding *f)
{
	FIRST(seen_before, 0, d, f);
}

void
features_shutdown(struct drive *d)
{
	ALL(shutdown, d);
}

void
features_stopped(struct drive *d)
{
	ALL(stopped, d);
}

void
features_release(struct drive *d)
{
	ALL(release, d);
}
