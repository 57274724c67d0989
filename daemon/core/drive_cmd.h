/*
 * drive_cmd.h: the operator's commands on a drive (drive_cmd.c), for the
 * control socket (view.c) and the daemon's --verify, and the records'
 * pause and resume acted on each second.
 */
#ifndef SSDT_DRIVE_CMD_H
#define SSDT_DRIVE_CMD_H

#include <stddef.h>

struct drive;

/* Commands (also used by the control socket). -1 and a message on refusal. */
int		 drive_cmd_pause(struct drive *, char *err, size_t);
int		 drive_cmd_resume(struct drive *, char *err, size_t);
int		 drive_cmd_stop(struct drive *, char *err, size_t);
int		 drive_cmd_start(struct drive *, char *err, size_t);
int		 drive_cmd_verify(struct drive *, char *err, size_t);
/* A performance checkpoint at the drive's next cycle boundary. */
int		 drive_cmd_checkpoint(struct drive *, char *err, size_t);
/* A power cut in the write pass running, or at the next one. */
int		 drive_cmd_powercut(struct drive *, char *err, size_t);
/* Once a second, after the drives' checkpoints (drive.h): what each
 * drive's records ask (a pause, a resume), done. */
void		 drives_records_tick(struct drive **, size_t);

#endif
