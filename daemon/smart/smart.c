/*
 * smart.c: the SMART poller thread, the SATA reader (smartctl, run by
 * smart_run.c), device detection, and SMART as JSON.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmdline.h"
#include "smart.h"
#include "smart_read.h"

enum smart_source
smart_detect(const char *dev)
{
	char		 path[PATH_MAX], *base;
	struct stat	 st;

	if (stat(dev, &st) == -1 || !S_ISBLK(st.st_mode) ||
	    realpath(dev, path) == NULL)
		return SMART_NONE;
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (strncmp(base, "nvme", 4) == 0)
		return SMART_NVME;
	if (strncmp(base, "sd", 2) == 0)
		return SMART_ATA;
	return SMART_NONE;
}

int
smart_read_ata(const char *dev, struct smart *s, char *err, size_t errlen)
{
	char	*argv[] = { "smartctl", "--json", "-a", "-l", "devstat",
		    (char *)dev, NULL };
	char	*out;
	size_t	 len;
	int	 rc;

	if ((out = smart_run(argv, SMARTCTL_TIMEOUT_SEC, &len, err,
	    errlen)) == NULL)
		return -1;
	rc = smart_from_ata_json(out, len, s, err, errlen);
	free(out);
	snprintf(s->read_with, sizeof(s->read_with), "smartctl");
	return rc;
}

/* Does smartctl's device type `type` reach an NVMe drive (a USB bridge's
 * sntjmicron, sntasmedia, sntrealtek; nvme)? It has no ATA logs. */
static int
type_is_nvme(const char *type)
{
	return strncmp(type, "snt", 3) == 0 || strncmp(type, "nvme", 4) == 0;
}

int
smart_read_typed(const char *dev, const char *type, struct smart *s,
    char *err, size_t errlen)
{
	char	*argv[] = { "smartctl", "--json", "-a", "-l", "devstat", "-d",
		    (char *)type, (char *)dev, NULL };
	char	*out, **av = argv;
	size_t	 len;
	int	 rc;

	if (type_is_nvme(type)) {	/* no -l devstat */
		argv[3] = "-d";
		argv[4] = (char *)type;
		argv[5] = (char *)dev;
		argv[6] = NULL;
	}
	if ((out = smart_run(av, SMARTCTL_TIMEOUT_SEC, &len, err,
	    errlen)) == NULL)
		return -1;
	rc = smart_from_json(out, len, s, err, errlen);
	free(out);
	snprintf(s->read_with, sizeof(s->read_with), "smartctl -d %s", type);
	return rc;
}

int
smart_read_command(const char *cmd, struct smart *s, char *err,
    size_t errlen)
{
	char	**argv, *out, why[256];
	size_t	  len;
	int	  rc;

	if ((argv = cmdline_split(cmd, why, sizeof(why))) == NULL) {
		snprintf(err, errlen, "smart_command: %s", why);
		return -1;
	}
	if ((out = smart_run(argv, SMARTCTL_TIMEOUT_SEC, &len, why,
	    sizeof(why))) == NULL) {
		snprintf(err, errlen, "smart_command %s", why);
		cmdline_free(argv);
		return -1;
	}
	if ((rc = smart_from_json(out, len, s, why, sizeof(why))) == -1)
		snprintf(err, errlen, "smart_command %s: %s", argv[0], why);
	else
		snprintf(s->read_with, sizeof(s->read_with),
		    "smart_command %s", argv[0]);
	free(out);
	cmdline_free(argv);
	return rc;
}

struct smart_poller {
	char		*dev;
	char		*cmd;		/* smart_command, NULL: read dev */
	char		*type;		/* smartctl -d TYPE, NULL: none */
	enum smart_source source;
	int		 efd;
	pthread_t	 thr;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 requested, busy, ready, quit;
	int		 ok;
	struct smart	 result;
	char		 err[256];
};

/* One read, outside the lock. */
static void
poller_read(struct smart_poller *p)
{
	struct smart	s;
	char		err[256] = "";
	int		rc;
	uint64_t	one = 1;
	char		*cmd = NULL, *type = NULL;
	int		 has_cmd, has_type;

	/* the command and the type may change between reads: copies, and
	 * whether there are any, taken under the lock */
	pthread_mutex_lock(&p->mu);
	has_cmd = p->cmd != NULL;
	has_type = p->type != NULL;
	if ((has_cmd && (cmd = strdup(p->cmd)) == NULL) ||
	    (has_type && (type = strdup(p->type)) == NULL))
		snprintf(err, sizeof(err), "SMART: out of memory");
	pthread_mutex_unlock(&p->mu);
	rc = cmd != NULL ? smart_read_command(cmd, &s, err, sizeof(err)) :
	    has_cmd ? -1 : type != NULL ?
	    smart_read_typed(p->dev, type, &s, err, sizeof(err)) :
	    has_type ? -1 : p->source == SMART_NVME ?
	    smart_read_nvme(p->dev, &s, err, sizeof(err)) :
	    smart_read_ata(p->dev, &s, err, sizeof(err));
	free(cmd);
	free(type);
	pthread_mutex_lock(&p->mu);
	p->ok = rc == 0;
	if (rc == 0)
		p->result = s;
	snprintf(p->err, sizeof(p->err), "%s", err);
	p->busy = 0;
	p->ready = 1;
	pthread_mutex_unlock(&p->mu);
	if (write(p->efd, &one, sizeof(one)) == -1)
		(void)0;	/* the counter cannot overflow here */
}

static void *
poller_main(void *arg)
{
	struct smart_poller	*p = arg;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->quit && !p->requested)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->quit)
			break;
		p->requested = 0;
		pthread_mutex_unlock(&p->mu);
		poller_read(p);
		pthread_mutex_lock(&p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

struct smart_poller *
smart_poller_new(const char *dev, enum smart_source source, const char *cmd,
    const char *type)
{
	struct smart_poller	*p;
	sigset_t		 all, old;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->dev = strdup(dev);
	if ((cmd != NULL && (p->cmd = strdup(cmd)) == NULL) ||
	    (type != NULL && (p->type = strdup(type)) == NULL)) {
		free(p->dev);
		free(p->cmd);
		free(p);
		return NULL;
	}
	p->source = source;
	p->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);	/* signals are the loop's */
	if (p->dev == NULL || p->efd == -1 ||
	    pthread_create(&p->thr, NULL, poller_main, p) != 0) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (p->efd != -1)
			close(p->efd);
		free(p->dev);
		free(p->cmd);
		free(p->type);
		free(p);
		return NULL;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return p;
}

void
smart_poller_free(struct smart_poller *p)
{
	if (p == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->thr, NULL);	/* bounded: smartctl has a deadline */
	close(p->efd);
	free(p->dev);
	free(p->cmd);
	free(p->type);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p);
}

int
smart_poller_fd(struct smart_poller *p)
{
	return p->efd;
}

int
smart_poller_request(struct smart_poller *p)
{
	int	rc = -1;

	pthread_mutex_lock(&p->mu);
	if (!p->busy && !p->requested && !p->ready) {
		p->requested = p->busy = 1;
		pthread_cond_broadcast(&p->cv);
		rc = 0;
	}
	pthread_mutex_unlock(&p->mu);
	return rc;
}

/* Replace *field (one the poller was made with) by a copy of v, under the
 * lock: -1 when it has none, it is the same, or memory is short. */
static int
poller_set(struct smart_poller *p, char **field, const char *v)
{
	char	*c;

	pthread_mutex_lock(&p->mu);
	if (*field == NULL || strcmp(*field, v) == 0 ||
	    (c = strdup(v)) == NULL) {
		pthread_mutex_unlock(&p->mu);
		return -1;
	}
	free(*field);
	*field = c;
	pthread_mutex_unlock(&p->mu);
	return 0;
}

int
smart_poller_set_command(struct smart_poller *p, const char *cmd)
{
	return poller_set(p, &p->cmd, cmd);
}

int
smart_poller_set_type(struct smart_poller *p, const char *type)
{
	return poller_set(p, &p->type, type);
}

int
smart_poller_busy(struct smart_poller *p)
{
	int	busy;

	pthread_mutex_lock(&p->mu);
	busy = p->busy;
	pthread_mutex_unlock(&p->mu);
	return busy;
}

int
smart_poller_take(struct smart_poller *p, struct smart *s, int *ok,
    char *err, size_t errlen)
{
	uint64_t	drain;
	int		ready;

	if (read(p->efd, &drain, sizeof(drain)) == -1)
		(void)0;	/* nothing to drain */
	pthread_mutex_lock(&p->mu);
	if ((ready = p->ready)) {
		*s = p->result;
		*ok = p->ok;
		snprintf(err, errlen, "%s", p->err);
		p->ready = 0;
	}
	pthread_mutex_unlock(&p->mu);
	return ready;
}

/* A value when reported, else null. */
static json_object *
opt_u64(int has, uint64_t v)
{
	return has ? json_object_new_uint64(v) : NULL;
}

static json_object *
attrs_json(const struct smart *s)
{
	json_object	*arr = json_object_new_array(), *a;
	int		 i;

	for (i = 0; i < s->nattrs; i++) {
		a = json_object_new_object();
		json_object_object_add(a, "id", json_object_new_int(s->attrs[i].id));
		json_object_object_add(a, "name",
		    json_object_new_string(s->attrs[i].name));
		json_object_object_add(a, "value",
		    json_object_new_int(s->attrs[i].value));
		json_object_object_add(a, "worst",
		    json_object_new_int(s->attrs[i].worst));
		json_object_object_add(a, "thresh",
		    json_object_new_int(s->attrs[i].thresh));
		json_object_object_add(a, "raw",
		    json_object_new_uint64(s->attrs[i].raw));
		json_object_array_add(arr, a);
	}
	return arr;
}

/* The NVMe-only counters. */
static void
nvme_json(json_object *o, const struct smart *s)
{
	json_object	*t = json_object_new_array();
	int		 i;

#define ADD(k, v) json_object_object_add(o, k, v)
	ADD("data_units_written", json_object_new_uint64(s->data_units_written));
	ADD("data_units_read", json_object_new_uint64(s->data_units_read));
	ADD("host_write_commands", json_object_new_uint64(s->host_write_cmds));
	ADD("host_read_commands", json_object_new_uint64(s->host_read_cmds));
	ADD("error_log_entries", json_object_new_uint64(s->error_log_entries));
	ADD("warning_temp_minutes", json_object_new_uint64(
	    s->warning_temp_minutes));
	ADD("critical_temp_minutes", json_object_new_uint64(
	    s->critical_temp_minutes));
	ADD("thermal_transitions_1", opt_u64(s->has_thermal,
	    s->thermal_transitions[0]));
	ADD("thermal_transitions_2", opt_u64(s->has_thermal,
	    s->thermal_transitions[1]));
	ADD("thermal_seconds_1", opt_u64(s->has_thermal, s->thermal_seconds[0]));
	ADD("thermal_seconds_2", opt_u64(s->has_thermal, s->thermal_seconds[1]));
	for (i = 0; i < s->ntemp_sensors; i++)
		json_object_array_add(t, json_object_new_int(
		    s->temp_sensors_c[i]));
	ADD("temperature_sensors_c", t);
#undef ADD
	smart_ocp_json(o, s);
}

json_object *
smart_to_json(const struct smart *s)
{
	json_object	*o = json_object_new_object();

#define ADD(k, v) json_object_object_add(o, k, v)
	ADD("source", json_object_new_string(s->source == SMART_NVME ? "nvme" :
	    s->source == SMART_ATA ? "ata" : s->source == SMART_SCSI ? "scsi" :
	    "none"));
	ADD("read_with", s->read_with[0] != '\0' ?
	    json_object_new_string(s->read_with) : NULL);
	ADD("time", json_object_new_uint64(s->time));
	ADD("model", json_object_new_string(s->model));
	ADD("serial", json_object_new_string(s->serial));
	ADD("firmware", json_object_new_string(s->firmware));
	ADD("percent_used", s->has_percent_used ?
	    json_object_new_double(s->percent_used) : NULL);
	ADD("available_spare", opt_u64(s->has_spare, (uint64_t)s->available_spare));
	ADD("spare_threshold", opt_u64(s->has_spare, (uint64_t)s->spare_threshold));
	ADD("temperature_c", s->has_temperature ?
	    json_object_new_int(s->temperature_c) : NULL);
	ADD("critical_warning", json_object_new_int(s->critical_warning));
	ADD("media_errors", opt_u64(s->has_media_errors, s->media_errors));
	ADD("reallocated", opt_u64(s->has_reallocated, s->reallocated));
	ADD("pending", opt_u64(s->has_pending, s->pending));
	ADD("device_bytes_written", opt_u64(s->has_device_written,
	    s->device_bytes_written));
	ADD("device_bytes_read", opt_u64(s->has_device_read,
	    s->device_bytes_read));
	ADD("nand_bytes_written", opt_u64(s->has_nand_written,
	    s->nand_bytes_written));
	ADD("power_on_hours", json_object_new_uint64(s->power_on_hours));
	ADD("power_cycles", opt_u64(s->has_power_cycles, s->power_cycles));
	ADD("unsafe_shutdowns", opt_u64(s->has_unsafe_shutdowns,
	    s->unsafe_shutdowns));
	ADD("health_passed", s->has_health ?
	    json_object_new_boolean(s->health_passed) : NULL);
#undef ADD
	if (s->source == SMART_NVME)
		nvme_json(o, s);
	if (s->nattrs > 0)
		json_object_object_add(o, "attributes", attrs_json(s));
	json_object_object_add(o, "sources", smart_sources_json(s));
	return o;
}
