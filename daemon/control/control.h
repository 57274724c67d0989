/*
 * control.h: the control socket. Connections, framing, slow and silent
 * clients, peer credentials; each complete message goes through
 * varlink.c and methods.c.
 */
#ifndef SSDT_CONTROL_H
#define SSDT_CONTROL_H

#include <sys/types.h>

#include <json-c/json.h>
#include <systemd/sd-event.h>

#include "methods.h"

struct control_conf {
	const char	*path;
	gid_t		 group;		/* of the socket file */
	unsigned	 max_connections;
	unsigned	 timeout_sec;	/* for a half-sent message */
	size_t		 max_queued;	/* output bytes queued for one client */
};

struct control;

/* Listen (socket-activated, or created here). NULL with errno on failure. */
struct control	*control_new(sd_event *, const struct control_conf *,
		    const struct control_ops *);
void		 control_free(struct control *);
/* A new event of a drive: send it to the clients that follow it. */
void		 control_event(struct control *, const char *drive,
		    json_object *event);
/* A drive is gone (reload): its followers' streams end with NoSuchDrive. */
void		 control_drive_removed(struct control *, const char *drive);
/* New limits from a reload. */
void		 control_set_limits(struct control *, unsigned max_connections,
		    unsigned timeout_sec);
/* Number of open client connections. */
unsigned	 control_clients(const struct control *);

#endif
