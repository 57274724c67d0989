/* block.c: the on-disk block format, payload generation and classification. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_STATIC_LINKING_ONLY	/* XXH3_generateSecret_fromSeed */
#include <xxhash.h>
#if defined(__x86_64__)
/* libxxhash picks SSE2, AVX2 or AVX-512 at run time */
#include <xxh_x86dispatch.h>
#include <immintrin.h>
#endif

#include "block.h"

_Static_assert(sizeof(struct blk_hdr) == BLK_HDR_SIZE, "header size");
_Static_assert(offsetof(struct blk_hdr, checksum) == BLK_HDR_SIZE - 8,
    "checksum is the last header field");

static const char *const class_names[BLK_NCLASS] = {
	"ok", "corrupt", "misdirected", "stale", "foreign", "unwritten",
	"io_error", "lost_flush", "torn"
};

const char *
blk_class_name(enum blk_class c)
{
	return (unsigned)c < BLK_NCLASS ? class_names[c] : "unknown";
}

int
blk_class_is_error(enum blk_class c)
{
	return c != BLK_OK && c != BLK_TORN && (unsigned)c < BLK_NCLASS;
}

int
blk_class_from_name(const char *s)
{
	int	i;

	for (i = 0; i < BLK_NCLASS; i++)
		if (strcmp(class_names[i], s) == 0)
			return i;
	return -1;
}

/* splitmix64: a fast, well-mixing step for seeds. */
static inline uint64_t
mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint64_t
blk_seed(uint64_t instance, uint64_t offset, uint64_t gen)
{
	return mix64(instance ^ mix64(offset ^ mix64(gen)));
}

/* The eight generator lanes of one payload: one 64-byte step. */
typedef uint64_t v8u64 __attribute__((vector_size(64)));

/* One xorshift64 step on every lane. */
#define XS(v) do { (v) ^= (v) << 13; (v) ^= (v) >> 7; (v) ^= (v) << 17; } while (0)

/* The lanes of a payload, from its seed. */
static void
lanes_init(uint64_t seed, uint64_t s[8])
{
	int	l;

	for (l = 0; l < 8; l++) {
		seed = mix64(seed);
		s[l] = seed | 1;
	}
}

/* Store one step; the last, partial one through a bounce buffer. */
static inline __attribute__((always_inline)) void
lanes_store(unsigned char *p, uint32_t i, uint32_t len, const void *v)
{
	unsigned char	tail[64];

	if (i + 64 <= len) {
		memcpy(p + i, v, 64);
		return;
	}
	memcpy(tail, v, 64);
	memcpy(p + i, tail, len - i);
}

/* Four lanes: what one AVX2 register holds. */
typedef uint64_t v4u64 __attribute__((vector_size(32)));

/*
 * Eight xorshift64 lanes per payload, stored lane 0 first, 64 bytes per
 * step: shifts and xors only. Each lane is a chain of dependent steps,
 * so one payload leaves most of the core idle; `n` payloads generated
 * side by side (NFILL at most) keep it busy, the bytes of each the same
 * as alone. The lanes of a step are K vectors of type VT, as wide as the
 * registers the code is built for: one vector of 64 bytes, built for
 * registers of 32, goes through memory at every step (three times
 * slower than SSE2's code).
 */
#define NFILL	4
#define FILL_SIDE(name, VT, K)						\
static inline __attribute__((always_inline)) void			\
name(unsigned char *const p[], unsigned n, uint32_t len,		\
    const uint64_t s[][8])						\
{									\
	VT		v[NFILL][K];					\
	uint32_t	i;						\
	unsigned	b, k;						\
									\
	_Pragma("GCC unroll 4")						\
	for (b = 0; b < n; b++)						\
		memcpy(v[b], s[b], 64);					\
	for (i = 0; i < len; i += 64)					\
		_Pragma("GCC unroll 4")					\
		for (b = 0; b < n; b++) {				\
			_Pragma("GCC unroll 4")				\
			for (k = 0; k < K; k++)				\
				XS(v[b][k]);				\
			lanes_store(p[b], i, len, v[b]);		\
		}							\
}
FILL_SIDE(fill_side8, v8u64, 1)
FILL_SIDE(fill_side4, v4u64, 2)

/* side(p, n, ...) with n (1 to NFILL) known at compile time. */
#define BY_COUNT(side, p, n, ...) do {					\
	switch (n) {							\
	case 1: side(p, 1, __VA_ARGS__); break;				\
	case 2: side(p, 2, __VA_ARGS__); break;				\
	case 3: side(p, 3, __VA_ARGS__); break;				\
	default: side(p, 4, __VA_ARGS__); break;			\
	}								\
} while (0)

/* One instance per count, the count known at compile time. */
#define FILL_VARIANTS(sfx, side)					\
static void								\
fill_##sfx(unsigned char *const p[], unsigned n, uint32_t len,		\
    const uint64_t s[][8])						\
{									\
	BY_COUNT(side, p, n, len, s);					\
}

FILL_VARIANTS(base, fill_side8)
#if defined(__x86_64__)
__attribute__((target("avx2"))) FILL_VARIANTS(avx2, fill_side4)
__attribute__((target("avx512f"))) FILL_VARIANTS(avx512, fill_side8)
#endif

/*
 * The widest vector code the generator may use (enum blk_isa); written
 * by blk_isa_limit only, before any thread uses this file: read-only for
 * the threads after that.
 */
static enum blk_isa	isa_limit = BLK_ISA_AVX512;

/* The vector code to run: the widest the CPU has, within the limit
 * (flag reads, set once at load). */
static enum blk_isa
isa_now(void)
{
#if defined(__x86_64__)
	if (isa_limit >= BLK_ISA_AVX512 && __builtin_cpu_supports("avx512f"))
		return BLK_ISA_AVX512;
	if (isa_limit >= BLK_ISA_AVX2 && __builtin_cpu_supports("avx2"))
		return BLK_ISA_AVX2;
#endif
	return BLK_ISA_BASE;
}

enum blk_isa
blk_isa_limit(enum blk_isa isa)
{
	isa_limit = isa;
	return isa_now();
}

/* n (1 to NFILL) payloads of len bytes side by side. */
static void
fill_many(unsigned char *const p[], unsigned n, uint32_t len,
    const uint64_t s[][8])
{
#if defined(__x86_64__)
	if (isa_now() == BLK_ISA_AVX512) {
		fill_avx512(p, n, len, s);
		return;
	}
	if (isa_now() == BLK_ISA_AVX2) {
		fill_avx2(p, n, len, s);
		return;
	}
#endif
	/* four SSE2 registers a payload: two side by side fill them all */
	for (; n > 2; n -= 2, p += 2, s += 2)
		fill_base(p, 2, len, s);
	fill_base(p, n, len, s);
}

void
blk_fill_payload(void *buf, uint32_t len, uint64_t seed)
{
	uint64_t	 s[1][8];
	unsigned char	*p[1] = { buf };

	lanes_init(seed, s[0]);
	fill_many(p, 1, len, s);
}

/*
 * The payload's checksum as it is generated. The checksum is XXH3-64 of
 * the payload, seeded with the header's XXH3 (blk_checksum); for the
 * payloads of every block size (448 bytes at least, beyond XXH3's 240)
 * that is XXH3's long hash: eight 64-bit accumulators, one 64-byte
 * stripe at a time against a 192-byte secret the seed alters, scrambled
 * every 16 stripes, merged at the end. Its stripes are the generator's
 * steps, so each is hashed as it is made, in the registers it was made
 * in: one pass, the payload never read back. libxxhash's XXH3 stays the
 * reference: blk_check hashes with it, and the tests compare the two.
 */
#define XXH_SECRET_SIZE	192
#define XXH_STRIPES	16	/* a block of the long hash (secret 192) */
#define XXH_LAST_SECRET	121	/* the last stripe's secret offset */
#define XXH_MERGE_SECRET 11	/* the merge's */
#define XXH_SCRAMBLE_SECRET 128
#define XXH_P32_1	0x9E3779B1U
#define XXH_P32_2	0x85EBCA77U
#define XXH_P32_3	0xC2B2AE3DU
#define XXH_P64_1	0x9E3779B185EBCA87ULL
#define XXH_P64_2	0xC2B2AE3D27D4EB4FULL
#define XXH_P64_3	0x165667B19E3779F9ULL
#define XXH_P64_4	0x85EBCA77C2B2AE63ULL
#define XXH_P64_5	0x27D4EB2F165667C5ULL

/* XXH3's default secret, as libxxhash makes it (the seed 0's), at load. */
static unsigned char	xxh_ksecret[XXH_SECRET_SIZE];

__attribute__((constructor)) static void
xxh_ksecret_init(void)
{
	XXH3_generateSecret_fromSeed(xxh_ksecret, 0);
}

static inline uint64_t
rd64(const unsigned char *p)
{
	uint64_t	v;

	memcpy(&v, p, 8);
	return v;
}

/* The secret of a seed: each 16 bytes of the default's, +seed, -seed. */
static void
xxh_secret(unsigned char *sec, uint64_t seed)
{
	uint64_t	lo, hi;
	int		i;

	for (i = 0; i < XXH_SECRET_SIZE; i += 16) {
		lo = rd64(xxh_ksecret + i) + seed;
		hi = rd64(xxh_ksecret + i + 8) - seed;
		memcpy(sec + i, &lo, 8);
		memcpy(sec + i + 8, &hi, 8);
	}
}

static inline uint64_t
fold64(uint64_t a, uint64_t b)
{
	unsigned __int128	p = (unsigned __int128)a * b;

	return (uint64_t)p ^ (uint64_t)(p >> 64);
}

/* The accumulators of a payload of len bytes into its hash. */
static uint64_t
xxh_merge(const uint64_t acc[8], const unsigned char *sec, uint32_t len)
{
	const unsigned char	*k = sec + XXH_MERGE_SECRET;
	uint64_t		 h = (uint64_t)len * XXH_P64_1;
	int			 i;

	for (i = 0; i < 4; i++)
		h += fold64(acc[2 * i] ^ rd64(k + 16 * i),
		    acc[2 * i + 1] ^ rd64(k + 16 * i + 8));
	h ^= h >> 37;
	h *= 0x165667919E3779F9ULL;
	return h ^ (h >> 32);
}

/*
 * One stripe into the accumulators, K vectors of VT: each lane gets the
 * stripe's neighbour lane (the pairs swapped) and the product of the
 * low and high halves of stripe ^ secret.
 */
#define XXH_ACC(a, d, sec, VT, K, SWAP) do {				\
	VT		key_;						\
	unsigned	k_;						\
									\
	_Pragma("GCC unroll 4")						\
	for (k_ = 0; k_ < (K); k_++) {					\
		memcpy(&key_, (sec) + k_ * (64 / (K)), 64 / (K));	\
		key_ ^= (d)[k_];					\
		(a)[k_] += SWAP((d)[k_]);				\
		(a)[k_] += (key_ & 0xffffffffULL) * (key_ >> 32);	\
	}								\
} while (0)

/* Every 16 stripes: each accumulator ^= itself >> 47, ^= the secret's
 * last 64 bytes, times a prime. */
#define XXH_SCRAMBLE(a, sec, VT, K) do {				\
	VT		key_;						\
	unsigned	k_;						\
									\
	_Pragma("GCC unroll 4")						\
	for (k_ = 0; k_ < (K); k_++) {					\
		memcpy(&key_, (sec) + XXH_SCRAMBLE_SECRET +		\
		    k_ * (64 / (K)), 64 / (K));				\
		(a)[k_] ^= (a)[k_] >> 47;				\
		(a)[k_] ^= key_;					\
		(a)[k_] *= XXH_P32_1;					\
	}								\
} while (0)

/*
 * n payloads of len bytes (a multiple of 64, more than 240) side by side,
 * as FILL_SIDE makes them, each hashed as it is made into acc[b].
 */
#define FUSED_SIDE(name, VT, K, SWAP)					\
static inline __attribute__((always_inline)) void			\
name(unsigned char *const p[], unsigned n, uint32_t len,		\
    const uint64_t s[][8], unsigned char sec[][XXH_SECRET_SIZE],	\
    uint64_t acc[][8])							\
{									\
	VT		v[NFILL][K], a[NFILL][K];			\
	uint32_t	st, last = len / 64 - 1;			\
	unsigned	b, k;						\
									\
	_Pragma("GCC unroll 4")						\
	for (b = 0; b < n; b++) {					\
		memcpy(v[b], s[b], 64);					\
		memcpy(a[b], acc[b], 64);				\
	}								\
	for (st = 0; st <= last; st++)					\
		_Pragma("GCC unroll 4")					\
		for (b = 0; b < n; b++) {				\
			_Pragma("GCC unroll 4")				\
			for (k = 0; k < K; k++)				\
				XS(v[b][k]);				\
			memcpy(p[b] + st * 64, v[b], 64);		\
			XXH_ACC(a[b], v[b], sec[b] + (st < last ?	\
			    st % XXH_STRIPES * 8 : XXH_LAST_SECRET),	\
			    VT, K, SWAP);				\
			if (st % XXH_STRIPES == XXH_STRIPES - 1 &&	\
			    st < last)					\
				XXH_SCRAMBLE(a[b], sec[b], VT, K);	\
		}							\
	_Pragma("GCC unroll 4")						\
	for (b = 0; b < n; b++)						\
		memcpy(acc[b], a[b], 64);				\
}
/* the lanes, pairs swapped (GCC 12 and clang have this builtin) */
#define SWAP8(x)	__builtin_shufflevector(x, x, 1, 0, 3, 2, 5, 4, 7, 6)
#define SWAP4(x)	__builtin_shufflevector(x, x, 1, 0, 3, 2)
FUSED_SIDE(fused_side8, v8u64, 1, SWAP8)
FUSED_SIDE(fused_side4, v4u64, 2, SWAP4)

#define FUSED_VARIANTS(sfx, side)					\
static void								\
fused_##sfx(unsigned char *const p[], unsigned n, uint32_t len,		\
    const uint64_t s[][8], unsigned char sec[][XXH_SECRET_SIZE],	\
    uint64_t acc[][8])							\
{									\
	BY_COUNT(side, p, n, len, s, sec, acc);				\
}

FUSED_VARIANTS(base, fused_side8)
#if defined(__x86_64__)
__attribute__((target("avx2"))) FUSED_VARIANTS(avx2, fused_side4)
__attribute__((target("avx512f"))) FUSED_VARIANTS(avx512, fused_side8)
#endif

/* n (1 to NFILL) payloads of len bytes (a multiple of 64) side by side,
 * hashed with the seeds' secrets into their checksums. */
static void
fused_many(unsigned char *const p[], unsigned n, uint32_t len,
    const uint64_t s[][8], const uint64_t seed[], uint64_t sum[])
{
	static const uint64_t	init[8] = { XXH_P32_3, XXH_P64_1,
				    XXH_P64_2, XXH_P64_3, XXH_P64_4, XXH_P32_2,
				    XXH_P64_5, XXH_P32_1 };
	unsigned char		sec[NFILL][XXH_SECRET_SIZE];
	uint64_t		acc[NFILL][8];
	unsigned		b, w;

	for (b = 0; b < n; b++) {
		xxh_secret(sec[b], seed[b]);
		memcpy(acc[b], init, sizeof(init));
	}
	/*
	 * Side by side as the registers allow: AVX-512's 32 hold four
	 * payloads' lanes and accumulators, AVX2's 16 two, SSE2's one. A
	 * payload shorter than 1 KiB is made alone: the few steps do not pay
	 * for the setting up of four.
	 */
	for (b = 0; b < n; b += w) {
		w = len < 1024 ? 1 : n - b;
#if defined(__x86_64__)
		if (isa_now() == BLK_ISA_AVX512) {
			fused_avx512(p + b, w, len, s + b, sec + b, acc + b);
			continue;
		}
		if (w > 2)
			w = 2;
		if (isa_now() == BLK_ISA_AVX2) {
			fused_avx2(p + b, w, len, s + b, sec + b, acc + b);
			continue;
		}
#endif
		w = 1;
		fused_base(p + b, 1, len, s + b, sec + b, acc + b);
	}
	for (b = 0; b < n; b++)
		sum[b] = xxh_merge(acc[b], sec[b], len);
}

#if defined(__x86_64__)
__attribute__((target("avx")))
static void
clear_upper(void)
{
	_mm256_zeroupper();
}
#endif

/*
 * The AVX2/AVX-512 hash can return with dirty upper halves of the vector
 * registers, which makes the SSE code that follows (the generator) much
 * slower; clear them.
 */
static inline void
after_wide_hash(void)
{
#if defined(__x86_64__)
	if (__builtin_cpu_supports("avx"))	/* a flag read, set at load */
		clear_upper();
#endif
}

/* Checksum over the header less its checksum field, then the payload. */
static uint64_t
blk_checksum(const void *buf, uint32_t bs)
{
	const unsigned char	*p = buf;
	uint64_t		 h;

	h = XXH3_64bits(p, offsetof(struct blk_hdr, checksum));
	h = XXH3_64bits_withSeed(p + BLK_HDR_SIZE, bs - BLK_HDR_SIZE, h);
	after_wide_hash();
	return h;
}

/*
 * The payloads of n headed blocks (NFILL at most), and their checksums:
 * hashed as they are made where the payload is whole stripes of 64
 * bytes, more than 240 (every block size the daemon takes), else made,
 * then hashed.
 */
static void
encode_payloads(void *const bufs[], unsigned char *const p[], unsigned n,
    uint32_t bs, const uint64_t s[][8])
{
	uint64_t	seed[NFILL], sum[NFILL];
	unsigned	k;

	/* XXH3 hashes 240 bytes or fewer another way */
	if ((bs - BLK_HDR_SIZE) % 64 != 0 || bs - BLK_HDR_SIZE <= 240) {
		fill_many(p, n, bs - BLK_HDR_SIZE, s);
		for (k = 0; k < n; k++)
			((struct blk_hdr *)bufs[k])->checksum =
			    blk_checksum(bufs[k], bs);
		return;
	}
	for (k = 0; k < n; k++)
		seed[k] = XXH3_64bits(bufs[k],
		    offsetof(struct blk_hdr, checksum));
	fused_many(p, n, bs - BLK_HDR_SIZE, s, seed, sum);
	for (k = 0; k < n; k++)
		((struct blk_hdr *)bufs[k])->checksum = sum[k];
}

/* The header fields a block's checksum does not cover. */
static void
hdr_fill(void *buf, uint32_t bs, uint64_t instance, uint64_t offset,
    uint64_t gen, uint64_t time_ns)
{
	struct blk_hdr	*h = buf;

	h->magic = BLK_MAGIC;
	h->version = BLK_VERSION;
	h->block_size = bs;
	h->instance = instance;
	h->offset = offset;
	h->generation = gen;
	h->write_time_ns = time_ns;
	h->reserved = 0;
}

void
blk_encode(void *buf, uint32_t bs, uint64_t instance, uint64_t offset,
    uint64_t gen, uint64_t time_ns)
{
	blk_encode_many(&buf, &offset, 1, bs, instance, gen, time_ns);
}

void
blk_encode_many(void *const bufs[], const uint64_t offsets[], unsigned n,
    uint32_t bs, uint64_t instance, uint64_t gen, uint64_t time_ns)
{
	unsigned char	*p[NFILL];
	uint64_t	 s[NFILL][8];
	unsigned	 i, k, m;

	for (i = 0; i < n; i += m) {
		m = n - i < NFILL ? n - i : NFILL;
		for (k = 0; k < m; k++) {
			hdr_fill(bufs[i + k], bs, instance, offsets[i + k], gen,
			    time_ns);
			p[k] = (unsigned char *)bufs[i + k] + BLK_HDR_SIZE;
			lanes_init(blk_seed(instance, offsets[i + k], gen),
			    s[k]);
		}
		encode_payloads(bufs + i, p, m, bs, s);
	}
}

/* All bytes equal to `v`? */
static int
blk_all(const void *buf, uint32_t bs, unsigned char v)
{
	const unsigned char	*p = buf;

	return p[0] == v && memcmp(p, p + 1, bs - 1) == 0;
}

/* For a corrupt block: compare the payload with what it should hold. */
static void
blk_diff(const void *buf, uint32_t bs, uint64_t instance, uint64_t offset,
    uint64_t gen, struct blk_result *r)
{
	const unsigned char	*p = (const unsigned char *)buf + BLK_HDR_SIZE;
	unsigned char		*want;
	uint32_t		 i, n = bs - BLK_HDR_SIZE;

	r->first_bad_byte = -1;
	r->bad_bytes = 0;
	if ((want = malloc(n)) == NULL)
		return;
	blk_fill_payload(want, n, blk_seed(instance, offset, gen));
	for (i = 0; i < n; i++)
		if (p[i] != want[i]) {
			if (r->first_bad_byte < 0)
				r->first_bad_byte = (int32_t)(BLK_HDR_SIZE + i);
			r->bad_bytes++;
		}
	free(want);
}

/* Differences of the knowable header fields (magic to generation). */
static uint32_t
header_diff(const void *buf, uint32_t bs, uint64_t instance, uint64_t offset,
    uint64_t gen, int32_t *first)
{
	struct blk_hdr		 want;
	const unsigned char	*a = buf, *b = (const unsigned char *)&want;
	uint32_t		 bad = 0, i;

	memset(&want, 0, sizeof(want));
	want.magic = BLK_MAGIC;
	want.version = BLK_VERSION;
	want.block_size = bs;
	want.instance = instance;
	want.offset = offset;
	want.generation = gen;
	*first = -1;
	for (i = 0; i < offsetof(struct blk_hdr, write_time_ns); i++)
		if (a[i] != b[i]) {
			if (*first < 0)
				*first = (int32_t)i;
			bad++;
		}
	return bad;
}

/* Compare with what the block would be at generation gen. */
static void
diff_as(const void *buf, uint32_t bs, uint64_t instance, uint64_t offset,
    uint64_t gen, struct blk_result *r)
{
	int32_t		hfirst;
	uint32_t	hbad = header_diff(buf, bs, instance, offset, gen, &hfirst);

	blk_diff(buf, bs, instance, offset, gen, r);
	if (hfirst >= 0)
		r->first_bad_byte = hfirst;
	r->bad_bytes += hbad;
}

/*
 * A corrupt block with a readable magic: compare it with what this offset
 * should hold, at the generation its header names and at the expected one,
 * and report the closer: a flipped generation field then shows as one bad
 * byte, not as a whole payload.
 */
static void
blk_diff_header(const void *buf, uint32_t bs, uint64_t instance,
    uint64_t offset, const struct blk_expect *e, struct blk_result *r)
{
	const struct blk_hdr	*h = buf;
	struct blk_result	 alt = *r;

	diff_as(buf, bs, instance, offset, h->generation, r);
	if (!e->has_gen || r->bad_bytes <= 1)
		return;
	diff_as(buf, bs, instance, offset, e->gen_hi, &alt);
	if (alt.bad_bytes < r->bad_bytes) {
		r->first_bad_byte = alt.first_bad_byte;
		r->bad_bytes = alt.bad_bytes;
	}
}

/*
 * No block header (magic, version, size): blank, or garbage. Garbage is
 * not compared byte by byte: with no header there is no telling what it
 * was meant to be a damaged copy of.
 */
static enum blk_class
blk_check_blank(const void *buf, uint32_t bs, const struct blk_expect *e,
    struct blk_result *r)
{
	if (blk_all(buf, bs, 0) || blk_all(buf, bs, 0xff))
		return r->cls = e->allow_unwritten ? BLK_OK : BLK_UNWRITTEN;
	r->no_header = 1;
	return r->cls = BLK_CORRUPT;
}

int
blk_check_units(const void *buf, uint32_t bs, uint64_t instance,
    uint64_t offset, const struct blk_expect *e)
{
	const unsigned char	*p = buf;
	struct blk_expect	 ue;
	struct blk_result	 r;
	uint32_t		 u, unit = e->probe_unit;

	if (unit < BLK_MIN_SIZE || unit > bs || bs % unit != 0)
		return 0;
	memset(&ue, 0, sizeof(ue));
	ue.has_gen = 1;
	ue.gen_lo = ue.gen_hi = e->probe_gen;
	for (u = 0; u < bs; u += unit) {
		/* a header of another size is no unit: spare blk_check's
		 * diff; blank, it is a discarded one where that may be */
		if (((const struct blk_hdr *)(p + u))->block_size != unit) {
			if (!e->allow_unwritten || !(blk_all(p + u, unit, 0) ||
			    blk_all(p + u, unit, 0xff)))
				return 0;
		} else if (blk_check(p + u, unit, instance, offset + u, &ue,
		    &r) != BLK_OK)
			return 0;
	}
	return 1;
}

void
blk_corrupt_text(const struct blk_result *r, char *buf, size_t len)
{
	if (r->no_header)
		snprintf(buf, len, "garbage: no valid block header");
	else if (r->bad_bytes > 0)
		snprintf(buf, len, "checksum mismatch, first bad byte %d, %u "
		    "byte%s differ%s", r->first_bad_byte, r->bad_bytes,
		    r->bad_bytes == 1 ? "" : "s", r->bad_bytes == 1 ? "s" : "");
	else	/* only the fields that cannot be predicted differ */
		snprintf(buf, len, "checksum mismatch; payload and header "
		    "fields as expected but for the write time, reserved or "
		    "checksum field");
}

static enum blk_class	classify(const void *, uint32_t, uint64_t, uint64_t,
			    const struct blk_expect *, struct blk_result *);

static void		blk_torn(const void *, uint32_t, uint64_t, uint64_t,
			    const struct blk_expect *, struct blk_result *);

enum blk_class
blk_check(const void *buf, uint32_t bs, uint64_t instance, uint64_t offset,
    const struct blk_expect *e, struct blk_result *r)
{
	if (classify(buf, bs, instance, offset, e, r) != BLK_OK &&
	    e->allow_any)
		r->cls = BLK_OK;
	else if (r->cls == BLK_CORRUPT && e->tear_unit != 0)
		blk_torn(buf, bs, instance, offset, e, r);
	return r->cls;
}

/* What the block is, against the expectation (allow_any aside). */
static enum blk_class
classify(const void *buf, uint32_t bs, uint64_t instance, uint64_t offset,
    const struct blk_expect *e, struct blk_result *r)
{
	const struct blk_hdr	*h = buf;

	memset(r, 0, sizeof(*r));
	r->first_bad_byte = -1;
	if (h->magic != BLK_MAGIC || h->version != BLK_VERSION ||
	    h->block_size != bs)
		return blk_check_blank(buf, bs, e, r);
	r->found_instance = h->instance;
	r->found_offset = h->offset;
	r->found_gen = h->generation;
	r->found_time_ns = h->write_time_ns;
	if (h->checksum != blk_checksum(buf, bs)) {
		blk_diff_header(buf, bs, instance, offset, e, r);
		return r->cls = BLK_CORRUPT;
	}
	r->hdr_valid = 1;
	if (h->instance != instance)
		return r->cls = BLK_FOREIGN;
	if (h->offset != offset)
		return r->cls = BLK_MISDIRECTED;
	if (e->has_gen && h->generation >= e->gen_lo &&
	    h->generation <= e->gen_hi)
		return r->cls = BLK_OK;
	return r->cls = BLK_STALE;
}

/*
 * Torn blocks. A write cut short leaves, piece by piece (a logical block
 * each: what a device writes whole), part the new content and part what
 * was there. Each piece is compared with every content the block's
 * expectation allows: the generations gen_lo and gen_hi (a piece of the
 * payload as blk_encode makes it, the first piece with the header fields
 * that can be known), blank where a discard may have left it, a
 * checkpoint's probe units.
 */
struct tear {
	uint32_t	 unit;		/* the piece size */
	unsigned	 mask;		/* 1 << enum blk_part: the contents allowed */
	unsigned	 writes;	/* of them, writes the window may have cut */
	uint64_t	 gen[2];	/* of BLK_PART_GEN_LO, BLK_PART_GEN_HI */
	unsigned char	*pay[2];	/* their payloads */
};

/* The piece size and contents a block's expectation allows; -1: none. */
static int
tear_init(struct tear *t, uint32_t bs, uint64_t instance, uint64_t offset,
    const struct blk_expect *e)
{
	int	i;

	memset(t, 0, sizeof(*t));
	t->unit = e->tear_unit < BLK_MIN_SIZE ? BLK_MIN_SIZE : e->tear_unit;
	if (e->probe_unit > t->unit)
		t->unit = e->probe_unit;
	if (t->unit >= bs || bs % t->unit != 0)
		return -1;	/* a block written whole, or pieces unknown */
	if (e->has_gen) {
		t->gen[0] = e->gen_lo;
		t->gen[1] = e->gen_hi;
		t->mask |= 1u << BLK_PART_GEN_HI;
		if (e->gen_lo < e->gen_hi)	/* a write pass's window */
			t->mask |= 1u << BLK_PART_GEN_LO;
	}
	if (e->allow_unwritten)
		t->mask |= 1u << BLK_PART_BLANK;
	if (e->probe_unit >= BLK_MIN_SIZE && t->unit % e->probe_unit == 0)
		t->mask |= 1u << BLK_PART_UNITS;
	t->writes = t->mask & (1u << BLK_PART_UNITS);
	if (t->mask & (1u << BLK_PART_GEN_LO))
		t->writes |= 1u << BLK_PART_GEN_HI;
	/* a mix needs two contents, one of them a write */
	if (__builtin_popcount(t->mask) < 2 || t->writes == 0)
		return -1;
	for (i = 0; i < 2; i++) {
		if (!(t->mask & (1u << (BLK_PART_GEN_LO + i))))
			continue;
		if ((t->pay[i] = malloc(bs - BLK_HDR_SIZE)) == NULL)
			return -1;
		blk_fill_payload(t->pay[i], bs - BLK_HDR_SIZE,
		    blk_seed(instance, offset, t->gen[i]));
	}
	return 0;
}

static void
tear_free(struct tear *t)
{
	free(t->pay[0]);
	free(t->pay[1]);
}

/* Is the piece at byte `at` that of generation i's block? */
static int
piece_is_gen(const unsigned char *buf, uint32_t bs, uint64_t instance,
    uint64_t offset, const struct tear *t, int i, uint32_t at)
{
	int32_t	first;

	if (at > 0)
		return memcmp(buf + at, t->pay[i] + at - BLK_HDR_SIZE,
		    t->unit) == 0;
	/* the write time and checksum cannot be known */
	return header_diff(buf, bs, instance, offset, t->gen[i], &first) == 0 &&
	    ((const struct blk_hdr *)buf)->reserved == 0 &&
	    memcmp(buf + BLK_HDR_SIZE, t->pay[i], t->unit - BLK_HDR_SIZE) == 0;
}

/* Are the piece's bytes all probe units of the expectation's? */
static int
piece_is_units(const unsigned char *buf, uint64_t instance, uint64_t offset,
    const struct blk_expect *e, uint32_t len)
{
	struct blk_expect	ue = { .has_gen = 1, .gen_lo = e->probe_gen,
				    .gen_hi = e->probe_gen };
	struct blk_result	r;
	uint32_t		u;

	for (u = 0; u < len; u += e->probe_unit)
		if (classify(buf + u, e->probe_unit, instance, offset + u, &ue,
		    &r) != BLK_OK)
			return 0;
	return 1;
}

/* The contents (1 << enum blk_part) the piece at byte `at` matches. */
static unsigned
piece_mask(const unsigned char *buf, uint32_t bs, uint64_t instance,
    uint64_t offset, const struct blk_expect *e, const struct tear *t,
    uint32_t at)
{
	unsigned	m = 0;
	int		i;

	for (i = 0; i < 2; i++)
		if (t->pay[i] != NULL &&
		    piece_is_gen(buf, bs, instance, offset, t, i, at))
			m |= 1u << (BLK_PART_GEN_LO + i);
	if ((t->mask & (1u << BLK_PART_BLANK)) &&
	    (blk_all(buf + at, t->unit, 0) || blk_all(buf + at, t->unit, 0xff)))
		m |= 1u << BLK_PART_BLANK;
	if ((t->mask & (1u << BLK_PART_UNITS)) &&
	    piece_is_units(buf + at, instance, offset + at, e, t->unit))
		m |= 1u << BLK_PART_UNITS;
	return m;
}

/* The generation a part stands for (0 for blank and units). */
static uint64_t
part_gen(const struct tear *t, unsigned part)
{
	return part <= BLK_PART_GEN_HI ? t->gen[part - BLK_PART_GEN_LO] : 0;
}

/*
 * A corrupt block: is every piece one of the contents allowed, not all
 * the same one, a write among them? Then it is torn, r says where.
 */
static void
blk_torn(const void *buf, uint32_t bs, uint64_t instance, uint64_t offset,
    const struct blk_expect *e, struct blk_result *r)
{
	struct tear	t;
	unsigned	m, all = ~0u, used = 0, cur = BLK_NPARTS, head = 0;
	uint32_t	at, changes = 0, torn_at = 0, tail = 0;

	if (tear_init(&t, bs, instance, offset, e) == -1) {
		tear_free(&t);
		return;
	}
	for (at = 0; at < bs; at += t.unit) {
		if ((m = piece_mask(buf, bs, instance, offset, e, &t, at)) == 0)
			break;
		all &= m;
		if (cur < BLK_NPARTS && (m & (1u << cur)))
			continue;
		if (cur < BLK_NPARTS && changes++ == 0) {
			torn_at = at;
			tail = (unsigned)__builtin_ctz(m);
		}
		used |= 1u << (cur = (unsigned)__builtin_ctz(m));
		if (at == 0)
			head = cur;
	}
	if (at == bs && all == 0 && (used & t.writes) != 0) {
		r->cls = BLK_TORN;
		r->torn_unit = t.unit;
		r->torn_at = torn_at;
		r->torn_changes = changes;
		r->torn_head = (uint8_t)head;
		r->torn_tail = (uint8_t)tail;
		r->torn_head_gen = part_gen(&t, r->torn_head);
		r->torn_tail_gen = part_gen(&t, r->torn_tail);
	}
	tear_free(&t);
}

void
blk_part_text(enum blk_part p, uint64_t gen, char *buf, size_t len)
{
	if (p == BLK_PART_BLANK)
		snprintf(buf, len, "blank");
	else if (p == BLK_PART_UNITS)
		snprintf(buf, len, "probe units");
	else
		snprintf(buf, len, "generation %llu", (unsigned long long)gen);
}

void
blk_torn_text(const struct blk_result *r, char *buf, size_t len)
{
	char	head[32], tail[32];

	blk_part_text(r->torn_head, r->torn_head_gen, head, sizeof(head));
	blk_part_text(r->torn_tail, r->torn_tail_gen, tail, sizeof(tail));
	snprintf(buf, len, "%s up to byte %u, %s from there (%u-byte pieces, "
	    "%u change%s)", head, r->torn_at, tail, r->torn_unit,
	    r->torn_changes, r->torn_changes == 1 ? "" : "s");
}
