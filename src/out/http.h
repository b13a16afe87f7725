/*
 * http: the HTTP/1.x pieces of the metrics endpoint that need no socket —
 * parsing a request head (bounded: a request line over HTTP_LINE_MAX is 414,
 * a head over HTTP_HEAD_MAX is 431, anything malformed is 400), routing it,
 * the status line and headers of the answer, and the --listen address.
 * Pure: no I/O.
 */
#ifndef IOPROBE_HTTP_H
#define IOPROBE_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"

#define HTTP_LINE_MAX 2048  /* request line, bytes with CRLF */
#define HTTP_HEAD_MAX 8192  /* request line and headers, bytes */

enum http_route { HTTP_ROUTE_NONE, HTTP_ROUTE_ROOT, HTTP_ROUTE_METRICS };

struct http_req {
	size_t len;             /* bytes of the head, up to and including the blank line */
	int status;             /* 0 = fine, else the error status to answer (400, 414, 431, 505) */
	bool head;              /* HEAD: no body in the answer */
	bool get;               /* GET or HEAD */
	enum http_route route;
	bool openmetrics;       /* Accept prefers OpenMetrics to text 0.0.4 */
	bool protobuf;          /* Accept prefers the protobuf MetricFamily stream to both */
	bool keep_alive;        /* the connection may serve another request */
	const char *auth;       /* the Authorization header's value (into the parsed buffer), or
				 * NULL; auth_len bytes */
	size_t auth_len;
};

enum http_parse_result { HTTP_MORE, HTTP_DONE };

/*
 * Parse the request head at the start of buf (len bytes). HTTP_MORE: the head
 * is not complete yet and within the limits; HTTP_DONE: req is filled (with
 * req->status non-zero for a request to refuse; req->len is then meaningless
 * and the connection must close after the answer).
 */
enum http_parse_result http_parse(const char *buf, size_t len, struct http_req *req);

/*
 * The answer's status line and headers for status (200, 404, ...), a body of
 * body_len bytes of content_type (NULL for none), the header lines extra
 * ("Name: value\r\n"..., NULL for none), ending with the blank line. A 405
 * carries "Allow: GET, HEAD", a 401 "WWW-Authenticate: Basic". Returns
 * sb->error.
 */
int http_head(struct sbuf *sb, int status, const char *content_type, size_t body_len,
	      bool keep_alive, const char *extra);

/* Reason phrase of a status code ("Not Found"). */
const char *http_reason(int status);

/*
 * Split a --listen value "[ADDR:]PORT" ("9101", "127.0.0.1:9101",
 * "[::1]:9101", ":9101" = every address) into host (127.0.0.1 when no address
 * is given, "" for every address) and port 1..65535. Returns 0 or -EINVAL.
 */
int http_parse_listen(const char *spec, char *host, size_t hostlen, uint16_t *port);

#endif
