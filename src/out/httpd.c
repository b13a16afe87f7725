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
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "http.h"
#include "promfmt.h"
#include "promproto.h"

enum conn_state { CONN_FREE, CONN_READ, CONN_WRITE, CONN_LINGER };

struct httpd_conn {
	int fd;
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

/* Compose the answer to req in c->out. */
static void conn_answer(struct httpd *h, struct httpd_conn *c, const struct http_req *req,
			struct sbuf *body)
{
	const char *type = "text/plain; charset=utf-8";
	int status = req->status;

	sbuf_reset(body);
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
	c->close_after = !req->keep_alive || status >= 500 || (status >= 400 && status != 404);
	http_head(&c->out, status, type, body->len, !c->close_after);
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
	c->deadline = now + HTTPD_WRITE_NS;
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
	n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len, 0);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		conn_close(c);
		return;
	}
	if (n < 0)
		return;
	if (!c->in_len)
		c->deadline = now + HTTPD_READ_NS; /* the whole head within this */
	c->in_len += (size_t)n;
	conn_process(h, c, body, now);
}

static void conn_write(struct httpd *h, struct httpd_conn *c, struct sbuf *body, uint64_t now)
{
	while (c->out_pos < c->out.len) {
		ssize_t n = send(c->fd, sbuf_str(&c->out) + c->out_pos, c->out.len - c->out_pos,
				 MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n < 0) {
			conn_close(c);
			return;
		}
		c->out_pos += (size_t)n;
	}
	atomic_fetch_add(&h->served, 1);
	sbuf_reset(&c->out);
	if (c->close_after) {
		/* answered: read what the client still sends for a moment, so it sees the answer */
		shutdown(c->fd, SHUT_WR);
		c->state = CONN_LINGER;
		c->deadline = now + HTTPD_LINGER_NS;
		return;
	}
	c->state = CONN_READ;
	c->since = now;
	c->deadline = now + (c->in_len ? HTTPD_READ_NS : HTTPD_IDLE_NS);
	conn_process(h, c, body, now); /* a pipelined request */
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
		    (c->state == CONN_READ && c->since + HTTPD_EVICT_NS > now))
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
		c->state = CONN_READ;
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

/* poll() timeout until the nearest deadline, at most 1 s. */
static int httpd_timeout(const struct httpd *h, uint64_t now)
{
	uint64_t next = now + 1000000000ull;

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
			pfd[n] = (struct pollfd){ .fd = c->fd,
						  .events = c->state == CONN_WRITE ? POLLOUT : POLLIN };
			slot[n++] = i;
		}
		if (poll(pfd, n, httpd_timeout(h, now)) < 0 && errno != EINTR)
			return;
		if (pfd[0].revents)
			return;
		now = clock_now();
		for (nfds_t k = 2; k < n; k++) {
			struct httpd_conn *c = &h->conn[slot[k]];

			if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR))
				c->state == CONN_WRITE ? conn_write(h, c, body, now) :
							 conn_read(h, c, body, now);
			else if (pfd[k].revents & POLLOUT)
				conn_write(h, c, body, now);
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
}
