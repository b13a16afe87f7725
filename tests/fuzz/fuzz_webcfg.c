/*
 * fuzz_webcfg: webcfg_parse() on the input as a --web-config file, then
 * webauth's base64 decoder on the same bytes.
 *
 * Invariants (abort() on violation):
 *  - parse returns 0, -EINVAL or -ENOMEM; a refusal's message is "LINE: ..."
 *    with LINE >= 1; webcfg_free releases everything (LeakSanitizer);
 *  - an accepted configuration keeps the toolkit's rules: TLS has a
 *    certificate and a key (file or inline), a client CA has a client auth
 *    type, allowed SANs have a required certificate, min <= max version (with TLS),
 *    every user's password is a bcrypt hash, every header is one the
 *    toolkit allows with no control character in its value, a rate limit
 *    has a burst, and every file name is absolute (the directory is);
 *  - base64 never writes past its buffer and decodes at most 3/4 of its input.
 */
#include "config.h"

#include <errno.h>

#include "fuzz_common.h"
#include "webauth.h"
#include "webcfg.h"

static const char *const allowed[] = { "Strict-Transport-Security", "X-Content-Type-Options",
				       "X-Frame-Options", "X-XSS-Protection",
				       "Content-Security-Policy" };

static void check_path(const char *p)
{
	CHECK(!p || p[0] == '/', "a relative file name: \"%s\"", p);
}

static void check_accepted(const struct webcfg *w)
{
	if (w->tls) {
		CHECK(w->cert || w->cert_file, "TLS without a certificate");
		CHECK(w->key || w->key_file, "TLS without a key");
	}
	CHECK(!(w->client_ca || w->client_ca_file) || w->client_auth != WEBCFG_NO_CLIENT_CERT,
	      "a client CA without a client auth type");
	CHECK(!w->client_allowed_sans.n || w->client_auth == WEBCFG_REQUIRE_ANY_CLIENT_CERT ||
	      w->client_auth == WEBCFG_REQUIRE_AND_VERIFY_CLIENT_CERT,
	      "allowed SANs without a required certificate");
	CHECK(w->min_version >= WEBCFG_TLS10 && w->max_version <= WEBCFG_TLS13 &&
	      (!w->tls || w->min_version <= w->max_version), "versions %d..%d", w->min_version,
	      w->max_version); /* without TLS the toolkit ignores them */
	for (size_t i = 0; i < w->n_users; i++)
		CHECK(webcfg_bcrypt_ok(w->users[i].value), "user %s: not bcrypt", w->users[i].name);
	for (size_t i = 0; i < w->n_headers; i++) {
		bool ok = false;

		for (size_t k = 0; k < sizeof(allowed) / sizeof(*allowed); k++)
			ok |= !strcmp(allowed[k], w->headers[i].name);
		CHECK(ok, "header %s allowed", w->headers[i].name);
		for (const char *p = w->headers[i].value; *p; p++)
			CHECK((unsigned char)*p >= ' ' || *p == '\t', "control character in a header");
	}
	CHECK(!w->rate_interval || w->rate_burst, "a rate limit without a burst");
	check_path(w->cert_file);
	check_path(w->key_file);
	check_path(w->client_ca_file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size), msg[256];
	struct webcfg w;
	unsigned char out[64];
	long n;
	int r;

	msg[0] = '\0';
	r = webcfg_parse(text, size, "/etc/ioprobe", &w, msg, sizeof(msg));
	CHECK(r == 0 || r == -EINVAL || r == -ENOMEM, "parse returned %d", r);
	if (r == -EINVAL)
		CHECK(msg[0] >= '1' && msg[0] <= '9' && strstr(msg, ": "), "message \"%s\"", msg);
	if (!r)
		check_accepted(&w);
	webcfg_free(&w);
	n = webauth_base64(text, size, out, sizeof(out));
	CHECK(n >= -1 && n <= (long)sizeof(out) && (n < 0 || (size_t)n <= size * 3 / 4 + 1),
	      "base64 gave %ld from %zu bytes", n, size);
	free(text);
	return 0;
}
