/*
 * fuzz_smart.h: what the targets of the SMART JSON decoders share: the
 * invariant check, and one run of a decoder on the input (in a buffer of
 * exactly its size: the decoder is given a length): a failure says why
 * and a success does not; a success's values go to the target's own
 * check_smart.
 */
#ifndef SSDT_FUZZ_SMART_H
#define SSDT_FUZZ_SMART_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smart.h"

#define check(cond)	do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, \
	    __LINE__, #cond); abort(); } } while (0)

#define is_flag(v)	((v) == 0 || (v) == 1)

typedef int	fuzz_decoder(const char *, size_t, struct smart *, char *,
		    size_t);

static void
fuzz_smart_run(const uint8_t *data, size_t size, fuzz_decoder *decode,
    void (*check_smart)(const struct smart *))
{
	struct smart	*s;
	char		*json, err[256];
	int		 rc;

	/* malloc(0) may return NULL, which the decoder takes as no output */
	if ((json = malloc(size)) == NULL && size != 0)
		abort();
	if (size != 0)
		memcpy(json, data, size);
	if ((s = malloc(sizeof(*s))) == NULL)
		abort();
	memset(err, 'x', sizeof(err));
	rc = decode(json, size, s, err, sizeof(err));
	check(rc == 0 || rc == -1);
	check(memchr(err, '\0', sizeof(err)) != NULL);
	if (rc == 0) {
		check(err[0] == '\0');
		check_smart(s);
	} else
		check(err[0] != '\0');
	free(s);
	free(json);
}

#endif
