/*
 * httpd: the --listen metrics endpoint, an HTTP/1.1 server in a thread of its
 * own around one poll() loop, so no client and no hung probe request can
 * stall another client or the probe. Bounded everywhere: at most
 * HTTPD_MAX_CONN connections (when full, newcomers wait in the listen
 * backlog, and one that has waited over HTTPD_EVICT_NS for a complete
 * request is closed to make room), HTTP_HEAD_MAX bytes of request head, a request head must
 * arrive within HTTPD_READ_NS of its first byte, an idle keep-alive
 * connection closes after HTTPD_IDLE_NS, an answer must leave within
 * HTTPD_WRITE_NS. Bodies come from a render callback run on the server
 * thread (it copies metric snapshots; it must not block).
 */
#ifndef IOPROBE_HTTPD_H
#define IOPROBE_HTTPD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "promfmt.h"
#include "sbuf.h"

#define HTTPD_MAX_CONN 64
#define HTTPD_READ_NS 5000000000ull
#define HTTPD_IDLE_NS 30000000000ull
#define HTTPD_WRITE_NS 10000000000ull
#define HTTPD_LINGER_NS 1000000000ull
#define HTTPD_EVICT_NS 500000000ull

/* Append the /metrics body to sb in format f (one the build can write). Returns 0 or -errno. */
typedef int (*httpd_render_fn)(void *ctx, struct sbuf *sb, enum promfmt_format f);

struct httpd_conn;
struct ssl_ctx_st;
struct webcfg;
struct webauth;

/* A line for stderr (thread-safe), without "ioprobe: ". */
typedef void (*httpd_warn_fn)(const char *text);

#define HTTPD_TLS_SAY_NS 60000000000ull  /* failed TLS handshakes: one line a minute at most */

struct httpd {
	int fd;                       /* the listening socket, -1 when none */
	int wake[2];                  /* pipe: httpd_stop() wakes the loop */
	pthread_t thread;
	bool running;
	httpd_render_fn render;
	void *ctx;
	struct httpd_conn *conn;      /* HTTPD_MAX_CONN slots */
	_Atomic uint64_t served;      /* answers sent in full */
	_Atomic uint64_t dropped;     /* connections closed on a timeout or to make room */
	/* --web-config (httpd_secure), all NULL without it */
	struct webcfg *web;
	struct ssl_ctx_st *tls;       /* TLS: every connection is TLS */
	struct webauth *auth;         /* basic_auth_users' verdicts */
	char *extra;                  /* http_server_config headers, as header lines */
	httpd_warn_fn warn;
	uint64_t tls_said;            /* when a failed handshake was last said (0: never) */
	uint64_t tls_unsaid;          /* failed handshakes since, not said */
	uint64_t bucket;              /* rate_limit: ns of tokens in the bucket */
	uint64_t bucket_at;           /* when it was last filled */
};

/* The first descriptor systemd passes to a socket-activated service (SD_LISTEN_FDS_START). */
#define HTTPD_LISTEN_FD 3

/*
 * Bind and listen on spec ("[ADDR:]PORT", see http_parse_listen) now, so a
 * busy port is a preparation error; spec "systemd" takes the listening socket
 * a .socket unit passed instead (LISTEN_PID/LISTEN_FDS, descriptor 3).
 * Returns 0 or -errno with msg filled (no "ioprobe: " prefix).
 */
int httpd_listen(struct httpd *h, const char *spec, char *msg, size_t msglen);

/*
 * After httpd_listen: serve as the web configuration file at path (the
 * Prometheus exporter-toolkit's format, see webcfg.h) says — TLS, basic
 * authentication, extra headers, a rate limit. Everything it names is read
 * now. warn says a failed handshake (one line a minute at most, with how many
 * more there were). Returns 0 or -errno with msg "--web-config PATH[:LINE]: ..."
 * (-EINVAL: the file's content is wrong).
 */
int httpd_secure(struct httpd *h, const char *path, httpd_warn_fn warn, char *msg, size_t msglen);

/* Start serving in a new thread. Returns 0 or -errno. */
int httpd_start(struct httpd *h, httpd_render_fn render, void *ctx);

/* Stop the thread, close every connection and the socket. Idempotent. */
void httpd_stop(struct httpd *h);

#endif
