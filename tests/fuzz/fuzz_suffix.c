/*
 * fuzz_suffix: suffix_parse_time/size/number/rate on the input as a
 * NUL-terminated string, against several limits.
 *
 * Invariants (abort() on violation):
 *  - the result is 0, -EINVAL, -EDOM or -ERANGE;
 *  - on success the value is within the limit, msg is "" and the value does
 *    not depend on the limit; on failure the output is untouched and msg is
 *    exactly ioping's message for that error ("division by zero in parsing
 *    argument: ARG", "integer overflow at parsing argument: ARG",
 *    "invalid suffix: \"TAIL\"" with TAIL a suffix of ARG);
 *  - the limit only decides -ERANGE: a value below the limit parses, one
 *    above it is -ERANGE, -EINVAL and -EDOM do not depend on it;
 *  - a short message buffer (an exact-size heap block) gets the message
 *    truncated and NUL-terminated; msg == NULL with msglen 0 works too;
 *  - -EDOM is the same for every table; the rate and the number parsers
 *    (same table) agree: number == (uint64_t)rate;
 *  - rates are never NaN, negative or -0;
 *  - case does not matter: the upper-cased input gives the same results;
 *  - plain decimal integers give their value, "Nk" is N*1024 bytes, "Nns"
 *    is N ns, "N" seconds is N*1e9 ns, "N/2" is N/2 truncated.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>

#include "fuzz_common.h"
#include "suffix.h"

typedef int (*parse_uint_fn)(const char *arg, uint64_t max, uint64_t *out, char *msg,
			     size_t msglen);

struct uparser {
	const char *name;
	parse_uint_fn fn;
};

static const struct uparser uparsers[] = {
	{ "time", suffix_parse_time },
	{ "size", suffix_parse_size },
	{ "number", suffix_parse_number },
};

/* The limits opts.c uses (INT_MAX, LONG_MAX, LLONG_MAX) and a few edges around double precision. */
static const uint64_t limits[] = {
	0, 1, 4095, (uint64_t)INT_MAX, (uint64_t)LONG_MAX, (uint64_t)LLONG_MAX,
	(uint64_t)1 << 53, ((uint64_t)1 << 53) + 1, UINT64_MAX - 1, UINT64_MAX,
};

static const double rate_limits[] = { 0.0, 0.5, 1.0, 1e9, 1e300, HUGE_VAL };

#define SENTINEL UINT64_C(0xdeadbeefcafef00d)

/* The result of one parse: status, value and the full message. */
struct result {
	int ret;
	uint64_t v;
	double rate;
	char *msg;
};

/* Check msg (from a buffer big enough for any message about arg) against ret. */
static void check_msg(const char *what, const char *arg, int ret, const char *msg)
{
	static const char edom[] = "division by zero in parsing argument: ";
	static const char erange[] = "integer overflow at parsing argument: ";
	static const char einval[] = "invalid suffix: \"";
	size_t la = strlen(arg), lm = strlen(msg);

	switch (ret) {
	case 0:
		CHECK(msg[0] == '\0', "%s: success with msg \"%s\"", what, msg);
		break;
	case -EDOM:
		CHECK(lm == strlen(edom) + la && fuzz_starts_with(msg, edom) &&
		      strcmp(msg + strlen(edom), arg) == 0, "%s: -EDOM msg \"%s\"", what, msg);
		break;
	case -ERANGE:
		CHECK(lm == strlen(erange) + la && fuzz_starts_with(msg, erange) &&
		      strcmp(msg + strlen(erange), arg) == 0, "%s: -ERANGE msg \"%s\"", what, msg);
		break;
	case -EINVAL: {
		size_t lt;

		CHECK(fuzz_starts_with(msg, einval) && lm >= strlen(einval) + 1 &&
		      msg[lm - 1] == '"', "%s: -EINVAL msg \"%s\"", what, msg);
		lt = lm - strlen(einval) - 1;
		CHECK(lt <= la && memcmp(msg + strlen(einval), arg + la - lt, lt) == 0,
		      "%s: -EINVAL msg \"%s\" does not quote a tail of the argument", what, msg);
		break;
	}
	default:
		CHECK(0, "%s: unexpected return %d", what, ret);
	}
}

/* Parse arg with p against max into r (r->msg allocated, big enough for any message). */
static void run_uint(const struct uparser *p, const char *arg, uint64_t max, struct result *r)
{
	size_t msglen = strlen(arg) + 64;

	r->msg = fuzz_msgbuf(msglen);
	r->v = SENTINEL;
	r->ret = p->fn(arg, max, &r->v, r->msg, msglen);
	CHECK(fuzz_has_nul(r->msg, msglen), "%s: msg not NUL-terminated", p->name);
	check_msg(p->name, arg, r->ret, r->msg);
	if (r->ret == 0)
		CHECK(r->v <= max, "%s(\"%s\", max %llu) = %llu", p->name, arg,
		      (unsigned long long)max, (unsigned long long)r->v);
	else
		CHECK(r->v == SENTINEL, "%s: output written on failure %d", p->name, r->ret);
}

static void run_rate(const char *arg, double max, struct result *r)
{
	size_t msglen = strlen(arg) + 64;

	r->msg = fuzz_msgbuf(msglen);
	r->rate = -1234.5;
	r->ret = suffix_parse_rate(arg, max, &r->rate, r->msg, msglen);
	CHECK(fuzz_has_nul(r->msg, msglen), "rate: msg not NUL-terminated");
	check_msg("rate", arg, r->ret, r->msg);
	if (r->ret == 0)
		CHECK(!isnan(r->rate) && r->rate >= 0.0 && r->rate <= max && !signbit(r->rate),
		      "rate(\"%s\", max %g) = %g", arg, max, r->rate);
	else
		CHECK(r->rate == -1234.5, "rate: output written on failure %d", r->ret);
}

/* One uint parser on arg: every limit, short buffers, NULL msg. Returns the unlimited result. */
static struct result fuzz_uint(const struct uparser *p, const char *arg, size_t smalllen)
{
	struct result any, r;
	char *small;

	run_uint(p, arg, UINT64_MAX, &any);
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		uint64_t max = limits[i];

		run_uint(p, arg, max, &r);
		if (any.ret) {
			CHECK(r.ret == any.ret, "%s(\"%s\"): %d with max %llu, %d without", p->name,
			      arg, r.ret, (unsigned long long)max, any.ret);
		} else if (any.v < max) {
			CHECK(r.ret == 0 && r.v == any.v, "%s(\"%s\"): %llu below max %llu but got %d/%llu",
			      p->name, arg, (unsigned long long)any.v, (unsigned long long)max, r.ret,
			      (unsigned long long)r.v);
		} else if (any.v > max) {
			CHECK(r.ret == -ERANGE, "%s(\"%s\"): %llu above max %llu but got %d", p->name,
			      arg, (unsigned long long)any.v, (unsigned long long)max, r.ret);
		} else {
			/* at the limit: a fraction above it (4.5 against 4) is out of range */
			CHECK(r.ret == -ERANGE || (r.ret == 0 && r.v == any.v),
			      "%s(\"%s\"): at max %llu got %d/%llu", p->name, arg,
			      (unsigned long long)max, r.ret, (unsigned long long)r.v);
		}
		free(r.msg);
	}
	if (any.ret == 0) {
		/* the value itself as the limit and one below it */
		run_uint(p, arg, any.v, &r);
		CHECK(r.ret == -ERANGE || (r.ret == 0 && r.v == any.v), "%s: at own value", p->name);
		free(r.msg);
		if (any.v > 0) {
			run_uint(p, arg, any.v - 1, &r);
			CHECK(r.ret == -ERANGE, "%s(\"%s\"): accepted with max %llu", p->name, arg,
			      (unsigned long long)(any.v - 1));
			free(r.msg);
		}
		if (any.v < UINT64_MAX) {
			run_uint(p, arg, any.v + 1, &r);
			CHECK(r.ret == 0 && r.v == any.v, "%s(\"%s\"): rejected with max %llu", p->name,
			      arg, (unsigned long long)(any.v + 1));
			free(r.msg);
		}
	}

	/* an exact-size short message buffer: same result, message truncated */
	small = fuzz_msgbuf(smalllen);
	r.v = SENTINEL;
	r.ret = p->fn(arg, UINT64_MAX, &r.v, small, smalllen);
	CHECK(r.ret == any.ret && r.v == any.v, "%s: result depends on msglen", p->name);
	CHECK(fuzz_is_truncation(small, smalllen, any.msg),
	      "%s: msg \"%.*s\" (msglen %zu) is not a truncation of \"%s\"", p->name,
	      (int)smalllen, small, smalllen, any.msg);
	free(small);

	/* no message buffer at all (documented: msg may be NULL when msglen is 0) */
	r.v = SENTINEL;
	r.ret = p->fn(arg, UINT64_MAX, &r.v, NULL, 0);
	CHECK(r.ret == any.ret && r.v == any.v, "%s: result differs with msg NULL", p->name);
	return any;
}

static struct result fuzz_rate(const char *arg, size_t smalllen)
{
	struct result any, r;
	char *small;

	run_rate(arg, HUGE_VAL, &any);
	for (size_t i = 0; i < sizeof(rate_limits) / sizeof(rate_limits[0]); i++) {
		double max = rate_limits[i];

		run_rate(arg, max, &r);
		if (any.ret)
			CHECK(r.ret == any.ret, "rate(\"%s\"): %d with max %g, %d without", arg, r.ret,
			      max, any.ret);
		else if (any.rate <= max)
			CHECK(r.ret == 0 && r.rate == any.rate, "rate(\"%s\"): %g within max %g but got %d",
			      arg, any.rate, max, r.ret);
		else
			CHECK(r.ret == -ERANGE, "rate(\"%s\"): %g above max %g but got %d", arg, any.rate,
			      max, r.ret);
		free(r.msg);
	}
	small = fuzz_msgbuf(smalllen);
	r.rate = -1234.5;
	r.ret = suffix_parse_rate(arg, HUGE_VAL, &r.rate, small, smalllen);
	CHECK(r.ret == any.ret && (r.ret || r.rate == any.rate), "rate: result depends on msglen");
	CHECK(fuzz_is_truncation(small, smalllen, any.msg), "rate: msg \"%.*s\" is not a truncation",
	      (int)smalllen, small);
	free(small);
	r.ret = suffix_parse_rate(arg, HUGE_VAL, &r.rate, NULL, 0);
	CHECK(r.ret == any.ret, "rate: result differs with msg NULL");
	return any;
}

/* uint parse of a derived string, unlimited; returns ret, value in *v. */
static int parse_derived(parse_uint_fn fn, const char *arg, const char *suffix, uint64_t *v)
{
	size_t la = strlen(arg), ls = strlen(suffix);
	char *s = malloc(la + ls + 1);
	int ret;

	if (!s)
		abort();
	memcpy(s, arg, la);
	memcpy(s + la, suffix, ls + 1);
	*v = SENTINEL;
	ret = fn(s, UINT64_MAX, v, NULL, 0);
	free(s);
	return ret;
}

/* Plain decimal integers (1 to 15 digits, exact in a double) against their known values. */
static void check_decimal(const char *arg)
{
	size_t n = strlen(arg);
	uint64_t want, v;

	if (n == 0 || n > 15)
		return;
	for (size_t i = 0; i < n; i++)
		if (arg[i] < '0' || arg[i] > '9')
			return;
	want = strtoull(arg, NULL, 10);
	CHECK(parse_derived(suffix_parse_number, arg, "", &v) == 0 && v == want,
	      "number(\"%s\") = %llu", arg, (unsigned long long)v);
	CHECK(parse_derived(suffix_parse_size, arg, "", &v) == 0 && v == want,
	      "size(\"%s\") = %llu", arg, (unsigned long long)v);
	CHECK(parse_derived(suffix_parse_size, arg, "k", &v) == 0 && v == want * 1024,
	      "size(\"%sk\") = %llu", arg, (unsigned long long)v);
	CHECK(parse_derived(suffix_parse_size, arg, "KiB", &v) == 0 && v == want * 1024,
	      "size(\"%sKiB\") = %llu", arg, (unsigned long long)v);
	CHECK(parse_derived(suffix_parse_time, arg, "ns", &v) == 0 && v == want,
	      "time(\"%sns\") = %llu", arg, (unsigned long long)v);
	CHECK(parse_derived(suffix_parse_number, arg, "/2", &v) == 0 && v == want / 2,
	      "number(\"%s/2\") = %llu", arg, (unsigned long long)v);
	if (want <= 9000000) /* n * 1e9 stays exact */
		CHECK(parse_derived(suffix_parse_time, arg, "", &v) == 0 && v == want * 1000000000ull,
		      "time(\"%s\") = %llu", arg, (unsigned long long)v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *arg = fuzz_strndup(data, size), *upper;
	size_t smalllen = 1 + (size_t)(fuzz_hash(data, size) % 48);
	struct result res[3], rate, ures;

	for (size_t i = 0; i < 3; i++)
		res[i] = fuzz_uint(&uparsers[i], arg, smalllen);
	rate = fuzz_rate(arg, smalllen);

	/* -EDOM is decided before the suffix: the same for every table */
	for (size_t i = 0; i < 3; i++)
		CHECK((res[i].ret == -EDOM) == (rate.ret == -EDOM), "%s and rate disagree on -EDOM: %d %d",
		      uparsers[i].name, res[i].ret, rate.ret);

	/* number and rate share a table: same errors, number is the truncated rate */
	if (rate.ret == 0 && rate.rate < 0x1p64)
		CHECK(res[2].ret == 0 && res[2].v == (uint64_t)rate.rate,
		      "number %d/%llu vs rate %g", res[2].ret, (unsigned long long)res[2].v, rate.rate);
	else if (rate.ret == 0 || rate.ret == -ERANGE)
		CHECK(res[2].ret == -ERANGE, "number %d vs rate %d/%g", res[2].ret, rate.ret, rate.rate);
	else
		CHECK(res[2].ret == rate.ret, "number %d vs rate %d", res[2].ret, rate.ret);

	/* case-insensitive: suffixes by strcasecmp, strtod's nan/inf/hex/exponent too */
	upper = fuzz_strndup(data, size);
	for (char *p = upper; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	for (size_t i = 0; i < 3; i++) {
		ures.v = SENTINEL;
		ures.ret = uparsers[i].fn(upper, UINT64_MAX, &ures.v, NULL, 0);
		CHECK(ures.ret == res[i].ret && ures.v == res[i].v,
		      "%s: \"%s\" gives %d/%llu, upper-cased %d/%llu", uparsers[i].name, arg, res[i].ret,
		      (unsigned long long)res[i].v, ures.ret, (unsigned long long)ures.v);
	}
	free(upper);

	check_decimal(arg);

	for (size_t i = 0; i < 3; i++)
		free(res[i].msg);
	free(rate.msg);
	free(arg);
	return 0;
}
