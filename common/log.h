/* log.h: logging to the journal (with structured fields) or to stderr. */
#ifndef SSDT_LOG_H
#define SSDT_LOG_H

#include <stdarg.h>
#include <syslog.h>	/* the priorities of log_fields, log_drive */

/* Optional structured context attached to a log line or event. */
struct log_fields {
	const char	*drive;
	const char	*serial;
	const char	*cls;		/* verify class */
	long long	 offset;	/* -1 when absent */
	long long	 tbw;		/* host bytes written, -1 when absent */
};

void	log_init(const char *progname, int verbose);
int	log_to_journal(void);
void	log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	fatal(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
/* A message with structured fields; prio is a syslog priority. */
void	log_fields(int prio, const struct log_fields *,
	    const char *, ...) __attribute__((format(printf, 3, 4)));

/*
 * A line about one drive: "DRIVE: message" with the DRIVE= and SERIAL=
 * journal fields (when known); err, when not 0, appended as strerror().
 */
void	log_drive(int prio, const char *drive, const char *serial, int err,
	    const char *, ...) __attribute__((format(printf, 5, 6)));

#endif
