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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_in_idl),
		cmocka_unit_test(test_idl_in_table),
		cmocka_unit_test(test_declares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
