/* plan.h: the resolved plan of each drive, printed by ssdtortured -n. */
#ifndef SSDT_PLAN_H
#define SSDT_PLAN_H

#include <stdio.h>

#include "config.h"

/* Print every drive's plan; returns the number of problems found. */
int	plan_print(const struct config *, FILE *out, FILE *errf);

#endif
