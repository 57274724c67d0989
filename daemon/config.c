/* config.c: the configuration file (inih): its lines, sections and checks. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "conf_priv.h"

#define LINE_MAX_LEN	1024

/* Drive names: [A-Za-z0-9_.-], they become directory names. */
static int
valid_name(const char *s)
{
	size_t	i, n = strlen(s);

	if (n == 0 || n >= CONF_NAME_MAX || s[0] == '.')
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && strchr("_.-", s[i]) == NULL)
			return 0;
	return 1;
}

/* Start a [drive:NAME] section. */
static void
section_drive(struct parse *p, const char *name)
{
	struct config		*c = p->conf;
	struct drive_conf	*nd;
	size_t			 i;

	p->sec = SEC_BAD;
	if (!valid_name(name)) {
		conf_err(p, p->line, "invalid drive name '%s' (letters, digits, "
		    "'_', '-', '.'; at most %d)", name, CONF_NAME_MAX - 1);
		return;
	}
	for (i = 0; i < c->ndrives; i++)
		if (strcmp(c->drives[i].name, name) == 0) {
			conf_err(p, p->line, "drive '%s' already defined at "
			    "line %d", name, c->drives[i].line);
			return;
		}
	nd = realloc(c->drives, (c->ndrives + 1) * sizeof(*nd));
	if (nd == NULL) {
		conf_err(p, p->line, "out of memory");
		return;
	}
	c->drives = nd;
	p->drive = &c->drives[c->ndrives++];
	memset(p->drive, 0, sizeof(*p->drive));
	conf_defaults(p, CONF_DRIVE, p->drive);
	/* valid_name() bounded the length; checking the result says so to
	 * the compiler too, which cannot always see it (-O1 warns) */
	if ((size_t)snprintf(p->drive->name, sizeof(p->drive->name), "%s",
	    name) >= sizeof(p->drive->name))
		conf_err(p, p->line, "drive name '%s' too long", name);
	p->drive->line = p->line;
	p->sec = SEC_DRIVE;
}

/* Drop a " ; comment" or " # comment" after a section header. */
static void
cut_comment(char *s)
{
	char	*end = strchr(s, ']');
	size_t	 n;

	if (end != NULL && strspn(end + 1, " \t\r\n") != strlen(end + 1)) {
		char *c = end + 1 + strspn(end + 1, " \t");
		if (*c == ';' || *c == '#')
			end[1] = '\0';
	}
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/* A "[...]" line: which section it opens. */
static void
section_line(struct parse *p, const char *s)
{
	char	name[LINE_MAX_LEN];
	size_t	n;

	p->nseen = 0;
	p->drive = NULL;
	snprintf(name, sizeof(name), "%s", s + 1);
	n = strlen(name);
	while (n > 0 && isspace((unsigned char)name[n - 1]))
		name[--n] = '\0';
	cut_comment(name);
	n = strlen(name);
	if (n == 0 || name[n - 1] != ']') {
		conf_err(p, p->line, "syntax error: unterminated section "
		    "header");
		p->sec = SEC_BAD;
		return;
	}
	name[n - 1] = '\0';
	if (strcmp(name, "daemon") == 0)
		p->sec = SEC_DAEMON;
	else if (strncmp(name, "drive:", 6) == 0)
		section_drive(p, name + 6);
	else {
		conf_err(p, p->line, "unknown section [%s]", name);
		p->sec = SEC_BAD;
	}
}

/* Check one raw line's syntax; sections are handled here, keys by inih. */
static void
check_line(struct parse *p, const char *line)
{
	const char	*s = line;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0' || *s == ';' || *s == '#')
		return;
	if (*s == '[') {
		section_line(p, s);
		return;
	}
	if (strchr(s, '=') == NULL && strchr(s, ':') == NULL)
		conf_err(p, p->line, "syntax error: expected 'key = value'");
	else if (p->sec == SEC_NONE)
		conf_err(p, p->line, "key outside of any section");
}

/*
 * One line into buf (newline kept, at most size - 1 bytes): its length,
 * NUL bytes included (fgets() would hide them), or -1 at the end of the
 * file. *cut says the line was longer; the rest of it has been skipped.
 */
static long
read_line(FILE *fp, char *buf, size_t size, int *cut)
{
	size_t	n = 0;
	int	c = EOF;

	*cut = 0;
	while (n + 1 < size && (c = getc(fp)) != EOF) {
		buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	buf[n] = '\0';
	if (n == 0)
		return -1;
	if (n + 1 == size && buf[n - 1] != '\n' && (c = getc(fp)) != EOF) {
		*cut = 1;
		while (c != '\n' && (c = getc(fp)) != EOF)
			;
	}
	return (long)n;
}

/* inih's reader: one line at a time, counted and syntax-checked. */
static char *
conf_reader(char *str, int num, void *stream)
{
	struct parse	*p = stream;
	char		 buf[LINE_MAX_LEN + 2];
	long		 n;
	int		 cut;

	if ((n = read_line(p->fp, buf, sizeof(buf), &cut)) == -1)
		return NULL;
	p->line++;
	if (cut) {
		conf_err(p, p->line, "line too long (more than %d bytes)",
		    LINE_MAX_LEN);
		buf[0] = '\0';	/* hand inih an empty line */
	} else if (memchr(buf, '\0', (size_t)n) != NULL) {
		conf_err(p, p->line, "NUL byte in the line");
		buf[0] = '\0';
	} else if (num <= n + (buf[n - 1] == '\n' ? 0 : 1)) {
		/* inih's own line buffer is smaller: never let it cut a value */
		conf_err(p, p->line, "line too long (more than %d bytes)",
		    num - 2);
		buf[0] = '\0';
	} else
		check_line(p, buf);
	memcpy(str, buf, strlen(buf) + 1);
	return str;
}

/* Remember a key; a second occurrence in one section is an error. */
static int
key_seen(struct parse *p, const char *name)
{
	int	i;

	for (i = 0; i < p->nseen; i++)
		if (strcmp(p->seen[i], name) == 0)
			return 1;
	if (p->nseen < (int)(sizeof(p->seen) / sizeof(p->seen[0])))
		snprintf(p->seen[p->nseen++], sizeof(p->seen[0]), "%s", name);
	return 0;
}

/* inih's handler: one key = value. */
static int
conf_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct parse		*p = user;
	const struct conf_key	*k;
	enum conf_section	 sec;

	(void)section;
	if (p->sec == SEC_BAD || p->sec == SEC_NONE)
		return 1;	/* already reported */
	if (key_seen(p, name)) {
		conf_err(p, p->line, "duplicate key '%s'", name);
		return 1;
	}
	sec = p->sec == SEC_DAEMON ? CONF_DAEMON : CONF_DRIVE;
	if ((k = conf_key_find(sec, name)) != NULL)
		k->kind->parse(p, k, sec == CONF_DAEMON ? (void *)p->conf :
		    (void *)p->drive, value);
	else if (sec == CONF_DAEMON)
		conf_err(p, p->line, "unknown key '%s' in [daemon]", name);
	else
		conf_err(p, p->line, "unknown key '%s' in [drive:%s]", name,
		    p->drive->name);
	return 1;
}

/* Checks across keys of a drive, reported at the section's line. */
static void
validate_drive(struct parse *p, struct drive_conf *d)
{
	size_t	i;

	if (d->device == NULL) {
		conf_err(p, d->line, "[drive:%s]: 'device' is required",
		    d->name);
		return;
	}
	if (d->span != 0 && d->span % d->block_size != 0)
		conf_err(p, d->line, "[drive:%s]: span is not a multiple of "
		    "block_size", d->name);
	if (d->size != 0 && d->size % d->block_size != 0)
		conf_err(p, d->line, "[drive:%s]: size is not a multiple of "
		    "block_size", d->name);
	/* a recovery from nothing: it measures what the degradation took */
	if ((d->full_checkpoint_tests & (1u << LP_RECOVERY)) &&
	    !(d->full_checkpoint_tests & (1u << LP_DEGRADE)))
		conf_err(p, d->line, "[drive:%s]: full_checkpoint_tests: "
		    "recovery needs degrade", d->name);
	if (d->power_cut_every != 0 && d->power_cut_command == NULL)
		conf_err(p, d->line, "[drive:%s]: power_cut_every needs "
		    "power_cut_command", d->name);
	for (i = 0; &p->conf->drives[i] != d; i++)
		if (p->conf->drives[i].device != NULL &&
		    strcmp(p->conf->drives[i].device, d->device) == 0)
			conf_err(p, d->line, "[drive:%s]: device %s is "
			    "already used by drive '%s'", d->name, d->device,
			    p->conf->drives[i].name);
}

static void
validate(struct parse *p)
{
	size_t	i;

	for (i = 0; i < p->conf->ndrives; i++)
		validate_drive(p, &p->conf->drives[i]);
}

int
config_load(const char *path, FILE *errf, struct config *out)
{
	struct parse	p;
	int		rc;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	p.path = path;
	p.errf = errf;
	p.conf = out;
	out->path = strdup(path);
	if ((p.fp = fopen(path, "r")) == NULL) {
		if (errf != NULL)
			fprintf(errf, "%s: %s\n", path, strerror(errno));
		return 1;
	}
	conf_defaults(&p, CONF_DAEMON, out);
	ini_allow_multiline = false;
	rc = ini_parse_stream(conf_reader, &p, conf_handler, &p);
	fclose(p.fp);
	if (rc < 0) {
		conf_err(&p, 0, "cannot parse (out of memory)");
		return p.errors;
	}
	validate(&p);
	return p.errors;
}

void
config_free(struct config *c)
{
	size_t	i;

	for (i = 0; i < c->ndrives; i++)
		conf_free_strings(CONF_DRIVE, &c->drives[i]);
	free(c->drives);
	free(c->path);
	conf_free_strings(CONF_DAEMON, c);
	memset(c, 0, sizeof(*c));
}

const struct drive_conf *
config_find(const struct config *c, const char *name)
{
	size_t	i;

	for (i = 0; i < c->ndrives; i++)
		if (strcmp(c->drives[i].name, name) == 0)
			return &c->drives[i];
	return NULL;
}

uint64_t
config_span_bytes(const struct drive_conf *d, uint64_t capacity)
{
	if (d->span != 0)
		return d->span;
	return (uint64_t)((double)capacity * d->span_percent / 100.0);
}
