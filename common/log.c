/* log.c: logging to the journal (with structured fields) or to stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/stat.h>
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

/* Emit one line with optional fields and an optional errno suffix. */
static void
log_emit(int prio, const struct log_fields *f, int err, const char *fmt,
    va_list ap)
{
	char	msg[1024], num1[32], num2[32];

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
	snprintf(num1, sizeof(num1), "%lld", f ? f->offset : -1LL);
	snprintf(num2, sizeof(num2), "%lld", f ? f->tbw : -1LL);
	sd_journal_send("MESSAGE=%s%s%s", f && f->drive ? f->drive : "",
	    f && f->drive ? ": " : "", msg,
	    "PRIORITY=%d", prio,
	    "SYSLOG_IDENTIFIER=%s", log_progname,
	    "DRIVE=%s", f && f->drive ? f->drive : "",
	    "SERIAL=%s", f && f->serial ? f->serial : "",
	    "CLASS=%s", f && f->cls ? f->cls : "",
	    "OFFSET=%s", f && f->offset >= 0 ? num1 : "",
	    "TBW=%s", f && f->tbw >= 0 ? num2 : "",
	    NULL);
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
