/*
 * fuzz_config.c: libFuzzer target for the configuration parser. The input
 * is a configuration file, loaded with config_load() and so validated as
 * the daemon does at start and on reload. Beyond crashes and leaks:
 * every problem counted is printed as one "FILE:LINE: message" line, a
 * clean file yields settings within their documented limits, and those
 * settings written out again as a configuration load cleanly to the same
 * values (what -n and a reload of an unchanged file rely on).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "config.h"
#include "fuzz_file.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define check(cond)	do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, \
	    __LINE__, #cond); abort(); } } while (0)

/* Every problem is one line, "PATH:LINE: ..." */
static void
check_report(const char *path, const char *err, size_t errlen, int n)
{
	const char	*p = err, *nl;
	int		 lines = 0;
	size_t		 plen = strlen(path);

	check(strlen(err) == errlen);
	for (; *p != '\0'; p = nl + 1, lines++) {
		check(strncmp(p, path, plen) == 0 && p[plen] == ':');
		check((nl = strchr(p, '\n')) != NULL);
	}
	check(lines == n);
}

/* A drive of a clean file: within the limits config.h and block.h state. */
static void
check_drive(const struct config *c, size_t i)
{
	const struct drive_conf	*d = &c->drives[i];
	size_t			 j;

	check(memchr(d->name, '\0', sizeof(d->name)) != NULL);
	check(d->name[0] != '\0' && d->name[0] != '.' &&
	    strchr(d->name, '/') == NULL);	/* it becomes a directory */
	check(d->device != NULL && d->device[0] == '/');
	check(d->serial == NULL || d->serial[0] != '\0');
	check(d->block_size >= BLK_MIN_SIZE && d->block_size <= BLK_MAX_SIZE &&
	    d->block_size % 512 == 0);
	check(d->span % d->block_size == 0 && d->size % d->block_size == 0);
	check(d->span != 0 || (d->span_percent > 0 && d->span_percent <= 100));
	check(d->queue_depth >= 1);
	check(d->static_fraction >= 0 && d->static_fraction < 1);
	check(d->stop_at_wear >= 0 && d->stop_at_wear <= 255);
	check(d->smart_interval > 0 && d->io_timeout > 0);
	check(config_find(c, d->name) == d);
	for (j = 0; j < i; j++)
		check(strcmp(c->drives[j].device, d->device) != 0);
}

static void
check_clean(const struct config *c)
{
	size_t	i;

	check(c->state_dir != NULL && c->state_dir[0] == '/');
	check(c->socket != NULL && c->socket[0] == '/');
	check(c->max_connections >= 1 && c->client_timeout >= 1);
	check(c->socket_group == NULL || c->socket_group[0] != '\0');
	for (i = 0; i < c->ndrives; i++)
		check_drive(c, i);
}

/* A double as the parser reads it back: no exponent (it takes none). */
static int
put_double(FILE *fp, const char *key, double v, const char *suffix)
{
	char	buf[64];

	snprintf(buf, sizeof(buf), "%.17g", v);
	if (strpbrk(buf, "eE") != NULL)
		return -1;
	fprintf(fp, "%s=%s%s\n", key, buf, suffix);
	return 0;
}

static int
put_drive(FILE *fp, const struct drive_conf *d)
{
	fprintf(fp, "[drive:%s]\ndevice=%s\n", d->name, d->device);
	if (d->size != 0)
		fprintf(fp, "size=%llu\n", (unsigned long long)d->size);
	if (d->serial != NULL)
		fprintf(fp, "serial=%s\n", d->serial);
	if (d->span != 0)
		fprintf(fp, "span=%llu\n", (unsigned long long)d->span);
	else if (put_double(fp, "span", d->span_percent, "%") == -1)
		return -1;
	fprintf(fp, "order=%s\nblock_size=%u\nqueue_depth=%u\n",
	    d->order_random ? "random" : "sequential", d->block_size,
	    d->queue_depth);
	if (put_double(fp, "static_fraction", d->static_fraction, "") == -1)
		return -1;
	fprintf(fp, "trim=%d\nidle=%llus\ncycles=%llu\non_io_error=%s\n"
	    "autostart=%d\nsmart=%s\nsmart_interval=%llus\n"
	    "snapshot_every=%llu\nmax_new_bad_blocks=%llu\nio_timeout=%llus\n",
	    d->trim, (unsigned long long)d->idle_sec,
	    (unsigned long long)d->cycles,
	    d->on_io_error == ON_ERROR_STOP ? "stop" : "continue",
	    d->autostart, d->smart ? "auto" : "off",
	    (unsigned long long)d->smart_interval,
	    (unsigned long long)d->snapshot_every,
	    (unsigned long long)d->max_new_bad_blocks,
	    (unsigned long long)d->io_timeout);
	if (d->stop_at_tbw != 0)
		fprintf(fp, "stop_at_tbw=%llu\n",
		    (unsigned long long)d->stop_at_tbw);
	if (d->stop_at_wear != 0 &&
	    put_double(fp, "stop_at_wear", d->stop_at_wear, "") == -1)
		return -1;
	return 0;
}

static void
put_opt(FILE *fp, const char *key, const char *v)
{
	if (v != NULL)
		fprintf(fp, "%s=%s\n", key, v);
}

/* The settings as a configuration file; -1 when one cannot be written. */
static int
put_config(FILE *fp, const struct config *c)
{
	size_t	i;

	fprintf(fp, "[daemon]\nstate_dir=%s\nsocket=%s\nmax_connections=%u\n"
	    "client_timeout=%llu\n", c->state_dir, c->socket,
	    c->max_connections, (unsigned long long)c->client_timeout);
	put_opt(fp, "socket_group", c->socket_group);
	put_opt(fp, "admin_group", c->admin_group);
	put_opt(fp, "rrdcached", c->rrdcached);
	put_opt(fp, "rrdcached_dir", c->rrdcached_dir);
	put_opt(fp, "prometheus_textfile", c->prometheus_textfile);
	for (i = 0; i < c->ndrives; i++)
		if (put_drive(fp, &c->drives[i]) == -1)
			return -1;
	return 0;
}

static int
str_eq(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* span_percent is read as a fraction times 100: allow that rounding. */
static void
check_same_drive(const struct drive_conf *a, const struct drive_conf *b)
{
	check(strcmp(a->name, b->name) == 0 && str_eq(a->device, b->device));
	check(str_eq(a->serial, b->serial) && a->size == b->size);
	check(a->span == b->span &&
	    fabs(a->span_percent - b->span_percent) <= 1e-12 * a->span_percent);
	check(a->order_random == b->order_random &&
	    a->block_size == b->block_size && a->queue_depth == b->queue_depth);
	check(a->static_fraction == b->static_fraction && a->trim == b->trim &&
	    a->idle_sec == b->idle_sec && a->cycles == b->cycles);
	check(a->stop_at_tbw == b->stop_at_tbw &&
	    a->on_io_error == b->on_io_error && a->autostart == b->autostart);
	check(a->smart == b->smart && a->smart_interval == b->smart_interval &&
	    a->snapshot_every == b->snapshot_every);
	check(a->stop_at_wear == b->stop_at_wear &&
	    a->max_new_bad_blocks == b->max_new_bad_blocks &&
	    a->io_timeout == b->io_timeout);
}

static void
check_same(const struct config *a, const struct config *b)
{
	size_t	i;

	check(str_eq(a->state_dir, b->state_dir) && str_eq(a->socket, b->socket));
	check(str_eq(a->socket_group, b->socket_group) &&
	    str_eq(a->admin_group, b->admin_group));
	check(a->socket_gid == b->socket_gid && a->admin_gid == b->admin_gid);
	check(a->max_connections == b->max_connections &&
	    a->client_timeout == b->client_timeout);
	check(str_eq(a->rrdcached, b->rrdcached) &&
	    str_eq(a->rrdcached_dir, b->rrdcached_dir) &&
	    str_eq(a->prometheus_textfile, b->prometheus_textfile));
	check(a->ndrives == b->ndrives);
	for (i = 0; i < a->ndrives; i++)
		check_same_drive(&a->drives[i], &b->drives[i]);
}

/* Write a clean configuration out and load it again. */
static void
round_trip(const struct config *c)
{
	struct config	 c2;
	char		*text = NULL, path[64];
	size_t		 len = 0;
	FILE		*fp;
	int		 ok, n;

	if ((fp = open_memstream(&text, &len)) == NULL)
		abort();
	ok = put_config(fp, c) == 0;
	if (fclose(fp) != 0)
		abort();
	if (ok) {
		fuzz_file((const uint8_t *)text, len, path, sizeof(path));
		n = config_load(path, stderr, &c2);
		if (n != 0)
			fprintf(stderr, "written back as:\n%s", text);
		check(n == 0);
		check_same(c, &c2);
		config_free(&c2);
	}
	free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config	 c;
	char		 path[64], *err = NULL;
	size_t		 errlen = 0;
	FILE		*errf;
	int		 n;

	fuzz_file(data, size, path, sizeof(path));
	if ((errf = open_memstream(&err, &errlen)) == NULL)
		abort();
	n = config_load(path, errf, &c);
	if (fclose(errf) != 0)
		abort();
	check_report(path, err, errlen, n);
	free(err);
	check(c.ndrives == 0 || c.drives != NULL);
	if (n == 0) {
		check_clean(&c);
		round_trip(&c);
	}
	config_free(&c);
	return 0;
}
