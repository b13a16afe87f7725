#include <criterion/criterion.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "json.h"
#include "jsonr.h"
#include "sbuf.h"

static int parse(struct jsonr *j, const char *text)
{
	char msg[256];

	return jsonr_parse(j, text, strlen(text), msg, sizeof(msg));
}

Test(jsonr, object_members_and_types)
{
	struct jsonr j = JSONR_INIT;
	uint64_t u;
	int64_t i;
	double d;
	bool b;

	cr_assert_eq(parse(&j, " {\"a\":18446744073709551615,\"b\":-9223372036854775808,"
			       "\"c\":0.1,\"d\":true,\"e\":null,\"f\":[1,2,3],\"g\":{}} "), 0);
	cr_assert(jsonr_u64(&j, jsonr_get(&j, 0, "a"), &u));
	cr_assert_eq(u, UINT64_MAX);
	cr_assert(jsonr_i64(&j, jsonr_get(&j, 0, "b"), &i));
	cr_assert_eq(i, INT64_MIN);
	cr_assert(!jsonr_u64(&j, jsonr_get(&j, 0, "b"), &u));
	cr_assert(jsonr_double(&j, jsonr_get(&j, 0, "c"), &d));
	cr_assert_eq(d, 0.1);
	cr_assert(jsonr_bool(&j, jsonr_get(&j, 0, "d"), &b) && b);
	cr_assert_eq(j.node[jsonr_get(&j, 0, "e")].type, JSONR_NULL);
	cr_assert_eq(jsonr_count(&j, jsonr_get(&j, 0, "f")), 3);
	cr_assert_eq(jsonr_count(&j, jsonr_get(&j, 0, "g")), 0);
	cr_assert_eq(jsonr_get(&j, 0, "zz"), -1);
	cr_assert(!jsonr_u64(&j, jsonr_get(&j, 0, "c"), &u), "a fraction is no integer");
	jsonr_free(&j);
}

Test(jsonr, u64_overflow_refused)
{
	struct jsonr j = JSONR_INIT;
	uint64_t u;

	cr_assert_eq(parse(&j, "18446744073709551616"), 0);
	cr_assert(!jsonr_u64(&j, 0, &u));
	jsonr_free(&j);
}

/* Whatever json_append_string writes reads back to the same bytes. */
Test(jsonr, strings_round_trip_json_append_string)
{
	static const char *const in[] = {
		"plain", "quote\" back\\ slash", "ctl\x01\x1f\n\t", "utf8 \xc3\xa9 \xe2\x82\xac",
		"bad \xff\xfe utf8 \xc3", "del\x7f", "/dev/disk/by-id/x y",
	};

	for (size_t k = 0; k < sizeof(in) / sizeof(in[0]); k++) {
		struct sbuf sb = SBUF_INIT;
		struct jsonr j = JSONR_INIT;

		json_append_string(&sb, in[k]);
		cr_assert_eq(jsonr_parse(&j, sb.buf, sb.len, NULL, 0), 0, "%s", sb.buf);
		cr_assert_str_eq(jsonr_str(&j, 0), in[k]);
		jsonr_free(&j);
		sbuf_free(&sb);
	}
}

Test(jsonr, escapes_and_surrogates)
{
	struct jsonr j = JSONR_INIT;

	cr_assert_eq(parse(&j, "\"\\u20ac\\ud83d\\ude00\\/\""), 0);
	cr_assert_str_eq(jsonr_str(&j, 0), "\xe2\x82\xac\xf0\x9f\x98\x80/");
	jsonr_free(&j);
}

Test(jsonr, damage_refused)
{
	static const char *const bad[] = {
		"", "{", "{\"a\":}", "{\"a\":1,}", "[1 2]", "\"open", "01x", "{\"a\" 1}", "tru",
		"\"\\u0000\"", "\"\\ud800\"", "\"\\q\"", "1 2", "-", "1.", "1e", "\"a\nb\"",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
	};
	char msg[128];

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct jsonr j = JSONR_INIT;

		cr_assert_eq(jsonr_parse(&j, bad[k], strlen(bad[k]), msg, sizeof(msg)), -EINVAL,
			     "%s", bad[k]);
		cr_assert(strstr(msg, "at byte"), "%s: %s", bad[k], msg);
		cr_assert_eq(j.n, 0);
		jsonr_free(&j);
	}
}

Test(jsonr, reparse_replaces)
{
	struct jsonr j = JSONR_INIT;

	cr_assert_eq(parse(&j, "[1,2,3,4,5,6,7,8,9]"), 0);
	cr_assert_eq(parse(&j, "{\"k\":\"v\"}"), 0);
	cr_assert_str_eq(jsonr_str(&j, jsonr_get(&j, 0, "k")), "v");
	jsonr_free(&j);
}
