#include "webauth.h"

#include <crypt.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

/* A hash of a password nobody has: what an unknown user is checked against. */
static const char webauth_decoy[] = "$2b$10$qIxtz6MtbhKb4j90NH.fCeEfhXeFnhikPtXQLWfMCKpvsEyhSl8zu";

int webauth_init(struct webauth *a)
{
	memset(a, 0, sizeof(*a));
	a->cd = calloc(1, sizeof(*a->cd));
	return a->cd ? 0 : -ENOMEM;
}

void webauth_free(struct webauth *a)
{
	free(a->cd);
	a->cd = NULL;
}

static int b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

long webauth_base64(const char *in, size_t len, unsigned char *out, size_t outlen)
{
	uint32_t acc = 0;
	size_t n = 0, bits = 0;

	while (len && in[len - 1] == '=')
		len--;
	if (len % 4 == 1)
		return -1;
	for (size_t i = 0; i < len; i++) {
		int v = b64_value(in[i]);

		if (v < 0)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n >= outlen)
				return -1;
			out[n++] = (unsigned char)(acc >> bits);
		}
	}
	return (long)n;
}

/* The cache key of (user, hash, password): SHA-256 over the three, each with its length. */
static void webauth_key(const char *user, size_t ulen, const char *hash, const char *pass,
			size_t plen, unsigned char key[32])
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	size_t hlen = strlen(hash);
	unsigned int n = 32;

	memset(key, 0, 32);
	if (!md)
		return;
	if (EVP_DigestInit_ex(md, EVP_sha256(), NULL) &&
	    EVP_DigestUpdate(md, &ulen, sizeof(ulen)) && EVP_DigestUpdate(md, user, ulen) &&
	    EVP_DigestUpdate(md, &hlen, sizeof(hlen)) && EVP_DigestUpdate(md, hash, hlen) &&
	    EVP_DigestUpdate(md, &plen, sizeof(plen)) && EVP_DigestUpdate(md, pass, plen))
		EVP_DigestFinal_ex(md, key, &n);
	EVP_MD_CTX_free(md);
}

/* bcrypt the password with hash's salt and cost; equal to hash? */
static bool webauth_bcrypt(struct webauth *a, const char *hash, const char *pass, size_t plen)
{
	char pw[128];
	const char *out;

	if (plen >= sizeof(pw) || memchr(pass, '\0', plen))
		return false; /* bcrypt reads 72 bytes at most; a NUL would cut it */
	memcpy(pw, pass, plen);
	pw[plen] = '\0';
	a->bcrypts++;
	/* crypt_rn: NULL on failure; not crypt_r, whose ASan interceptor (GCC 12) calls NULL */
	out = crypt_rn(pw, hash, a->cd, (int)sizeof(*a->cd));
	OPENSSL_cleanse(pw, sizeof(pw));
	return out && strlen(out) == strlen(hash) && !CRYPTO_memcmp(out, hash, strlen(hash));
}

static struct webauth_entry *webauth_find(struct webauth *a, const unsigned char key[32])
{
	struct webauth_entry *oldest = &a->e[0];

	for (size_t i = 0; i < WEBAUTH_CACHE; i++) {
		struct webauth_entry *e = &a->e[i];

		if (e->used && !CRYPTO_memcmp(e->key, key, 32))
			return e;
		if (!e->used || (oldest->used && e->last < oldest->last))
			oldest = e;
	}
	return oldest;
}

bool webauth_check(struct webauth *a, const struct webcfg *w, const char *value, size_t len)
{
	unsigned char raw[256], key[32];
	const struct webcfg_pair *u;
	struct webauth_entry *e;
	const char *colon, *hash;
	long n;
	bool ok;

	if (len < 6 || strncasecmp(value, "Basic ", 6) || !a->cd)
		return false;
	value += 6;
	len -= 6;
	while (len && *value == ' ')
		value++, len--;
	n = webauth_base64(value, len, raw, sizeof(raw));
	if (n < 0 || !(colon = memchr(raw, ':', (size_t)n)))
		return false;
	u = webcfg_user(w, (const char *)raw, (size_t)(colon - (const char *)raw));
	hash = u ? u->value : webauth_decoy;
	webauth_key((const char *)raw, (size_t)(colon - (const char *)raw), hash, colon + 1,
		    (size_t)((const char *)raw + n - colon - 1), key);
	e = webauth_find(a, key);
	if (e->used && !memcmp(e->key, key, 32)) {
		ok = e->ok;
	} else {
		ok = webauth_bcrypt(a, hash, colon + 1, (size_t)((const char *)raw + n - colon - 1));
		ok = ok && u;
		*e = (struct webauth_entry){ .used = true, .ok = ok };
		memcpy(e->key, key, 32);
	}
	e->last = ++a->uses;
	OPENSSL_cleanse(raw, sizeof(raw));
	return ok;
}
