/*
 * proto.h: the control protocol shared by ssdtortured and ssdctl.
 * Varlink over a Unix stream socket: one JSON object per message, each
 * ended by a NUL byte. This file holds the interface and its method table.
 */
#ifndef SSDT_PROTO_H
#define SSDT_PROTO_H

#include <stddef.h>

#define PROTO_VERSION		"0.1.0"
#define PROTO_INTERFACE		"io.ssdtorture.Manager"
#define PROTO_SERVICE		"org.varlink.service"
#define PROTO_MAX_MESSAGE	(64 * 1024)
/* ErrorMap's resolution: at most this many parts of a drive's span */
#define PROTO_MAX_RESOLUTION	100000
#define PROTO_EVENTS_MAX	10000	/* most events one Events call returns */
#define PROTO_SOCKET_ENV	"SSDTORTURE_SOCKET"
/* where the daemon listens unless its [daemon] socket says otherwise */
/*
 * The words of the protocol for a drive's state (Status "state"; "refused"
 * for a drive the safety checks turned down, Status "refused") and phase
 * (Status "phase"). The daemon's enum run_state and enum phase index them
 * (state.c, layout.c); ssdctl reads them from here.
 */
enum proto_state {
	PROTO_RUNNING, PROTO_PAUSED, PROTO_STOPPED, PROTO_FINISHED,
	PROTO_FAILED, PROTO_REFUSED, PROTO_NSTATES
};
extern const char *const proto_state_names[PROTO_NSTATES];
#define PROTO_NPHASES	8	/* static write verify trim idle checkpoint
				   prepare none */
extern const char *const proto_phase_names[PROTO_NPHASES];
/* The index of a word in names[n], -1 when it is none of them. */
int	proto_word(const char *const *names, int n, const char *word);

#define PROTO_DEFAULT_SOCKET	"/run/ssdtorture/ssdtortured.sock"

enum proto_access {
	PROTO_READ,		/* any peer that can connect */
	PROTO_WRITE		/* uid 0 or a member of admin_group */
};

struct proto_method {
	const char		*interface;
	const char		*name;		/* without the interface */
	enum proto_access	 access;
	int			 streams;	/* answers "more" with several replies */
};

/* Every method of every interface the daemon speaks; ends with a NULL name. */
extern const struct proto_method proto_methods[];
/* The Varlink interface definition of io.ssdtorture.Manager. */
extern const char proto_manager_idl[];
/* The one of org.varlink.service. */
extern const char proto_service_idl[];

/*
 * Does the interface description declare `param` as an input parameter
 * of `m`? The description is the one list of parameters.
 */
int	proto_declares(const struct proto_method *m, const char *param);

/* Look a full method name ("iface.Method") up; NULL when unknown. */
const struct proto_method *proto_find(const char *full, int *iface_known);

/*
 * Are these len bytes well-formed UTF-8 (RFC 3629: no overlong form, no
 * UTF-16 surrogate, nothing beyond U+10FFFF)? JSON text must be.
 */
int	proto_utf8_valid(const char *s, size_t len);
/* The bytes of the well-formed character at s (1 to 4); 0 when none is. */
size_t	proto_utf8_char(const char *s, size_t len);

#endif
