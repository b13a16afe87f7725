/*
 * Tests for src/out/http.c: request heads as RFC 9112 frames them (request line,
 * header fields, the blank line; bare LF accepted), the limits (414 for a
 * long request line, 431 for a long head, 400 for garbage at once), routing,
 * content negotiation, keep-alive, the answer's head and --listen addresses.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <string.h>

#include "http.h"

static enum http_parse_result parse(const char *text, struct http_req *r)
{
	return http_parse(text, strlen(text), r);
}

Test(http, get_metrics_keep_alive)
{
	struct http_req r;

	cr_assert_eq(parse("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\nGET /", &r), HTTP_DONE);
	cr_assert_eq(r.status, 0);
	cr_assert_eq(r.route, HTTP_ROUTE_METRICS);
	cr_assert(r.get);
	cr_assert_not(r.head);
	cr_assert(r.keep_alive);
	cr_assert_not(r.openmetrics);
	cr_assert_eq(r.len, strlen("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"));
}

Test(http, incomplete_heads_want_more)
{
	struct http_req r;

	cr_assert_eq(parse("", &r), HTTP_MORE);
	cr_assert_eq(parse("GET /metr", &r), HTTP_MORE);
	cr_assert_eq(parse("GET /metrics HTTP/1.1\r\nHost: x\r\n", &r), HTTP_MORE);
}

Test(http, negotiation_and_query)
{
	struct http_req r;

	cr_assert_eq(parse("GET /metrics?x=1 HTTP/1.1\r\nAccept: application/openmetrics-text;"
			   "version=1.0.0,text/plain;version=0.0.4;q=0.5\r\n\r\n", &r), HTTP_DONE);
	cr_assert(r.openmetrics);
	cr_assert_eq(r.route, HTTP_ROUTE_METRICS);
	cr_assert_eq(parse("GET /metrics HTTP/1.1\nACCEPT: Application/OpenMetrics-Text\n\n", &r),
		     HTTP_DONE);
	cr_assert(r.openmetrics);
	cr_assert_eq(parse("GET /metrics HTTP/1.1\r\nAccept: text/plain\r\n\r\n", &r), HTTP_DONE);
	cr_assert_not(r.openmetrics);
	/* q=0 is "not acceptable"; the higher q wins; Prometheus 2.42's own header */
	parse("GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-text;q=0,text/plain\r\n"
	      "\r\n", &r);
	cr_assert_not(r.openmetrics, "q=0");
	parse("GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-text; q=0.2, "
	      "text/plain;q=0.9\r\n\r\n", &r);
	cr_assert_not(r.openmetrics, "text/plain preferred");
	parse("GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-text;version=1.0.0,"
	      "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,"
	      "*/*;q=0.1\r\n\r\n", &r);
	cr_assert(r.openmetrics, "Prometheus's Accept");
	parse("GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-textx, */*\r\n\r\n", &r);
	cr_assert_not(r.openmetrics, "not the same type");
}

#define PB "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;" \
	"encoding=delimited"

/* The protobuf MetricFamily stream: Prometheus asks for it first with native histograms on. */
Test(http, negotiation_protobuf)
{
	struct http_req r;

	parse("GET /metrics HTTP/1.1\r\nAccept: " PB ",application/openmetrics-text;version=1.0.0;"
	      "q=0.8,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;"
	      "q=0.5,*/*;q=0.1\r\n\r\n", &r);
	cr_assert(r.protobuf, "Prometheus 2.42's Accept with --enable-feature=native-histograms");
	cr_assert(r.openmetrics, "and its choice between the text formats");
	parse("GET /metrics HTTP/1.1\r\nAccept: application/vnd.google.protobuf; "
	      "proto=\"io.prometheus.client.MetricFamily\"; encoding=\"delimited\"\r\n\r\n", &r);
	cr_assert(r.protobuf, "quoted parameter values, spaces");
	cr_assert_not(r.openmetrics);
	parse("GET /metrics HTTP/1.1\r\nAccept: text/plain\r\n\r\n", &r);
	cr_assert_not(r.protobuf);
	parse("GET /metrics HTTP/1.1\r\nAccept: */*\r\n\r\n", &r);
	cr_assert_not(r.protobuf, "a wildcard is no request for protobuf");
	parse("GET /metrics HTTP/1.1\r\nAccept: " PB ";q=0,text/plain\r\n\r\n", &r);
	cr_assert_not(r.protobuf, "q=0");
	parse("GET /metrics HTTP/1.1\r\nAccept: " PB ";q=0.5,application/openmetrics-text\r\n\r\n",
	      &r);
	cr_assert_not(r.protobuf, "OpenMetrics preferred");
	cr_assert(r.openmetrics);
	parse("GET /metrics HTTP/1.1\r\nAccept: " PB ";q=0.5,text/plain;q=0.5\r\n\r\n", &r);
	cr_assert(r.protobuf, "a tie goes to protobuf");
	parse("GET /metrics HTTP/1.1\r\nAccept: application/vnd.google.protobuf;"
	      "proto=io.prometheus.client.MetricFamily;encoding=text\r\n\r\n", &r);
	cr_assert_not(r.protobuf, "the text encoding is not served");
	parse("GET /metrics HTTP/1.1\r\nAccept: application/vnd.google.protobuf;"
	      "encoding=delimited\r\n\r\n", &r);
	cr_assert_not(r.protobuf, "another message than MetricFamily");
	parse("GET /metrics HTTP/1.1\r\nAccept: text/plain;q=0.9\r\nAccept: " PB "\r\n\r\n", &r);
	cr_assert(r.protobuf, "two Accept lines are one list");
	parse("GET /metrics HTTP/1.1\r\nAccept: " PB ";q=0.3\r\nAccept: text/plain;q=0.9\r\n\r\n",
	      &r);
	cr_assert_not(r.protobuf, "... whatever their order");
}

Test(http, routes_and_methods)
{
	struct http_req r;

	cr_assert_eq(parse("HEAD / HTTP/1.0\r\n\r\n", &r), HTTP_DONE);
	cr_assert(r.head && r.get);
	cr_assert_eq(r.route, HTTP_ROUTE_ROOT);
	cr_assert_not(r.keep_alive, "HTTP/1.0 closes by default");
	cr_assert_eq(parse("POST /metrics HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc", &r), HTTP_DONE);
	cr_assert_eq(r.status, 0);
	cr_assert_not(r.get);
	cr_assert_not(r.keep_alive, "a body is never read");
	cr_assert_eq(parse("GET /../etc/passwd HTTP/1.1\r\n\r\n", &r), HTTP_DONE);
	cr_assert_eq(r.route, HTTP_ROUTE_NONE);
	cr_assert_eq(parse("GET /metrics/ HTTP/1.1\r\n\r\n", &r), HTTP_DONE);
	cr_assert_eq(r.route, HTTP_ROUTE_NONE);
	cr_assert_eq(parse("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", &r), HTTP_DONE);
	cr_assert_not(r.keep_alive);
	cr_assert_eq(parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", &r), HTTP_DONE);
	cr_assert(r.keep_alive);
}

Test(http, malformed_is_400_or_505)
{
	struct http_req r;
	const char *bad[] = {
		"GET\r\n\r\n", "GET /metrics\r\n\r\n", "GET metrics HTTP/1.1\r\n\r\n",
		"GET  /metrics HTTP/1.1\r\n\r\n", "GET /metrics HTTP/1.1 x\r\n\r\n",
		"GET /metrics FTP/1.1\r\n\r\n", "GET /metrics HTTP/1.1\r\nNo colon\r\n\r\n",
		"GET /metrics HTTP/1.1\r\nA : b\r\n\r\n", "GET /metrics HTTP/1.1\r\n folded\r\n\r\n",
		"\x16\x03\x01\x02\x00\x01", /* a TLS hello: 400 without waiting for a line */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(parse(bad[i], &r), HTTP_DONE, "case %zu", i);
		cr_assert_eq(r.status, 400, "case %zu", i);
		cr_assert_not(r.keep_alive);
	}
	cr_assert_eq(parse("GET / HTTP/2.0\r\n\r\n", &r), HTTP_DONE);
	cr_assert_eq(r.status, 505);
}

Test(http, limits)
{
	static char buf[HTTP_HEAD_MAX + 16];
	struct http_req r;

	memset(buf, 'a', sizeof(buf));
	memcpy(buf, "GET /", 5);
	cr_assert_eq(http_parse(buf, HTTP_LINE_MAX - 1, &r), HTTP_MORE);
	cr_assert_eq(http_parse(buf, HTTP_LINE_MAX, &r), HTTP_DONE);
	cr_assert_eq(r.status, 414);
	strcpy(buf, "GET / HTTP/1.1\r\n");
	for (size_t i = strlen(buf); i + 4 < sizeof(buf); i += 4)
		memcpy(buf + i, "X:y\n", 4);
	cr_assert_eq(http_parse(buf, HTTP_HEAD_MAX - 1, &r), HTTP_MORE);
	cr_assert_eq(http_parse(buf, HTTP_HEAD_MAX, &r), HTTP_DONE);
	cr_assert_eq(r.status, 431);
}

Test(http, answer_head)
{
	struct sbuf sb = SBUF_INIT;

	cr_assert_eq(http_head(&sb, 200, "text/plain", 12, true, NULL), 0);
	cr_assert_str_eq(sbuf_str(&sb), "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
			 "Content-Length: 12\r\nCache-Control: no-store\r\n\r\n");
	sbuf_reset(&sb);
	http_head(&sb, 405, NULL, 0, false, NULL);
	cr_assert(strstr(sbuf_str(&sb), "HTTP/1.1 405 Method Not Allowed\r\n"));
	cr_assert(strstr(sbuf_str(&sb), "\r\nAllow: GET, HEAD\r\n"));
	cr_assert(strstr(sbuf_str(&sb), "\r\nConnection: close\r\n\r\n"));
	sbuf_free(&sb);
	cr_assert_str_eq(http_reason(414), "URI Too Long");
	cr_assert_str_eq(http_reason(431), "Request Header Fields Too Large");
}

Test(http, authorization_header_kept)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n"
				  "authorization:  Basic dXNlcjpwYXNz \r\n\r\n";
	struct http_req r;

	cr_assert_eq(http_parse(req, strlen(req), &r), HTTP_DONE);
	cr_assert_eq(r.status, 0);
	cr_assert_not_null(r.auth);
	cr_assert_eq(r.auth_len, strlen("Basic dXNlcjpwYXNz"));
	cr_assert(!memcmp(r.auth, "Basic dXNlcjpwYXNz", r.auth_len));
	cr_assert_eq(http_parse("GET / HTTP/1.1\r\n\r\n", 18, &r), HTTP_DONE);
	cr_assert_null(r.auth);
}

Test(http, answer_401_429_and_extra_headers)
{
	struct sbuf sb = SBUF_INIT;

	http_head(&sb, 401, "text/plain", 13, true, "X-Frame-Options: deny\r\n");
	cr_assert(strstr(sbuf_str(&sb), "HTTP/1.1 401 Unauthorized\r\n"), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "\r\nWWW-Authenticate: Basic\r\n"));
	cr_assert(strstr(sbuf_str(&sb), "\r\nX-Frame-Options: deny\r\n"));
	cr_assert(!strstr(sbuf_str(&sb), "Connection: close"));
	sbuf_reset(&sb);
	http_head(&sb, 200, NULL, 0, true, NULL);
	cr_assert(!strstr(sbuf_str(&sb), "WWW-Authenticate"));
	sbuf_free(&sb);
	cr_assert_str_eq(http_reason(429), "Too Many Requests");
}

Test(http, listen_addresses)
{
	char host[64];
	uint16_t port;

	cr_assert_eq(http_parse_listen("9101", host, sizeof(host), &port), 0);
	cr_assert_str_eq(host, "127.0.0.1");
	cr_assert_eq(port, 9101);
	cr_assert_eq(http_parse_listen("0.0.0.0:80", host, sizeof(host), &port), 0);
	cr_assert_str_eq(host, "0.0.0.0");
	cr_assert_eq(port, 80);
	cr_assert_eq(http_parse_listen("[::1]:9101", host, sizeof(host), &port), 0);
	cr_assert_str_eq(host, "::1");
	cr_assert_eq(http_parse_listen(":9101", host, sizeof(host), &port), 0);
	cr_assert_str_eq(host, "");
	cr_assert_eq(http_parse_listen("::1:9101", host, sizeof(host), &port), -EINVAL);
	cr_assert_eq(http_parse_listen("0", host, sizeof(host), &port), -EINVAL);
	cr_assert_eq(http_parse_listen("65536", host, sizeof(host), &port), -EINVAL);
	cr_assert_eq(http_parse_listen("x:1", host, sizeof(host), &port), 0); /* checked at bind */
	cr_assert_eq(http_parse_listen("1:", host, sizeof(host), &port), -EINVAL);
	cr_assert_eq(http_parse_listen("+5", host, sizeof(host), &port), -EINVAL);
	cr_assert_eq(http_parse_listen("12ab", host, sizeof(host), &port), -EINVAL);
}
