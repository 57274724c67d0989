/*
 * cmdline.c: splitting a configured command line into words. No shell:
 * the daemon runs the program itself, so no word is expanded; quotes and
 * backslashes are enough to pass an argument with blanks (a device path,
 * a `-d` type) and keep the configuration readable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"

/*
 * One word from *p into out (as long as the line, so it fits): 1 with
 * *p past it, 0 at the end of the line, -1 with err on a bad quote.
 */
static int
next_word(const char **p, char *out, char *err, size_t errlen)
{
	const char	*s = *p;
	char		 q = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0')
		return 0;
	for (; *s != '\0' && (q != 0 || (*s != ' ' && *s != '\t')); s++) {
		if (q == 0 && (*s == '\'' || *s == '"'))
			q = *s;
		else if (q != 0 && *s == q)
			q = 0;
		else if (q != '\'' && *s == '\\' && s[1] != '\0')
			*out++ = *++s;
		else if (q != '\'' && *s == '\\') {
			snprintf(err, errlen, "a backslash ends the line");
			return -1;
		} else
			*out++ = *s;
	}
	if (q != 0) {
		snprintf(err, errlen, "%s quote not closed",
		    q == '\'' ? "single" : "double");
		return -1;
	}
	*out = '\0';
	*p = s;
	return 1;
}

void
cmdline_free(char **argv)
{
	char	**a;

	if (argv == NULL)
		return;
	for (a = argv; *a != NULL; a++)
		free(*a);
	free(argv);
}

char **
cmdline_split(const char *s, char *err, size_t errlen)
{
	char	**argv, *word;
	size_t	  n = 0;
	int	  rc;

	argv = calloc(CMDLINE_MAX_ARGS + 1, sizeof(*argv));
	word = malloc(strlen(s) + 1);
	if (argv == NULL || word == NULL) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	while ((rc = next_word(&s, word, err, errlen)) == 1) {
		if (n == CMDLINE_MAX_ARGS) {
			snprintf(err, errlen, "more than %d words",
			    CMDLINE_MAX_ARGS);
			goto fail;
		}
		if ((argv[n++] = strdup(word)) == NULL) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
	}
	if (rc == 0 && n == 0)
		snprintf(err, errlen, "no program");
	else if (rc == 0 && argv[0][0] != '/')
		snprintf(err, errlen, "the program must be an absolute path");
	if (rc == -1 || n == 0 || argv[0][0] != '/')
		goto fail;
	free(word);
	return argv;
fail:
	free(word);
	cmdline_free(argv);
	return NULL;
}
