/*
 * Tests for src/lib/suffix.c.
 *
 * Every accept/reject outcome and every message below was checked against
 * Debian's ioping 1.3 (/usr/bin/ioping) with
 *     ioping <opt> '<arg>' /nonexistent/x
 * which exits 1 with "ioping: <msg>" for a parse error, and otherwise gets as
 * far as the stat error (exit 2). <opt> is the option named above each table,
 * whose limit is the one passed here: -c (INT_MAX), -s/-S (LONG_MAX), -i
 * (LLONG_MAX ns) and -r (1e9). Values were read back where ioping shows them:
 * counts with `ioping -J -a 0 -i 0 -C -c '<arg>' dir` ("stat"."count"; a count
 * of 0 runs forever), sizes with `ioping -J -c 1 -C -s '<arg>' dir`
 * ("io"."size"; 0 shows the 4096 default). Time values are not printed by
 * ioping; they follow the same (num / den) * unit rule as the other kinds.
 *
 * Deliberate differences from ioping 1.3 (marked "DIFF" below): ioping
 * accepts "nan" and an exact 2^63 for LONG_MAX/LLONG_MAX limits (its range
 * check is a double comparison against (double)LONG_MAX == 2^63), then
 * converts them to a garbage value (-c nan runs 1 request, -s nan and -s 8eb
 * fail later with "request size must be greater than zero"). The header asks
 * for -ERANGE there, so those rows assert our contract, not ioping's output.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "suffix.h"

#include "common.h"

/* ioping 1.3's limit per option kind. */
#define LIMIT_NUMBER ((uint64_t)INT_MAX)  /* -c -a -b -p */
#define LIMIT_SIZE ((uint64_t)LONG_MAX)   /* -s -S -o -l */
#define LIMIT_TIME ((uint64_t)LLONG_MAX)  /* -i -w -t -T -P */
#define LIMIT_RATE 1e9                    /* -r */

#define UNTOUCHED UINT64_C(0x5a5a5a5a5a5a5a5a)
#define KIB UINT64_C(1024)
#define MIB (KIB * KIB)
#define GIB (MIB * KIB)
#define TIB (GIB * KIB)
#define PIB (TIB * KIB)
#define EIB (PIB * KIB)
#define SEC UINT64_C(1000000000)

/*
 * Criterion may run each parameter in a re-executed (PIE, so relocated)
 * process: the structs hold their strings inline, never pointers.
 */
struct ucase {
	char arg[32];
	int ret;
	uint64_t want;
	char msg[80];
};

struct rcase {
	char arg[32];
	int ret;
	double want;
	char msg[80];
};

#define OK(a, v) { a, 0, (v), "" }
#define BAD_SUFFIX(a, s) { a, -EINVAL, 0, "invalid suffix: \"" s "\"" }
#define BAD_DIV(a) { a, -EDOM, 0, "division by zero in parsing argument: " a }
#define BAD_RANGE(a) { a, -ERANGE, 0, "integer overflow at parsing argument: " a }

#define ROK(a, v) { a, 0, (v), "" }
#define RBAD_SUFFIX(a, s) { a, -EINVAL, 0.0, "invalid suffix: \"" s "\"" }
#define RBAD_DIV(a) { a, -EDOM, 0.0, "division by zero in parsing argument: " a }
#define RBAD_RANGE(a) { a, -ERANGE, 0.0, "integer overflow at parsing argument: " a }

typedef int (*uint_parser)(const char *arg, uint64_t max, uint64_t *out, char *msg,
			   size_t msglen);

static void check_uint(const struct ucase *c, uint_parser parse, uint64_t max)
{
	char msg[160];
	uint64_t got = UNTOUCHED;
	int ret;

	memset(msg, 'X', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = '\0';
	ret = parse(c->arg, max, &got, msg, sizeof(msg));
	cr_assert_eq(ret, c->ret, "\"%s\": returned %d, want %d (msg \"%s\")",
		     c->arg, ret, c->ret, msg);
	if (c->ret == 0) {
		cr_assert_eq(got, c->want, "\"%s\": got %" PRIu64 ", want %" PRIu64,
			     c->arg, got, c->want);
		cr_assert_str_eq(msg, "", "\"%s\": message \"%s\" on success", c->arg, msg);
	} else {
		cr_assert_eq(got, UNTOUCHED, "\"%s\": output written on error", c->arg);
		cr_assert_str_eq(msg, c->msg, "\"%s\": message \"%s\", want \"%s\"",
				 c->arg, msg, c->msg);
	}
}

/* Checked with -c (count, INT_MAX). */
ParameterizedTestParameters(suffix, number)
{
	static struct ucase cases[] = {
		OK("5", 5),
		OK("", 0),		/* -c "" runs forever: 0 */
		OK("k", 0),		/* no number: 0 * 1000 */
		OK("1.9", 1),		/* truncated: 1 request */
		OK("2.5", 2),
		OK("-0", 0),
		OK("-0.0", 0),
		OK(" 5", 5),		/* strtod skips leading blanks */
		OK("\t5", 5),
		OK("+5", 5),
		OK("0x10", 16),		/* 16 requests */
		OK("0x1p3", 8),
		OK("1e3", 1000),
		OK("1.e3", 1000),
		OK(".5k", 500),
		OK("1da", 10),
		OK("1DA", 10),
		OK("1dA", 10),
		OK("1e1da", 100),
		OK("1k", 1000),
		OK("1K", 1000),
		OK("1m", 1000000),	/* m is mega for numbers */
		OK("1M", 1000000),
		OK("2g", 2000000000),
		OK("1G", 1000000000),
		OK("1e-3k", 1),
		OK("0p", 0),
		OK("0t", 0),
		OK("0e", 0),		/* strtod stops before "e": suffix e (1e18) */
		OK("0E", 0),
		OK("2147483647", 2147483647),
		OK("2.147483647G", 2147483647),
		OK("2147483.647k", 2147483647),
		OK("0.002147483647t", 2147483647),
		OK("1/3k", 333),	/* 333 requests */
		OK("10/2k", 5000),
		OK("1.001k", 1000),	/* 1.001 * 1000 = 1000.999..: "1 k" requests */
		OK("1001/1000k", 1000),	/* ratio first, then the suffix: also 1000 */
		OK("/100", 0),
		OK("1/3", 0),
		OK("-1/-1", 1),
		OK("6/ 3", 2),		/* blanks allowed after the slash */
		OK("1/+2", 0),
		OK("1/inf", 0),
		OK("1/-inf", 0),	/* -0 passes */
		OK("-0/1", 0),
		OK("1e-9", 0),
		OK("1e-400", 0),	/* underflow is just 0 */
		BAD_SUFFIX("5x", "x"),
		BAD_SUFFIX("abc", "abc"),
		BAD_SUFFIX("5 ", " "),	/* trailing blanks are part of the suffix */
		BAD_SUFFIX("1 /3", " /3"),
		BAD_SUFFIX("1kb", "kb"),
		BAD_SUFFIX("1ki", "ki"),
		BAD_SUFFIX("1kib", "kib"),
		BAD_SUFFIX("1b", "b"),
		BAD_SUFFIX("1s", "s"),
		BAD_SUFFIX("1d", "d"),
		BAD_SUFFIX("1h", "h"),
		BAD_SUFFIX("1kk", "kk"),
		BAD_SUFFIX("1mm", "mm"),
		BAD_SUFFIX("1x1", "x1"),
		BAD_SUFFIX("1/2/3", "/3"),
		BAD_SUFFIX("1/2/", "/"),
		BAD_SUFFIX("1k/2", "k/2"),
		BAD_SUFFIX("k/2", "k/2"),
		BAD_SUFFIX("5x/0", "x/0"),
		BAD_SUFFIX("1/2x", "x"),
		BAD_SUFFIX("0x", "x"),
		BAD_SUFFIX("0xg", "xg"),
		BAD_SUFFIX("0x/2", "x/2"),
		BAD_SUFFIX("-", "-"),
		BAD_SUFFIX("+", "+"),
		BAD_SUFFIX(".", "."),
		BAD_SUFFIX("-/2", "-/2"),
		BAD_SUFFIX("+/2", "+/2"),
		BAD_SUFFIX("x/2", "x/2"),
		BAD_SUFFIX(" /2", " /2"),
		BAD_SUFFIX("1_000", "_000"),
		BAD_SUFFIX("1,5", ",5"),
		BAD_SUFFIX("-1x", "x"),	/* suffix checked before the range */
		BAD_SUFFIX("1e400x", "x"),
		BAD_DIV("1/0"),
		BAD_DIV("/"),
		BAD_DIV("//"),
		BAD_DIV("1/"),
		BAD_DIV("0/0"),
		BAD_DIV("-1/0"),
		BAD_DIV("1/0.0"),
		BAD_DIV("1/-0"),
		BAD_DIV("1/abc"),
		BAD_DIV("1/1e-400"),
		BAD_DIV("1/0x"),	/* division checked before the suffix */
		BAD_DIV("1/0k"),
		BAD_DIV("-1/0x"),
		BAD_DIV("/k"),
		BAD_DIV("1/0/0"),
		BAD_RANGE("-1"),
		BAD_RANGE("-0.5"),
		BAD_RANGE("-1e-300"),
		BAD_RANGE("1/-1"),
		BAD_RANGE("/-2"),
		BAD_RANGE("3g"),
		BAD_RANGE("2147483648"),
		BAD_RANGE("2147483647.9"),	/* compared before truncation */
		BAD_RANGE("2147483.648k"),
		BAD_RANGE("1t"),
		BAD_RANGE("1p"),
		BAD_RANGE("1e"),
		BAD_RANGE("1E"),
		BAD_RANGE("inf"),
		BAD_RANGE("-inf"),
		BAD_RANGE("infinity"),
		BAD_RANGE("infk"),
		BAD_RANGE("1e400"),
		BAD_RANGE("-1e400"),
		BAD_RANGE("1e308/1e-308"),
		BAD_RANGE("nan"),	/* DIFF: ioping accepts (-c nan runs 1 request) */
		BAD_RANGE("NaN"),	/* DIFF: as above */
		BAD_RANGE("nan/1"),	/* DIFF: as above */
	};

	return cr_make_param_array(struct ucase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct ucase *c, suffix, number)
{
	check_uint(c, suffix_parse_number, LIMIT_NUMBER);
}

/*
 * Checked with -s for values up to 1 MiB (value read back) and with -S above
 * (-s only warns "this platform supports requests 2147479552 bytes at most"
 * after parsing, so its parse limit is LONG_MAX too).
 */
ParameterizedTestParameters(suffix, size)
{
	static struct ucase cases[] = {
		OK("1", 1),
		OK("1b", 1),
		OK("1B", 1),
		OK("1k", KIB),
		OK("1K", KIB),
		OK("1kb", KIB),
		OK("1KB", KIB),
		OK("1kib", KIB),
		OK("1KiB", KIB),
		OK("1KIb", KIB),
		OK("1m", MIB),		/* binary even in lowercase */
		OK("1mb", MIB),
		OK("1mib", MIB),
		OK("1MiB", MIB),
		OK("1g", GIB),
		OK("1gb", GIB),
		OK("1gib", GIB),
		OK("1t", TIB),
		OK("1tb", TIB),
		OK("1tib", TIB),
		OK("1pb", PIB),
		OK("1pib", PIB),
		OK("1PiB", PIB),
		OK("1eb", EIB),
		OK("1EB", EIB),
		OK("7eb", 7 * EIB),
		OK("8191pb", 8191 * PIB),
		OK("1sector", 512),
		OK("1Sector", 512),
		OK("2page", 8192),
		OK("1PAGE", 4096),
		OK("sector", 0),	/* no number: 0 (ioping then uses the default) */
		OK("SECTOR", 0),
		OK("page", 0),
		OK("Page", 0),
		OK("kib", 0),
		OK("k", 0),
		OK("", 0),
		OK("-0", 0),
		OK("1/3", 0),
		OK(" 5", 5),
		OK("1.5k", 1536),
		OK("0x10", 16),
		OK("0x1000", 4096),	/* hex accepted: 4 KiB */
		OK("1e3", 1000),
		OK("1/3k", 341),
		OK("/2k", 512),
		OK("/4page", 1024),
		OK("/0x10", 0),		/* 1/16 byte */
		OK("7.999eb", UINT64_C(9222219115350168576)),
		OK("9223372036854774784", UINT64_C(9223372036854774784)), /* largest < 2^63 */
		OK("9007199254740991k", UINT64_C(9223372036854774784)),
		BAD_SUFFIX("1p", "p"),	/* no bare p or e for sizes */
		BAD_SUFFIX("1e", "e"),
		BAD_SUFFIX("1eib", "eib"),
		BAD_SUFFIX("1ki", "ki"),
		BAD_SUFFIX("1zb", "zb"),
		BAD_SUFFIX("1x", "x"),
		BAD_SUFFIX("1s", "s"),
		BAD_SUFFIX("1da", "da"),
		BAD_SUFFIX("1bb", "bb"),
		BAD_SUFFIX("1sec", "sec"),
		BAD_SUFFIX("1pag", "pag"),
		BAD_SUFFIX("1pages", "pages"),
		BAD_SUFFIX("1sectors", "sectors"),
		BAD_SUFFIX("1 k", " k"),
		BAD_DIV("1/0"),
		BAD_DIV("1/0k"),
		BAD_RANGE("-1"),
		BAD_RANGE("-0.5"),
		BAD_RANGE("-1k"),
		BAD_RANGE("-4k"),
		BAD_RANGE("inf"),
		BAD_RANGE("16eb"),
		BAD_RANGE("1e19"),
		BAD_RANGE("8.000000001eb"),
		BAD_RANGE("8192.00001pb"),
		BAD_RANGE("8192.00001pib"),
		BAD_RANGE("8388609tb"),
		BAD_RANGE("8388609tib"),
		BAD_RANGE("8388608.1t"),
		BAD_RANGE("8589934592.1g"),
		BAD_RANGE("8589934592.1gib"),
		BAD_RANGE("8796093022208.1mb"),
		BAD_RANGE("2.251799813685249e15page"),
		BAD_RANGE("9223372036854777856"),
		BAD_RANGE("8eb"),		/* DIFF: exactly 2^63, ioping wraps it negative */
		BAD_RANGE("8192pb"),		/* DIFF: as above */
		BAD_RANGE("9223372036854775807"), /* DIFF: LONG_MAX rounds to 2^63 in double */
		BAD_RANGE("nan"),		/* DIFF: ioping accepts, then fails later */
	};

	return cr_make_param_array(struct ucase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct ucase *c, suffix, size)
{
	check_uint(c, suffix_parse_size, LIMIT_SIZE);
}

/* Checked with -i (same outcome with -w, -t, -T and -P). */
ParameterizedTestParameters(suffix, time)
{
	static struct ucase cases[] = {
		OK("1", SEC),		/* a bare number is seconds */
		OK("1s", SEC),
		OK("1S", SEC),
		OK("1sec", SEC),
		OK("1SEC", SEC),
		OK("1ms", 1000000),
		OK("1MS", 1000000),
		OK("1msec", 1000000),
		OK("1us", 1000),
		OK("1usec", 1000),
		OK("1ns", 1),
		OK("1nsec", 1),
		OK("1m", 60 * SEC),	/* m is minutes for time */
		OK("1min", 60 * SEC),
		OK("1Min", 60 * SEC),
		OK("1h", 3600 * SEC),
		OK("1hour", 3600 * SEC),
		OK("1HOUR", 3600 * SEC),
		OK("0.1", 100000000),
		OK("1/3ms", 333333),
		OK("/100", 10000000),
		OK("1.5ns", 1),
		OK("1.5", 1500000000),
		OK("", 0),
		OK("ms", 0),
		OK("-0", 0),
		OK(" 1", SEC),
		OK("2562047h", UINT64_C(9223369200000000000)),
		OK("153722867min", UINT64_C(9223372020000000000)),
		OK("9223372036", UINT64_C(9223372036000000000)),
		OK("9223372036854774784ns", UINT64_C(9223372036854774784)),
		BAD_SUFFIX("1d", "d"),	/* there are no days */
		BAD_SUFFIX("1hr", "hr"),
		BAD_SUFFIX("1mn", "mn"),
		BAD_SUFFIX("1sek", "sek"),
		BAD_SUFFIX("1mss", "mss"),
		BAD_SUFFIX("1hours", "hours"),
		BAD_SUFFIX("5x", "x"),
		BAD_SUFFIX("1 ", " "),
		BAD_SUFFIX("1/2/3", "/3"),
		BAD_SUFFIX("1k", "k"),
		BAD_DIV("1/0"),
		BAD_DIV("1/0ms"),
		BAD_RANGE("-1"),
		BAD_RANGE("-1ms"),
		BAD_RANGE("inf"),
		BAD_RANGE("9223372037"),
		BAD_RANGE("1e10"),
		BAD_RANGE("2562048h"),
		BAD_RANGE("153722868min"),
		BAD_RANGE("9223372036854777856ns"),
		BAD_RANGE("9223372036854775807"),
		BAD_RANGE("9223372036854775807ns"), /* DIFF: rounds to 2^63, ioping accepts */
		BAD_RANGE("nan"),		    /* DIFF: ioping accepts */
	};

	return cr_make_param_array(struct ucase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct ucase *c, suffix, time)
{
	check_uint(c, suffix_parse_time, LIMIT_TIME);
}

/* Checked with -r (rate, number suffixes, limit 1e9, fraction kept). */
ParameterizedTestParameters(suffix, rate)
{
	static struct rcase cases[] = {
		ROK("1e9", 1e9),
		ROK("1G", 1e9),
		ROK("1g", 1e9),
		ROK("1000m", 1e9),
		ROK("1.5", 1.5),
		ROK("0.5", 0.5),
		ROK("1k", 1e3),
		ROK("1m", 1e6),
		ROK("1M", 1e6),
		ROK("1da", 10.0),
		ROK("", 0.0),
		ROK("-0", 0.0),
		ROK("1/3", 1.0 / 3.0),
		ROK("/100", 0.01),
		ROK("2.5k", 2500.0),
		RBAD_SUFFIX("1s", "s"),
		RBAD_SUFFIX("1kb", "kb"),
		RBAD_SUFFIX("1 ", " "),
		RBAD_DIV("1/0"),
		RBAD_DIV("/"),
		RBAD_RANGE("1000000000.1"),
		RBAD_RANGE("1000000001"),
		RBAD_RANGE("1.0000001G"),
		RBAD_RANGE("2G"),
		RBAD_RANGE("1t"),
		RBAD_RANGE("inf"),
		RBAD_RANGE("-1"),
		RBAD_RANGE("-0.5"),
		RBAD_RANGE("nan"),	/* DIFF: ioping accepts */
	};

	return cr_make_param_array(struct rcase, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct rcase *c, suffix, rate)
{
	char msg[160];
	double got = -42.0;
	int ret;

	memset(msg, 'X', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = '\0';
	ret = suffix_parse_rate(c->arg, LIMIT_RATE, &got, msg, sizeof(msg));
	cr_assert_eq(ret, c->ret, "\"%s\": returned %d, want %d (msg \"%s\")",
		     c->arg, ret, c->ret, msg);
	if (c->ret == 0) {
		cr_assert(got == c->want, "\"%s\": got %.17g, want %.17g", c->arg, got, c->want);
		cr_assert(!signbit(got), "\"%s\": negative zero stored", c->arg);
		cr_assert_str_eq(msg, "", "\"%s\": message \"%s\" on success", c->arg, msg);
	} else {
		cr_assert(got == -42.0, "\"%s\": output written on error", c->arg);
		cr_assert_str_eq(msg, c->msg, "\"%s\": message \"%s\", want \"%s\"",
				 c->arg, msg, c->msg);
	}
}

/* Limits other than ioping's: the contract is "above max is -ERANGE". */
Test(suffix, custom_limits)
{
	uint64_t v = UNTOUCHED;
	double r = 0.0;

	cr_assert_eq(suffix_parse_number("0", 0, &v, NULL, 0), 0);
	cr_assert_eq(v, 0);
	cr_assert_eq(suffix_parse_number("0.5", 0, &v, NULL, 0), -ERANGE, "0.5 > max 0");
	cr_assert_eq(suffix_parse_number("1k", 1000, &v, NULL, 0), 0);
	cr_assert_eq(v, 1000);
	cr_assert_eq(suffix_parse_number("1000.5", 1000, &v, NULL, 0), -ERANGE);
	cr_assert_eq(suffix_parse_size("16eb", UINT64_MAX, &v, NULL, 0), -ERANGE, "2^64");
	cr_assert_eq(suffix_parse_size("18446744073709549568", UINT64_MAX, &v, NULL, 0), 0);
	cr_assert_eq(v, UINT64_C(18446744073709549568));
	cr_assert_eq(suffix_parse_size("15.9999eb", UINT64_MAX, &v, NULL, 0), 0);
	cr_assert_eq(suffix_parse_time("1s", 999999999, &v, NULL, 0), -ERANGE);
	cr_assert_eq(suffix_parse_time("999999999ns", 999999999, &v, NULL, 0), 0);
	cr_assert_eq(v, 999999999);
	/* 2^53 + 1 rounds down to 2^53 as a double: still exact for the range check. */
	cr_assert_eq(suffix_parse_number("9007199254740992", UINT64_C(9007199254740993), &v,
					 NULL, 0), 0);
	cr_assert_eq(suffix_parse_number("9007199254740992", UINT64_C(9007199254740991), &v,
					 NULL, 0), -ERANGE);
	cr_assert_eq(suffix_parse_rate("10", 10.0, &r, NULL, 0), 0);
	cr_assert(r == 10.0);
	cr_assert_eq(suffix_parse_rate("10.001", 10.0, &r, NULL, 0), -ERANGE);
}

Test(suffix, message_buffer_handling)
{
	char small[12];
	char msg[64];
	uint64_t v = 7;

	/* NULL with length 0 is allowed, for every kind of error. */
	cr_assert_eq(suffix_parse_number("5x", LIMIT_NUMBER, &v, NULL, 0), -EINVAL);
	cr_assert_eq(suffix_parse_number("1/0", LIMIT_NUMBER, &v, NULL, 0), -EDOM);
	cr_assert_eq(suffix_parse_number("-1", LIMIT_NUMBER, &v, NULL, 0), -ERANGE);
	cr_assert_eq(suffix_parse_number("5", LIMIT_NUMBER, &v, NULL, 0), 0);
	cr_assert_eq(v, 5);

	/* A short buffer gets a truncated, terminated message. */
	cr_assert_eq(suffix_parse_size("4xyz", LIMIT_SIZE, &v, small, sizeof(small)), -EINVAL);
	cr_assert_str_eq(small, "invalid suf");

	/* A long argument is quoted whole when it fits. */
	cr_assert_eq(suffix_parse_time("1/0 and more text", LIMIT_TIME, &v, msg, sizeof(msg)),
		     -EDOM);
	cr_assert_str_eq(msg, "division by zero in parsing argument: 1/0 and more text");
	cr_assert_eq(suffix_parse_size("-4k", LIMIT_SIZE, &v, msg, sizeof(msg)), -ERANGE);
	cr_assert_str_eq(msg, "integer overflow at parsing argument: -4k");
	cr_assert_eq(v, 5, "value kept on error");
}

/*
 * The sizes ioping 1.3 lets through its range check and wraps to a negative
 * value (so -s says "request size must be greater than zero" there).
 */
Test(suffix, size_wraps)
{
	cr_assert(suffix_size_wraps("8eb"));
	cr_assert(suffix_size_wraps("9223372036854775807"));
	cr_assert(suffix_size_wraps("9223372036854775808"));
	cr_assert(suffix_size_wraps("8192pb"));
	cr_assert(suffix_size_wraps("nan"));
	cr_assert(suffix_size_wraps("-nan"));
	cr_assert(suffix_size_wraps("16/2eb"));
	cr_assert_not(suffix_size_wraps("7eb"));
	cr_assert_not(suffix_size_wraps("9eb"));
	cr_assert_not(suffix_size_wraps("4k"));
	cr_assert_not(suffix_size_wraps("-8eb"));
	cr_assert_not(suffix_size_wraps("8ebx"), "an invalid suffix is not a wrap");
	cr_assert_not(suffix_size_wraps("1/0"));
}
