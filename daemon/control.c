/*
 * control.c: the control socket. Every client gets an input buffer of
 * one maximal message, an output queue with a bound, and a timer for a
 * message left half-sent. Bad input gets an error reply and, where the
 * framing is lost (a message over the limit), the connection is closed;
 * nothing a client sends can stop the daemon.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "control.h"
#include "log.h"
#include "varlink.h"

#define IN_CAP		(PROTO_MAX_MESSAGE + 1)
#define ACCEPT_BACKOFF	1000000ULL	/* usec after EMFILE */

struct conn {
	struct control	*ctl;
	int		 fd;
	sd_event_source	*io;
	sd_event_source	*timer;
	char		 in[IN_CAP];
	size_t		 inlen;
	char		*out;
	size_t		 outlen, outcap;
	struct peer	 peer;
	int		 follow;
	char		 drive[64];
	int		 closing;	/* close once the output is sent */
	struct conn	*next;
};

struct control {
	sd_event		*ev;
	struct control_conf	 conf;
	struct control_ops	 ops;
	int			 fd;
	int			 created;	/* we bound it: unlink at exit */
	sd_event_source		*listen_src;
	sd_event_source		*backoff;
	struct conn		*conns;
	unsigned		 nconns;
	int			 full_warned;
};

static void	conn_close(struct conn *);
static void	conn_process(struct conn *);

/* Start watching for writability only while output is queued. */
static void
conn_update_events(struct conn *c)
{
	/* a closing connection reads nothing more: it only drains */
	sd_event_source_set_io_events(c->io, (c->closing ? 0 : EPOLLIN) |
	    (c->outlen > 0 ? EPOLLOUT : 0));
}

/* Send what can be sent now; -1 when the peer is gone. */
static int
conn_flush(struct conn *c)
{
	ssize_t	n;

	while (c->outlen > 0) {
		n = send(c->fd, c->out, c->outlen, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			break;
		if (n <= 0)
			return -1;
		memmove(c->out, c->out + n, c->outlen - (size_t)n);
		c->outlen -= (size_t)n;
	}
	conn_update_events(c);
	return 0;
}

/* Queue a reply; a client that lets too much pile up is dropped. */
static int
conn_queue(struct conn *c, struct vl_msg *m)
{
	size_t	need = c->outlen + m->len;
	char	*nb;

	if (need > c->ctl->conf.max_queued) {
		log_warnx("control: client pid %d does not read its replies "
		    "(%zu bytes queued); disconnecting", (int)c->peer.pid,
		    c->outlen);
		free(m->buf);
		return -1;
	}
	if (need > c->outcap) {
		if ((nb = realloc(c->out, need)) == NULL) {
			free(m->buf);
			return -1;
		}
		c->out = nb;
		c->outcap = need;
	}
	memcpy(c->out + c->outlen, m->buf, m->len);
	c->outlen += m->len;
	free(m->buf);
	return conn_flush(c);
}

/* One complete message: parse, dispatch, queue the reply. */
static int
conn_message(struct conn *c, const char *msg, size_t len)
{
	struct vl_call		call;
	struct vl_msg		err;
	struct dispatch_out	out;

	if (vl_parse(msg, len, &call, &err) == -1) {
		log_debug("control: bad message from pid %d", (int)c->peer.pid);
		return err.buf == NULL ? 0 : conn_queue(c, &err);
	}
	methods_dispatch(&call, &c->peer, &c->ctl->ops, &out);
	vl_call_free(&call);
	if (out.follow) {
		c->follow = 1;
		snprintf(c->drive, sizeof(c->drive), "%s", out.drive);
	}
	if (out.reply.buf == NULL)
		return 0;
	return conn_queue(c, &out.reply);
}

/* A half-sent message sat too long: drop the client. */
static int
on_conn_timeout(sd_event_source *s, uint64_t usec, void *arg)
{
	struct conn	*c = arg;

	(void)s;
	(void)usec;
	log_debug("control: pid %d left a message half-sent (or its last "
	    "reply unread) for %u s; disconnecting", (int)c->peer.pid,
	    c->ctl->conf.timeout_sec);
	conn_close(c);
	return 0;
}

/* Arm the half-message timer while input is pending, disarm otherwise. */
static void
conn_timer(struct conn *c)
{
	uint64_t	now;

	if (c->inlen == 0 && !c->closing) {
		sd_event_source_set_enabled(c->timer, SD_EVENT_OFF);
		return;
	}
	sd_event_now(c->ctl->ev, CLOCK_MONOTONIC, &now);
	now += (uint64_t)c->ctl->conf.timeout_sec * 1000000ULL;
	if (c->timer == NULL)
		sd_event_add_time(c->ctl->ev, &c->timer, CLOCK_MONOTONIC, now,
		    100000, on_conn_timeout, c);
	else {
		sd_event_source_set_time(c->timer, now);
		sd_event_source_set_enabled(c->timer, SD_EVENT_ONESHOT);
	}
}

/* Handle every complete message in the input buffer. */
static void
conn_process(struct conn *c)
{
	struct vl_msg	err;
	json_object	*lim;
	char		*nul;
	size_t		 used = 0, len;

	while (!c->closing &&
	    (nul = memchr(c->in + used, '\0', c->inlen - used)) != NULL) {
		len = (size_t)(nul - (c->in + used));
		if (conn_message(c, c->in + used, len) == -1) {
			conn_close(c);
			return;
		}
		used += len + 1;
	}
	memmove(c->in, c->in + used, c->inlen - used);
	c->inlen -= used;
	if (c->inlen == IN_CAP) {	/* no NUL within the limit: framing lost */
		lim = json_object_new_object();
		json_object_object_add(lim, "limit",
		    json_object_new_int(PROTO_MAX_MESSAGE));
		vl_error(PROTO_INTERFACE ".MessageTooLarge", lim, &err);
		log_debug("control: message over %d bytes from pid %d",
		    PROTO_MAX_MESSAGE, (int)c->peer.pid);
		c->inlen = 0;
		c->closing = 1;
		if (conn_queue(c, &err) == -1 || c->outlen == 0) {
			conn_close(c);
			return;
		}
		conn_update_events(c);
	}
	conn_timer(c);	/* also bounds how long a closing peer may take */
}

static int
on_conn_io(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	struct conn	*c = arg;
	ssize_t		 n;

	(void)s;
	if ((revents & EPOLLOUT) && (conn_flush(c) == -1 ||
	    (c->closing && c->outlen == 0))) {
		conn_close(c);
		return 0;
	}
	if (!(revents & (EPOLLIN | EPOLLHUP | EPOLLERR)) || c->closing)
		return 0;
	n = recv(fd, c->in + c->inlen, IN_CAP - c->inlen, MSG_DONTWAIT);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		conn_close(c);
		return 0;
	}
	c->inlen += (size_t)n;
	conn_process(c);
	return 0;
}

static void
conn_close(struct conn *c)
{
	struct control	*ctl = c->ctl;
	struct conn	**pp;

	for (pp = &ctl->conns; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	ctl->nconns--;
	sd_event_source_disable_unref(c->io);
	sd_event_source_disable_unref(c->timer);
	close(c->fd);
	free(c->out);
	free(c);
}

/* Who is on the other end, as the kernel says. */
static int
peer_creds(int fd, struct peer *p)
{
	struct ucred	cr;
	socklen_t	len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) == -1)
		return -1;
	p->pid = cr.pid;
	p->uid = cr.uid;
	p->gid = cr.gid;
	p->fd = fd;
	return 0;
}

/* Accept is paused after EMFILE; try again a little later. */
static int
on_backoff(sd_event_source *s, uint64_t usec, void *arg)
{
	struct control	*ctl = arg;

	(void)s;
	(void)usec;
	sd_event_source_set_enabled(ctl->listen_src, SD_EVENT_ON);
	return 0;
}

static void
accept_backoff(struct control *ctl)
{
	uint64_t	now;

	log_warn("control: accept");
	sd_event_source_set_enabled(ctl->listen_src, SD_EVENT_OFF);
	sd_event_now(ctl->ev, CLOCK_MONOTONIC, &now);
	if (ctl->backoff == NULL)
		sd_event_add_time(ctl->ev, &ctl->backoff, CLOCK_MONOTONIC,
		    now + ACCEPT_BACKOFF, 100000, on_backoff, ctl);
	else {
		sd_event_source_set_time(ctl->backoff, now + ACCEPT_BACKOFF);
		sd_event_source_set_enabled(ctl->backoff, SD_EVENT_ONESHOT);
	}
}

/* Set up a new client connection. */
static void
conn_new(struct control *ctl, int fd)
{
	struct conn	*c;

	if (ctl->nconns >= ctl->conf.max_connections) {
		if (!ctl->full_warned)
			log_warnx("control: %u clients connected, the most "
			    "allowed; refusing more", ctl->nconns);
		ctl->full_warned = 1;
		close(fd);
		return;
	}
	ctl->full_warned = 0;
	if ((c = calloc(1, sizeof(*c))) == NULL || peer_creds(fd, &c->peer)) {
		free(c);
		close(fd);
		return;
	}
	c->ctl = ctl;
	c->fd = fd;
	if (sd_event_add_io(ctl->ev, &c->io, fd, EPOLLIN, on_conn_io, c) < 0) {
		free(c);
		close(fd);
		return;
	}
	c->next = ctl->conns;
	ctl->conns = c;
	ctl->nconns++;
	log_debug("control: client pid %d uid %u", (int)c->peer.pid,
	    (unsigned)c->peer.uid);
}

static int
on_accept(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	struct control	*ctl = arg;
	int		 cfd;

	(void)s;
	(void)revents;
	for (;;) {
		cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (cfd >= 0) {
			conn_new(ctl, cfd);
			continue;
		}
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM)
			accept_backoff(ctl);
		else if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_warn("control: accept");
		return 0;
	}
}

/* mkdir -p of the socket's directory. */
static void
make_parent(const char *path)
{
	char	buf[sizeof(((struct sockaddr_un *)0)->sun_path)], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
}

/* Bind our own socket: mode 0660, group from the configuration. */
static int
control_bind(struct control *ctl)
{
	struct sockaddr_un	sun;
	struct stat		st;
	int			fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(ctl->conf.path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sun.sun_path, ctl->conf.path);
	make_parent(ctl->conf.path);
	if (lstat(ctl->conf.path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			log_warnx("control: %s exists and is not a socket; not "
			    "replacing it", ctl->conf.path);
			errno = EEXIST;
			return -1;
		}
		unlink(ctl->conf.path);		/* stale: nobody answered */
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return -1;
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    chown(ctl->conf.path, 0, ctl->conf.group) == -1 ||
	    chmod(ctl->conf.path, 0660) == -1 || listen(fd, 64) == -1) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	ctl->created = 1;
	return fd;
}

/* A socket handed over by systemd, if there is one. */
static int
control_inherited(void)
{
	int	n = sd_listen_fds(1), fd = SD_LISTEN_FDS_START;

	if (n < 1)
		return -1;
	if (n > 1)
		log_warnx("control: %d sockets passed; using the first", n);
	if (sd_is_socket_unix(fd, SOCK_STREAM, 1, NULL, 0) <= 0) {
		log_warnx("control: the passed socket is not a listening Unix "
		    "stream socket");
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

struct control *
control_new(sd_event *ev, const struct control_conf *conf,
    const struct control_ops *ops)
{
	struct control	*ctl;

	if ((ctl = calloc(1, sizeof(*ctl))) == NULL)
		return NULL;
	ctl->ev = sd_event_ref(ev);
	ctl->conf = *conf;
	ctl->ops = *ops;
	if ((ctl->fd = control_inherited()) == -1 &&
	    (ctl->fd = control_bind(ctl)) == -1) {
		int saved = errno;
		control_free(ctl);
		errno = saved;
		return NULL;
	}
	if (sd_event_add_io(ev, &ctl->listen_src, ctl->fd, EPOLLIN, on_accept,
	    ctl) < 0) {
		control_free(ctl);
		errno = ENOMEM;
		return NULL;
	}
	return ctl;
}

void
control_free(struct control *ctl)
{
	if (ctl == NULL)
		return;
	while (ctl->conns != NULL)
		conn_close(ctl->conns);
	sd_event_source_disable_unref(ctl->listen_src);
	sd_event_source_disable_unref(ctl->backoff);
	if (ctl->fd >= 0) {
		close(ctl->fd);
		if (ctl->created)
			unlink(ctl->conf.path);
	}
	sd_event_unref(ctl->ev);
	free(ctl);
}

void
control_event(struct control *ctl, const char *drive, json_object *event)
{
	struct conn	*c, *next;
	struct vl_msg	 m;
	json_object	*p, *arr;

	for (c = ctl->conns; c != NULL; c = next) {
		next = c->next;
		if (!c->follow || strcmp(c->drive, drive) != 0)
			continue;
		arr = json_object_new_array();
		json_object_array_add(arr, json_object_get(event));
		p = json_object_new_object();
		json_object_object_add(p, "events", arr);
		if (vl_reply(p, 1, &m) == -1 || conn_queue(c, &m) == -1)
			conn_close(c);
	}
}

unsigned
control_clients(const struct control *ctl)
{
	return ctl->nconns;
}

void
control_set_limits(struct control *ctl, unsigned max_connections,
    unsigned timeout_sec)
{
	ctl->conf.max_connections = max_connections;
	ctl->conf.timeout_sec = timeout_sec;
}
