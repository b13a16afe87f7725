/*
 * Tests for src/lib/fmt.c.
 *
 * The expected strings follow ioping 1.3's output. Rows marked "seen" were
 * printed by /usr/bin/ioping itself, e.g. `ioping -c 1 -C -s 1048575 dir`
 * starts its line with "1024.0 KiB", and `ioping -p 1 -c N -i 0 dir` prints
 * each latency both as a raw ns figure and as "time=<fmt>". A scratch harness
 * compared fmt_value() with ioping on 419 request sizes, about 1100 latencies
 * and 60 summaries (count, sum, bytes, iops, speed) with no difference. Rows
 * marked "doc" are quoted from runs of Debian's ioping 1.3; the rest
 * (minutes, hours, PiB, T, UINT64_MAX) apply the same rule to values a
 * short run cannot produce.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "fmt.h"

#include "common.h"
#define SEC UINT64_C(1000000000)

/* Strings inline: criterion may run parameters in a relocated process. */
struct fcase {
	uint64_t value;
	enum fmt_kind kind;
	char want[FMT_BUFSZ];
};

struct tcase {
	double in;
	uint64_t want;
};

static const char *kind_name(enum fmt_kind kind)
{
	switch (kind) {
	case FMT_TIME:
		return "time";
	case FMT_SIZE:
		return "size";
	case FMT_INT:
		return "int";
	}
	return "?";
}

ParameterizedTestParameters(fmt, value)
{
	static struct fcase cases[] = {
		/* time, input in ns */
		{ 0, FMT_TIME, "0 ns" },			/* doc */
		{ 1, FMT_TIME, "1 ns" },
		{ 546, FMT_TIME, "546 ns" },			/* doc */
		{ 999, FMT_TIME, "999 ns" },
		{ 1000, FMT_TIME, "1 us" },			/* exact multiple */
		{ 1001, FMT_TIME, "1.00 us" },
		{ 1030, FMT_TIME, "1.03 us" },			/* seen */
		{ 1730, FMT_TIME, "1.73 us" },			/* doc */
		{ 5680, FMT_TIME, "5.68 us" },			/* doc */
		{ 9994, FMT_TIME, "9.99 us" },
		{ 9999, FMT_TIME, "10.00 us" },		/* below 10 units: 2 decimals */
		{ 10000, FMT_TIME, "10 us" },
		{ 10001, FMT_TIME, "10.0 us" },
		{ 100200, FMT_TIME, "100.2 us" },		/* doc */
		{ 999960, FMT_TIME, "1000.0 us" },		/* doc: printf rounds up */
		{ 999999, FMT_TIME, "1000.0 us" },
		{ 1000000, FMT_TIME, "1 ms" },
		{ 400400000, FMT_TIME, "400.4 ms" },		/* doc */
		{ SEC, FMT_TIME, "1 s" },
		{ 2880000000, FMT_TIME, "2.88 s" },		/* doc */
		{ 59999999999, FMT_TIME, "60.0 s" },
		{ 60 * SEC, FMT_TIME, "1 min" },
		{ 90 * SEC, FMT_TIME, "1.50 min" },		/* doc */
		{ 600 * SEC, FMT_TIME, "10 min" },
		{ 3600 * SEC, FMT_TIME, "1 hour" },
		{ 7200 * SEC, FMT_TIME, "2 hour" },
		{ 36000 * SEC + 1, FMT_TIME, "10.0 hour" },
		{ UINT64_MAX, FMT_TIME, "5124095.6 hour" },
		/* size, input in bytes */
		{ 0, FMT_SIZE, "0 B" },			/* doc */
		{ 1, FMT_SIZE, "1 B" },			/* seen: -s 1 */
		{ 512, FMT_SIZE, "512 B" },			/* seen: -s 1sector */
		{ 1000, FMT_SIZE, "1000 B" },			/* seen: -s 1e3 */
		{ 1023, FMT_SIZE, "1023 B" },			/* seen: -s 1023 */
		{ 1024, FMT_SIZE, "1 KiB" },			/* seen: -s 1k */
		{ 1025, FMT_SIZE, "1.00 KiB" },		/* seen: -s 1025 */
		{ 1536, FMT_SIZE, "1.50 KiB" },		/* seen: -s 1.5k */
		{ 4092, FMT_SIZE, "4.00 KiB" },		/* seen: 4 x 1023 B read */
		{ 4096, FMT_SIZE, "4 KiB" },			/* doc */
		{ 10239, FMT_SIZE, "10.00 KiB" },		/* seen: -s 10239 */
		{ 10240, FMT_SIZE, "10 KiB" },
		{ 10241, FMT_SIZE, "10.0 KiB" },		/* seen: -s 10241 */
		{ 1048575, FMT_SIZE, "1024.0 KiB" },		/* seen: -s 1048575 */
		{ 1048576, FMT_SIZE, "1 MiB" },		/* seen: -s 1m */
		{ 2097150, FMT_SIZE, "2.00 MiB" },		/* seen: 2 x 1048575 B read */
		{ 268435456, FMT_SIZE, "256 MiB" },		/* doc */
		{ 270553174016, FMT_SIZE, "252.0 GiB" },	/* seen: device size */
		{ UINT64_C(1) << 40, FMT_SIZE, "1 TiB" },
		{ UINT64_C(1) << 50, FMT_SIZE, "1 PiB" },
		{ (UINT64_C(1) << 50) + 1, FMT_SIZE, "1.00 PiB" },
		{ UINT64_C(1) << 60, FMT_SIZE, "1024 PiB" },	/* no EiB unit */
		{ UINT64_MAX, FMT_SIZE, "16384.0 PiB" },
		/* int: counts and iops */
		{ 0, FMT_INT, "0" },				/* doc: "0 iops" */
		{ 1, FMT_INT, "1" },				/* doc: "1 requests" */
		{ 12, FMT_INT, "12" },				/* doc: "12 iops" */
		{ 147, FMT_INT, "147" },			/* doc */
		{ 999, FMT_INT, "999" },
		{ 1000, FMT_INT, "1 k" },			/* seen: -c 1000 */
		{ 1001, FMT_INT, "1.00 k" },
		{ 1002, FMT_INT, "1.00 k" },			/* seen: -c 1.003k */
		{ 3996, FMT_INT, "4.00 k" },			/* doc */
		{ 9999, FMT_INT, "10.00 k" },
		{ 10000, FMT_INT, "10 k" },
		{ 55700, FMT_INT, "55.7 k" },			/* doc */
		{ 768049, FMT_INT, "768.0 k" },		/* seen */
		{ 999999, FMT_INT, "1000.0 k" },
		{ 1000000, FMT_INT, "1 M" },
		{ 2320000, FMT_INT, "2.32 M" },		/* doc */
		{ 1000000000, FMT_INT, "1 G" },
		{ 1000000000000, FMT_INT, "1 T" },
		{ 1000000000000000, FMT_INT, "1000 T" },	/* no P unit */
		{ UINT64_MAX, FMT_INT, "18446744.1 T" },
	};

	return cr_make_param_array(struct fcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct fcase *c, fmt, value)
{
	char buf[FMT_BUFSZ];
	char *ret;

	memset(buf, 'X', sizeof(buf));
	ret = fmt_value(buf, sizeof(buf), c->value, c->kind);
	cr_assert_eq(ret, buf, "%" PRIu64 " (%s): did not return buf", c->value,
		     kind_name(c->kind));
	cr_assert_str_eq(buf, c->want, "%" PRIu64 " (%s): got \"%s\", want \"%s\"",
			 c->value, kind_name(c->kind), buf, c->want);
}

ParameterizedTestParameters(fmt, trunc)
{
	static struct tcase cases[] = {
		{ NAN, 0 },
		{ -NAN, 0 },
		{ -INFINITY, 0 },
		{ -1e300, 0 },
		{ -1.0, 0 },
		{ -0.5, 0 },
		{ -0.0, 0 },
		{ 0.0, 0 },
		{ 0.5, 0 },
		{ 1.9, 1 },
		{ 3996.7, 3996 },
		{ 966544.9, 966544 },
		{ 1e18, UINT64_C(1000000000000000000) },
		{ 0x1p63, UINT64_C(9223372036854775808) },
		{ 0x1p64 - 2048.0, UINT64_C(18446744073709549568) }, /* largest below 2^64 */
		{ 0x1p64, UINT64_MAX },
		{ 1e300, UINT64_MAX },
		{ INFINITY, UINT64_MAX },
	};

	return cr_make_param_array(struct tcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct tcase *c, fmt, trunc)
{
	uint64_t got = fmt_trunc(c->in);

	cr_assert_eq(got, c->want, "fmt_trunc(%a): got %" PRIu64 ", want %" PRIu64,
		     c->in, got, c->want);
}

/* v and its neighbours, in every kind, fit FMT_BUFSZ and nothing is written past it. */
static void check_fits(uint64_t v)
{
	static const enum fmt_kind kinds[] = { FMT_TIME, FMT_SIZE, FMT_INT };
	char buf[FMT_BUFSZ + 8];

	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (uint64_t x = v - 1; x != v + 2; x++) {
			memset(buf, 'Z', sizeof(buf));
			fmt_value(buf, FMT_BUFSZ, x, kinds[k]);
			cr_assert(strlen(buf) < FMT_BUFSZ, "%" PRIu64 " (%s): \"%s\" too long",
				  x, kind_name(kinds[k]), buf);
			for (size_t z = FMT_BUFSZ; z < sizeof(buf); z++)
				cr_assert_eq(buf[z], 'Z', "%" PRIu64 " (%s): wrote past FMT_BUFSZ",
					     x, kind_name(kinds[k]));
		}
	}
}

/* Around every power of two and of ten, and around 0 and UINT64_MAX (wrapping). */
Test(fmt, buffer_always_big_enough)
{
	uint64_t p10 = 1;

	for (int i = 0; i < 64; i++)
		check_fits(UINT64_C(1) << i);
	for (int i = 0; i < 20; i++, p10 *= 10)
		check_fits(p10);
	check_fits(0);
	check_fits(UINT64_MAX);
}

Test(fmt, short_buffer_truncates)
{
	char buf[6];

	memset(buf, 'Z', sizeof(buf));
	cr_assert_eq(fmt_value(buf, 4, 4096, FMT_SIZE), buf);
	cr_assert_str_eq(buf, "4 K");
	cr_assert_eq(buf[4], 'Z', "wrote past len");
	memset(buf, 'Z', sizeof(buf));
	cr_assert_eq(fmt_value(buf, 1, UINT64_MAX, FMT_TIME), buf);
	cr_assert_str_eq(buf, "");
	cr_assert_eq(buf[1], 'Z', "wrote past len");
	buf[0] = 'Q';
	cr_assert_eq(fmt_value(buf, 0, 12, FMT_INT), buf);
	cr_assert_eq(buf[0], 'Q', "len 0 must not write");
}

/* The double path of ioping: truncate, then format. */
Test(fmt, trunc_then_format)
{
	char buf[FMT_BUFSZ];

	cr_assert_str_eq(fmt_value(buf, sizeof(buf), fmt_trunc(3996.9), FMT_INT), "4.00 k");
	cr_assert_str_eq(fmt_value(buf, sizeof(buf), fmt_trunc(12.99), FMT_INT), "12");
	cr_assert_str_eq(fmt_value(buf, sizeof(buf), fmt_trunc(NAN), FMT_TIME), "0 ns");
	cr_assert_str_eq(fmt_value(buf, sizeof(buf), fmt_trunc(1e30), FMT_SIZE), "16384.0 PiB");
}
