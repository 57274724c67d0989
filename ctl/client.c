/* client.c: a minimal Varlink client over a Unix socket (for ssdctl). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "client.h"
#include "proto.h"

int
client_connect(struct client *c, const char *path)
{
	struct sockaddr_un	sun;

	memset(c, 0, sizeof(*c));
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sun.sun_path, path);
	if ((c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (connect(c->fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		int saved = errno;
		close(c->fd);
		c->fd = -1;
		errno = saved;
		return -1;
	}
	return 0;
}

void
client_close(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/* Write all of a buffer. */
static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		w = send(fd, p, n, MSG_NOSIGNAL);
		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
client_call(struct client *c, const char *method, json_object *params,
    int more)
{
	json_object	*o = json_object_new_object();
	const char	*s;
	int		 rc;

	json_object_object_add(o, "method", json_object_new_string(method));
	json_object_object_add(o, "parameters",
	    params ? params : json_object_new_object());
	if (more)
		json_object_object_add(o, "more", json_object_new_boolean(1));
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	rc = write_all(c->fd, s, strlen(s) + 1);
	json_object_put(o);
	return rc;
}

/* Fill the buffer until it holds a NUL; returns the message length. */
static ssize_t
read_message(struct client *c)
{
	char	*nul, *nb;
	ssize_t	 n;

	while ((nul = c->len ? memchr(c->buf, '\0', c->len) : NULL) == NULL) {
		if (c->len == c->cap) {
			if (c->cap > 64 * PROTO_MAX_MESSAGE)
				return -1;
			c->cap = c->cap ? c->cap * 2 : 65536;
			if ((nb = realloc(c->buf, c->cap)) == NULL)
				return -1;
			c->buf = nb;
		}
		n = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		c->len += (size_t)n;
	}
	return nul - c->buf;
}

int
client_read(struct client *c, json_object **params, char **error,
    int *continues)
{
	static char	 errname[256];
	json_object	*o, *v;
	ssize_t		 n;

	*params = NULL;
	*error = NULL;
	*continues = 0;
	if ((n = read_message(c)) < 0)
		return -1;
	o = json_tokener_parse(c->buf);
	memmove(c->buf, c->buf + n + 1, c->len - (size_t)n - 1);
	c->len -= (size_t)n + 1;
	if (o == NULL)
		return -1;
	if (json_object_object_get_ex(o, "error", &v)) {
		snprintf(errname, sizeof(errname), "%s",
		    json_object_get_string(v));
		*error = errname;
	}
	if (json_object_object_get_ex(o, "continues", &v))
		*continues = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "parameters", &v) && v != NULL)
		*params = json_object_get(v);
	else
		*params = json_object_new_object();
	json_object_put(o);
	return 0;
}
