/*
 * webauth: HTTP Basic authentication against --web-config's basic_auth_users
 * (bcrypt hashes, verified with libcrypt's crypt_rn). bcrypt is slow on
 * purpose (tens of ms at cost 10), and Prometheus sends the same credentials
 * every scrape, so a verdict is remembered: WEBAUTH_CACHE entries keyed by a
 * SHA-256 of the user, the hash and the password (never the password itself),
 * the least recently used one replaced. An unknown user costs a bcrypt as a
 * known one does (no user enumeration by timing). No I/O.
 */
#ifndef IOPROBE_WEBAUTH_H
#define IOPROBE_WEBAUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "webcfg.h"

#define WEBAUTH_CACHE 32

struct webauth_entry {
	unsigned char key[32];   /* SHA-256 of user, hash and password */
	bool used, ok;
	uint64_t last;           /* use counter: the smallest is replaced */
};

struct webauth {
	struct webauth_entry e[WEBAUTH_CACHE];
	uint64_t uses;
	uint64_t bcrypts;        /* hashes computed (the cache's misses) */
	struct crypt_data *cd;   /* crypt_rn's work area (32 KiB) */
};

/* Allocate a's work area. Returns 0 or -ENOMEM. */
int webauth_init(struct webauth *a);

/* Release it. */
void webauth_free(struct webauth *a);

/*
 * Does the value of an Authorization header (value, len bytes, as sent:
 * "Basic dXNlcjpwYXNz") name a user of w with the right password? False for
 * any other scheme, bad base64 or a missing colon.
 */
bool webauth_check(struct webauth *a, const struct webcfg *w, const char *value, size_t len);

/*
 * Decode standard base64 (padding optional, no whitespace) in into out (outlen bytes). Returns
 * the decoded length, or -1 when in is not base64 or does not fit.
 */
long webauth_base64(const char *in, size_t len, unsigned char *out, size_t outlen);

#endif
