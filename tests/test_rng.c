/*
 * Tests for src/lib/rng.c: xorshift128+ seeded through splitmix64.
 *
 * The known-answer values were computed with an independent Python transcription of
 * the two published algorithms (splitmix64 with the 0x9e3779b97f4a7c15 step, whose
 * first output from 0 is the well-known 0xe220a8397b1dcdaf; xorshift128+ with shifts
 * 23/17/26). Statistical checks use fixed seeds, so they cannot flake.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

#include "common.h"

struct kacase {
	uint64_t seed;
	uint64_t want[4];
};

ParameterizedTestParameters(rng, known_answers)
{
	static struct kacase cases[] = {
		{ 0, { 0xff5e664aa2264ab1u, 0x5cb3706844353952u, 0x76f611e25a5011e3u,
		       0xcfeccb7f0a0c7948u } },
		{ 42, { 0xaf1f56fc41a4d2d2u, 0xbd496f01ee605cebu, 0x8c8b2271e69fdbf6u,
			0x5438402ac6921e50u } },
		{ UINT64_MAX, { 0xa06b0c7eb293b576u, 0x23848e3bb15b1d17u, 0x3dd2f88534777c69u,
				0x80e6e4503beca65cu } },
	};
	return cr_make_param_array(struct kacase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct kacase *c, rng, known_answers)
{
	struct rng r;

	rng_seed(&r, c->seed);
	for (int i = 0; i < 4; i++) {
		uint64_t got = rng_next(&r);

		cr_assert_eq(got, c->want[i], "seed %" PRIu64 ", output %d: 0x%016" PRIx64
			     ", want 0x%016" PRIx64, c->seed, i, got, c->want[i]);
	}
}

Test(rng, seed_is_splitmix64)
{
	struct rng r;

	rng_seed(&r, 0);
	cr_assert_eq(r.s[0], UINT64_C(0xe220a8397b1dcdaf), "s[0] 0x%016" PRIx64, r.s[0]);
}

Test(rng, same_seed_same_sequence)
{
	struct rng a, b;

	rng_seed(&a, 12345);
	rng_seed(&b, 12345);
	for (int i = 0; i < 10000; i++) {
		uint64_t x = rng_next(&a), y = rng_next(&b);

		cr_assert_eq(x, y, "output %d: 0x%016" PRIx64 " vs 0x%016" PRIx64, i, x, y);
	}
}

/* Reseeding restarts the sequence. */
Test(rng, reseed_restarts)
{
	struct rng r;
	uint64_t first[8];

	rng_seed(&r, 7);
	for (int i = 0; i < 8; i++)
		first[i] = rng_next(&r);
	for (int i = 0; i < 100; i++)
		rng_next(&r);
	rng_seed(&r, 7);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(rng_next(&r), first[i], "output %d after reseeding", i);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Seeds 0..4095 (neighbours, the worst case for a weak seeder) give distinct states. */
Test(rng, different_seeds_differ)
{
	enum { N = 4096 };
	static uint64_t firsts[N];
	struct rng r;

	for (uint64_t s = 0; s < N; s++) {
		rng_seed(&r, s);
		cr_assert(r.s[0] || r.s[1], "seed %" PRIu64 ": all-zero state", s);
		firsts[s] = rng_next(&r);
	}
	qsort(firsts, N, sizeof(firsts[0]), cmp_u64);
	for (size_t i = 1; i < N; i++)
		cr_assert_neq(firsts[i], firsts[i - 1], "two seeds share a first output");
}

/* Two close seeds share nothing early on. */
Test(rng, close_seeds_are_unrelated)
{
	struct rng a, b;
	int same_bits = 0;

	rng_seed(&a, 1);
	rng_seed(&b, 2);
	for (int i = 0; i < 64; i++) {
		uint64_t x = rng_next(&a), y = rng_next(&b);

		cr_assert_neq(x, y, "output %d", i);
		same_bits += 64 - __builtin_popcountll(x ^ y);
	}
	/* 4096 bits compared: about half should agree */
	cr_assert(same_bits > 1800 && same_bits < 2300, "%d of 4096 bits agree", same_bits);
}

/* All 64 bits are used: each bit is set about half the time. */
Test(rng, every_bit_varies)
{
	struct rng r;
	int ones[64] = { 0 };
	const int n = 20000;

	rng_seed(&r, 99);
	for (int i = 0; i < n; i++) {
		uint64_t x = rng_next(&r);

		for (int b = 0; b < 64; b++)
			ones[b] += (int)((x >> b) & 1);
	}
	for (int b = 0; b < 64; b++)
		cr_assert(ones[b] > n / 2 - 600 && ones[b] < n / 2 + 600, "bit %d set %d of %d",
			  b, ones[b], n);
}

/* ---- rng_below ---------------------------------------------------------- */

Test(rng, below_zero_and_one)
{
	struct rng r;

	rng_seed(&r, 3);
	for (int i = 0; i < 1000; i++) {
		cr_assert_eq(rng_below(&r, 0), 0, "n = 0");
		cr_assert_eq(rng_below(&r, 1), 0, "n = 1");
	}
}

struct bcase {
	uint64_t n;
};

ParameterizedTestParameters(rng, below_in_range)
{
	static struct bcase cases[] = {
		{ 2 }, { 3 }, { 7 }, { 10 }, { 256 }, { 1000003 }, { UINT64_C(1) << 32 },
		{ (UINT64_C(1) << 63) + 1 }, { UINT64_MAX - 1 }, { UINT64_MAX },
	};
	return cr_make_param_array(struct bcase, cases, ARRAY_SIZE(cases));
}

/* Values stay below n and reach its top half. */
ParameterizedTest(struct bcase *c, rng, below_in_range)
{
	struct rng r;
	uint64_t max = 0;

	rng_seed(&r, c->n);
	for (int i = 0; i < 20000; i++) {
		uint64_t x = rng_below(&r, c->n);

		cr_assert_lt(x, c->n, "n %" PRIu64 ": got %" PRIu64, c->n, x);
		if (x > max)
			max = x;
	}
	cr_assert_geq(max, c->n - c->n / 2, "n %" PRIu64 ": max %" PRIu64 " is too small",
		      c->n, max);
	if (c->n <= 10)
		cr_assert_eq(max, c->n - 1, "n %" PRIu64 ": the top value never came", c->n);
}

/* Pearson's chi-square over n cells: loose bounds, roughly uniform. */
static double chi_square(const uint64_t *counts, size_t cells, uint64_t draws)
{
	double expected = (double)draws / (double)cells, chi = 0;

	for (size_t i = 0; i < cells; i++) {
		double d = (double)counts[i] - expected;

		chi += d * d / expected;
	}
	return chi;
}

Test(rng, below_is_uniform)
{
	static const uint64_t ns[] = { 2, 3, 10, 37, 100 };

	for (size_t k = 0; k < ARRAY_SIZE(ns); k++) {
		uint64_t counts[100] = { 0 }, draws = 2000 * ns[k];
		struct rng r;
		double chi;

		rng_seed(&r, 1000 + k);
		for (uint64_t i = 0; i < draws; i++)
			counts[rng_below(&r, ns[k])]++;
		chi = chi_square(counts, (size_t)ns[k], draws);
		/* mean df = n-1, sd sqrt(2 df): allow df + 6 sd + 10 */
		cr_assert_lt(chi, (double)(ns[k] - 1) + 6.0 * sqrt(2.0 * (double)ns[k])
			     + 10.0, "n %" PRIu64 ": chi-square %.1f", ns[k], chi);
	}
}

/*
 * No modulo bias: for n = 2/3 of 2^64, a plain x % n would make the lower half
 * of [0, n) come up 2/3 of the time instead of 1/2.
 */
Test(rng, below_has_no_modulo_bias)
{
	const uint64_t n = UINT64_C(0xaaaaaaaaaaaaaaaa);
	const int draws = 30000;
	struct rng r;
	int low = 0;

	rng_seed(&r, 2024);
	for (int i = 0; i < draws; i++)
		low += rng_below(&r, n) < n / 2;
	/* sd is about 87: 1/2 gives 15000, the biased 2/3 would give 20000 */
	cr_assert(low > 14400 && low < 15600, "%d of %d in the lower half", low, draws);
}

Test(rng, below_is_deterministic)
{
	struct rng a, b;

	rng_seed(&a, 77);
	rng_seed(&b, 77);
	for (int i = 0; i < 1000; i++) {
		uint64_t n = (uint64_t)i * 7919 + 1;

		cr_assert_eq(rng_below(&a, n), rng_below(&b, n), "draw %d, n %" PRIu64, i, n);
	}
}

/* ---- rng_fill ------------------------------------------------------------ */

struct fillcase {
	size_t len;
};

ParameterizedTestParameters(rng, fill_lengths)
{
	static struct fillcase cases[] = {
		{ 0 }, { 1 }, { 3 }, { 7 }, { 8 }, { 9 }, { 13 }, { 15 }, { 16 }, { 63 }, { 4097 },
	};
	return cr_make_param_array(struct fillcase, cases, ARRAY_SIZE(cases));
}

/*
 * Exactly len bytes are written (the guard bytes around stay), they are the
 * little-endian bytes of consecutive rng_next() outputs, and the same seed fills
 * the same bytes at any alignment.
 */
ParameterizedTest(struct fillcase *c, rng, fill_lengths)
{
	enum { GUARD = 16, MAXLEN = 4097 };
	static unsigned char buf[GUARD + MAXLEN + GUARD + 1], want[MAXLEN + 8];
	struct rng r;
	size_t words = (c->len + 7) / 8;
	uint64_t after;

	cr_assert_leq(c->len, MAXLEN);
	for (size_t off = GUARD; off <= GUARD + 1; off++) {
		memset(buf, 0xcc, sizeof(buf));
		rng_seed(&r, 5);
		for (size_t i = 0; i < words; i++) {
			uint64_t x = rng_next(&r);

			memcpy(want + 8 * i, &x, 8);
		}
		after = rng_next(&r);
		rng_seed(&r, 5);
		rng_fill(&r, buf + off, c->len);
		for (size_t i = 0; i < off; i++)
			cr_assert_eq(buf[i], 0xcc, "len %zu: byte %zu before the buffer written",
				     c->len, i);
		for (size_t i = off + c->len; i < sizeof(buf); i++)
			cr_assert_eq(buf[i], 0xcc, "len %zu: byte %zu after the buffer written",
				     c->len, i - off - c->len);
		cr_assert_eq(memcmp(buf + off, want, c->len), 0, "len %zu, offset %zu: bytes",
			     c->len, off);
		cr_assert_eq(rng_next(&r), after, "len %zu: fill used %zu outputs", c->len, words);
	}
}

Test(rng, fill_is_deterministic_and_seed_dependent)
{
	static unsigned char a[1001], b[1001], c[1001];
	struct rng r;

	rng_seed(&r, 11);
	rng_fill(&r, a, sizeof(a));
	rng_seed(&r, 11);
	rng_fill(&r, b, sizeof(b));
	rng_seed(&r, 12);
	rng_fill(&r, c, sizeof(c));
	cr_assert_eq(memcmp(a, b, sizeof(a)), 0, "same seed, different bytes");
	cr_assert_neq(memcmp(a, c, sizeof(a)), 0, "seeds 11 and 12 filled the same bytes");
}

/* Consecutive fills continue the stream: two writes get different payloads. */
Test(rng, consecutive_fills_differ)
{
	unsigned char a[4096], b[4096];
	struct rng r;

	rng_seed(&r, 1);
	rng_fill(&r, a, sizeof(a));
	rng_fill(&r, b, sizeof(b));
	cr_assert_neq(memcmp(a, b, sizeof(a)), 0);
}

/* Fill bytes are roughly uniform over 0..255 (write payloads must not compress). */
Test(rng, fill_bytes_uniform)
{
	enum { LEN = 1 << 20 };
	static unsigned char buf[LEN];
	uint64_t counts[256] = { 0 };
	struct rng r;
	double chi;

	rng_seed(&r, 31337);
	rng_fill(&r, buf, LEN);
	for (size_t i = 0; i < LEN; i++)
		counts[buf[i]]++;
	chi = chi_square(counts, 256, LEN);
	/* df 255, sd about 22.6 */
	cr_assert_lt(chi, 255.0 + 6 * 22.6, "chi-square %.1f", chi);
}
