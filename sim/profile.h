/*
 * profile.h: a simulated drive's facts, read from a profile file (INI,
 * one key per fact, each with its source named in the file's comments).
 * The key table in profile.c is the one place keys, defaults and limits
 * are spelled.
 */
#ifndef SSDSIM_PROFILE_H
#define SSDSIM_PROFILE_H

#include <stddef.h>
#include <stdint.h>

struct sim_profile {
	char		name[64];
	uint64_t	capacity;	/* host-visible bytes */
	/* the model's facts follow (profile.c's key table lists them) */
};

/* Read a profile file: 0, or -1 with the reason in err. */
int	sim_profile_load(const char *path, struct sim_profile *p, char *err,
	    size_t errlen);

#endif
