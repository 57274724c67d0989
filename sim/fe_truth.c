/*
 * fe_truth.c: the truth log. The model writes what it did as JSON lines
 * through its emit function; they go to the --truth file, appended and
 * flushed line by line, so that a test reads them while the drive runs.
 * The first line of each run is a clock record: the model's times are
 * CLOCK_MONOTONIC nanoseconds, and this record ties them to the wall
 * clock of ssdtortured's records.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json.h>

#include "fe.h"

uint64_t
fe_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t
real_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int
fe_truth_open(struct fe *fe, const char *path)
{
	struct json_object	*o;
	uint64_t		 mono, real;

	if ((fe->truth = fopen(path, "ae")) == NULL)
		return -1;
	setvbuf(fe->truth, NULL, _IOLBF, 0);
	/* the two clocks read back to back: their offset is what matters */
	mono = fe_now();
	real = real_ns();
	if ((o = json_object_new_object()) == NULL)
		return -1;
	/* the model's record shape: {"t_ns":T,"event":NAME,...} */
	json_object_object_add(o, "t_ns", json_object_new_uint64(mono));
	json_object_object_add(o, "event", json_object_new_string("clock"));
	json_object_object_add(o, "monotonic_ns",
	    json_object_new_uint64(mono));
	json_object_object_add(o, "realtime_ns", json_object_new_uint64(real));
	json_object_object_add(o, "profile",
	    json_object_new_string(fe->prof.name));
	json_object_object_add(o, "seed", json_object_new_uint64(fe->seed));
	json_object_object_add(o, "capacity",
	    json_object_new_uint64(fe->capacity));
	fprintf(fe->truth, "%s\n", json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	fflush(fe->truth);
	return 0;
}

/* The model's emit function: called under fe->lock, one line each. */
void
fe_truth_emit(void *arg, const char *json_line)
{
	struct fe	*fe = arg;
	size_t		 n;

	if (fe->truth == NULL || json_line == NULL)
		return;
	n = strlen(json_line);
	fputs(json_line, fe->truth);
	if (n == 0 || json_line[n - 1] != '\n')
		fputc('\n', fe->truth);
	fflush(fe->truth);
}

void
fe_truth_close(struct fe *fe)
{
	if (fe->truth != NULL)
		fclose(fe->truth);
	fe->truth = NULL;
}
