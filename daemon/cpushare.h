/*
 * cpushare.h: the daemon's share of the CPUs against other sessions and
 * the kernel's workers, weighed as one process per drive (cpushare.c).
 */
#ifndef SSDT_CPUSHARE_H
#define SSDT_CPUSHARE_H

#include <stddef.h>

/* The autogroup nice whose weight is nearest to n nice-0 processes'. */
int	cpushare_nice(size_t n);

/* Weigh the daemon's autogroup as ndrives processes, where it leads its
 * session and autogroups are on; at start and after each reload. */
void	cpushare_set(size_t ndrives);

#endif
