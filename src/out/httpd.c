#include "config.h"

#include "httpd.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "clock.h"
#include "http.h"
#include "promfmt.h"
#include "promproto.h"
#include "webauth.h"
#include "webcfg.h"
#include "webtls.h"

enum conn_state { CONN_FREE, CONN_HANDSHAKE, CONN_READ, CONN_WRITE, CONN_LINGER };

struct httpd_conn {
	int fd;
	SSL *ssl;                 /* TLS: the connection's session (NULL until its handshake) */
	short want;               /* TLS: what OpenSSL waits for (POLLIN/POLLOUT), 0: the state's */
	enum conn_state state;
	char in[HTTP_HEAD_MAX];
	size_t in_len;
	struct sbuf out;
	size_t out_pos;
	uint64_t deadline;        /* monotonic ns: close when reached */
	uint64_t since;           /* when it began to wait for the current request (eviction) */
	bool close_after;         /* no further request on this connection */
};

static const char httpd_landing[] =
	"<!DOCTYPE html>\n<html><head><title>ioprobe</title></head><body>\n"
	"<h1>ioprobe</h1>\n<p>Disk latency probe. Metrics: <a href=\"/metrics\">/metrics</a> "
	"(Prometheus text 0.0.4, or OpenMetrics 1.0 when asked for"
#if HAVE_PROTOBUF
	", or the protobuf format with native histograms"
#endif
	").</p>\n</body></html>\n";

/*
 * --listen systemd: the listening socket systemd passed (socket activation: LISTEN_PID is
 * this process, LISTEN_FDS >= 1, the first at fd 3; the protocol of sd_listen_fds(3), no
 * library needed). The variables are removed so that nothing started later takes them.
 */
static int httpd_inherit(struct httpd *h, char *msg, size_t msglen)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	int accepting = 0, type = 0, flags;
	socklen_t len = sizeof(int);

	if (!pid || !fds || strtol(pid, NULL, 10) != (long)getpid() || strtol(fds, NULL, 10) < 1) {
		snprintf(msg, msglen, "--listen systemd: no socket was passed (LISTEN_PID, "
			 "LISTEN_FDS): start it from a .socket unit");
		return -EBADF;
	}
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	if (getsockopt(HTTPD_LISTEN_FD, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &len) ||
	    (len = sizeof(int), getsockopt(HTTPD_LISTEN_FD, SOL_SOCKET, SO_TYPE, &type, &len)) ||
	    !accepting || type != SOCK_STREAM) {
		snprintf(msg, msglen, "--listen systemd: descriptor %d is not a listening stream "
			 "socket (ListenStream= in the .socket unit)", HTTPD_LISTEN_FD);
		return -ENOTSOCK;
	}
	flags = fcntl(HTTPD_LISTEN_FD, F_GETFL);
	if (flags < 0 || fcntl(HTTPD_LISTEN_FD, F_SETFL, flags | O_NONBLOCK) ||
	    fcntl(HTTPD_LISTEN_FD, F_SETFD, FD_CLOEXEC)) {
		int err = -errno;

		snprintf(msg, msglen, "--listen systemd: %s", strerror(-err));
		return err;
	}
	h->fd = HTTPD_LISTEN_FD;
	return 0;
}

int httpd_listen(struct httpd *h, const char *spec, char *msg, size_t msglen)
{
	struct addrinfo hints = { 0 }, *ai = NULL;
	char host[256], port[8];
	uint16_t p;
	int fd, one = 1, err;

	h->fd = -1;
	h->wake[0] = h->wake[1] = -1;
	if (!strcmp(spec, "systemd"))
		return httpd_inherit(h, msg, msglen);
	if (http_parse_listen(spec, host, sizeof(host), &p)) {
		snprintf(msg, msglen, "--listen: \"%s\" is not [ADDR:]PORT (PORT 1-65535)", spec);
		return -EINVAL;
	}
	snprintf(port, sizeof(port), "%u", p);
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
	err = getaddrinfo(*host ? host : NULL, port, &hints, &ai);
	if (err) {
		snprintf(msg, msglen, "--listen: \"%s\": %s", spec, gai_strerror(err));
		return -EINVAL;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1024)) {
		err = -errno;
		snprintf(msg, msglen, "--listen: cannot listen on %s: %s", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return err;
	}
	freeaddrinfo(ai);
	h->fd = fd;
	return 0;
}

static void conn_close(struct httpd_conn *c)
{
	SSL_free(c->ssl);
	c->ssl = NULL;
	c->want = 0;
	close(c->fd);
	c->fd = -1;
	c->state = CONN_FREE;
	c->in_len = 0;
	sbuf_reset(&c->out);
}

/* The format of /metrics req asks for: protobuf only when this build writes it. */
static enum promfmt_format httpd_format(const struct http_req *req)
{
	if (req->protobuf && promproto_available())
		return PROMFMT_PROTOBUF;
	return req->openmetrics ? PROMFMT_OPENMETRICS : PROMFMT_TEXT;
}

/*
 * rate_limit: a token bucket of burst tokens, one more every interval (Go's
 * rate.Limiter as the toolkit sets it). Does this request find it empty?
 */
/* The bucket's size in ns: burst intervals (saturated: 2^32 bursts of a day do not fit). */
static uint64_t httpd_bucket_cap(const struct webcfg *w)
{
	if (!w->rate_interval)
		return 0;
	return w->rate_burst > UINT64_MAX / w->rate_interval ? UINT64_MAX :
							       w->rate_burst * w->rate_interval;
}

static bool httpd_limited(struct httpd *h)
{
	uint64_t now = clock_now(), cap = httpd_bucket_cap(h->web), add = now - h->bucket_at;

	if (!h->web->rate_interval)
		return false;
	h->bucket = add > cap - h->bucket ? cap : h->bucket + add; /* bucket <= cap */
	h->bucket_at = now;
	if (h->bucket < h->web->rate_interval)
		return true;
	h->bucket -= h->web->rate_interval;
	return false;
}

/* Compose the answer to req in c->out. */
static void conn_answer(struct httpd *h, struct httpd_conn *c, const struct http_req *req,
			struct sbuf *body)
{
	const char *type = "text/plain; charset=utf-8";
	int status = req->status;

	sbuf_reset(body);
	if (!status && h->web && httpd_limited(h))
		status = 429;
	else if (!status && h->web && h->web->n_users &&
		 !(req->auth && webauth_check(h->auth, h->web, req->auth, req->auth_len)))
		status = 401;
	if (!status && req->route == HTTP_ROUTE_NONE)
		status = 404;
	else if (!status && !req->get)
		status = 405;
	if (!status && req->route == HTTP_ROUTE_METRICS) {
		enum promfmt_format f = httpd_format(req);

		type = promfmt_content_type(f);
		status = h->render(h->ctx, body, f) ? 500 : 200;
	} else if (!status) {
		type = "text/html; charset=utf-8";
		sbuf_puts(body, httpd_landing);
		status = 200;
	}
	if (status != 200) {
		sbuf_reset(body);
		type = "text/plain; charset=utf-8";
		sbuf_printf(body, "%d %s\n", status, http_reason(status));
	}
	c->close_after = !req->keep_alive || status >= 500 ||
			 (status >= 400 && status != 404 && status != 401 && status != 429);
	http_head(&c->out, status, type, body->len, !c->close_after, h->extra);
	if (!req->head)
		sbuf_append(&c->out, sbuf_str(body), body->len);
	c->out_pos = 0;
}

/* Parse what has arrived; start the answer when a head is complete. */
static void conn_process(struct httpd *h, struct httpd_conn *c, struct sbuf *body, uint64_t now)
{
	struct http_req req;

	if (!c->in_len || http_parse(c->in, c->in_len, &req) == HTTP_MORE)
		return;
	conn_answer(h, c, &req, body);
	if (!req.status) {
		memmove(c->in, c->in + req.len, c->in_len - req.len);
		c->in_len -= req.len;
	}
	c->state = CONN_WRITE;
	c->want = 0;
	c->deadline = now + HTTPD_WRITE_NS;
}

/* An OpenSSL call's result r: > 0 bytes, 0 the peer ended, -1 not yet (c->want set), -2 failed
 * (its reason in why when given). */
static ssize_t conn_tls_result(struct httpd_conn *c, int r, char *why, size_t whylen)
{
	int e;

	if (r > 0) {
		c->want = 0;
		return r;
	}
	e = SSL_get_error(c->ssl, r);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
		c->want = e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
		return -1;
	}
	if (why)
		webtls_reason(why, whylen);
	ERR_clear_error();
	return e == SSL_ERROR_ZERO_RETURN ? 0 : -2;
}

/* Read up to len bytes: > 0 bytes, 0 the peer ended, -1 nothing yet, -2 failed. */
static ssize_t conn_recv(struct httpd_conn *c, void *buf, size_t len)
{
	ssize_t n;

	if (c->ssl)
		return conn_tls_result(c, SSL_read(c->ssl, buf, (int)len), NULL, 0);
	n = recv(c->fd, buf, len, 0);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? -1 : -2;
	return n;
}

/* Send up to len bytes: > 0 sent, -1 not now, -2 failed. */
static ssize_t conn_send(struct httpd_conn *c, const void *buf, size_t len)
{
	ssize_t n;

	if (c->ssl) {
		n = conn_tls_result(c, SSL_write(c->ssl, buf, (int)len), NULL, 0);
		return n == 0 ? -2 : n;
	}
	n = send(c->fd, buf, len, MSG_NOSIGNAL);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? -1 : -2;
	return n;
}

static void conn_read(struct httpd *h, struct httpd_conn *c, struct sbuf *body, uint64_t now)
{
	char drain[4096];
	ssize_t n;

	if (c->state == CONN_LINGER) {
		n = recv(c->fd, drain, sizeof(drain), 0);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			conn_close(c);
		return;
	}
	do { /* TLS: a record may hold more than one read takes; nothing wakes poll for it */
		n = conn_recv(c, c->in + c->in_len, sizeof(c->in) - c->in_len);
		if (n == 0 || n == -2) {
			conn_close(c);
			return;
		}
		if (n < 0)
			return;
		if (!c->in_len)
			c->deadline = now + HTTPD_READ_NS; /* the whole head within this */
		c->in_len += (size_t)n;
		conn_process(h, c, body, now);
	} while (c->ssl && c->state == CONN_READ && SSL_pending(c->ssl) > 0);
}

static void conn_write(struct httpd *h, struct httpd_conn *c, struct sbuf *body, uint64_t now)
{
	while (c->out_pos < c->out.len) {
		ssize_t n = conn_send(c, sbuf_str(&c->out) + c->out_pos, c->out.len - c->out_pos);

		if (n == -1)
			return;
		if (n < 0) {
			conn_close(c);
			return;
		}
		c->out_pos += (size_t)n;
	}
	atomic_fetch_add(&h->served, 1);
	sbuf_reset(&c->out);
	c->want = 0;
	if (c->close_after) {
		/* answered: read what the client still sends for a moment, so it sees the answer */
		if (c->ssl)
			SSL_shutdown(c->ssl); /* close_notify, once; the answer is out already */
		ERR_clear_error();
		shutdown(c->fd, SHUT_WR);
		c->state = CONN_LINGER;
		c->deadline = now + HTTPD_LINGER_NS;
		return;
	}
	c->state = CONN_READ;
	c->since = now;
	c->deadline = now + (c->in_len ? HTTPD_READ_NS : HTTPD_IDLE_NS);
	conn_process(h, c, body, now); /* a pipelined request */
	if (c->ssl && c->state == CONN_READ && SSL_pending(c->ssl) > 0)
		conn_read(h, c, body, now);
}

/* A failed TLS handshake, said at most once a minute with how many more came since. */
static void httpd_tls_failed(struct httpd *h, const struct httpd_conn *c, const char *why,
			     uint64_t now)
{
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);
	char addr[INET6_ADDRSTRLEN] = "?", text[400], more[64] = "";
	unsigned port = 0;

	if (h->tls_said && now - h->tls_said < HTTPD_TLS_SAY_NS) {
		h->tls_unsaid++;
		return;
	}
	if (!getpeername(c->fd, (struct sockaddr *)&sa, &len)) {
		bool v4 = sa.ss_family == AF_INET;
		const void *a = v4 ? (const void *)&((struct sockaddr_in *)&sa)->sin_addr :
				     (const void *)&((struct sockaddr_in6 *)&sa)->sin6_addr;

		inet_ntop(sa.ss_family, a, addr, sizeof(addr));
		port = ntohs(v4 ? ((struct sockaddr_in *)&sa)->sin_port :
				  ((struct sockaddr_in6 *)&sa)->sin6_port);
	}
	if (h->tls_unsaid)
		snprintf(more, sizeof(more), " (and %llu more in the last minute)",
			 (unsigned long long)h->tls_unsaid);
	snprintf(text, sizeof(text), "--listen: TLS handshake with %s:%u failed: %s%s", addr, port,
		 why, more);
	if (h->warn)
		h->warn(text);
	h->tls_said = now;
	h->tls_unsaid = 0;
}

/* Plain HTTP sent to the TLS port: answered 400 in plain text (as Go's servers do), closed. */
static void conn_plain_refused(struct httpd *h, struct httpd_conn *c, struct sbuf *body,
			       uint64_t now)
{
	static const char why[] = "Client sent an HTTP request to an HTTPS server.\n";

	httpd_tls_failed(h, c, "plain HTTP sent to the TLS port", now);
	sbuf_reset(body);
	http_head(&c->out, 400, "text/plain; charset=utf-8", sizeof(why) - 1, false, NULL);
	sbuf_puts(&c->out, why);
	c->out_pos = 0;
	c->close_after = true;
	c->state = CONN_WRITE;
	c->deadline = now + HTTPD_WRITE_NS;
}

static void conn_handshake(struct httpd *h, struct httpd_conn *c, struct sbuf *body,
			   uint64_t now)
{
	char why[160];
	ssize_t n;

	if (!c->ssl) {
		unsigned char first;

		n = recv(c->fd, &first, 1, MSG_PEEK);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			conn_close(c);
			return;
		}
		if (first != 0x16) { /* not a TLS handshake record */
			conn_plain_refused(h, c, body, now);
			return;
		}
		c->ssl = SSL_new(h->tls);
		if (!c->ssl || SSL_set_fd(c->ssl, c->fd) != 1) {
			ERR_clear_error();
			conn_close(c);
			return;
		}
	}
	n = conn_tls_result(c, SSL_accept(c->ssl), why, sizeof(why));
	if (n == -1)
		return;
	if (n > 0 && h->web->client_allowed_sans.n && !webtls_san_ok(h->web, c->ssl)) {
		snprintf(why, sizeof(why), "the client certificate has none of client_allowed_sans");
		n = -2;
	}
	if (n <= 0) {
		httpd_tls_failed(h, c, why, now);
		conn_close(c);
		return;
	}
	c->state = CONN_READ;
	c->deadline = now + HTTPD_READ_NS;
	if (SSL_pending(c->ssl) > 0)
		conn_read(h, c, body, now);
}

/*
 * The connection to close for a newcomer when every slot is taken: the one
 * that has waited longest for a complete request, once that is over
 * HTTPD_EVICT_NS (a real client sends its head at once; a trickler or an idle
 * keep-alive connection does not). NULL when none qualifies yet.
 */
static struct httpd_conn *httpd_victim(struct httpd *h, uint64_t now)
{
	struct httpd_conn *victim = NULL;

	for (size_t i = 0; i < HTTPD_MAX_CONN; i++) {
		struct httpd_conn *c = &h->conn[i];

		if (c->state == CONN_WRITE || c->state == CONN_FREE ||
		    ((c->state == CONN_READ || c->state == CONN_HANDSHAKE) &&
		     c->since + HTTPD_EVICT_NS > now))
			continue; /* a lingering one has its answer already */
		if (!victim || c->since < victim->since)
			victim = c;
	}
	return victim;
}

/* A free slot, or one made by closing a victim; NULL: leave the newcomer in the backlog. */
static struct httpd_conn *httpd_slot(struct httpd *h, uint64_t now)
{
	struct httpd_conn *victim;

	for (size_t i = 0; i < HTTPD_MAX_CONN; i++)
		if (h->conn[i].state == CONN_FREE)
			return &h->conn[i];
	victim = httpd_victim(h, now);
	if (victim) {
		if (victim->state != CONN_LINGER)
			atomic_fetch_add(&h->dropped, 1);
		conn_close(victim);
	}
	return victim;
}

static void httpd_accept(struct httpd *h, uint64_t now)
{
	for (int i = 0; i < HTTPD_MAX_CONN; i++) {
		struct httpd_conn *c = httpd_slot(h, now);
		int fd;

		if (!c)
			return;
		fd = accept4(h->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		c->fd = fd;
		c->state = h->tls ? CONN_HANDSHAKE : CONN_READ;
		c->in_len = 0;
		c->since = now;
		c->deadline = now + HTTPD_READ_NS;
	}
}

/* Can a newcomer get a slot now? */
static bool httpd_room(struct httpd *h, uint64_t now)
{
	for (size_t i = 0; i < HTTPD_MAX_CONN; i++)
		if (h->conn[i].state == CONN_FREE)
			return true;
	return httpd_victim(h, now) != NULL;
}

/* poll() timeout until the nearest deadline; -1 (none: an idle exporter sleeps until a
 * client comes or httpd_stop wakes it), else at most 1 s. */
static int httpd_timeout(const struct httpd *h, uint64_t now)
{
	uint64_t next = now + 1000000000ull;
	bool any = false;

	for (size_t i = 0; i < HTTPD_MAX_CONN && !any; i++)
		any = h->conn[i].state != CONN_FREE;
	if (!any)
		return -1;

	for (size_t i = 0; i < HTTPD_MAX_CONN; i++) {
		const struct httpd_conn *c = &h->conn[i];

		if (c->state != CONN_FREE && c->deadline < next)
			next = c->deadline;
		if (c->state != CONN_FREE && c->state != CONN_WRITE &&
		    c->since + HTTPD_EVICT_NS < next)
			next = c->since + HTTPD_EVICT_NS; /* a newcomer may then take its place */
	}
	return next <= now ? 0 : (int)((next - now + 999999) / 1000000);
}

/* Connection c is ready for what its state waits for. */
static void conn_ready(struct httpd *h, struct httpd_conn *c, struct sbuf *body, uint64_t now)
{
	if (c->state == CONN_HANDSHAKE)
		conn_handshake(h, c, body, now);
	else if (c->state == CONN_WRITE)
		conn_write(h, c, body, now);
	else
		conn_read(h, c, body, now);
}

static void httpd_serve(struct httpd *h, struct pollfd *pfd, int *slot, struct sbuf *body)
{
	for (;;) {
		nfds_t n = 2;
		uint64_t now = clock_now();

		pfd[0] = (struct pollfd){ .fd = h->wake[0], .events = POLLIN };
		/* no room: newcomers wait in the kernel's backlog */
		pfd[1] = (struct pollfd){ .fd = httpd_room(h, now) ? h->fd : -1, .events = POLLIN };
		for (int i = 0; i < HTTPD_MAX_CONN; i++) {
			struct httpd_conn *c = &h->conn[i];

			if (c->state == CONN_FREE)
				continue;
			pfd[n] = (struct pollfd){ .fd = c->fd, .events = c->want ? c->want :
						  c->state == CONN_WRITE ? POLLOUT : POLLIN };
			slot[n++] = i;
		}
		if (poll(pfd, n, httpd_timeout(h, now)) < 0 && errno != EINTR)
			return;
		if (pfd[0].revents)
			return;
		now = clock_now();
		for (nfds_t k = 2; k < n; k++) {
			struct httpd_conn *c = &h->conn[slot[k]];

			if (pfd[k].revents)
				conn_ready(h, c, body, now);
			if (c->state != CONN_FREE && c->deadline <= now) {
				if (c->state != CONN_LINGER)
					atomic_fetch_add(&h->dropped, 1);
				conn_close(c);
			}
		}
		if (pfd[1].revents & POLLIN)
			httpd_accept(h, now);
	}
}

static void *httpd_main(void *arg)
{
	struct httpd *h = arg;
	struct pollfd pfd[HTTPD_MAX_CONN + 2];
	int slot[HTTPD_MAX_CONN + 2];
	struct sbuf body = SBUF_INIT;

	httpd_serve(h, pfd, slot, &body);
	sbuf_free(&body);
	return NULL;
}

int httpd_start(struct httpd *h, httpd_render_fn render, void *ctx)
{
	sigset_t all, old;
	int err;

	h->render = render;
	h->ctx = ctx;
	h->conn = calloc(HTTPD_MAX_CONN, sizeof(*h->conn));
	if (!h->conn)
		return -ENOMEM;
	for (int i = 0; i < HTTPD_MAX_CONN; i++)
		h->conn[i] = (struct httpd_conn){ .fd = -1, .out = SBUF_INIT };
	if (pipe2(h->wake, O_CLOEXEC | O_NONBLOCK)) {
		err = -errno;
		free(h->conn);
		h->conn = NULL;
		return err;
	}
	sigfillset(&all); /* signals stay with the probe thread, which they must wake */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = -pthread_create(&h->thread, NULL, httpd_main, h);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	h->running = !err;
	return err;
}

void httpd_stop(struct httpd *h)
{
	if (h->running) {
		(void)!write(h->wake[1], "x", 1);
		pthread_join(h->thread, NULL);
		h->running = false;
	}
	if (h->conn) {
		for (int i = 0; i < HTTPD_MAX_CONN; i++) {
			if (h->conn[i].state != CONN_FREE)
				conn_close(&h->conn[i]);
			sbuf_free(&h->conn[i].out);
		}
		free(h->conn);
		h->conn = NULL;
	}
	for (int i = 0; i < 2; i++) {
		if (h->wake[i] >= 0)
			close(h->wake[i]);
		h->wake[i] = -1;
	}
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
	SSL_CTX_free(h->tls);
	h->tls = NULL;
	if (h->auth)
		webauth_free(h->auth);
	free(h->auth);
	h->auth = NULL;
	if (h->web)
		webcfg_free(h->web);
	free(h->web);
	h->web = NULL;
	free(h->extra);
	h->extra = NULL;
}

/* The http_server_config headers as header lines, or NULL when there are none. */
static int httpd_extra(struct httpd *h)
{
	struct sbuf sb = SBUF_INIT;

	if (!h->web->n_headers)
		return 0;
	for (size_t i = 0; i < h->web->n_headers; i++)
		sbuf_printf(&sb, "%s: %s\r\n", h->web->headers[i].name, h->web->headers[i].value);
	if (sb.error) {
		sbuf_free(&sb);
		return -ENOMEM;
	}
	h->extra = strdup(sbuf_str(&sb));
	sbuf_free(&sb);
	return h->extra ? 0 : -ENOMEM;
}

int httpd_secure(struct httpd *h, const char *path, httpd_warn_fn warn, char *msg, size_t msglen)
{
	char why[512];
	SSL_CTX *ctx = NULL;
	int err;

	h->warn = warn;
	h->web = calloc(1, sizeof(*h->web));
	h->auth = calloc(1, sizeof(*h->auth));
	if (!h->web || !h->auth || webauth_init(h->auth)) {
		snprintf(msg, msglen, "--web-config: out of memory");
		return -ENOMEM;
	}
	err = webtls_load(path, h->web, &ctx, why, sizeof(why));
	h->tls = ctx;
	if (!err && (err = httpd_extra(h)))
		snprintf(why, sizeof(why), "out of memory");
	if (err) {
		snprintf(msg, msglen, "--web-config %s", why);
		return err;
	}
	h->bucket = httpd_bucket_cap(h->web); /* the bucket starts full */
	h->bucket_at = clock_now();
	return 0;
}
