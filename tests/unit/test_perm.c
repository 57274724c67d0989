/* test_perm.c: the keyed permutation of [0, n) and its inverse. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "perm.h"

#define KEY	0x5eed5eed12345678ULL

static uint64_t
xs64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* perm_fwd over all of [0, n): in range, no duplicates, inverse agrees. */
static void
check_bijection(uint64_t n, uint64_t key, int identity)
{
	struct perm	 p;
	unsigned char	*seen = calloc(n / 8 + 1, 1);
	uint64_t	 i, j;

	assert_non_null(seen);
	perm_init(&p, n, key, identity);
	for (i = 0; i < n; i++) {
		j = perm_fwd(&p, i);
		if (j >= n)
			fail_msg("n=%llu: fwd(%llu) = %llu out of range",
			    (unsigned long long)n, (unsigned long long)i,
			    (unsigned long long)j);
		if (seen[j / 8] & (1u << (j % 8)))
			fail_msg("n=%llu: %llu reached twice",
			    (unsigned long long)n, (unsigned long long)j);
		seen[j / 8] |= 1u << (j % 8);
		if (perm_inv(&p, j) != i)
			fail_msg("n=%llu: inv(fwd(%llu)) = %llu",
			    (unsigned long long)n, (unsigned long long)i,
			    (unsigned long long)perm_inv(&p, j));
	}
	free(seen);
}

static void
test_bijection_small(void **state)
{
	static const uint64_t ns[] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65,
		100, 255, 256, 257, 1000, 1023, 1024, 1025, 4095, 4096, 4097,
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		check_bijection(ns[i], KEY, 0);
		check_bijection(ns[i], 0, 0);
		check_bijection(ns[i], ~0ULL, 0);
	}
}

static void
test_bijection_large(void **state)
{
	(void)state;
	check_bijection(65536, KEY, 0);
	check_bijection(65537, KEY, 0);
	check_bijection(100003, KEY, 0);
	check_bijection(1ULL << 20, KEY, 0);
}

static void
test_bijection_random_n(void **state)
{
	uint64_t	s = 0xc0ffee, n;
	int		k;

	(void)state;
	for (k = 0; k < 8; k++) {
		n = xs64(&s) % (1ULL << 20) + 1;
		check_bijection(n, xs64(&s), 0);
	}
}

/* perm_inv is also a bijection whose inverse is perm_fwd. */
static void
test_inverse_both_ways(void **state)
{
	struct perm	p;
	uint64_t	i, n = 12345;

	(void)state;
	perm_init(&p, n, KEY, 0);
	for (i = 0; i < n; i++) {
		assert_true(perm_inv(&p, i) < n);
		assert_int_equal(perm_fwd(&p, perm_inv(&p, i)), i);
	}
}

static void
test_identity(void **state)
{
	struct perm	p;
	uint64_t	i;

	(void)state;
	perm_init(&p, 1000, KEY, 1);
	for (i = 0; i < 1000; i++) {
		assert_int_equal(perm_fwd(&p, i), i);
		assert_int_equal(perm_inv(&p, i), i);
	}
	perm_init(&p, 1, KEY, 0);
	assert_int_equal(perm_fwd(&p, 0), 0);
	assert_int_equal(perm_inv(&p, 0), 0);
}

/* How many i in [0, n) map to the same place under both permutations. */
static uint64_t
same_places(const struct perm *a, const struct perm *b, uint64_t n)
{
	uint64_t	i, same = 0;

	for (i = 0; i < n; i++)
		same += perm_fwd(a, i) == perm_fwd(b, i);
	return same;
}

static void
test_keys_differ(void **state)
{
	struct perm	a, b, c;
	uint64_t	n = 10000;

	(void)state;
	perm_init(&a, n, KEY, 0);
	perm_init(&b, n, KEY + 1, 0);
	perm_init(&c, n, KEY, 0);
	assert_int_equal(same_places(&a, &c, n), n);
	/* a random permutation has about one fixed point in common */
	assert_true(same_places(&a, &b, n) < 20);
}

/* A keyed permutation actually shuffles: few fixed points, no runs. */
static void
test_shuffles(void **state)
{
	struct perm	p, id;
	uint64_t	i, n = 100000, runs = 0;

	(void)state;
	perm_init(&p, n, KEY, 0);
	perm_init(&id, n, KEY, 1);
	assert_true(same_places(&p, &id, n) < 20);
	for (i = 1; i < n; i++)
		runs += perm_fwd(&p, i) == perm_fwd(&p, i - 1) + 1;
	assert_true(runs < 20);
}

/* A huge n: outputs in range and the inverse on a sample. */
static void
test_huge_n(void **state)
{
	struct perm	p;
	uint64_t	n = (1ULL << 40) + 12345, s = 99, i, j;
	int		k;

	(void)state;
	perm_init(&p, n, KEY, 0);
	for (k = 0; k < 10000; k++) {
		i = k < 10 ? n - 1 - (uint64_t)k : xs64(&s) % n;
		j = perm_fwd(&p, i);
		assert_true(j < n);
		assert_int_equal(perm_inv(&p, j), i);
	}
}

/* n near 2^64: the domain computation must not overflow. */
static void
test_near_max_n(void **state)
{
	struct perm	p;
	uint64_t	n = UINT64_MAX - 5, s = 7, i, j;
	int		k;

	(void)state;
	perm_init(&p, n, KEY, 0);
	for (k = 0; k < 1000; k++) {
		i = xs64(&s) % n;
		j = perm_fwd(&p, i);
		assert_true(j < n);
		assert_int_equal(perm_inv(&p, j), i);
	}
	perm_init(&p, (1ULL << 63) + 1, KEY, 0);
	j = perm_fwd(&p, 12345);
	assert_true(j < (1ULL << 63) + 1);
	assert_int_equal(perm_inv(&p, j), 12345);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bijection_small),
		cmocka_unit_test(test_bijection_large),
		cmocka_unit_test(test_bijection_random_n),
		cmocka_unit_test(test_inverse_both_ways),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_keys_differ),
		cmocka_unit_test(test_shuffles),
		cmocka_unit_test(test_huge_n),
		cmocka_unit_test(test_near_max_n),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
