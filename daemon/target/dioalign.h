/* dioalign.h: direct I/O alignment of an open file, as the kernel says. */
#ifndef SSDT_DIOALIGN_H
#define SSDT_DIOALIGN_H

#include <stdint.h>

/* 0 with the offset alignment; -1 when the kernel does not say. */
int	dio_offset_align(int fd, uint32_t *align);

#endif
