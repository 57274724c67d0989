/* report_html.h: the report page (report_html.c). */
#ifndef SSDT_REPORT_HTML_H
#define SSDT_REPORT_HTML_H

#include <json-c/json.h>

#include "report.h"

/* The page of report `r` (report.c: the models and their comparison),
 * figures drawn from `src`, into `out`. 0, or 1 after a message. */
int	report_html(const char *out, json_object *r,
	    const struct report_src *src);

#endif
