/*
 * discard.h: whether a target can discard its blocks (discard.c).
 */
#ifndef SSDT_DISCARD_H
#define SSDT_DISCARD_H

#include <stddef.h>

#include "safety.h"

/* 0 when it can; -1 and why when it cannot (or it cannot be told). */
int	target_discard_check(const struct target *, char *why, size_t len);

#endif
