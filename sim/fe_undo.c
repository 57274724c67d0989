/*
 * fe_undo.c: what each write replaced, kept from before the model takes
 * it until the model says it can no longer be lost (sim_durable_fn), so
 * that a power cut can put back what the drive held before the writes it
 * lost: the newest durable data, or zeroes where nothing durable was ever
 * written. At most the losable bytes are kept: the profile's cache_bytes
 * plus the lying drive's K flushed requests. Records are in the order of
 * the model's write numbers; all under fe->lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "fe.h"
#include "fe_undo.h"

/* The first record of a write numbered seq or later. */
static size_t
undo_lower(const struct fe *fe, uint64_t seq)
{
	size_t	lo = 0, hi = fe->undo_n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (fe->undo[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The first record of r's writes whose bytes end past r->off. Those
 * writes continue one another: their bytes ascend with their numbers.
 */
static size_t
undo_first(const struct fe *fe, const struct sim_range *r)
{
	size_t	lo = undo_lower(fe, r->seq_lo), hi = undo_lower(fe,
		    r->seq_hi + 1), mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (fe->undo[mid].off + fe->undo[mid].len <= r->off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The bytes record u and range r share: [*a, *b), empty if *a >= *b. */
static void
undo_overlap(const struct fe_undo *u, const struct sim_range *r,
    uint64_t *a, uint64_t *b)
{
	*a = u->off > r->off ? u->off : r->off;
	*b = u->off + u->len < r->off + r->len ? u->off + u->len :
	    r->off + r->len;
}

/* Drop the dead records once they are half of them. */
static void
undo_compact(struct fe *fe)
{
	size_t	i, k = 0;

	if (fe->undo_dead < 64 || fe->undo_dead * 2 < fe->undo_n)
		return;
	for (i = 0; i < fe->undo_n; i++)
		if (fe->undo[i].live > 0)
			fe->undo[k++] = fe->undo[i];
	fe->undo_n = k;
	fe->undo_dead = 0;
}

/* The model made r durable: its old bytes are no longer needed. */
static void
undo_durable(void *arg, const struct sim_range *r)
{
	struct fe	*fe = arg;
	struct fe_undo	*u;
	uint64_t	 a, b;
	size_t		 i;

	for (i = undo_first(fe, r); i < fe->undo_n &&
	    fe->undo[i].seq <= r->seq_hi; i++) {
		u = &fe->undo[i];
		if (u->off >= r->off + r->len)
			break;
		undo_overlap(u, r, &a, &b);
		if (a >= b || u->live == 0)
			continue;
		u->live -= b - a < u->live ? b - a : u->live;
		if (u->live == 0) {
			free(u->old);
			u->old = NULL;
			fe->undo_bytes -= u->len;
			fe->undo_dead++;
		}
	}
	undo_compact(fe);
}

void
fe_undo_init(struct fe *fe)
{
	sim_model_on_durable(fe->m, undo_durable, fe);
}

int
fe_undo_keep(struct fe *fe, uint64_t off, uint64_t len)
{
	struct fe_undo	 u = { sim_model_next_seq(fe->m), off, len, len, NULL };
	struct fe_undo	*p;
	size_t		 cap;

	if (len == 0)
		return 0;
	if (fe->undo_n == fe->undo_cap) {
		cap = fe->undo_cap ? fe->undo_cap * 2 : 256;
		if ((p = realloc(fe->undo, cap * sizeof(*p))) == NULL)
			return -1;
		fe->undo = p;
		fe->undo_cap = cap;
	}
	if ((u.old = malloc(len)) == NULL)
		return -1;
	if (pread(fe->datafd, u.old, len, (off_t)off) != (ssize_t)len) {
		free(u.old);
		errno = EIO;
		return -1;
	}
	fe->undo[fe->undo_n++] = u;
	fe->undo_bytes += len;
	return 0;
}

void
fe_undo_done(struct fe *fe, uint64_t seq)
{
	struct fe_undo	*u;

	if (seq != 0 || fe->undo_n == 0)
		return;		/* taken (the model may have made it durable) */
	u = &fe->undo[fe->undo_n - 1];
	if (u->seq != sim_model_next_seq(fe->m))
		return;		/* not this write's (it had nothing to keep) */
	if (u->live == 0)
		fe->undo_dead--;
	else
		fe->undo_bytes -= u->len;
	free(u->old);
	fe->undo_n--;
}

void
fe_undo_clear(struct fe *fe)
{
	size_t	i;

	for (i = 0; i < fe->undo_n; i++)
		free(fe->undo[i].old);
	fe->undo_n = fe->undo_dead = 0;
	fe->undo_bytes = 0;
}

void
fe_undo_free(struct fe *fe)
{
	fe_undo_clear(fe);
	free(fe->undo);
	fe->undo = NULL;
	fe->undo_cap = 0;
}

/*
 * The newest first, so that each byte ends as it was before the oldest
 * lost write on it: the newest durable data (the model keeps no durable
 * write newer than a losable one on the same bytes).
 */
int64_t
fe_undo_restore(struct fe *fe, const struct sim_range *lost, size_t n)
{
	const struct sim_range	*r;
	const struct fe_undo	*u;
	uint64_t		 a, b, want, total = 0;
	size_t			 i, k;

	for (i = n; i-- > 0;) {
		r = &lost[i];
		want = 0;
		for (k = undo_first(fe, r); k < fe->undo_n &&
		    fe->undo[k].seq <= r->seq_hi; k++) {
			u = &fe->undo[k];
			if (u->off >= r->off + r->len)
				break;
			undo_overlap(u, r, &a, &b);
			if (a >= b || u->old == NULL)
				continue;
			if (pwrite(fe->datafd, u->old + (a - u->off), b - a,
			    (off_t)a) != (ssize_t)(b - a))
				return -1;
			want += b - a;
		}
		if (want != r->len) {
			errno = EPROTO;
			return -1;
		}
		total += want;
	}
	return (int64_t)total;
}
