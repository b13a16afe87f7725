/*
 * webtls: the --web-config file read and turned into what the --listen server
 * needs: its OpenSSL context (certificate and key, client CAs and the client
 * auth type, protocol versions, cipher suites by their IANA names, curves),
 * the client certificate's SAN check, and OpenSSL's reasons as text.
 */
#ifndef IOPROBE_WEBTLS_H
#define IOPROBE_WEBTLS_H

#include <stdbool.h>
#include <stddef.h>
#include <openssl/ssl.h>

#include "webcfg.h"

/*
 * Read and parse the web configuration at path into w (webcfg_free it
 * whatever this returns) and, when it configures TLS, make its context in
 * *ctx (NULL otherwise; SSL_CTX_free it). Every file it names is read now, so
 * a missing key or a certificate that does not match it is refused at start.
 * Returns 0 or -errno with msg "PATH:LINE: what" or "PATH: what".
 */
int webtls_load(const char *path, struct webcfg *w, SSL_CTX **ctx, char *msg, size_t msglen);

/* Does the peer certificate of ssl carry one of w's client_allowed_sans (DNS, email, IP, URI)? */
bool webtls_san_ok(const struct webcfg *w, SSL *ssl);

/* The reason of OpenSSL's newest queued error (the queue is emptied) into buf. */
void webtls_reason(char *buf, size_t len);

#endif
