/*
 * errgraph.h: ssdctl graph --what errormap: where on a drive its verify
 * passes found bad blocks, drawn as SVG by hand (the error maps are not
 * RRD data). Offsets along x, one row per verify pass (oldest at the
 * top), each bad extent in its class's colour, at least a pixel wide.
 */
#ifndef SSDT_ERRGRAPH_H
#define SSDT_ERRGRAPH_H

#include <stdint.h>

#include <json-c/json.h>

/*
 * The ErrorMap reply of `pass` (0: the latest) with extents merged to
 * `resolution` parts of the span, owned by the caller; NULL when there is
 * none: *nomap set when the daemon has no such map (nothing said), else
 * the error has been printed.
 */
typedef json_object *(*errgraph_fetch)(void *arg, uint64_t pass,
    uint32_t resolution, int *nomap);

struct errgraph_in {
	const char	*out;		/* FILE.svg */
	const char	*title;
	int		 width, height;
	const char	*map_dir;	/* a drive's state directory, or NULL: */
	errgraph_fetch	 fetch;		/* ask the daemon */
	void		*arg;
};

/* 0, or 1 with a message on stderr. */
int	errgraph_draw(const struct errgraph_in *);

#endif
