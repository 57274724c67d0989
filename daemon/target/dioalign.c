/*
 * dioalign.c: the offset alignment the kernel demands of direct I/O on
 * an open file (statx STATX_DIOALIGN, Linux 6.1+). Apart from the rest
 * because the C library's struct statx does not carry these fields yet:
 * this file uses the kernel's, so it must not include <sys/stat.h>.
 */
#include <fcntl.h>
#include <linux/stat.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dioalign.h"

int
dio_offset_align(int fd, uint32_t *align)
{
	struct statx	stx;

	memset(&stx, 0, sizeof(stx));
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_DIOALIGN,
	    &stx) == -1 || !(stx.stx_mask & STATX_DIOALIGN) ||
	    stx.stx_dio_offset_align == 0)
		return -1;
	*align = stx.stx_dio_offset_align;
	return 0;
}
