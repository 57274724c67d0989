/*
 * conf_priv.h: between the file reader (config.c) and the key table
 * (conf_keys.c); nothing else includes it.
 */
#ifndef SSDT_CONF_PRIV_H
#define SSDT_CONF_PRIV_H

#include <stdio.h>

#include "config.h"

/* Parser state shared by the line reader and the key handler. */
struct parse {
	const char	*path;
	FILE		*fp;
	FILE		*errf;
	int		 line;
	int		 errors;
	struct config	*conf;
	enum { SEC_NONE, SEC_DAEMON, SEC_DRIVE, SEC_BAD } sec;
	struct drive_conf *drive;
	char		 seen[64][32];	/* keys seen in the current section */
	int		 nseen;
};

/*
 * A kind of value: `parse` reads `v` into the key's field of `base`
 * (reporting a problem with conf_err and returning -1), `show` writes it
 * back in the file's syntax ("" when not set), `cmp` orders two values;
 * `owns`: the field is a string the struct owns.
 */
struct conf_kind {
	int	(*parse)(struct parse *, const struct conf_key *, void *base,
		    const char *v);
	void	(*show)(const struct conf_key *, const void *base, char *,
		    size_t);
	int	(*cmp)(const struct conf_key *, const void *a, const void *b);
	int	  owns;
};

/* Report one problem as FILE:LINE: message and count it. */
void	conf_err(struct parse *, int line, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* The key `name` of a section, or NULL. */
const struct conf_key *conf_key_find(enum conf_section, const char *name);
/* Every key of the section that has a default, set to it in `base`. */
void	conf_defaults(struct parse *, enum conf_section, void *base);
/* Free the strings of a section's keys in `base`. */
void	conf_free_strings(enum conf_section, void *base);

#endif
