/*
 * cpushare.c: the daemon's share of the CPUs, weighed as one process per
 * drive.
 *
 * With the scheduler's autogroups (CONFIG_SCHED_AUTOGROUP, on where
 * /proc/sys/kernel/sched_autogroup_enabled says 1), a session is one
 * entity on the CPUs, whatever its threads: the workers of 8 drives got
 * what one fio job gets (fio runs each job in a session of its own), and
 * each kernel worker that does a drive's I/O (a loop device's, a
 * dm-crypt's) as much as all the drives together; on a host whose CPUs
 * the I/O keeps busy the daemon, not the drives, then set the pace, and
 * ssdctl's answers waited. Where the daemon leads its own session (as
 * systemd starts it, or setsid) it weighs its autogroup as that many
 * processes of nice 0 would weigh. A session it does not lead (a shell's,
 * a test's) is never touched. Where a cgroup of its own holds the service
 * (the cpu controller on), autogroups do not apply and the unit's
 * CPUWeight= is the knob; nothing here then changes anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cpushare.h"
#include "log.h"

/* The kernel's weight of each nice level, -20 first (sched_prio_to_weight
 * of kernel/sched/core.c); nice 0 weighs 1024, each step about 1.25x. */
static const unsigned weights[] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277, 1024,
};
#define NWEIGHTS	(sizeof(weights) / sizeof(weights[0]))

int
cpushare_nice(size_t n)
{
	double	want = log((double)(n > 0 ? n : 1) * 1024.0), d, best = HUGE_VAL;
	int	nice = 0;
	size_t	i;

	for (i = 0; i < NWEIGHTS; i++) {	/* nearest on a log scale */
		d = fabs(log((double)weights[i]) - want);
		if (d < best) {
			best = d;
			nice = (int)i - 20;
		}
	}
	return nice;
}

/* Are autogroups on (a kernel with them, not turned off)? */
static int
autogroups_on(void)
{
	FILE	*fp;
	int	 on = 0;

	if ((fp = fopen("/proc/sys/kernel/sched_autogroup_enabled", "re")) !=
	    NULL) {
		on = fgetc(fp) == '1';
		fclose(fp);
	}
	return on;
}

static int
write_nice(int nice)
{
	char	buf[16];
	int	fd, n, rc = 0;

	if ((fd = open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	n = snprintf(buf, sizeof(buf), "%d", nice);
	if (write(fd, buf, (size_t)n) != n)
		rc = -1;
	close(fd);
	return rc;
}

void
cpushare_set(size_t ndrives)
{
	static int	cur, warned;	/* a new session's autogroup: nice 0 */
	int		nice = cpushare_nice(ndrives);

	if (nice == cur || getsid(0) != getpid() || !autogroups_on())
		return;
	if (write_nice(nice) == -1) {
		if (!warned++)
			log_info("the CPU share of %zu drives (autogroup nice "
			    "%d) is not allowed: %s (CAP_SYS_NICE, or the "
			    "unit's LimitNICE=)", ndrives, nice,
			    strerror(errno));
		return;
	}
	cur = nice;
	log_info("CPU share: %zu drive%s weigh as as many processes "
	    "(autogroup nice %d)", ndrives, ndrives == 1 ? "" : "s", nice);
}
