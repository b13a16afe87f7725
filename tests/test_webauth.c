/*
 * Tests for src/out/webauth.c: Basic credentials against bcrypt hashes made
 * here by libcrypt (right, wrong, unknown user, other schemes, bad base64),
 * the cache that spares a bcrypt per scrape (and never lets a wrong password
 * in on a cached right one), base64 decoding.
 */
#include <criterion/criterion.h>

#include <crypt.h>
#include <stdio.h>
#include <string.h>

#include "webauth.h"
#include "webcfg.h"

static struct webcfg cfg;
static struct webauth auth;

/* A configuration with user alice (password "s3cret:x", a colon in it) at bcrypt cost 4. */
static void setup(void)
{
	static struct crypt_data cd;
	char salt[64], text[256], msg[256];
	const char *hash;

	cr_assert_not_null(crypt_gensalt_rn("$2b$", 4, NULL, 0, salt, sizeof(salt)));
	hash = crypt_rn("s3cret:x", salt, &cd, (int)sizeof(cd));
	cr_assert_not_null(hash);
	snprintf(text, sizeof(text), "basic_auth_users:\n  alice: '%s'\n", hash);
	cr_assert_eq(webcfg_parse(text, strlen(text), "", &cfg, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_eq(webauth_init(&auth), 0);
}

static void teardown(void)
{
	webauth_free(&auth);
	webcfg_free(&cfg);
}

static bool check(const char *header)
{
	return webauth_check(&auth, &cfg, header, strlen(header));
}

TestSuite(webauth, .init = setup, .fini = teardown);

/* "alice:s3cret:x" = YWxpY2U6czNjcmV0Ong= */
Test(webauth, right_wrong_unknown)
{
	cr_assert(check("Basic YWxpY2U6czNjcmV0Ong="));
	cr_assert(check("basic YWxpY2U6czNjcmV0Ong"), "scheme case-insensitive, padding optional");
	cr_assert(!check("Basic YWxpY2U6czNjcmV0"), "alice:s3cret");
	cr_assert(!check("Basic Ym9iOnMzY3JldDp4"), "bob:s3cret:x, no such user");
	cr_assert(!check("Bearer YWxpY2U6czNjcmV0Ong="));
	cr_assert(!check("Basic YWxpY2U6czNjcmV0Ong=!"), "not base64");
	cr_assert(!check("Basic YWxpY2U="), "no colon");
	cr_assert(!check("Basic"));
}

Test(webauth, unknown_user_costs_a_bcrypt_too)
{
	cr_assert(!check("Basic Ym9iOnMzY3JldDp4"));
	cr_assert_eq(auth.bcrypts, 1);
}

Test(webauth, cache_spares_the_bcrypt_and_keeps_verdicts)
{
	for (int i = 0; i < 5; i++)
		cr_assert(check("Basic YWxpY2U6czNjcmV0Ong="));
	cr_assert_eq(auth.bcrypts, 1, "one bcrypt for five scrapes: %llu",
		     (unsigned long long)auth.bcrypts);
	for (int i = 0; i < 3; i++)
		cr_assert(!check("Basic YWxpY2U6czNjcmV0"));
	cr_assert_eq(auth.bcrypts, 2);
	cr_assert(check("Basic YWxpY2U6czNjcmV0Ong="));
	cr_assert_eq(auth.bcrypts, 2);
}

Test(webauth, cache_full_replaces_the_oldest)
{
	char hdr[96], raw[32], b64[64];
	static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	cr_assert(check("Basic YWxpY2U6czNjcmV0Ong="));
	for (int i = 0; i < WEBAUTH_CACHE; i++) {
		size_t n = (size_t)snprintf(raw, sizeof(raw), "alice:wrong%02d", i), o = 0;

		for (size_t k = 0; k < n; k += 3) { /* base64 by hand, 13 bytes */
			unsigned v = (unsigned char)raw[k] << 16 |
				     (k + 1 < n ? (unsigned char)raw[k + 1] << 8 : 0) |
				     (k + 2 < n ? (unsigned char)raw[k + 2] : 0);

			b64[o++] = tbl[v >> 18 & 63];
			b64[o++] = tbl[v >> 12 & 63];
			b64[o++] = k + 1 < n ? tbl[v >> 6 & 63] : '=';
			b64[o++] = k + 2 < n ? tbl[v & 63] : '=';
		}
		b64[o] = '\0';
		snprintf(hdr, sizeof(hdr), "Basic %s", b64);
		cr_assert(!check(hdr));
	}
	cr_assert_eq(auth.bcrypts, 1 + WEBAUTH_CACHE);
	cr_assert(check("Basic YWxpY2U6czNjcmV0Ong="), "pushed out, computed again");
	cr_assert_eq(auth.bcrypts, 2 + WEBAUTH_CACHE);
}

Test(webauth, base64)
{
	unsigned char out[16];

	cr_assert_eq(webauth_base64("YWJj", 4, out, sizeof(out)), 3);
	cr_assert(!memcmp(out, "abc", 3));
	cr_assert_eq(webauth_base64("YWI=", 4, out, sizeof(out)), 2);
	cr_assert_eq(webauth_base64("YWI", 3, out, sizeof(out)), 2);
	cr_assert_eq(webauth_base64("YQ==", 4, out, sizeof(out)), 1);
	cr_assert_eq(webauth_base64("", 0, out, sizeof(out)), 0);
	cr_assert_eq(webauth_base64("Y", 1, out, sizeof(out)), -1);
	cr_assert_eq(webauth_base64("YW J", 4, out, sizeof(out)), -1);
	cr_assert_eq(webauth_base64("YWJjYWJj", 8, out, 5), -1, "does not fit");
}
