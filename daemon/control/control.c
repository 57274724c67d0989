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
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "control.h"
#include "log.h"
#include "statedir.h"
#include "varlink.h"

#define IN_CAP		(PROTO_MAX_MESSAGE + 1)
#define ACCEPT_BACKOFF	1000000ULL	/* usec after EMFILE */
#define PRODUCE_LOW	(64 * 1024)	/* refill a long reply below this */

/*
 * What a connection is doing. A call is answered before the next one is
 * read (Varlink clients match replies to calls in order), so while a
 * long reply is written out or a stream is open, further calls wait in
 * the input buffer. A dead connection is only freed on the next loop
 * turn: whatever is running (a dispatch, an event push) may still hold it.
 */
enum conn_state {
	CONN_CALLS,		/* read and answer calls one at a time */
	CONN_REPLYING,		/* a long reply is being written in pieces */
	CONN_STREAMING,		/* Events with "more": new events follow */
	CONN_DEAD		/* closed; freed on the next loop turn */
};

struct conn {
	struct control	*ctl;
	int		 fd;
	sd_event_source	*io;
	sd_event_source	*timer;
	enum conn_state	 state;
	char		 in[IN_CAP];
	size_t		 inlen;
	char		*out;
	size_t		 outlen, outcap;
	struct peer	 peer;
	/* the long reply: the elements of its list, and the next one */
	json_object	*list;
	size_t		 list_next;
	int		 follow;	/* the reply opens a stream */
	json_object	*held;		/* events that came while replying */
	int		 gone;		/* the followed drive was removed */
	char		 drive[64];
	int		 closing;	/* close once the output is sent */
	int		 kick;		/* read pending calls on the next turn */
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
	sd_event_source		*turn;		/* frees the dead, kicks */
	struct conn		*conns;
	unsigned		 nconns;
	int			 full_warned;
};

static void	conn_process(struct conn *);
static void	conn_send(struct conn *);
static int	on_conn_timeout(sd_event_source *, uint64_t, void *);

/* The monotonic clock now, in the microseconds sd-event timers take. */
static uint64_t
now_usec(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

/* Work for the next loop turn, outside any dispatch. */
static void
control_later(struct control *ctl)
{
	sd_event_source_set_enabled(ctl->turn, SD_EVENT_ONESHOT);
}

/* Close a connection now; its memory goes on the next loop turn. */
static void
conn_kill(struct conn *c)
{
	if (c->state == CONN_DEAD)
		return;
	c->state = CONN_DEAD;
	sd_event_source_set_enabled(c->io, SD_EVENT_OFF);
	if (c->timer != NULL)
		sd_event_source_set_enabled(c->timer, SD_EVENT_OFF);
	control_later(c->ctl);
}

static void
conn_free(struct conn *c)
{
	sd_event_source_disable_unref(c->io);
	sd_event_source_disable_unref(c->timer);
	close(c->fd);
	json_object_put(c->list);
	json_object_put(c->held);
	free(c->out);
	free(c);
}

/* Is a complete call waiting in the input buffer? */
static int
conn_call_waiting(const struct conn *c)
{
	return memchr(c->in, '\0', c->inlen) != NULL;
}

/*
 * Read while calls are taken, or while no complete call waits (a stream
 * still notices a peer that closes); write only while output is queued.
 */
static void
conn_update_events(struct conn *c)
{
	int	rd;

	if (c->state == CONN_DEAD)
		return;
	rd = !c->closing && c->inlen < IN_CAP &&
	    (c->state == CONN_CALLS || !conn_call_waiting(c));
	sd_event_source_set_io_events(c->io, (rd ? EPOLLIN : 0) |
	    (c->outlen > 0 ? EPOLLOUT : 0));
}

/*
 * One timer bounds both ways a client can hold the daemon's memory: a
 * message left half-sent, and output it does not read. Any progress
 * moves the deadline.
 */
static void
conn_timer(struct conn *c)
{
	uint64_t	now;
	int		half = c->state == CONN_CALLS && c->inlen > 0;

	if (c->state == CONN_DEAD)
		return;
	if (!half && !c->closing && c->outlen == 0) {
		if (c->timer != NULL)
			sd_event_source_set_enabled(c->timer, SD_EVENT_OFF);
		return;
	}
	now = now_usec();	/* not the loop's cached time: a long turn */
	now += (uint64_t)c->ctl->conf.timeout_sec * 1000000ULL;
	if (c->timer == NULL) {
		if (sd_event_add_time(c->ctl->ev, &c->timer, CLOCK_MONOTONIC,
		    now, 100000, on_conn_timeout, c) < 0)
			conn_kill(c);	/* unbounded otherwise */
		return;
	}
	sd_event_source_set_time(c->timer, now);
	sd_event_source_set_enabled(c->timer, SD_EVENT_ONESHOT);
}

/* Append bytes to the output; a client that lets too much pile up is dropped. */
static int
conn_append(struct conn *c, const char *buf, size_t len)
{
	size_t	need = c->outlen + len;
	char	*nb;

	if (c->state == CONN_DEAD)
		return -1;
	if (need > c->ctl->conf.max_queued) {
		log_warnx("control: client pid %d does not read its replies "
		    "(%zu bytes queued); disconnecting", (int)c->peer.pid,
		    c->outlen);
		conn_kill(c);
		return -1;
	}
	if (need > c->outcap) {
		if ((nb = realloc(c->out, need)) == NULL) {
			conn_kill(c);
			return -1;
		}
		c->out = nb;
		c->outcap = need;
	}
	memcpy(c->out + c->outlen, buf, len);
	c->outlen += len;
	return 0;
}

/* Queue a whole message (consumed); it goes out when the socket takes it. */
static int
conn_queue(struct conn *c, struct vl_msg *m)
{
	int	rc = m->buf == NULL ? -1 : conn_append(c, m->buf, m->len);

	free(m->buf);
	m->buf = NULL;
	if (rc == 0)
		conn_update_events(c);
	return rc;
}

/* An event as one streamed reply. */
static int
conn_push_event(struct conn *c, json_object *event)
{
	json_object	*arr = json_object_new_array(), *p;
	struct vl_msg	 m;

	json_object_array_add(arr, json_object_get(event));
	p = json_object_new_object();
	json_object_object_add(p, "events", arr);
	if (vl_reply(p, 1, &m) == -1) {
		conn_kill(c);
		return -1;
	}
	return conn_queue(c, &m);
}

/* The followed drive was removed: end the stream with an error. */
static void
conn_end_stream(struct conn *c)
{
	json_object	*p = json_object_new_object();
	struct vl_msg	 m;

	json_object_object_add(p, "drive", json_object_new_string(c->drive));
	if (vl_error(PROTO_INTERFACE ".NoSuchDrive", p, &m) == -1 ||
	    conn_queue(c, &m) == -1)
		return;
	c->state = CONN_CALLS;
	c->follow = 0;
	c->gone = 0;
	c->kick = 1;
	control_later(c->ctl);
}

/* The long reply is written out: a stream starts, or calls go on. */
static void
conn_reply_done(struct conn *c)
{
	size_t	i, n = c->held ? json_object_array_length(c->held) : 0;

	json_object_put(c->list);
	c->list = NULL;
	if (!c->follow) {
		c->state = CONN_CALLS;
		c->kick = 1;
		control_later(c->ctl);
		return;
	}
	c->state = CONN_STREAMING;
	for (i = 0; i < n && c->state == CONN_STREAMING; i++)
		conn_push_event(c, json_object_array_get_idx(c->held, i));
	json_object_put(c->held);
	c->held = NULL;
	if (c->gone && c->state == CONN_STREAMING)
		conn_end_stream(c);
}

/* Write the next pieces of a long reply while the output runs low. */
static void
conn_produce(struct conn *c)
{
	const char	*s;
	size_t		 n = c->list ? json_object_array_length(c->list) : 0;
	struct vl_msg	 m;
	json_object	*el;

	while (c->state == CONN_REPLYING && c->outlen < PRODUCE_LOW) {
		if (c->list_next == n) {
			if (vl_list_close(c->follow, &m) == -1 ||
			    conn_queue(c, &m) == -1)
				return;
			conn_reply_done(c);
			break;
		}
		if (c->list_next > 0 && conn_append(c, ",", 1) == -1)
			return;
		el = json_object_array_get_idx(c->list, c->list_next++);
		vl_utf8_out(el);
		s = json_object_to_json_string_ext(el, VL_JSON_FLAGS);
		if (conn_append(c, s, strlen(s)) == -1)
			return;
	}
	conn_update_events(c);
}

/* Send what can be sent now, refill a long reply, close when all is sent. */
static void
conn_send(struct conn *c)
{
	ssize_t	n;
	int	moved = 0;

	while (c->state != CONN_DEAD && c->outlen > 0) {
		n = send(c->fd, c->out, c->outlen, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			break;
		if (n <= 0) {
			conn_kill(c);
			return;
		}
		memmove(c->out, c->out + n, c->outlen - (size_t)n);
		c->outlen -= (size_t)n;
		moved = 1;
		conn_produce(c);
	}
	if (c->state == CONN_DEAD)
		return;
	if (c->closing && c->outlen == 0 && c->state != CONN_REPLYING) {
		conn_kill(c);
		return;
	}
	conn_update_events(c);
	if (moved || c->outlen == 0)
		conn_timer(c);
}

/* Start a reply whose list is written out in pieces as the client reads. */
static void
conn_start_list(struct conn *c, struct dispatch_out *out)
{
	struct vl_msg	m;

	c->list = out->list;
	out->list = NULL;
	c->list_next = 0;
	c->follow = out->follow;
	snprintf(c->drive, sizeof(c->drive), "%s", out->drive);
	if (vl_list_open(out->list_key, &m) == -1 || conn_queue(c, &m) == -1)
		return;
	c->state = CONN_REPLYING;
	conn_produce(c);
}

/* One complete message: parse, dispatch, queue the reply. */
static void
conn_message(struct conn *c, const char *msg, size_t len)
{
	struct vl_call		call;
	struct vl_msg		err;
	struct dispatch_out	out;

	if (vl_parse(msg, len, &call, &err) == -1) {
		log_debug("control: bad message from pid %d", (int)c->peer.pid);
		if (err.buf != NULL)
			conn_queue(c, &err);
		return;
	}
	methods_dispatch(&call, &c->peer, &c->ctl->ops, &out);
	vl_call_free(&call);
	if (out.list != NULL)
		conn_start_list(c, &out);
	else if (out.reply.buf != NULL)
		conn_queue(c, &out.reply);
}

/* No NUL within the limit: the framing is lost. Answer, then close. */
static void
conn_framing_lost(struct conn *c)
{
	struct vl_msg	 err;
	json_object	*lim = json_object_new_object();

	json_object_object_add(lim, "limit",
	    json_object_new_int(PROTO_MAX_MESSAGE));
	vl_error(PROTO_INTERFACE ".MessageTooLarge", lim, &err);
	log_debug("control: message over %d bytes from pid %d",
	    PROTO_MAX_MESSAGE, (int)c->peer.pid);
	c->inlen = 0;
	c->closing = 1;
	conn_queue(c, &err);
}

/* Handle every complete call in the input buffer, as long as calls are taken. */
static void
conn_process(struct conn *c)
{
	char	*nul;
	size_t	 used = 0, len;

	while (c->state == CONN_CALLS && !c->closing &&
	    (nul = memchr(c->in + used, '\0', c->inlen - used)) != NULL) {
		len = (size_t)(nul - (c->in + used));
		conn_message(c, c->in + used, len);
		used += len + 1;
	}
	if (c->state == CONN_DEAD)
		return;
	memmove(c->in, c->in + used, c->inlen - used);
	c->inlen -= used;
	if (c->inlen == IN_CAP && !conn_call_waiting(c))
		conn_framing_lost(c);
	conn_send(c);
	if (c->state != CONN_DEAD)
		conn_timer(c);	/* also bounds how long a closing peer may take */
}

/* The peer sent no more: answer what it asked, then close. */
static void
conn_eof(struct conn *c)
{
	c->closing = 1;
	conn_send(c);
}

static void
conn_recv(struct conn *c, uint32_t revents)
{
	ssize_t	n;

	if (c->closing)
		return;
	if (c->inlen == IN_CAP) {	/* a call waits; the peer hung up */
		if (revents & (EPOLLHUP | EPOLLERR))
			conn_kill(c);
		return;
	}
	n = recv(c->fd, c->in + c->inlen, IN_CAP - c->inlen, MSG_DONTWAIT);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n == 0) {
		conn_eof(c);
		return;
	}
	if (n < 0) {
		conn_kill(c);
		return;
	}
	c->inlen += (size_t)n;
	conn_process(c);
}

static int
on_conn_io(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	struct conn	*c = arg;

	(void)s;
	(void)fd;
	if (revents & EPOLLOUT)
		conn_send(c);
	if (c->state != CONN_DEAD && (revents & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		conn_recv(c, revents);
	return 0;
}

/* The client sat on a half-sent message, or on unread output. */
static int
on_conn_timeout(sd_event_source *s, uint64_t usec, void *arg)
{
	struct conn	*c = arg;

	(void)s;
	(void)usec;
	if (c->outlen > 0)
		log_warnx("control: client pid %d does not read its replies "
		    "(%zu bytes waiting for %u s); disconnecting",
		    (int)c->peer.pid, c->outlen, c->ctl->conf.timeout_sec);
	else
		log_debug("control: pid %d left a message half-sent for %u s; "
		    "disconnecting", (int)c->peer.pid,
		    c->ctl->conf.timeout_sec);
	conn_kill(c);
	return 0;
}

/* The next loop turn: free the dead, read the calls that waited. */
static int
on_turn(sd_event_source *s, void *arg)
{
	struct control	*ctl = arg;
	struct conn	**pp = &ctl->conns, *c;

	(void)s;
	while ((c = *pp) != NULL) {
		if (c->state == CONN_DEAD) {
			*pp = c->next;
			ctl->nconns--;
			conn_free(c);
			continue;
		}
		if (c->kick) {
			c->kick = 0;
			conn_process(c);
		}
		pp = &c->next;
	}
	return 0;
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
	if ((p = strrchr(buf, '/')) != NULL && p != buf) {
		*p = '\0';
		(void)statedir_mkdirs(buf, 0755);	/* bind() says if not */
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
	    ctl) < 0 || sd_event_add_defer(ev, &ctl->turn, on_turn, ctl) < 0 ||
	    sd_event_source_set_enabled(ctl->turn, SD_EVENT_OFF) < 0) {
		control_free(ctl);
		errno = ENOMEM;
		return NULL;
	}
	return ctl;
}

void
control_free(struct control *ctl)
{
	struct conn	*c;

	if (ctl == NULL)
		return;
	while ((c = ctl->conns) != NULL) {
		ctl->conns = c->next;
		conn_free(c);
	}
	sd_event_source_disable_unref(ctl->turn);
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

/*
 * A new event of a drive. It is only appended to the followers' output
 * (sent when their sockets take it): this may run inside another
 * connection's dispatch, or a follower's own.
 */
void
control_event(struct control *ctl, const char *drive, json_object *event)
{
	struct conn	*c;

	for (c = ctl->conns; c != NULL; c = c->next) {
		if (!c->follow || strcmp(c->drive, drive) != 0)
			continue;
		if (c->state == CONN_STREAMING) {
			conn_push_event(c, event);
			continue;
		}
		if (c->state != CONN_REPLYING)
			continue;
		if (c->held == NULL)
			c->held = json_object_new_array();
		if (json_object_array_length(c->held) >= EVENTS_MAX) {
			log_warnx("control: client pid %d does not read its "
			    "replies (%d events held); disconnecting",
			    (int)c->peer.pid, EVENTS_MAX);
			conn_kill(c);
			continue;
		}
		json_object_array_add(c->held, json_object_get(event));
	}
}

void
control_drive_removed(struct control *ctl, const char *drive)
{
	struct conn	*c;

	for (c = ctl->conns; c != NULL; c = c->next) {
		if (!c->follow || strcmp(c->drive, drive) != 0)
			continue;
		if (c->state == CONN_STREAMING)
			conn_end_stream(c);
		else if (c->state == CONN_REPLYING)
			c->gone = 1;	/* ended once the backlog is out */
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
