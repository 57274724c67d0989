/*
 * fe_ctl.c: ssdsim's control socket. A Unix stream socket; a client
 * sends one line, gets one line of JSON back and the connection closes.
 * Requests: "power off", "power on", "smart", "status", "stop". A request
 * that is too long, not text or unknown gets {"ok":false,"error":...};
 * a client that sends nothing is dropped after two seconds.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <json.h>

#include "fe.h"
#include "fe_reply.h"

#define REQ_MAX		128
#define CLIENT_TIMEOUT	2	/* seconds */

static struct {
	struct fe	*fe;
	int		 lfd;
	int		 stop_pipe[2];
	pthread_t	 thread;
	int		 running;
	char		 path[sizeof(((struct sockaddr_un *)0)->sun_path)];
} ctl = { .lfd = -1, .stop_pipe = { -1, -1 } };

static int
fill_addr(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa->sun_path, path);
	return 0;
}

int
fe_ctl_listen(const char *path)
{
	struct sockaddr_un	sa;
	int			fd;

	if (fill_addr(path, &sa) == -1)
		return -1;
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	/* a socket left by a run that died: nobody listens on it */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		close(fd);
		errno = EADDRINUSE;
		return -1;
	}
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == -1 ||
	    chmod(path, 0600) == -1 || listen(fd, 16) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Read one line (without its newline): its length, or -1 with why. */
static int
read_line(int fd, char *buf, size_t len, const char **why)
{
	size_t	n = 0;
	ssize_t	r;

	while (n < len) {
		r = read(fd, buf + n, len - n);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0) {
			*why = r == 0 ? "no newline before the end" :
			    "nothing came in time";
			return -1;
		}
		n += (size_t)r;
		if (memchr(buf, '\n', n) != NULL) {
			n = (size_t)((char *)memchr(buf, '\n', n) - buf);
			buf[n] = '\0';
			return (int)n;
		}
	}
	*why = "request too long";
	return -1;
}

static struct json_object *
err_reply(const char *why)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "ok", json_object_new_boolean(0));
	json_object_object_add(o, "error", json_object_new_string(why));
	return o;
}

static struct json_object *
ok_reply(void)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "ok", json_object_new_boolean(1));
	return o;
}

static struct json_object *
do_power(struct fe *fe, int on)
{
	struct json_object	*o;
	char			 msg[256];
	uint64_t		 bytes = 0;
	size_t			 n = 0;
	int			 rc;

	rc = on ? fe_power_on(fe, msg, sizeof(msg)) :
	    fe_power_off(fe, &n, &bytes, msg, sizeof(msg));
	if (rc == -1)
		return err_reply(msg);
	o = ok_reply();
	json_object_object_add(o, "power", json_object_new_string(on ? "on" :
	    "off"));
	if (!on) {
		json_object_object_add(o, "lost_ranges",
		    json_object_new_uint64(n));
		json_object_object_add(o, "lost_bytes",
		    json_object_new_uint64(bytes));
	}
	return o;
}

static struct json_object *
do_smart(struct fe *fe)
{
	struct sim_counters	 c;
	struct json_object	*o, *s;
	int			 on;

	pthread_mutex_lock(&fe->lock);
	on = fe->powered;
	sim_model_counters(fe->m, fe_now(), &c);
	if (!on)
		s = fe_smart_absent(fe, "Smartctl open device: the drive has no "
		    "power");
	else if (c.life == SIM_LIFE_GONE)
		s = fe_smart_absent(fe, "Read NVMe Identify Controller failed: "
		    "the drive does not answer");
	else
		s = fe_smart_json(fe, &c);
	pthread_mutex_unlock(&fe->lock);
	o = ok_reply();
	json_object_object_add(o, "smart", s);
	return o;
}

static struct json_object *
do_status(struct fe *fe)
{
	struct json_object	*o = ok_reply();
	int			 on;

	pthread_mutex_lock(&fe->lock);
	on = fe->powered;
	pthread_mutex_unlock(&fe->lock);
	json_object_object_add(o, "power", json_object_new_string(on ? "on" :
	    "off"));
	json_object_object_add(o, "profile",
	    json_object_new_string(fe->prof.name));
	json_object_object_add(o, "capacity",
	    json_object_new_uint64(fe->capacity));
	json_object_object_add(o, "mountpoint",
	    json_object_new_string(fe->mountpoint));
	json_object_object_add(o, "replies_pending",
	    json_object_new_uint64(fe_reply_pending(fe->rq)));
	return o;
}

static struct json_object *
dispatch(struct fe *fe, const char *req, int *stop)
{
	const char	*p;

	for (p = req; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			return err_reply("not a text request");
	if (strcmp(req, "power off") == 0)
		return do_power(fe, 0);
	if (strcmp(req, "power on") == 0)
		return do_power(fe, 1);
	if (strcmp(req, "smart") == 0)
		return do_smart(fe);
	if (strcmp(req, "status") == 0)
		return do_status(fe);
	if (strcmp(req, "stop") == 0) {
		*stop = 1;
		return ok_reply();
	}
	return err_reply("unknown request (power off|power on|smart|status|"
	    "stop)");
}

static void
serve(struct fe *fe, int cfd)
{
	struct timeval		 tv = { .tv_sec = CLIENT_TIMEOUT };
	struct json_object	*o;
	const char		*why = NULL, *s;
	char			 buf[REQ_MAX + 2];
	int			 stop = 0;

	setsockopt(cfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(cfd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (read_line(cfd, buf, sizeof(buf) - 1, &why) < 0)
		o = err_reply(why);
	else
		o = dispatch(fe, buf, &stop);
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE);
	if (write(cfd, s, strlen(s)) < 0 || write(cfd, "\n", 1) < 0) {
		/* the client left before its reply: nothing to undo */
	}
	json_object_put(o);
	close(cfd);
	if (stop)
		pthread_kill(fe->main_thread, SIGTERM);	/* the loop's exit */
}

static void *
ctl_thread(void *arg)
{
	struct pollfd	pf[2];
	int		cfd;

	(void)arg;
	pf[0].fd = ctl.lfd;
	pf[0].events = POLLIN;
	pf[1].fd = ctl.stop_pipe[0];
	pf[1].events = POLLIN;
	for (;;) {
		if (poll(pf, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents)
			break;
		if (!(pf[0].revents & POLLIN))
			continue;
		if ((cfd = accept4(ctl.lfd, NULL, NULL, SOCK_CLOEXEC)) == -1)
			continue;
		serve(ctl.fe, cfd);
	}
	return NULL;
}

int
fe_ctl_start(struct fe *fe, int lfd, const char *path)
{
	sigset_t	all, old;
	int		rc;

	ctl.fe = fe;
	ctl.lfd = lfd;
	snprintf(ctl.path, sizeof(ctl.path), "%s", path);
	if (pipe2(ctl.stop_pipe, O_CLOEXEC) == -1)
		return -1;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&ctl.thread, NULL, ctl_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	ctl.running = 1;
	return 0;
}

void
fe_ctl_stop(void)
{
	if (ctl.running) {
		if (write(ctl.stop_pipe[1], "x", 1) < 0)
			pthread_cancel(ctl.thread);
		pthread_join(ctl.thread, NULL);
		ctl.running = 0;
	}
	if (ctl.lfd != -1) {
		close(ctl.lfd);
		unlink(ctl.path);
	}
	ctl.lfd = -1;
}

struct json_object *
fe_ctl_call(const char *path, const char *req, char *err, size_t errlen)
{
	struct sockaddr_un	 sa;
	struct timeval		 tv = { .tv_sec = 60 };
	struct json_object	*o;
	char			 buf[1 << 16];
	size_t			 n = 0;
	ssize_t			 r;
	int			 fd;

	if (fill_addr(path, &sa) == -1 ||
	    (fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == -1 ||
	    dprintf(fd, "%s\n", req) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	while (n < sizeof(buf) - 1 &&
	    (r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = '\0';
	if ((o = json_tokener_parse(buf)) == NULL)
		snprintf(err, errlen, "%s: no reply, or not JSON", path);
	return o;
}
