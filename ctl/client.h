/* client.h: a minimal Varlink client over a Unix socket (for ssdctl). */
#ifndef SSDT_CLIENT_H
#define SSDT_CLIENT_H

#include <json-c/json.h>

struct client {
	int	 fd;
	char	*buf;
	size_t	 len, cap;
};

/* Connect; -1 with errno. */
int	client_connect(struct client *, const char *path);
void	client_close(struct client *);
/* Send one call; params is consumed (NULL = {}). */
int	client_call(struct client *, const char *method, json_object *params,
	    int more);
/*
 * Read one reply. Returns 0 with *params (owned by the caller) and
 * *error (NULL or the error name, valid until the next read) and
 * *continues; -1 on a broken connection.
 */
int	client_read(struct client *, json_object **params, char **error,
	    int *continues);

#endif
