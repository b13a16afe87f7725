/*
 * webcfg: the --web-config file, in the Prometheus exporter-toolkit's web
 * configuration format (the one node_exporter and every Go exporter read):
 *
 *   tls_server_config:   cert_file/key_file (or inline cert/key), client_auth_type,
 *                        client_ca_file (or inline client_ca), client_allowed_sans,
 *                        min_version, max_version, cipher_suites, curve_preferences,
 *                        prefer_server_cipher_suites
 *   http_server_config:  http2 (accepted; this server speaks HTTP/1.1), headers
 *   basic_auth_users:    name: bcrypt hash
 *   rate_limit:          interval, burst
 *
 * parsed strictly as the toolkit does (an unknown or repeated key, a wrong type, a header that
 * may not be set, a hash that is not bcrypt: refused with the line), with the toolkit's
 * defaults (TLS 1.2 to 1.3, NoClientCert) and its rules (a certificate needs its key, a client
 * CA needs a client auth type, allowed SANs need a required client certificate). Relative file
 * names are taken from the configuration file's directory. Pure: no I/O (libyaml on a buffer).
 */
#ifndef IOPROBE_WEBCFG_H
#define IOPROBE_WEBCFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum webcfg_client_auth {
	WEBCFG_NO_CLIENT_CERT,             /* NoClientCert (the default) */
	WEBCFG_REQUEST_CLIENT_CERT,        /* asked for, not required, not verified */
	WEBCFG_REQUIRE_ANY_CLIENT_CERT,    /* required, not verified (RequireClientCert too) */
	WEBCFG_VERIFY_CLIENT_CERT_IF_GIVEN,
	WEBCFG_REQUIRE_AND_VERIFY_CLIENT_CERT,
};

/* TLS protocol versions as the toolkit names them: TLS10 .. TLS13. */
enum webcfg_tls_version { WEBCFG_TLS10 = 10, WEBCFG_TLS11, WEBCFG_TLS12, WEBCFG_TLS13 };

struct webcfg_pair {
	char *name, *value;
	int line;                          /* where it was written (1-based) */
};

struct webcfg_list {
	char **item;
	size_t n;
	int line;                          /* where the list starts */
};

struct webcfg {
	bool tls;                          /* tls_server_config configures TLS */
	char *cert_file, *key_file;        /* absolute (joined with the file's directory) */
	char *cert, *key;                  /* inline PEM */
	char *client_ca_file, *client_ca;
	enum webcfg_client_auth client_auth;
	struct webcfg_list client_allowed_sans;
	enum webcfg_tls_version min_version, max_version;
	struct webcfg_list cipher_suites;  /* IANA names, as Go's crypto/tls names them */
	struct webcfg_list curves;         /* CurveP256, CurveP384, CurveP521, X25519 */
	bool prefer_server_cipher_suites;  /* default true */
	bool http2;                        /* default true; this server answers HTTP/1.1 */
	struct webcfg_pair *headers;       /* headers added to every answer */
	size_t n_headers;
	struct webcfg_pair *users;         /* basic_auth_users: name, bcrypt hash */
	size_t n_users;
	uint64_t rate_interval;            /* rate_limit: ns per token (0: no limit) */
	uint64_t rate_burst;               /* rate_limit: bucket size */
	int cert_line;                     /* line of tls_server_config (messages) */
	int rate_line;                     /* line of rate_limit */
};

/*
 * Parse the configuration text (len bytes) of a file in directory dir into w
 * (which the caller frees with webcfg_free, whatever this returns). Returns 0,
 * or -EINVAL (-ENOMEM) with msg "LINE: what is wrong" (no file name, no
 * "ioprobe: " prefix). An empty document is a valid configuration (no TLS, no
 * authentication).
 */
int webcfg_parse(const char *text, size_t len, const char *dir, struct webcfg *w, char *msg,
		 size_t msglen);

/* Release what webcfg_parse allocated; w is zeroed. */
void webcfg_free(struct webcfg *w);

/* Is hash a bcrypt hash ($2a$, $2b$ or $2y$, cost 04-31, 53 characters of salt and digest)? */
bool webcfg_bcrypt_ok(const char *hash);

/* The user called name (length len), or NULL. */
const struct webcfg_pair *webcfg_user(const struct webcfg *w, const char *name, size_t len);

/* The toolkit's name of a client auth type ("RequireAndVerifyClientCert"). */
const char *webcfg_client_auth_name(enum webcfg_client_auth a);

#endif
