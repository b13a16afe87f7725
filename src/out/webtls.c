#include "webtls.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "readfile.h"

void webtls_reason(char *buf, size_t len)
{
	unsigned long e, last = 0;
	const char *r;

	while ((e = ERR_get_error()))
		last = e;
	r = last ? ERR_reason_error_string(last) : NULL;
	snprintf(buf, len, "%s", r ? r : last ? "error" : "the connection ended");
}

/* "PATH: KEY FILE: reason" from OpenSSL's queue. Returns -EINVAL. */
static int tls_fail(char *msg, size_t msglen, const char *path, const char *what,
		    const char *file)
{
	char why[160];

	webtls_reason(why, sizeof(why));
	snprintf(msg, msglen, "%s: %s%s%s: %s", path, what, file ? " " : "", file ? file : "", why);
	return -EINVAL;
}

/* A file the configuration names, readable now? (OpenSSL's own reasons hide errno.) */
static int tls_readable(char *msg, size_t msglen, const char *path, const char *what,
			const char *file)
{
	FILE *f = fopen(file, "r");
	int err = -errno;

	if (f) {
		fclose(f);
		return 0;
	}
	snprintf(msg, msglen, "%s: %s %s: %s", path, what, file, strerror(-err));
	return err;
}

/* Inline PEM certificates (the first is the server's when chain) into ctx. */
static int tls_inline_cert(SSL_CTX *ctx, const char *pem)
{
	BIO *b = BIO_new_mem_buf(pem, -1);
	X509 *x;
	int n = 0, ok = 1;

	while (b && ok && (x = PEM_read_bio_X509(b, NULL, NULL, NULL))) {
		ok = n++ ? SSL_CTX_add_extra_chain_cert(ctx, x) : SSL_CTX_use_certificate(ctx, x);
		if (n == 1 || !ok)
			X509_free(x); /* add_extra_chain_cert keeps x when it succeeds */
	}
	ERR_clear_error(); /* the end of the PEM text */
	BIO_free(b);
	return ok && n ? 0 : -EINVAL;
}

static int tls_inline_key(SSL_CTX *ctx, const char *pem)
{
	BIO *b = BIO_new_mem_buf(pem, -1);
	EVP_PKEY *k = b ? PEM_read_bio_PrivateKey(b, NULL, NULL, NULL) : NULL;
	int ok = k && SSL_CTX_use_PrivateKey(ctx, k);

	EVP_PKEY_free(k);
	BIO_free(b);
	return ok ? 0 : -EINVAL;
}

static int tls_identity(SSL_CTX *ctx, const struct webcfg *w, const char *path, char *msg,
			size_t msglen)
{
	int err;

	if (w->cert_file && (err = tls_readable(msg, msglen, path, "cert_file", w->cert_file)))
		return err;
	if (w->key_file && (err = tls_readable(msg, msglen, path, "key_file", w->key_file)))
		return err;
	if (w->cert_file ? SSL_CTX_use_certificate_chain_file(ctx, w->cert_file) != 1 :
			   tls_inline_cert(ctx, w->cert) != 0)
		return tls_fail(msg, msglen, path, w->cert_file ? "cert_file" : "cert",
				w->cert_file);
	if (w->key_file ? SSL_CTX_use_PrivateKey_file(ctx, w->key_file, SSL_FILETYPE_PEM) != 1 :
			  tls_inline_key(ctx, w->key) != 0) {
		if (ERR_GET_REASON(ERR_peek_last_error()) != X509_R_KEY_VALUES_MISMATCH)
			return tls_fail(msg, msglen, path, w->key_file ? "key_file" : "key",
					w->key_file);
		ERR_clear_error();
		snprintf(msg, msglen, "%s: %s%s%s: the key does not match the certificate", path,
			 w->key_file ? "key_file" : "key", w->key_file ? " " : "",
			 w->key_file ? w->key_file : "");
		return -EINVAL;
	}
	if (SSL_CTX_check_private_key(ctx) != 1)
		return tls_fail(msg, msglen, path, "the key does not match the certificate", NULL);
	return 0;
}

/* Request/RequireAny: a client certificate is taken without being verified. */
static int tls_take_any(int ok, X509_STORE_CTX *x)
{
	(void)ok;
	(void)x;
	return 1;
}

static int tls_client_ca(SSL_CTX *ctx, const struct webcfg *w, const char *path, char *msg,
			 size_t msglen)
{
	X509_STORE *st = SSL_CTX_get_cert_store(ctx);
	BIO *b;
	X509 *x;
	int n = 0, err;

	if (w->client_ca_file) {
		STACK_OF(X509_NAME) *names;

		if ((err = tls_readable(msg, msglen, path, "client_ca_file", w->client_ca_file)))
			return err;
		names = SSL_load_client_CA_file(w->client_ca_file);
		if (!names || SSL_CTX_load_verify_locations(ctx, w->client_ca_file, NULL) != 1) {
			sk_X509_NAME_pop_free(names, X509_NAME_free);
			snprintf(msg, msglen, "%s: client_ca_file %s: no certificate in it", path,
				 w->client_ca_file);
			ERR_clear_error();
			return -EINVAL;
		}
		SSL_CTX_set_client_CA_list(ctx, names);
		return 0;
	}
	b = BIO_new_mem_buf(w->client_ca, -1);
	while (b && (x = PEM_read_bio_X509(b, NULL, NULL, NULL))) {
		n += X509_STORE_add_cert(st, x) == 1 && SSL_CTX_add_client_CA(ctx, x) == 1;
		X509_free(x);
	}
	ERR_clear_error();
	BIO_free(b);
	if (!n) {
		snprintf(msg, msglen, "%s: client_ca: no certificate in it", path);
		return -EINVAL;
	}
	return 0;
}

static void tls_verify_mode(SSL_CTX *ctx, enum webcfg_client_auth a)
{
	static const int mode[] = {
		[WEBCFG_NO_CLIENT_CERT] = SSL_VERIFY_NONE,
		[WEBCFG_REQUEST_CLIENT_CERT] = SSL_VERIFY_PEER,
		[WEBCFG_REQUIRE_ANY_CLIENT_CERT] = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
		[WEBCFG_VERIFY_CLIENT_CERT_IF_GIVEN] = SSL_VERIFY_PEER,
		[WEBCFG_REQUIRE_AND_VERIFY_CLIENT_CERT] =
			SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
	};
	bool any = a == WEBCFG_REQUEST_CLIENT_CERT || a == WEBCFG_REQUIRE_ANY_CLIENT_CERT;

	SSL_CTX_set_verify(ctx, mode[a], any ? tls_take_any : NULL);
}

/* cipher_suites (IANA names) into OpenSSL's two lists: TLS 1.2 and below, and TLS 1.3. */
static int tls_ciphers(SSL_CTX *ctx, const struct webcfg *w, const char *path, char *msg,
		       size_t msglen)
{
	char old[1024] = "", v13[512] = "";

	for (size_t i = 0; i < w->cipher_suites.n; i++) {
		const char *std = w->cipher_suites.item[i];
		/* TLS 1.3's suites keep their IANA names in OpenSSL */
		bool is13 = !strncmp(std, "TLS_AES_", 8) || !strncmp(std, "TLS_CHACHA20_", 13);
		const char *name = is13 ? std : OPENSSL_cipher_name(std);
		char *list = is13 ? v13 : old;
		size_t size = is13 ? sizeof(v13) : sizeof(old), used = strlen(list);

		if (!name || !strcmp(name, "(NONE)") ||
		    (size_t)snprintf(list + used, size - used, "%s%s", used ? ":" : "", name) >=
			    size - used) {
			snprintf(msg, msglen, "%s:%d: cipher_suites: \"%s\" is not a cipher suite "
				 "this OpenSSL knows (IANA names: TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"
				 ")", path, w->cipher_suites.line, std);
			return -EINVAL;
		}
	}
	if ((*old && SSL_CTX_set_cipher_list(ctx, old) != 1) ||
	    (*v13 && SSL_CTX_set_ciphersuites(ctx, v13) != 1))
		return tls_fail(msg, msglen, path, "cipher_suites", NULL);
	return 0;
}

static int tls_curves(SSL_CTX *ctx, const struct webcfg *w, const char *path, char *msg,
		      size_t msglen)
{
	static const char *const go[] = { "CurveP256", "CurveP384", "CurveP521", "X25519" };
	static const char *const ossl[] = { "P-256", "P-384", "P-521", "X25519" };
	char list[128] = "";

	for (size_t i = 0; i < w->curves.n; i++) {
		size_t k = 0;

		while (k < 4 && strcmp(go[k], w->curves.item[i]))
			k++;
		if (k == 4) {
			snprintf(msg, msglen, "%s:%d: curve_preferences: \"%s\" is not CurveP256, "
				 "CurveP384, CurveP521 or X25519", path, w->curves.line,
				 w->curves.item[i]);
			return -EINVAL;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", *list ? ":" : "",
			 ossl[k]);
	}
	if (*list && SSL_CTX_set1_groups_list(ctx, list) != 1)
		return tls_fail(msg, msglen, path, "curve_preferences", NULL);
	return 0;
}

static int tls_context(const struct webcfg *w, const char *path, SSL_CTX **out, char *msg,
		       size_t msglen)
{
	static const int version[] = { TLS1_VERSION, TLS1_1_VERSION, TLS1_2_VERSION,
				       TLS1_3_VERSION };
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
	int err;

	if (!ctx)
		return tls_fail(msg, msglen, path, "TLS", NULL);
	SSL_CTX_set_min_proto_version(ctx, version[w->min_version - WEBCFG_TLS10]);
	SSL_CTX_set_max_proto_version(ctx, version[w->max_version - WEBCFG_TLS10]);
	SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION |
			    (w->prefer_server_cipher_suites ? SSL_OP_CIPHER_SERVER_PREFERENCE : 0));
	SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
			 SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	SSL_CTX_set_session_id_context(ctx, (const unsigned char *)"ioprobe", 7);
	if ((err = tls_identity(ctx, w, path, msg, msglen)) ||
	    ((w->client_ca_file || w->client_ca) &&
	     (err = tls_client_ca(ctx, w, path, msg, msglen))) ||
	    (err = tls_ciphers(ctx, w, path, msg, msglen)) ||
	    (err = tls_curves(ctx, w, path, msg, msglen))) {
		SSL_CTX_free(ctx);
		return err;
	}
	tls_verify_mode(ctx, w->client_auth);
	*out = ctx;
	return 0;
}

int webtls_load(const char *path, struct webcfg *w, SSL_CTX **ctx, char *msg, size_t msglen)
{
	char why[256], *dir, *slash;
	char *text;
	int err;

	*ctx = NULL;
	memset(w, 0, sizeof(*w));
	text = readfile_text(path, &err);
	if (!text) {
		snprintf(msg, msglen, "%s: %s", path, strerror(-err));
		return err;
	}
	dir = strdup(path); /* its directory: "" for a bare name, "/" for one in the root */
	if (dir && !(slash = strrchr(dir, '/')))
		*dir = '\0';
	else if (dir)
		slash[slash == dir] = '\0';
	err = dir ? webcfg_parse(text, strlen(text), dir, w, why, sizeof(why)) : -ENOMEM;
	free(text);
	free(dir);
	if (err) {
		snprintf(msg, msglen, "%s:%s", path, err == -ENOMEM ? " out of memory" : why);
		return err;
	}
	return w->tls ? tls_context(w, path, ctx, msg, msglen) : 0;
}

static bool tls_san_listed(const struct webcfg *w, const char *v, size_t len)
{
	for (size_t i = 0; i < w->client_allowed_sans.n; i++)
		if (strlen(w->client_allowed_sans.item[i]) == len &&
		    !memcmp(w->client_allowed_sans.item[i], v, len))
			return true;
	return false;
}

bool webtls_san_ok(const struct webcfg *w, SSL *ssl)
{
	X509 *x = SSL_get1_peer_certificate(ssl);
	GENERAL_NAMES *names = x ? X509_get_ext_d2i(x, NID_subject_alt_name, NULL, NULL) : NULL;
	bool ok = false;

	for (int i = 0; names && !ok && i < sk_GENERAL_NAME_num(names); i++) {
		const GENERAL_NAME *g = sk_GENERAL_NAME_value(names, i);
		const ASN1_STRING *s = g->type == GEN_DNS ? g->d.dNSName :
				       g->type == GEN_EMAIL ? g->d.rfc822Name :
				       g->type == GEN_URI ? g->d.uniformResourceIdentifier :
				       g->type == GEN_IPADD ? g->d.iPAddress : NULL;
		char ip[INET6_ADDRSTRLEN];
		int len = s ? ASN1_STRING_length(s) : 0;

		if (!s)
			continue;
		if (g->type == GEN_IPADD && (len == 4 || len == 16))
			ok = inet_ntop(len == 4 ? AF_INET : AF_INET6, ASN1_STRING_get0_data(s), ip,
				       sizeof(ip)) && tls_san_listed(w, ip, strlen(ip));
		else if (g->type != GEN_IPADD)
			ok = tls_san_listed(w, (const char *)ASN1_STRING_get0_data(s), (size_t)len);
	}
	GENERAL_NAMES_free(names);
	X509_free(x);
	return ok;
}
