/*
 * canary [MODE]: one deliberate bug of each kind the sanitizer stage must
 * catch, so that it proves the sanitizers report here before trusting
 * their silence on the real suites. MODE is leak (LeakSanitizer, from a
 * thread, at exit; the default, for a runner that passes no arguments),
 * overflow (AddressSanitizer: heap-buffer-overflow) or ub
 * (UndefinedBehaviorSanitizer: signed overflow). "clean" does nothing
 * wrong and must stay silent.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *volatile	sink;

static void *
leak_thread(void *arg)
{
	(void)arg;
	sink = malloc(64);
	sink = NULL;
	return NULL;
}

static int
leak(void)
{
	pthread_t	t;

	if (pthread_create(&t, NULL, leak_thread, NULL) != 0)
		return 1;
	return pthread_join(t, NULL) != 0;
}

static int
overflow(int n)
{
	char	*p = malloc(8);
	int	 v;

	if (p == NULL)
		return 1;
	memset(p, 0, 8);
	v = p[n];
	free(p);
	return v;
}

static int
ub(int n)
{
	int	x = INT_MAX - 1;

	return x + n > 0;
}

int
main(int argc, char **argv)
{
	const char	*mode = argc > 1 ? argv[1] : "leak";

	/* argc keeps the compiler from seeing the bug at build time */
	if (strcmp(mode, "leak") == 0)
		return leak();
	if (strcmp(mode, "overflow") == 0)
		return overflow(argc + 6);
	if (strcmp(mode, "ub") == 0)
		return ub(argc);
	if (strcmp(mode, "clean") == 0)
		return 0;
	fprintf(stderr, "usage: canary leak|overflow|ub|clean\n");
	return 2;
}
