/*
 * test_proto.c: the method table and the interface descriptions agree,
 * and the descriptions are what the parameter check reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "proto.h"

static const struct proto_method *
find(const char *full)
{
	int	known;

	return proto_find(full, &known);
}

/* Every method of the table is declared in its interface's description. */
static void
test_table_in_idl(void **st)
{
	const struct proto_method	*m;
	char				 head[128];

	(void)st;
	for (m = proto_methods; m->name != NULL; m++) {
		const char *idl = strcmp(m->interface, PROTO_SERVICE) == 0 ?
		    proto_service_idl : proto_manager_idl;

		snprintf(head, sizeof(head), "\nmethod %s(", m->name);
		assert_non_null(strstr(idl, head));
	}
}

/* Every method the descriptions declare is in the table. */
static void
test_idl_in_table(void **st)
{
	const char	*idls[] = { proto_service_idl, proto_manager_idl };
	const char	*ifaces[] = { PROTO_SERVICE, PROTO_INTERFACE };
	char		 full[160];
	const char	*p;
	size_t		 i, n;

	(void)st;
	for (i = 0; i < 2; i++)
		for (p = idls[i]; (p = strstr(p, "\nmethod ")) != NULL; p++) {
			p += strlen("\nmethod ");
			n = strcspn(p, "(");
			snprintf(full, sizeof(full), "%s.%.*s", ifaces[i],
			    (int)n, p);
			assert_non_null(find(full));
		}
}

static void
test_declares(void **st)
{
	const struct proto_method	*status, *events, *reload, *desc;

	(void)st;
	status = find(PROTO_INTERFACE ".Status");
	events = find(PROTO_INTERFACE ".Events");
	reload = find(PROTO_INTERFACE ".Reload");
	desc = find(PROTO_SERVICE ".GetInterfaceDescription");
	assert_true(proto_declares(status, "drive"));
	assert_false(proto_declares(status, "drives"));	/* an output */
	assert_false(proto_declares(status, "driv"));
	assert_false(proto_declares(status, "bogus"));
	assert_true(proto_declares(events, "drive"));
	assert_true(proto_declares(events, "count"));
	assert_false(proto_declares(events, "events"));
	assert_false(proto_declares(events, "Count"));
	assert_false(proto_declares(reload, "drive"));
	assert_false(proto_declares(reload, ""));
	assert_true(proto_declares(desc, "interface"));
	assert_false(proto_declares(desc, "description"));
}

/* Well-formed UTF-8 (RFC 3629), the edges of every range included. */
static void
test_utf8_valid(void **st)
{
	static const char *const ok[] = {
		"", "plain ASCII", "\x7f", "\xc2\x80", "\xdf\xbf",
		"\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80",
		"\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf",
		"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe",
	};
	size_t	i;

	(void)st;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		assert_true(proto_utf8_valid(ok[i], strlen(ok[i])));
	/* a NUL is a character; the framing keeps it out of messages */
	assert_true(proto_utf8_valid("a\0b", 3));
}

/* Overlongs, surrogates, past U+10FFFF, stray and missing bytes: refused. */
static void
test_utf8_invalid(void **st)
{
	static const char *const bad[] = {
		"\x80", "\xbf", "\xff", "\xfe", "\xc0\x80", "\xc1\xbf",
		"\xe0\x80\x80", "\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf",
		"\xed\xa0\x80", "\xed\xbf\xbf", "\xf4\x90\x80\x80",
		"\xf5\x80\x80\x80", "\xf8\x88\x80\x80\x80", "\xc3",
		"a\xe2\x82", "\xf0\x9f\x92", "\xc3(", "\xe2\x28\xa1",
		"\xe2\x82\x28", "\xf0\x90\x28\xbc", "ok\xc3\xa9\xff",
	};
	size_t	i;

	(void)st;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(proto_utf8_valid(bad[i], strlen(bad[i])));
	/* the length counts, not a NUL: a character cut by it is refused */
	assert_false(proto_utf8_valid("\xc3\xa9", 1));
	assert_true(proto_utf8_valid("\xc3\xa9\xff", 2));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_in_idl),
		cmocka_unit_test(test_idl_in_table),
		cmocka_unit_test(test_declares),
		cmocka_unit_test(test_utf8_valid),
		cmocka_unit_test(test_utf8_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
