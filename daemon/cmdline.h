/*
 * cmdline.h: a command line of the configuration (smart_command) split
 * into the argv of a program run without a shell.
 */
#ifndef SSDT_CMDLINE_H
#define SSDT_CMDLINE_H

#include <stddef.h>

#define CMDLINE_MAX_ARGS	64

/*
 * Split `s` into words at blanks (spaces, tabs). 'single quotes' keep
 * what they hold as it is; in "double quotes" and outside quotes a
 * backslash takes the next character as it is. The first word is the
 * program, an absolute path. A NULL-terminated argv to give to
 * cmdline_free, or NULL with the reason in `err`.
 */
char	**cmdline_split(const char *s, char *err, size_t errlen);
void	  cmdline_free(char **argv);

#endif
