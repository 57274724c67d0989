/*
 * fe_undo.h: what a write replaced, kept while the model can lose the
 * write (fe_undo.c; callers hold fe->lock).
 */
#ifndef SSDSIM_FE_UNDO_H
#define SSDSIM_FE_UNDO_H

#include <stdint.h>

#include "fe.h"

/* Tell the model to say when bytes stop being losable (once, at setup). */
void	fe_undo_init(struct fe *fe);
/*
 * Before the model sees a write of [off, +len): keep those bytes (-1: no
 * memory, or the data file unread, errno). After it, fe_undo_done with
 * the model's sim_io.seq drops them again if the model refused it.
 */
int	fe_undo_keep(struct fe *fe, uint64_t off, uint64_t len);
void	fe_undo_done(struct fe *fe, uint64_t seq);
/*
 * At a cut: put back, in the data file, what the lost writes (the model's
 * ranges) replaced. The bytes put back; -1 (errno) when the data file
 * refused, or EPROTO when a lost write's old bytes were not kept.
 */
int64_t	fe_undo_restore(struct fe *fe, const struct sim_range *lost, size_t n);
/* Every record gone (after a cut); fe_undo_free also its array. */
void	fe_undo_clear(struct fe *fe);
void	fe_undo_free(struct fe *fe);

#endif
