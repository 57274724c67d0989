/* test_block.c: the on-disk block format, payloads and classification. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "block.h"

#define INST	0x0123456789abcdefULL
#define INST2	0xfedcba9876543210ULL
#define TIME	1700000000123456789ULL

static const uint32_t sizes[] = { 512, 4096, 131072, 1024 * 1024 };
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))

static unsigned char *
blk_new(uint32_t bs, uint64_t inst, uint64_t off, uint64_t gen)
{
	unsigned char	*b = malloc(bs);

	assert_non_null(b);
	memset(b, 0xa5, bs);
	blk_encode(b, bs, inst, off, gen, TIME);
	return b;
}

static struct blk_expect
want_gen(uint64_t lo, uint64_t hi)
{
	struct blk_expect	e = { .has_gen = 1, .gen_lo = lo, .gen_hi = hi };

	return e;
}

static enum blk_class
check(const void *b, uint32_t bs, uint64_t inst, uint64_t off,
    struct blk_expect e, struct blk_result *r)
{
	return blk_check(b, bs, inst, off, &e, r);
}

static void
test_round_trip(void **state)
{
	struct blk_result	r;
	unsigned char		*b;
	size_t			 i;
	uint64_t		 off;

	(void)state;
	for (i = 0; i < NSIZES; i++) {
		off = 1000ULL * sizes[i];
		b = blk_new(sizes[i], INST, off, 7);
		assert_int_equal(check(b, sizes[i], INST, off, want_gen(7, 7),
		    &r), BLK_OK);
		assert_int_equal(r.cls, BLK_OK);
		assert_int_equal(r.hdr_valid, 1);
		assert_int_equal(r.found_instance, INST);
		assert_int_equal(r.found_offset, off);
		assert_int_equal(r.found_gen, 7);
		assert_int_equal(r.found_time_ns, TIME);
		assert_int_equal(r.first_bad_byte, -1);
		assert_int_equal(r.bad_bytes, 0);
		free(b);
	}
}

/* The header as documented: "SSDTRT1\0", little-endian fields. */
static void
test_header_layout(void **state)
{
	static const unsigned char le_bs[4] = { 0x00, 0x10, 0x00, 0x00 };
	const struct blk_hdr	*h;
	unsigned char		*b;

	(void)state;
	b = blk_new(4096, INST, 8192, 3);
	h = (const struct blk_hdr *)b;
	assert_memory_equal(b, "SSDTRT1", 8);
	assert_int_equal(h->version, BLK_VERSION);
	assert_memory_equal(b + 12, le_bs, 4);
	assert_int_equal(h->block_size, 4096);
	assert_int_equal(h->instance, INST);
	assert_int_equal(h->offset, 8192);
	assert_int_equal(h->generation, 3);
	assert_int_equal(h->write_time_ns, TIME);
	assert_int_equal(h->reserved, 0);
	free(b);
}

static void
test_deterministic(void **state)
{
	unsigned char	*a, *b;

	(void)state;
	a = blk_new(4096, INST, 4096, 2);
	b = blk_new(4096, INST, 4096, 2);
	assert_memory_equal(a, b, 4096);
	free(a);
	free(b);
}

static void
flip_payload_one(uint32_t bs, uint32_t pos)
{
	struct blk_result	r;
	unsigned char		*b = blk_new(bs, INST, 3 * (uint64_t)bs, 9);

	b[pos] ^= 0x40;
	assert_int_equal(check(b, bs, INST, 3 * (uint64_t)bs, want_gen(9, 9),
	    &r), BLK_CORRUPT);
	assert_int_equal(r.hdr_valid, 0);
	assert_int_equal(r.first_bad_byte, pos);
	assert_int_equal(r.bad_bytes, 1);
	assert_int_equal(r.found_offset, 3 * (uint64_t)bs);
	assert_int_equal(r.found_gen, 9);
	free(b);
}

static void
test_flip_payload_byte(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < NSIZES; i++) {
		flip_payload_one(sizes[i], BLK_HDR_SIZE);
		flip_payload_one(sizes[i], BLK_HDR_SIZE + 1);
		flip_payload_one(sizes[i], sizes[i] / 2 + 3);
		flip_payload_one(sizes[i], sizes[i] - 1);
	}
}

static void
test_flip_two_payload_bytes(void **state)
{
	struct blk_result	r;
	unsigned char		*b = blk_new(4096, INST, 0, 1);

	(void)state;
	b[1000] ^= 1;
	b[3000] ^= 0xff;
	assert_int_equal(check(b, 4096, INST, 0, want_gen(1, 1), &r),
	    BLK_CORRUPT);
	assert_int_equal(r.first_bad_byte, 1000);
	assert_int_equal(r.bad_bytes, 2);
	free(b);
}

/* Any single bit of the header, flipped, makes the block corrupt. */
static void
test_flip_header_byte(void **state)
{
	struct blk_result	r;
	unsigned char		*b = blk_new(4096, INST, 40960, 5);
	int			 i, bit;

	(void)state;
	for (i = 0; i < BLK_HDR_SIZE; i++)
		for (bit = 0; bit < 8; bit++) {
			b[i] ^= 1u << bit;
			if (check(b, 4096, INST, 40960, want_gen(5, 5), &r) !=
			    BLK_CORRUPT)
				fail_msg("header byte %d bit %d: %s", i, bit,
				    blk_class_name(r.cls));
			assert_int_equal(r.hdr_valid, 0);
			b[i] ^= 1u << bit;
		}
	assert_int_equal(check(b, 4096, INST, 40960, want_gen(5, 5), &r),
	    BLK_OK);
	free(b);
}

/* A bad checksum over a good payload: corrupt, no payload byte differs. */
static void
test_flip_checksum(void **state)
{
	struct blk_result	r;
	unsigned char		*b = blk_new(4096, INST, 0, 5);

	(void)state;
	b[BLK_HDR_SIZE - 1] ^= 0x10;
	assert_int_equal(check(b, 4096, INST, 0, want_gen(5, 5), &r),
	    BLK_CORRUPT);
	assert_int_equal(r.bad_bytes, 0);
	assert_int_equal(r.first_bad_byte, -1);
	free(b);
}

static void
test_misdirected(void **state)
{
	struct blk_result	r;
	unsigned char		*b = blk_new(4096, INST, 12 * 4096, 5);

	(void)state;
	assert_int_equal(check(b, 4096, INST, 13 * 4096, want_gen(5, 5), &r),
	    BLK_MISDIRECTED);
	assert_int_equal(r.hdr_valid, 1);
	assert_int_equal(r.found_offset, 12 * 4096);
	assert_int_equal(r.found_instance, INST);
	assert_int_equal(r.found_gen, 5);
	free(b);
}

static void
test_stale(void **state)
{
	struct blk_result	r;
	unsigned char		*b = blk_new(4096, INST, 4096, 4);

	(void)state;
	assert_int_equal(check(b, 4096, INST, 4096, want_gen(5, 5), &r),
	    BLK_STALE);
	assert_int_equal(r.found_gen, 4);
	assert_int_equal(r.hdr_valid, 1);
	free(b);
	/* newer than expected is not ok either */
	b = blk_new(4096, INST, 4096, 6);
	assert_int_equal(check(b, 4096, INST, 4096, want_gen(5, 5), &r),
	    BLK_STALE);
	assert_int_equal(r.found_gen, 6);
	free(b);
}

static void
test_foreign(void **state)
{
	struct blk_result	r;
	unsigned char		*b = blk_new(4096, INST2, 4096, 5);

	(void)state;
	assert_int_equal(check(b, 4096, INST, 4096, want_gen(5, 5), &r),
	    BLK_FOREIGN);
	assert_int_equal(r.found_instance, INST2);
	assert_int_equal(r.hdr_valid, 1);
	/* another instance and another offset: still foreign */
	assert_int_equal(check(b, 4096, INST, 8192, want_gen(5, 5), &r),
	    BLK_FOREIGN);
	free(b);
}

static void
check_blank(unsigned char fill)
{
	struct blk_expect	e = want_gen(3, 3);
	struct blk_result	r;
	unsigned char		*b = malloc(4096);

	assert_non_null(b);
	memset(b, fill, 4096);
	assert_int_equal(blk_check(b, 4096, INST, 0, &e, &r), BLK_UNWRITTEN);
	e.allow_unwritten = 1;
	assert_int_equal(blk_check(b, 4096, INST, 0, &e, &r), BLK_OK);
	e.has_gen = 0;
	assert_int_equal(blk_check(b, 4096, INST, 0, &e, &r), BLK_OK);
	b[4095] = 1;
	assert_int_equal(blk_check(b, 4096, INST, 0, &e, &r), BLK_CORRUPT);
	free(b);
}

static void
test_unwritten(void **state)
{
	(void)state;
	check_blank(0x00);
	check_blank(0xff);
}

/* Data where only "nothing" is expected is not ok. */
static void
test_written_where_unwritten_expected(void **state)
{
	struct blk_expect	e = { .allow_unwritten = 1 };
	struct blk_result	r;
	unsigned char		*b = blk_new(4096, INST, 0, 1);

	(void)state;
	assert_int_not_equal(blk_check(b, 4096, INST, 0, &e, &r), BLK_OK);
	assert_int_equal(r.cls, BLK_STALE);
	free(b);
}

static uint64_t
xs64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A believable 4096-byte header (magic, version, size) over garbage. */
static void
fake_header(unsigned char *b)
{
	uint32_t	bs = 4096;

	blk_encode(b, 512, INST, 0, 1, TIME);
	memcpy(b + offsetof(struct blk_hdr, block_size), &bs, sizeof(bs));
	memset(b + 512, 0x5a, 4096 - 512);
}

/*
 * allow_any (a block this run has not written yet): whatever it holds is
 * ok, and what was found is still said (a block of this run, or not).
 */
static void
test_allow_any(void **state)
{
	struct blk_expect	e = want_gen(2, 2);
	struct blk_result	r;
	unsigned char		*b = malloc(4096);
	uint64_t		 s = 99;
	int			 i;

	(void)state;
	assert_non_null(b);
	e.allow_any = 1;
	for (i = 0; i < 4096; i++)	/* garbage */
		b[i] = (unsigned char)xs64(&s);
	assert_int_equal(check(b, 4096, INST, 0, e, &r), BLK_OK);
	assert_int_equal(r.hdr_valid, 0);
	blk_encode(b, 4096, INST ^ 1, 0, 2, 5);	/* another run's */
	assert_int_equal(check(b, 4096, INST, 0, e, &r), BLK_OK);
	assert_true(r.hdr_valid && r.found_instance == (INST ^ 1));
	blk_encode(b, 4096, INST, 0, 1, 5);	/* ours, older */
	assert_int_equal(check(b, 4096, INST, 0, e, &r), BLK_OK);
	assert_true(r.hdr_valid && r.found_gen == 1);
	e.allow_any = 0;	/* without it, each is what it is */
	assert_int_equal(check(b, 4096, INST, 0, e, &r), BLK_STALE);
	free(b);
}

static void
test_garbage(void **state)
{
	struct blk_result	r;
	unsigned char		*b = malloc(4096);
	uint64_t		 s = 0x1234567;
	int			 i, round;
	char			 text[160];

	(void)state;
	assert_non_null(b);
	for (round = 0; round < 20; round++) {
		for (i = 0; i < 4096; i++)
			b[i] = (unsigned char)xs64(&s);
		if (round % 2)
			fake_header(b);
		assert_int_equal(check(b, 4096, INST, 0, want_gen(1, 1), &r),
		    BLK_CORRUPT);
		assert_int_equal(r.hdr_valid, 0);
		/* a first bad byte comes with the bytes that differ */
		if (r.first_bad_byte >= 0)
			assert_true(r.bad_bytes > 0);
		blk_corrupt_text(&r, text, sizeof(text));
		if (round % 2) {	/* a header, compared byte by byte */
			assert_int_equal(r.no_header, 0);
			assert_true(r.bad_bytes > 0);
			assert_non_null(strstr(text, "checksum mismatch, first "
			    "bad byte"));
		} else {
			assert_int_equal(r.no_header, 1);
			assert_int_equal(r.first_bad_byte, -1);
			assert_string_equal(text,
			    "garbage: no valid block header");
		}
	}
	/* zeros with one stray byte: no header either */
	memset(b, 0, 4096);
	b[4095] = 1;
	assert_int_equal(check(b, 4096, INST, 0, want_gen(1, 1), &r),
	    BLK_CORRUPT);
	assert_int_equal(r.no_header, 1);
	free(b);
}

/* The words for a corrupt block say what differs, never "0 bytes". */
static void
test_corrupt_text(void **state)
{
	struct blk_result	r;
	unsigned char		*b = blk_new(4096, INST, 0, 5);
	char			 text[160];

	(void)state;
	b[1000] ^= 1;
	assert_int_equal(check(b, 4096, INST, 0, want_gen(5, 5), &r),
	    BLK_CORRUPT);
	blk_corrupt_text(&r, text, sizeof(text));
	assert_string_equal(text,
	    "checksum mismatch, first bad byte 1000, 1 byte differs");
	b[2000] ^= 1;
	check(b, 4096, INST, 0, want_gen(5, 5), &r);
	blk_corrupt_text(&r, text, sizeof(text));
	assert_string_equal(text,
	    "checksum mismatch, first bad byte 1000, 2 bytes differ");
	b[1000] ^= 1;
	b[2000] ^= 1;
	b[BLK_HDR_SIZE - 1] ^= 0x10;	/* the checksum field only */
	check(b, 4096, INST, 0, want_gen(5, 5), &r);
	assert_int_equal(r.no_header, 0);
	blk_corrupt_text(&r, text, sizeof(text));
	assert_null(strstr(text, "0 bytes"));
	assert_non_null(strstr(text, "checksum mismatch"));
	free(b);
}

/* A block encoded for one size, read with another. */
static void
test_wrong_block_size(void **state)
{
	struct blk_result	r;
	unsigned char		*b = blk_new(4096, INST, 0, 1);

	(void)state;
	assert_int_equal(check(b, 512, INST, 0, want_gen(1, 1), &r),
	    BLK_CORRUPT);
	free(b);
}

static void
test_gen_range(void **state)
{
	struct blk_result	r;
	unsigned char		*b;
	uint64_t		 g;

	(void)state;
	for (g = 0; g <= 8; g++) {
		b = blk_new(4096, INST, 4096, g);
		assert_int_equal(check(b, 4096, INST, 4096, want_gen(3, 5), &r),
		    g >= 3 && g <= 5 ? BLK_OK : BLK_STALE);
		assert_int_equal(r.found_gen, g);
		free(b);
	}
	b = blk_new(4096, INST, 4096, UINT64_MAX);
	assert_int_equal(check(b, 4096, INST, 4096,
	    want_gen(UINT64_MAX - 1, UINT64_MAX), &r), BLK_OK);
	free(b);
}

/* Torn write: the new header and first half, the old second half. */
static void
test_torn_write(void **state)
{
	struct blk_result	r;
	unsigned char		*nw = blk_new(4096, INST, 0, 5);
	unsigned char		*old = blk_new(4096, INST, 0, 4);
	uint32_t		 i, diff = 0;
	int32_t			 first = -1;

	(void)state;
	for (i = 2048; i < 4096; i++)
		if (nw[i] != old[i]) {
			if (first < 0)
				first = (int32_t)i;
			diff++;
		}
	memcpy(nw + 2048, old + 2048, 2048);
	assert_int_equal(check(nw, 4096, INST, 0, want_gen(5, 5), &r),
	    BLK_CORRUPT);
	assert_int_equal(r.first_bad_byte, first);
	assert_int_equal(r.bad_bytes, diff);
	assert_true(diff > 2000);
	free(nw);
	free(old);
}

/* How many payload bytes of two blocks differ. */
static uint32_t
payload_diff(const unsigned char *a, const unsigned char *b, uint32_t bs)
{
	uint32_t	i, n = 0;

	for (i = BLK_HDR_SIZE; i < bs; i++)
		n += a[i] != b[i];
	return n;
}

static void
assert_payloads_differ(const unsigned char *a, const unsigned char *b)
{
	uint32_t	n = payload_diff(a, b, 4096);

	/* random bytes agree 1 time in 256 */
	if (n < (4096 - BLK_HDR_SIZE) * 15 / 16)
		fail_msg("payloads differ in only %u bytes", n);
}

static void
test_payload_unique(void **state)
{
	unsigned char	*base = blk_new(4096, INST, 4096, 3);
	unsigned char	*o = blk_new(4096, INST, 8192, 3);
	unsigned char	*g = blk_new(4096, INST, 4096, 4);
	unsigned char	*in = blk_new(4096, INST2, 4096, 3);

	(void)state;
	assert_payloads_differ(base, o);
	assert_payloads_differ(base, g);
	assert_payloads_differ(base, in);
	assert_payloads_differ(o, g);
	free(base);
	free(o);
	free(g);
	free(in);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Seeds of many (offset, gen) pairs of one instance never collide. */
static void
test_seed_unique(void **state)
{
	enum { NOFF = 20000, NGEN = 10 };
	uint64_t	*s = malloc(sizeof(*s) * NOFF * NGEN);
	size_t		 i, n = 0;
	uint64_t	 off, gen;

	(void)state;
	assert_non_null(s);
	for (gen = 0; gen < NGEN; gen++)
		for (off = 0; off < NOFF; off++)
			s[n++] = blk_seed(INST, off * 4096, gen);
	qsort(s, n, sizeof(*s), cmp_u64);
	for (i = 1; i < n; i++)
		assert_int_not_equal(s[i], s[i - 1]);
	assert_int_not_equal(blk_seed(INST, 0, 0), blk_seed(INST2, 0, 0));
	/* the fields are mixed one by one, not just xored together */
	assert_int_not_equal(blk_seed(INST, 0, 4096), blk_seed(INST, 4096, 0));
	assert_int_not_equal(blk_seed(INST ^ 4096, 0, 1),
	    blk_seed(INST, 4096, 1));
	free(s);
}

/* Each byte value within 50% of its expected count over 128 KiB. */
static void
test_payload_histogram(void **state)
{
	unsigned char	*b = blk_new(131072, INST, 1ULL << 30, 12);
	uint32_t	 hist[256] = { 0 }, i, n = 131072 - BLK_HDR_SIZE;
	double		 mean = n / 256.0;

	(void)state;
	for (i = BLK_HDR_SIZE; i < 131072; i++)
		hist[b[i]]++;
	for (i = 0; i < 256; i++)
		if (hist[i] < mean * 0.5 || hist[i] > mean * 1.5)
			fail_msg("byte 0x%02x: %u times, mean %.1f", i,
			    hist[i], mean);
	free(b);
}

/* No repeated 8-byte word in a payload (no short period, no equal lanes). */
static void
test_payload_no_repeats(void **state)
{
	enum { BS = 131072, NW = (BS - BLK_HDR_SIZE) / 8 };
	unsigned char	*b = blk_new(BS, INST, 0, 1);
	uint64_t	*w = malloc(sizeof(*w) * NW);
	size_t		 i;

	(void)state;
	assert_non_null(w);
	memcpy(w, b + BLK_HDR_SIZE, sizeof(*w) * NW);
	qsort(w, NW, sizeof(*w), cmp_u64);
	for (i = 1; i < NW; i++)
		assert_int_not_equal(w[i], w[i - 1]);
	free(w);
	free(b);
}

/* A short fill is the prefix of a longer one with the same seed. */
static void
test_fill_prefix(void **state)
{
	unsigned char	a[256], b[256];
	uint32_t	len;

	(void)state;
	blk_fill_payload(b, sizeof(b), 77);
	for (len = 1; len < sizeof(a); len += 7) {
		memset(a, 0, sizeof(a));
		blk_fill_payload(a, len, 77);
		assert_memory_equal(a, b, len);
		assert_int_equal(a[len], 0);
	}
}

static uint64_t
fnv1a(const unsigned char *p, size_t n)
{
	uint64_t	h = 0xcbf29ce484222325ULL;
	size_t		i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/*
 * The payloads are part of the on-disk format: blocks written by an
 * earlier build must compare the same (figures from the first
 * generator, one payload at a time with SSE2 registers).
 */
static void
test_payload_known(void **state)
{
	static const struct {
		uint32_t	len;
		uint64_t	fnv;
	} kat[] = {
		{ 64, 0x5914c253c8bc9e63ULL },
		{ 4032, 0xe83ae2c682febe43ULL },
		{ 131008, 0x9e095c9a44e05eb7ULL },
		{ 1000, 0x3aefca61602f4c33ULL },
		{ 1048512, 0x4827a1b98c4b0f43ULL },
	};
	unsigned char	*b = malloc(1 << 20);
	size_t		 i;

	(void)state;
	assert_non_null(b);
	for (i = 0; i < sizeof(kat) / sizeof(kat[0]); i++) {
		blk_fill_payload(b, kat[i].len, INST + i);
		assert_int_equal(fnv1a(b, kat[i].len), kat[i].fnv);
	}
	blk_encode(b, 4096, INST, 8192, 3, TIME);
	assert_int_equal(fnv1a(b, 4096), 0x9696cbe3a9a32c5cULL);
	free(b);
}

/*
 * Blocks encoded together are the blocks encoded one by one, whatever
 * their number (the generator runs several side by side, in groups).
 */
/*
 * Each vector code the CPU has (blk_isa_limit) makes the blocks SSE2's
 * code makes, one by one and several side by side, the last step of the
 * payload partial or not; the checksum each hashes as it generates is
 * the one libxxhash's XXH3 gives (blk_check).
 */
static void
test_isas(void **state)
{
	enum { MAXN = 5 };
	/* the payload's stripes of 64 bytes: 7, 63, 2047; 15 to 33 around
	 * the hash's blocks of 16 stripes; 4, the fewest it hashes as
	 * made; 2 and 3, hashed after (XXH3's short inputs); and not whole */
	static const uint32_t	 bss[] = { 512, 4096, 131072, 1024, 1088,
				    1152, 2112, 2176, 320, 192, 256, 1000 };
	enum blk_isa		 isa, got;
	unsigned char		*ref[MAXN], *b[MAXN];
	uint64_t		 offs[MAXN];
	struct blk_result	 r;
	uint32_t		 bs;
	unsigned		 n, k;
	size_t			 i;

	(void)state;
	for (isa = BLK_ISA_BASE; isa <= BLK_ISA_AVX512; isa++)
		for (i = 0; i < sizeof(bss) / sizeof(bss[0]); i++)
			for (n = 1; n <= MAXN; n++) {
				bs = bss[i];
				for (k = 0; k < n; k++) {
					offs[k] = (7 + 3 * k) * (uint64_t)bs;
					assert_non_null(ref[k] = malloc(bs));
					assert_non_null(b[k] = malloc(bs));
				}
				blk_isa_limit(BLK_ISA_BASE);
				blk_encode_many((void *const *)ref, offs, n, bs,
				    INST, 6, TIME);
				got = blk_isa_limit(isa);
				blk_encode_many((void *const *)b, offs, n, bs,
				    INST, 6, TIME);
				for (k = 0; k < n; k++) {
					if (memcmp(ref[k], b[k], bs) != 0)
						fail_msg("isa %d, %u blocks of %u "
						    "bytes: block %u differs",
						    (int)got, n, bs, k);
					assert_int_equal(check(b[k], bs, INST,
					    offs[k], want_gen(6, 6), &r),
					    BLK_OK);
					free(ref[k]);
					free(b[k]);
				}
			}
	blk_isa_limit(BLK_ISA_AVX512);
}

static void
test_encode_many(void **state)
{
	enum { MAXN = 9 };
	static const uint32_t	 bss[] = { 512, 4096, 131072 };
	void			*many[MAXN];
	unsigned char		*one;
	uint64_t		 offs[MAXN];
	struct blk_result	 r;
	size_t			 i;
	unsigned		 n, k;

	(void)state;
	for (i = 0; i < sizeof(bss) / sizeof(bss[0]); i++) {
		one = malloc(bss[i]);
		assert_non_null(one);
		for (k = 0; k < MAXN; k++) {
			many[k] = malloc(bss[i]);
			assert_non_null(many[k]);
			/* not adjacent, not in order */
			offs[k] = (uint64_t)((k * 7 + 3) % MAXN) * 5 * bss[i];
		}
		for (n = 1; n <= MAXN; n++) {
			blk_encode_many(many, offs, n, bss[i], INST, 9, TIME);
			for (k = 0; k < n; k++) {
				blk_encode(one, bss[i], INST, offs[k], 9, TIME);
				assert_memory_equal(many[k], one, bss[i]);
				assert_int_equal(check(many[k], bss[i], INST,
				    offs[k], want_gen(9, 9), &r), BLK_OK);
			}
		}
		for (k = 0; k < MAXN; k++)
			free(many[k]);
		free(one);
	}
}

static void
test_class_names(void **state)
{
	int	c;

	(void)state;
	for (c = 0; c < BLK_NCLASS; c++)
		assert_int_equal(blk_class_from_name(blk_class_name(c)), c);
	assert_string_equal(blk_class_name(BLK_OK), "ok");
	assert_string_equal(blk_class_name(BLK_CORRUPT), "corrupt");
	assert_string_equal(blk_class_name(BLK_MISDIRECTED), "misdirected");
	assert_string_equal(blk_class_name(BLK_STALE), "stale");
	assert_string_equal(blk_class_name(BLK_FOREIGN), "foreign");
	assert_string_equal(blk_class_name(BLK_UNWRITTEN), "unwritten");
	assert_string_equal(blk_class_name(BLK_IO_ERROR), "io_error");
	assert_string_equal(blk_class_name(BLK_LOST_FLUSH), "lost_flush");
	assert_string_equal(blk_class_name(BLK_TORN), "torn");
	assert_string_equal(blk_class_name(BLK_NCLASS), "unknown");
	assert_string_equal(blk_class_name((enum blk_class)-1), "unknown");
	assert_int_equal(blk_class_from_name("bogus"), -1);
	assert_int_equal(blk_class_from_name(""), -1);
	assert_int_equal(blk_class_from_name("OK"), -1);
}

/* A flipped byte in the header's offset field: corrupt, found there. */
static void
test_header_byte(void **state)
{
	struct blk_expect	 e = want_gen(7, 7);
	struct blk_result	 r;
	unsigned char		*b = blk_new(4096, INST, 8192, 7);

	(void)state;
	b[31] ^= 0x40;			/* last byte of the offset field */
	assert_int_equal(blk_check(b, 4096, INST, 8192, &e, &r), BLK_CORRUPT);
	assert_int_equal(r.first_bad_byte, 31);
	assert_int_equal(r.bad_bytes, 1);
	b[31] ^= 0x40;
	b[100] ^= 0x01;			/* and a payload byte: still the first */
	b[33] ^= 0x02;			/* generation field */
	assert_int_equal(blk_check(b, 4096, INST, 8192, &e, &r), BLK_CORRUPT);
	assert_int_equal(r.first_bad_byte, 33);
	assert_int_equal(r.bad_bytes, 2);
	free(b);
}

/*
 * A block a checkpoint's probes wrote over: a run of units, each a block
 * of its own at its own offset, of the checkpoint's generation.
 */
static void
test_probe_units(void **state)
{
	const uint32_t		 bs = 4096, unit = 512;
	const uint64_t		 inst = 0xabc, off = 1 << 20, gen = 7;
	struct blk_expect	 e = { .has_gen = 1, .gen_lo = 3, .gen_hi = 3,
				    .probe_unit = unit, .probe_gen = gen };
	struct blk_result	 r;
	unsigned char		*b = malloc(bs), *whole;
	uint32_t		 u;

	(void)state;
	assert_non_null(b);
	for (u = 0; u < bs; u += unit)
		blk_encode(b + u, unit, inst, off + u, gen, TIME);
	assert_int_equal(blk_check_units(b, bs, inst, off, &e), 1);
	/* as a block of 4 KiB it is not one: the units are what allow it */
	assert_int_not_equal(blk_check(b, bs, inst, off, &e, &r), BLK_OK);
	/* one unit of another generation, at another offset, or damaged */
	blk_encode(b + 3 * unit, unit, inst, off + 3 * unit, gen + 1, TIME);
	assert_int_equal(blk_check_units(b, bs, inst, off, &e), 0);
	blk_encode(b + 3 * unit, unit, inst, off + 2 * unit, gen, TIME);
	assert_int_equal(blk_check_units(b, bs, inst, off, &e), 0);
	blk_encode(b + 3 * unit, unit, inst, off + 3 * unit, gen, TIME);
	b[3 * unit + 100] ^= 1;
	assert_int_equal(blk_check_units(b, bs, inst, off, &e), 0);
	b[3 * unit + 100] ^= 1;
	assert_int_equal(blk_check_units(b, bs, inst, off, &e), 1);
	/* a discarded (blank) unit among them: only where a TRIM may have
	 * left one, and only blank; the units around it still checked */
	memset(b + 2 * unit, 0, unit);
	assert_int_equal(blk_check_units(b, bs, inst, off, &e), 0);
	e.allow_unwritten = 1;
	assert_int_equal(blk_check_units(b, bs, inst, off, &e), 1);
	memset(b + 2 * unit, 0xff, unit);
	assert_int_equal(blk_check_units(b, bs, inst, off, &e), 1);
	b[2 * unit + 7] = 0x12;
	assert_int_equal(blk_check_units(b, bs, inst, off, &e), 0);
	blk_encode(b + 2 * unit, unit, inst, off + 2 * unit, gen, TIME);
	b[5 * unit + 100] ^= 1;
	assert_int_equal(blk_check_units(b, bs, inst, off, &e), 0);
	b[5 * unit + 100] ^= 1;
	e.allow_unwritten = 0;
	/* no unit expected, or a block of the cycle's: not units */
	e.probe_unit = 0;
	assert_int_equal(blk_check_units(b, bs, inst, off, &e), 0);
	e.probe_unit = unit;
	whole = blk_new(bs, inst, off, 3);
	assert_int_equal(blk_check_units(whole, bs, inst, off, &e), 0);
	assert_int_equal(blk_check(whole, bs, inst, off, &e, &r), BLK_OK);
	free(whole);
	free(b);
}

/*
 * A block of `bs` bytes: generation `head` up to byte `at`, then `tail`
 * (a generation, or blank when tail is UINT64_MAX): a write cut there.
 */
static unsigned char *
blk_cut(uint32_t bs, uint64_t off, uint64_t head, uint64_t tail, uint32_t at)
{
	unsigned char	*b = blk_new(bs, INST, off, head), *t;

	if (tail == UINT64_MAX)
		memset(b + at, 0, bs - at);
	else {
		t = blk_new(bs, INST, off, tail);
		memcpy(b + at, t + at, bs - at);
		free(t);
	}
	return b;
}

/*
 * Half old, half new in memory: torn where the expectation allows both
 * (the window a crash or power loss left unflushed), corrupt where it
 * allows one, or where a piece is neither.
 */
static void
test_torn_window(void **state)
{
	const uint32_t		 bs = 1024 * 1024, at = 696320;
	const uint64_t		 off = 7ULL * bs;
	struct blk_expect	 e = want_gen(4, 5);
	struct blk_result	 r;
	unsigned char		*b = blk_cut(bs, off, 5, 4, at);
	char			 text[200];

	(void)state;
	e.tear_unit = 4096;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_TORN);
	assert_int_equal(r.torn_at, at);
	assert_int_equal(r.torn_unit, 4096);
	assert_int_equal(r.torn_head, BLK_PART_GEN_HI);
	assert_int_equal(r.torn_head_gen, 5);
	assert_int_equal(r.torn_tail, BLK_PART_GEN_LO);
	assert_int_equal(r.torn_tail_gen, 4);
	assert_int_equal(r.torn_changes, 1);
	assert_int_equal(r.found_gen, 5);
	blk_torn_text(&r, text, sizeof(text));
	assert_string_equal(text, "generation 5 up to byte 696320, generation "
	    "4 from there (4096-byte pieces, 1 change)");
	/* outside the window (a flush covered the write): corrupt, as ever */
	e = want_gen(5, 5);
	e.tear_unit = 4096;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	assert_int_equal(r.first_bad_byte, (int32_t)at);
	/* no piece size given: no tear looked for */
	e = want_gen(4, 5);
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	/* a piece itself part old, part new: no device writes so */
	free(b);
	b = blk_cut(bs, off, 5, 4, at + 100);
	e.tear_unit = 4096;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	/* with 512-byte sectors a cut at any of them is one */
	free(b);
	b = blk_cut(bs, off, 5, 4, at + 512);
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	e.tear_unit = 512;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_TORN);
	assert_int_equal(r.torn_at, at + 512);
	/* a flipped byte in the new part, or in the old: corrupt */
	b[1000] ^= 1;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	b[1000] ^= 1;
	b[bs - 1] ^= 1;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	b[bs - 1] ^= 1;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_TORN);
	/* the block of another offset's old content after the cut: corrupt */
	free(b);
	b = blk_cut(bs, off, 5, 4, at);
	{
		unsigned char *o = blk_new(bs, INST, off + bs, 4);

		memcpy(b + at, o + at, bs - at);
		free(o);
	}
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	/* a first cycle's window allows anything: ok */
	e.allow_any = e.allow_unwritten = 1;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_OK);
	free(b);
}

/* The old content trimmed (blank), the new cut; several cuts; a discard's. */
static void
test_torn_blank(void **state)
{
	const uint32_t		 bs = 131072;
	const uint64_t		 off = 3ULL * bs;
	struct blk_expect	 e = want_gen(4, 5);
	struct blk_result	 r;
	unsigned char		*b = blk_cut(bs, off, 5, UINT64_MAX, 8192);
	unsigned char		*o = blk_new(bs, INST, off, 4);

	(void)state;
	e.tear_unit = 4096;
	/* a blank tail where the trim left the old content blank */
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	e.allow_unwritten = 1;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_TORN);
	assert_int_equal(r.torn_at, 8192);
	assert_int_equal(r.torn_head, BLK_PART_GEN_HI);
	assert_int_equal(r.torn_tail, BLK_PART_BLANK);
	/* new, then old, then new again (pieces written out of order) */
	memcpy(b + 8192, o + 8192, 4096);
	memset(b + 12288, 0, bs - 12288);
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_TORN);
	assert_int_equal(r.torn_tail, BLK_PART_GEN_LO);
	assert_int_equal(r.torn_changes, 2);
	/* old and blank alone, no newer write among them (a discard that
	 * left part of a block): no write was cut, corrupt as before */
	free(b);
	b = blk_cut(bs, off, 4, UINT64_MAX, 8192);
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	e = want_gen(4, 4);
	e.allow_unwritten = 1;
	e.tear_unit = 4096;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	/* the header piece blank, the rest new: torn, from blank */
	free(b);
	b = blk_new(bs, INST, off, 5);
	memset(b, 0, 4096);
	e = want_gen(4, 5);
	e.allow_unwritten = 1;
	e.tear_unit = 4096;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_TORN);
	assert_int_equal(r.torn_head, BLK_PART_BLANK);
	assert_int_equal(r.torn_at, 4096);
	free(b);
	free(o);
}

/*
 * A checkpoint's fill or restore cut: a block part probe units, part the
 * cycle's data ("garbage: no valid block header" before).
 */
static void
test_torn_units(void **state)
{
	const uint32_t		 bs = 65536, unit = 4096, at = 5 * unit;
	const uint64_t		 off = 9ULL * bs, gen = 9;
	struct blk_expect	 e = { .has_gen = 1, .gen_lo = 3, .gen_hi = 3,
				    .probe_unit = unit, .probe_gen = gen,
				    .tear_unit = 512 };
	struct blk_result	 r;
	unsigned char		*b = blk_new(bs, INST, off, 3);
	uint32_t		 u;
	char			 text[200];

	(void)state;
	for (u = 0; u < at; u += unit)		/* the fill, cut */
		blk_encode(b + u, unit, INST, off + u, gen, TIME);
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_TORN);
	assert_int_equal(r.torn_unit, unit);
	assert_int_equal(r.torn_at, at);
	assert_int_equal(r.torn_head, BLK_PART_UNITS);
	assert_int_equal(r.torn_tail, BLK_PART_GEN_HI);
	blk_torn_text(&r, text, sizeof(text));
	assert_string_equal(text, "probe units up to byte 20480, generation 3 "
	    "from there (4096-byte pieces, 1 change)");
	/* no region of units there: garbage, as ever */
	e.probe_unit = 0;
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	assert_int_equal(r.no_header, 1);
	/* a unit of another generation among them: corrupt */
	e.probe_unit = unit;
	blk_encode(b + unit, unit, INST, off + unit, gen + 1, TIME);
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_CORRUPT);
	/* the restore cut: the cycle's data first, units after */
	free(b);
	b = blk_new(bs, INST, off, 3);
	for (u = at; u < bs; u += unit)
		blk_encode(b + u, unit, INST, off + u, gen, TIME);
	assert_int_equal(blk_check(b, bs, INST, off, &e, &r), BLK_TORN);
	assert_int_equal(r.torn_head, BLK_PART_GEN_HI);
	assert_int_equal(r.torn_tail, BLK_PART_UNITS);
	free(b);
}

/* A torn block counts apart: every class but ok and torn is an error of
 * the drive (errors_total, bad blocks, max_bad_fraction, exit status). */
static void
test_class_is_error(void **state)
{
	int	c;

	(void)state;
	for (c = 0; c < BLK_NCLASS; c++)
		assert_int_equal(blk_class_is_error(c),
		    c != BLK_OK && c != BLK_TORN);
	assert_false(blk_class_is_error(BLK_NCLASS));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_class_is_error),
		cmocka_unit_test(test_header_layout),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_flip_payload_byte),
		cmocka_unit_test(test_flip_two_payload_bytes),
		cmocka_unit_test(test_flip_header_byte),
		cmocka_unit_test(test_flip_checksum),
		cmocka_unit_test(test_misdirected),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_foreign),
		cmocka_unit_test(test_unwritten),
		cmocka_unit_test(test_written_where_unwritten_expected),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_allow_any),
		cmocka_unit_test(test_corrupt_text),
		cmocka_unit_test(test_wrong_block_size),
		cmocka_unit_test(test_gen_range),
		cmocka_unit_test(test_torn_write),
		cmocka_unit_test(test_payload_unique),
		cmocka_unit_test(test_seed_unique),
		cmocka_unit_test(test_payload_histogram),
		cmocka_unit_test(test_payload_no_repeats),
		cmocka_unit_test(test_fill_prefix),
		cmocka_unit_test(test_encode_many),
		cmocka_unit_test(test_payload_known),
		cmocka_unit_test(test_isas),
		cmocka_unit_test(test_class_names),
		cmocka_unit_test(test_header_byte),
		cmocka_unit_test(test_probe_units),
		cmocka_unit_test(test_torn_window),
		cmocka_unit_test(test_torn_blank),
		cmocka_unit_test(test_torn_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
