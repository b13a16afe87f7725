/*
 * Tests for src/out/webcfg.c: the exporter-toolkit web configuration read as
 * the toolkit reads it — its defaults, its keys, strict refusal of unknown or
 * repeated keys and wrong types with the line, the rules between keys, the
 * headers it lets be set, bcrypt hashes, relative files from the file's
 * directory.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <string.h>

#include "webcfg.h"

#define HASH "$2y$10$qIxtz6MtbhKb4j90NH.fCeEfhXeFnhikPtXQLWfMCKpvsEyhSl8zu"

static int parse(const char *text, struct webcfg *w, char *msg)
{
	return webcfg_parse(text, strlen(text), "/etc/ioprobe", w, msg, 256);
}

/* The message of a refused text, with the configuration freed. */
static const char *refused(const char *text)
{
	static char msg[256];
	struct webcfg w;

	msg[0] = '\0';
	cr_assert_eq(parse(text, &w, msg), -EINVAL, "accepted: %s", text);
	webcfg_free(&w);
	return msg;
}

Test(webcfg, empty_file_is_plain_http)
{
	struct webcfg w;
	char msg[256];

	cr_assert_eq(parse("", &w, msg), 0);
	cr_assert(!w.tls);
	cr_assert_eq(w.n_users, 0);
	cr_assert_eq(w.min_version, WEBCFG_TLS12);
	cr_assert_eq(w.max_version, WEBCFG_TLS13);
	cr_assert(w.http2);
	cr_assert(w.prefer_server_cipher_suites);
	webcfg_free(&w);
	cr_assert_eq(parse("# nothing\n---\n", &w, msg), 0);
	webcfg_free(&w);
}

Test(webcfg, full_file)
{
	static const char text[] =
		"tls_server_config:\n"
		"  cert_file: tls/server.crt\n"
		"  key_file: /keys/server.key\n"
		"  client_auth_type: RequireAndVerifyClientCert\n"
		"  client_ca_file: ca.crt\n"
		"  client_allowed_sans: [prometheus.example, 10.0.0.1]\n"
		"  min_version: TLS13\n"
		"  cipher_suites:\n"
		"    - TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n"
		"  curve_preferences: [X25519, CurveP256]\n"
		"  prefer_server_cipher_suites: false\n"
		"http_server_config:\n"
		"  http2: false\n"
		"  headers:\n"
		"    X-Frame-Options: deny\n"
		"    Strict-Transport-Security: max-age=31536000\n"
		"basic_auth_users:\n"
		"  prometheus: " HASH "\n"
		"  'admin': '" HASH "'\n"
		"rate_limit:\n"
		"  interval: 100ms\n"
		"  burst: 5\n";
	struct webcfg w;
	char msg[256];

	cr_assert_eq(parse(text, &w, msg), 0, "%s", msg);
	cr_assert(w.tls);
	cr_assert_str_eq(w.cert_file, "/etc/ioprobe/tls/server.crt");
	cr_assert_str_eq(w.key_file, "/keys/server.key");
	cr_assert_str_eq(w.client_ca_file, "/etc/ioprobe/ca.crt");
	cr_assert_eq(w.client_auth, WEBCFG_REQUIRE_AND_VERIFY_CLIENT_CERT);
	cr_assert_eq(w.client_allowed_sans.n, 2);
	cr_assert_str_eq(w.client_allowed_sans.item[1], "10.0.0.1");
	cr_assert_eq(w.min_version, WEBCFG_TLS13);
	cr_assert_eq(w.cipher_suites.n, 1);
	cr_assert_eq(w.cipher_suites.line, 9); /* the list starts there */
	cr_assert_eq(w.curves.n, 2);
	cr_assert(!w.prefer_server_cipher_suites);
	cr_assert(!w.http2);
	cr_assert_eq(w.n_headers, 2);
	cr_assert_str_eq(w.headers[1].name, "Strict-Transport-Security");
	cr_assert_eq(w.n_users, 2);
	cr_assert_not_null(webcfg_user(&w, "admin", 5));
	cr_assert_null(webcfg_user(&w, "admi", 4));
	cr_assert_str_eq(webcfg_user(&w, "prometheus", 10)->value, HASH);
	cr_assert_eq(w.rate_interval, 100000000ull);
	cr_assert_eq(w.rate_burst, 5);
	webcfg_free(&w);
}

Test(webcfg, auth_only_and_old_client_auth_name)
{
	struct webcfg w;
	char msg[256];

	cr_assert_eq(parse("basic_auth_users:\n  u: " HASH "\n", &w, msg), 0, "%s", msg);
	cr_assert(!w.tls);
	cr_assert_eq(w.n_users, 1);
	webcfg_free(&w);
	cr_assert_eq(parse("tls_server_config:\n  cert: |\n    PEM\n  key: PEM\n"
			   "  client_auth_type: RequireClientCert\n", &w, msg), 0, "%s", msg);
	cr_assert_eq(w.client_auth, WEBCFG_REQUIRE_ANY_CLIENT_CERT);
	cr_assert_str_eq(w.cert, "PEM\n");
	webcfg_free(&w);
}

Test(webcfg, strict_keys_with_lines)
{
	cr_assert_str_eq(refused("tls_server_config:\n  cert_file: a\n  key_file: b\n  cert_fil: c\n"),
			 "4: tls_server_config: unknown key \"cert_fil\"");
	cr_assert_str_eq(refused("web:\n  x: 1\n"), "1: the file: unknown key \"web\"");
	cr_assert_str_eq(refused("basic_auth_users:\n  a: " HASH "\n  a: " HASH "\n"),
			 "3: basic_auth_users: \"a\" is given twice");
	cr_assert_str_eq(refused("http_server_config:\n  http2: true\n  http2: false\n"),
			 "3: http_server_config: \"http2\" is given twice");
	cr_assert_str_eq(refused("http_server_config:\n  http2: maybe\n"),
			 "2: http2: true or false is expected");
	cr_assert_str_eq(refused("tls_server_config:\n  cert_file: [a]\n"),
			 "2: cert_file: a string is expected");
	cr_assert_str_eq(refused("- a\n- b\n"), "1: the file: a mapping is expected");
	cr_assert(!strncmp(refused("tls_server_config:\n  cert_file: a\n key: [\n"), "3: not YAML",
			   11), "%s", refused("tls_server_config:\n  cert_file: a\n key: [\n"));
}

Test(webcfg, rules_between_keys)
{
	cr_assert_str_eq(refused("tls_server_config:\n  key_file: k\n"),
			 "2: tls_server_config: missing one of cert or cert_file");
	cr_assert_str_eq(refused("tls_server_config:\n  cert_file: c\n"),
			 "2: tls_server_config: missing one of key or key_file");
	cr_assert_str_eq(refused("tls_server_config:\n  client_auth_type: RequireAndVerifyClientCert\n"),
			 "2: tls_server_config: missing one of cert or cert_file");
	cr_assert_str_eq(refused("tls_server_config:\n  cert_file: c\n  key_file: k\n"
				 "  client_ca_file: ca\n"),
			 "2: tls_server_config: a client CA is given without a client_auth_type");
	cr_assert_str_eq(refused("tls_server_config:\n  cert_file: c\n  key_file: k\n"
				 "  client_auth_type: VerifyClientCertIfGiven\n"
				 "  client_allowed_sans: [x]\n"),
			 "5: tls_server_config: client_allowed_sans needs client_auth_type "
			 "RequireAnyClientCert or RequireAndVerifyClientCert");
	cr_assert_str_eq(refused("tls_server_config:\n  client_allowed_sans: [x]\n"),
			 "2: tls_server_config: client_allowed_sans needs client_auth_type "
			 "RequireAnyClientCert or RequireAndVerifyClientCert", "found by fuzz_webcfg");
	cr_assert_str_eq(refused("tls_server_config:\n  cert_file: c\n  key_file: k\n"
				 "  min_version: TLS13\n  max_version: TLS12\n"),
			 "2: tls_server_config: min_version is above max_version");
	cr_assert_str_eq(refused("tls_server_config:\n  min_version: TLS14\n"),
			 "2: min_version: \"TLS14\" is not TLS10, TLS11, TLS12 or TLS13");
	cr_assert(strstr(refused("tls_server_config:\n  client_auth_type: Sometimes\n"),
			 "\"Sometimes\" is not NoClientCert"));
	cr_assert_str_eq(refused("rate_limit:\n  interval: 1s\n"),
			 "2: rate_limit: burst must be at least 1 when an interval is set (0 would "
			 "refuse every request)");
	cr_assert_str_eq(refused("rate_limit:\n  interval: 7\n  burst: 1\n"),
			 "2: rate_limit: interval: \"7\" is not a duration such as 100ms or 1s");
	cr_assert_str_eq(refused("rate_limit:\n  burst: -1\n"),
			 "2: rate_limit: burst: \"-1\" is not a whole number");
}

Test(webcfg, headers_the_toolkit_allows)
{
	cr_assert_str_eq(refused("http_server_config:\n  headers:\n    Server: x\n"),
			 "3: headers: HTTP header \"Server\" can not be configured "
			 "(Strict-Transport-Security, X-Content-Type-Options, X-Frame-Options, "
			 "X-XSS-Protection, Content-Security-Policy)");
	cr_assert_str_eq(refused("http_server_config:\n  headers:\n    X-Frame-Options: allow\n"),
			 "3: headers: X-Frame-Options: \"allow\" is not deny or sameorigin");
	cr_assert_str_eq(refused("http_server_config:\n  headers:\n"
				 "    X-Content-Type-Options: sniff\n"),
			 "3: headers: X-Content-Type-Options: \"sniff\" is not nosniff");
	cr_assert_str_eq(refused("http_server_config:\n  headers:\n"
				 "    Content-Security-Policy: \"a\\r\\nSet-Cookie: x\"\n"),
			 "3: headers: Content-Security-Policy: a control character in the value");
}

Test(webcfg, bcrypt_hashes_only)
{
	cr_assert(webcfg_bcrypt_ok(HASH));
	cr_assert(webcfg_bcrypt_ok("$2b$04$qIxtz6MtbhKb4j90NH.fCeEfhXeFnhikPtXQLWfMCKpvsEyhSl8zu"));
	cr_assert(!webcfg_bcrypt_ok("$2x$10$qIxtz6MtbhKb4j90NH.fCeEfhXeFnhikPtXQLWfMCKpvsEyhSl8zu"));
	cr_assert(!webcfg_bcrypt_ok("$2y$03$qIxtz6MtbhKb4j90NH.fCeEfhXeFnhikPtXQLWfMCKpvsEyhSl8zu"));
	cr_assert(!webcfg_bcrypt_ok("$2y$10$qIxtz6MtbhKb4j90NH.fCeEfhXeFnhikPtXQLWfMCKpvsEyhSl8z"));
	cr_assert(!webcfg_bcrypt_ok("secret"));
	cr_assert(!webcfg_bcrypt_ok("$6$salt$abc"));
	cr_assert(strstr(refused("basic_auth_users:\n  alice: secret\n"),
			 "2: basic_auth_users: alice: the password must be a bcrypt hash"));
}
