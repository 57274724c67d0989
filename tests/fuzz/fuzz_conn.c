/*
 * fuzz_conn.c: libFuzzer target for the control socket's connection
 * layer (control.c) as it runs in the daemon: a real sd-event loop, a
 * real listening socket, and up to four clients driven by the input. The
 * input is a script: clients connect, send calls (whole, pipelined, cut
 * in pieces or garbage), follow drives' events, shut one side down or
 * disconnect, read or stop reading, while drives emit events, a reload
 * removes a followed drive, and a Stop logs an event from inside its own
 * dispatch. Any sanitizer report is a bug; so is a reply that is not one
 * JSON object, or a "continues" reply to a client that never asked for
 * more.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "control.h"
#include "fuzz_file.h"
#include "log.h"

#define NCLIENTS	4
#define CLIENT_BUF	(1 << 20)

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct client {
	int	 fd;
	int	 asked_more;	/* sent a call with "more" */
	char	*buf;		/* a reply not yet complete */
	size_t	 len;
};

static struct {
	sd_event	*ev;
	struct control	*ctl;
	char		 path[108];
	struct client	 cl[NCLIENTS];
	unsigned	 event_size;	/* padding of the fake events */
	int		 bay2_gone;
} fz;

/* ------------------------------------------------ a fake daemon */

static int
known(const char *d)
{
	return strcmp(d, "bay1") == 0 ||
	    (strcmp(d, "bay2") == 0 && !fz.bay2_gone);
}

static json_object *
fake_event(const char *drive, int seq)
{
	json_object	*o = json_object_new_object();
	char		 pad[256];
	unsigned	 n = fz.event_size % sizeof(pad);

	memset(pad, 'x', n);
	pad[n] = '\0';
	json_object_object_add(o, "drive", json_object_new_string(drive));
	json_object_object_add(o, "seq", json_object_new_int(seq));
	json_object_object_add(o, "pad", json_object_new_string(pad));
	return o;
}

/* A drive logs an event: what the daemon does on every state change. */
static void
emit(const char *drive, int seq)
{
	json_object	*e = fake_event(drive, seq);

	control_event(fz.ctl, drive, e);
	json_object_put(e);
}

static int
f_status(void *arg, const char *drive, json_object *drives)
{
	(void)arg;
	if (drive != NULL && !known(drive))
		return -ENOENT;
	json_object_array_add(drives, json_object_new_object());
	return 0;
}

/* Commands log an event from inside the caller's dispatch. */
static int
f_command(void *arg, enum ctl_cmd cmd, const char *drive, char *msg,
    size_t msglen, char *state, size_t statelen)
{
	(void)arg;
	if (!known(drive))
		return -ENOENT;
	if (cmd == CMD_RESUME) {
		snprintf(msg, msglen, "%s: not paused", drive);
		snprintf(state, statelen, "running");
		return -EBUSY;
	}
	emit(drive, (int)cmd);
	return 0;
}

static int
f_events(void *arg, const char *drive, int count, json_object *events)
{
	int	i;

	(void)arg;
	if (!known(drive))
		return -ENOENT;
	for (i = 0; i < count; i++)
		json_object_array_add(events, fake_event(drive, i));
	return 0;
}

static int
f_smart(void *arg, const char *drive, json_object *out)
{
	(void)arg;
	(void)out;
	return known(drive) ? -ENODATA : -ENOENT;
}

static int
f_errors(void *arg, const char *drive, uint64_t pass, uint32_t resolution,
    int again, json_object *out)
{
	(void)arg;
	(void)resolution;
	(void)again;
	(void)pass;
	(void)out;
	return known(drive) ? -ENODATA : -ENOENT;
}

static int
f_checkpoints(void *arg, const char *drive, json_object *probes)
{
	(void)arg;
	(void)probes;
	return known(drive) ? 0 : -ENOENT;
}

static int
f_timelines(void *arg, const char *drive, int64_t pass, json_object *out)
{
	(void)arg;
	(void)pass;
	(void)out;
	return known(drive) ? 0 : -ENOENT;
}

static int
f_series(void *arg, const char *drive, uint64_t ckpt, json_object *out)
{
	(void)arg;
	(void)ckpt;
	(void)out;
	return known(drive) ? 0 : -ENOENT;
}

/* A reload that removes bay2, as the daemon's does, inside a dispatch. */
static int
f_reload(void *arg, json_object *errors)
{
	(void)arg;
	(void)errors;
	if (!fz.bay2_gone) {
		fz.bay2_gone = 1;
		control_drive_removed(fz.ctl, "bay2");
	}
	return 0;
}

static int
f_authorize(void *arg, const struct peer *p, const char *method)
{
	(void)arg;
	(void)p;
	(void)method;
	return 1;
}

static const struct control_ops ops = {
	.status = f_status, .command = f_command, .smart = f_smart,
	.errors = f_errors, .checkpoints = f_checkpoints,
	.snapshots = f_checkpoints, .timelines = f_timelines, .series = f_series,
	.events = f_events, .reload = f_reload, .authorize = f_authorize,
};

/* ------------------------------------------------ clients */

static void
client_close(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

static void
client_connect(struct client *c)
{
	struct sockaddr_un	sun = { .sun_family = AF_UNIX };

	client_close(c);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", fz.path);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd >= 0 && connect(c->fd, (struct sockaddr *)&sun,
	    sizeof(sun)) == -1)
		client_close(c);
}

/* Every complete reply is one JSON object; "continues" only after "more". */
static void
client_check(struct client *c, const char *msg, size_t len)
{
	json_object	*o = json_tokener_parse(msg), *v;

	if (strlen(msg) != len || o == NULL ||
	    !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "parameters", NULL))
		abort();
	if (json_object_object_get_ex(o, "continues", &v) && !c->asked_more)
		abort();
	json_object_put(o);
}

static void
client_read(struct client *c, size_t want)
{
	char	 tmp[65536], *nul, *p;
	ssize_t	 n;

	while (c->fd >= 0 && want > 0) {
		n = recv(c->fd, tmp, want < sizeof(tmp) ? want : sizeof(tmp),
		    MSG_DONTWAIT);
		if (n <= 0)
			return;
		want -= (size_t)n;
		if (c->len + (size_t)n > CLIENT_BUF) {
			c->len = 0;	/* too long to keep: stop checking it */
			continue;
		}
		if ((p = realloc(c->buf, c->len + (size_t)n + 1)) == NULL)
			abort();
		c->buf = p;
		memcpy(c->buf + c->len, tmp, (size_t)n);
		c->len += (size_t)n;
		c->buf[c->len] = '\0';
		while ((nul = memchr(c->buf, '\0', c->len)) != NULL) {
			client_check(c, c->buf, (size_t)(nul - c->buf));
			c->len -= (size_t)(nul - c->buf) + 1;
			memmove(c->buf, nul + 1, c->len);
		}
	}
}

static void
client_send(struct client *c, const char *s, size_t len)
{
	if (c->fd >= 0)
		(void)send(c->fd, s, len, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* Calls worth combining; the input picks one, or sends its own bytes. */
static const char *const calls[] = {
	"{\"method\":\"io.ssdtorture.Manager.Events\",\"parameters\":"
	    "{\"drive\":\"bay1\",\"count\":%u},\"more\":true}",
	"{\"method\":\"io.ssdtorture.Manager.Events\",\"parameters\":"
	    "{\"drive\":\"bay2\",\"count\":%u},\"more\":true}",
	"{\"method\":\"io.ssdtorture.Manager.Events\",\"parameters\":"
	    "{\"drive\":\"bay1\",\"count\":%u}}",
	"{\"method\":\"io.ssdtorture.Manager.Stop\",\"parameters\":"
	    "{\"drive\":\"bay%u\"}}",
	"{\"method\":\"io.ssdtorture.Manager.Status\"}",
	"{\"method\":\"io.ssdtorture.Manager.Reload\"}",
	"{\"method\":\"org.varlink.service.GetInfo\",\"oneway\":true}",
	"{\"method\":\"io.ssdtorture.Manager.Status\",\"parameters\":"
	    "{\"bogus\":%u}}",
};

/* ------------------------------------------------ the script */

struct script {
	const uint8_t	*p, *end;
};

static unsigned
take(struct script *s)
{
	return s->p < s->end ? *s->p++ : 0;
}

static void
op_call(struct script *s, struct client *c)
{
	char		 msg[512];
	unsigned	 which = take(s) % (sizeof(calls) / sizeof(calls[0]));
	unsigned	 arg = take(s) * 8 + take(s);	/* up to ~2300 */
	int		 n;

	n = snprintf(msg, sizeof(msg), calls[which], which == 3 ?
	    1 + arg % 2 : arg);
	if (n < 0 || (size_t)n >= sizeof(msg))
		return;
	if (strstr(msg, "\"more\":true") != NULL)
		c->asked_more = 1;
	client_send(c, msg, (size_t)n + 1);	/* with its NUL */
}

/* Raw bytes from the input: garbage, pieces of calls, extra NULs. */
static void
op_raw(struct script *s, struct client *c)
{
	size_t	len = take(s);

	if (len > (size_t)(s->end - s->p))
		len = (size_t)(s->end - s->p);
	/* a raw message may hold "more": the daemon may stream to it */
	c->asked_more = 1;
	client_send(c, (const char *)s->p, len);
	s->p += len;
}

static void
run_loop(unsigned turns)
{
	while (turns-- > 0)
		if (sd_event_run(fz.ev, 0) < 0)
			abort();
}

static void
step(struct script *s)
{
	unsigned	 op = take(s), k = take(s) % NCLIENTS;
	struct client	*c = &fz.cl[k];

	switch (op % 11) {
	case 0:	op_call(s, c); break;
	case 1:	op_raw(s, c); break;
	case 2:	if (c->fd >= 0) shutdown(c->fd, SHUT_RD); break;
	case 3:	if (c->fd >= 0) shutdown(c->fd, SHUT_WR); break;
	case 4:	client_close(c); break;
	case 5:	client_connect(c); break;
	case 6:	emit(k & 1 ? "bay2" : "bay1", (int)take(s)); break;
	case 7:	if (!fz.bay2_gone) { fz.bay2_gone = 1;
		    control_drive_removed(fz.ctl, "bay2"); } break;
	case 8:	client_read(c, (size_t)take(s) << 10); break;
	case 9:	fz.event_size = take(s) * 2; break;
	default: run_loop(1 + take(s) % 8); break;
	}
}

static char	sock_dir[64];

static void
cleanup(void)
{
	unlink(fz.path);
	rmdir(sock_dir);
}

static void
setup_once(void)
{
	static int	done;

	if (done++)
		return;
	log_init("fuzz_conn", 0);
	fuzz_scratch(sock_dir, sizeof(sock_dir), "fuzz_conn");
	if (sd_event_new(&fz.ev) < 0)
		abort();
	snprintf(fz.path, sizeof(fz.path), "%s/ctl.sock", sock_dir);
	atexit(cleanup);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct control_conf	 conf = { .path = fz.path, .group = getgid(),
				    .max_connections = NCLIENTS,
				    .timeout_sec = 1, .max_queued = 256 * 1024 };
	struct script		 s = { data, data + size };
	int			 i;

	setup_once();
	fz.bay2_gone = 0;
	fz.event_size = 0;
	if ((fz.ctl = control_new(fz.ev, &conf, &ops)) == NULL)
		abort();
	for (i = 0; i < NCLIENTS; i++) {
		fz.cl[i].fd = -1;
		client_connect(&fz.cl[i]);
	}
	while (s.p < s.end)
		step(&s);
	run_loop(4);
	for (i = 0; i < NCLIENTS; i++) {
		client_read(&fz.cl[i], CLIENT_BUF);
		client_close(&fz.cl[i]);
	}
	run_loop(4);
	control_free(fz.ctl);
	fz.ctl = NULL;
	return 0;
}
