/* log.c: logging to the journal (with structured fields) or to stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include "log.h"

/* Set once by log_init() before any thread starts; read-only afterwards. */
static const char	*log_progname = "ssdtorture";
static int		 log_verbose;
static int		 log_journal;

/*
 * Use the journal when stderr is already connected to it (a service) or
 * when told to by SSDTORTURE_LOG=journal; a terminal gets plain lines.
 */
void
log_init(const char *progname, int verbose)
{
	const char	*env = getenv("SSDTORTURE_LOG");
	struct stat	 st;

	log_progname = progname;
	log_verbose = verbose;
	log_journal = 0;
	if (env != NULL && strcmp(env, "stderr") == 0)
		return;
	if (env != NULL && strcmp(env, "journal") == 0)
		log_journal = 1;
	else if (getenv("JOURNAL_STREAM") != NULL &&
	    stat("/run/systemd/journal/socket", &st) == 0)
		log_journal = 1;
}

int
log_to_journal(void)
{
	return log_journal;
}

/* "KEY=value" into buf and the next iovec; nothing for an absent value. */
static void
field(struct iovec *iov, int *n, char *buf, size_t len, const char *key,
    const char *val)
{
	if (val == NULL || *val == '\0')
		return;		/* no empty fields: absent means unknown */
	snprintf(buf, len, "%s=%s", key, val);
	iov[*n].iov_base = buf;
	iov[*n].iov_len = strlen(buf);
	(*n)++;
}

/* One line to the journal, with only the fields that have a value. */
static void
journal_send(int prio, const struct log_fields *f, const char *msg)
{
	static const struct log_fields none = { NULL, NULL, NULL, -1, -1 };
	char		 m[1100], buf[8][1200], pr[16], off[32], tbw[32];
	struct iovec	 iov[8];
	int		 n = 0;

	if (f == NULL)
		f = &none;
	snprintf(pr, sizeof(pr), "%d", prio);
	snprintf(off, sizeof(off), "%lld", f->offset);
	snprintf(tbw, sizeof(tbw), "%lld", f->tbw);
	snprintf(m, sizeof(m), "%s%s%s", f->drive ? f->drive : "",
	    f->drive ? ": " : "", msg);
	field(iov, &n, buf[0], sizeof(buf[0]), "MESSAGE", m);
	field(iov, &n, buf[1], sizeof(buf[1]), "PRIORITY", pr);
	field(iov, &n, buf[2], sizeof(buf[2]), "SYSLOG_IDENTIFIER",
	    log_progname);
	field(iov, &n, buf[3], sizeof(buf[3]), "DRIVE", f->drive);
	field(iov, &n, buf[4], sizeof(buf[4]), "SERIAL", f->serial);
	field(iov, &n, buf[5], sizeof(buf[5]), "CLASS", f->cls);
	field(iov, &n, buf[6], sizeof(buf[6]), "OFFSET",
	    f->offset >= 0 ? off : NULL);
	field(iov, &n, buf[7], sizeof(buf[7]), "TBW", f->tbw >= 0 ? tbw : NULL);
	sd_journal_sendv(iov, n);
}

/* Emit one line with optional fields and an optional errno suffix. */
static void
log_emit(int prio, const struct log_fields *f, int err, const char *fmt,
    va_list ap)
{
	char	msg[1024];

	if (prio == LOG_DEBUG && !log_verbose)
		return;		/* before formatting: debug calls are frequent */
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (err != 0) {
		size_t n = strlen(msg);
		snprintf(msg + n, sizeof(msg) - n, ": %s", strerror(err));
	}
	if (!log_journal) {
		if (f != NULL && f->drive != NULL)
			fprintf(stderr, "%s: %s: %s\n", log_progname,
			    f->drive, msg);
		else
			fprintf(stderr, "%s: %s\n", log_progname, msg);
		return;
	}
	journal_send(prio, f, msg);
}

void
log_fields(int prio, const struct log_fields *f, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(prio, f, 0, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(LOG_DEBUG, NULL, 0, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(LOG_INFO, NULL, 0, fmt, ap);
	va_end(ap);
}

void
log_warn(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	log_emit(LOG_WARNING, NULL, saved, fmt, ap);
	va_end(ap);
	errno = saved;
}

void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(LOG_WARNING, NULL, 0, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	log_emit(LOG_CRIT, NULL, saved, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(LOG_CRIT, NULL, 0, fmt, ap);
	va_end(ap);
	exit(1);
}

void
log_drive(int prio, const char *drive, const char *serial, int err,
    const char *fmt, ...)
{
	struct log_fields	f = { drive, serial, NULL, -1, -1 };
	va_list			ap;

	va_start(ap, fmt);
	log_emit(prio, &f, err, fmt, ap);
	va_end(ap);
}
