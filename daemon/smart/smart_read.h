/*
 * smart_read.h: reading SMART from a device (blocking: called from the
 * poller thread, never from the main loop), and the poller itself.
 */
#ifndef SSDT_SMART_READ_H
#define SSDT_SMART_READ_H

#include <stddef.h>

#include "smart.h"

#define SMARTCTL_TIMEOUT_SEC	60

/* Which reader a device wants: NVMe namespace, SATA/SCSI disk, or none. */
enum smart_source smart_detect(const char *dev);
int	smart_read_nvme(const char *dev, struct smart *, char *err, size_t);
/*
 * Run argv[0] (looked up in PATH) and collect its standard output, at most
 * timeout_sec seconds: NUL-terminated output to free, or NULL and `err`.
 */
char	*smart_run(char *const argv[], int timeout_sec, size_t *len,
	    char *err, size_t errlen);
/* Runs `smartctl --json -a DEV` and decodes it. */
int	smart_read_ata(const char *dev, struct smart *, char *err, size_t);
/*
 * Runs `smartctl --json -a -l devstat -d TYPE DEV` (no -l devstat for the
 * NVMe bridge types snt* and nvme: no ATA logs there) and decodes it as
 * smart_command's output (ATA or NVMe).
 */
int	smart_read_typed(const char *dev, const char *type, struct smart *,
	    char *err, size_t);
/*
 * Runs a smart_command (a program and its arguments, cmdline.h), with
 * smartctl's deadline and output bound, and decodes its output as
 * smartctl's JSON (smart_from_json).
 */
int	smart_read_command(const char *cmd, struct smart *, char *err, size_t);

struct smart_poller;

/* A thread that reads one device on request (with `cmd`, a smart_command,
 * when not NULL; else with smartctl -d `type` when not NULL); results via
 * an eventfd. */
struct smart_poller *smart_poller_new(const char *dev, enum smart_source,
	    const char *cmd, const char *type);
void	smart_poller_free(struct smart_poller *);
int	smart_poller_fd(struct smart_poller *);
/* Ask for a read; 0 when started, -1 when one is already in flight. */
int	smart_poller_request(struct smart_poller *);
int	smart_poller_busy(struct smart_poller *);
/* The smart_command of a poller made with one, for its next reads; -1
 * when it has none or it is the same. */
int	smart_poller_set_command(struct smart_poller *, const char *cmd);
/* The same for the smartctl -d type of a poller made with one. */
int	smart_poller_set_type(struct smart_poller *, const char *type);
/* Take a finished read: 1 with *s or an error text, 0 when none is ready. */
int	smart_poller_take(struct smart_poller *, struct smart *, int *ok,
	    char *err, size_t errlen);

#endif
