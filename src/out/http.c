#include "config.h"

#include "http.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool http_tchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* Offset just past the first "\n" in buf[0, len), or 0. */
static size_t http_line_end(const char *buf, size_t len)
{
	const char *nl = memchr(buf, '\n', len);

	return nl ? (size_t)(nl - buf) + 1 : 0;
}

/* Offset just past the blank line that ends the head in buf[0, len), or 0. */
static size_t http_head_end(const char *buf, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (buf[i + 1] == '\n')
			return i + 2;
		if (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/* Length of line (without "\r\n" or "\n"). */
static size_t http_trim_eol(const char *line, size_t len)
{
	if (len && line[len - 1] == '\n')
		len--;
	if (len && line[len - 1] == '\r')
		len--;
	return len;
}

static enum http_route http_route_of(const char *target, size_t len)
{
	const char *q = memchr(target, '?', len);

	if (q)
		len = (size_t)(q - target);
	if (len == 1 && target[0] == '/')
		return HTTP_ROUTE_ROOT;
	if (len == 8 && !memcmp(target, "/metrics", 8))
		return HTTP_ROUTE_METRICS;
	return HTTP_ROUTE_NONE;
}

/* "METHOD SP target SP HTTP/1.x"; returns 0 or the status to answer. */
static int http_request_line(const char *line, size_t len, struct http_req *req, bool *v11)
{
	size_t m = 0, t, tlen;

	while (m < len && http_tchar(line[m]))
		m++;
	if (!m || m >= len || line[m] != ' ')
		return 400;
	t = m + 1;
	for (tlen = 0; t + tlen < len && line[t + tlen] > ' ' && line[t + tlen] != 0x7f; tlen++)
		;
	if (!tlen || t + tlen >= len || line[t + tlen] != ' ' || line[t] != '/')
		return 400;
	const char *ver = line + t + tlen + 1;
	size_t vlen = len - (t + tlen + 1);

	if (vlen != 8 || memcmp(ver, "HTTP/", 5) || ver[6] != '.' || ver[5] < '0' || ver[5] > '9' ||
	    ver[7] < '0' || ver[7] > '9')
		return 400;
	if (ver[5] != '1')
		return 505;
	*v11 = ver[7] != '0';
	req->get = (m == 3 && !memcmp(line, "GET", 3)) || (m == 4 && !memcmp(line, "HEAD", 4));
	req->head = m == 4 && !memcmp(line, "HEAD", 4);
	req->route = http_route_of(line + t, tlen);
	return 0;
}

/* Does value (len bytes) contain word, ignoring case? */
static bool http_has(const char *value, size_t len, const char *word)
{
	size_t wl = strlen(word);

	for (size_t i = 0; i + wl <= len; i++)
		if (!strncasecmp(value + i, word, wl))
			return true;
	return false;
}

/* The q of one media range (its ";q=" parameter, 1 when absent; 0 for a bad value). */
static double http_q(const char *p, const char *end)
{
	while ((p = memchr(p, ';', (size_t)(end - p))) != NULL) {
		p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p >= 2 && (*p == 'q' || *p == 'Q') && p[1] == '=') {
			char num[16];
			size_t n = 0;

			for (p += 2; p < end && n + 1 < sizeof(num) && (isdigit((unsigned char)*p) ||
								  *p == '.'); p++)
				num[n++] = *p;
			num[n] = '\0';
			return n ? strtod(num, NULL) : 0;
		}
	}
	return 1;
}

/* Does the parameter list [p, end) of a media range hold name=value (value quoted or not)? */
static bool http_param(const char *p, const char *end, const char *name, const char *value)
{
	size_t nl = strlen(name), vl = strlen(value);

	while ((p = memchr(p, ';', (size_t)(end - p))) != NULL) {
		const char *v, *ve;

		p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(end - p) <= nl || strncasecmp(p, name, nl) || p[nl] != '=')
			continue;
		v = p + nl + 1;
		for (ve = v; ve < end && *ve != ';' && *ve != ' ' && *ve != '\t'; ve++)
			;
		if (ve - v >= 2 && *v == '"' && ve[-1] == '"') {
			v++;
			ve--;
		}
		if ((size_t)(ve - v) == vl && !strncasecmp(v, value, vl))
			return true;
	}
	return false;
}

/* The highest q of the media ranges naming each format /metrics has (-1: not named). */
struct http_accept {
	double om, text, proto;
};

/*
 * One Accept value: application/openmetrics-text; text/plain, "text/" with a wildcard and the
 * all-wildcard range for text 0.0.4; the protobuf MetricFamily stream only when named with
 * proto=io.prometheus.client.MetricFamily and encoding=delimited, as Prometheus asks for it.
 */
static void http_accept(const char *v, size_t len, struct http_accept *a)
{
	const char *p = v, *end = v + len;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p)), *stop = comma ? comma : end;
		const char *t = p, *te;
		double q;

		while (t < stop && (*t == ' ' || *t == '\t'))
			t++;
		for (te = t; te < stop && *te != ';' && *te != ' ' && *te != '\t'; te++)
			;
		q = http_q(te, stop);
		if ((size_t)(te - t) == 28 && !strncasecmp(t, "application/openmetrics-text", 28))
			a->om = q > a->om ? q : a->om;
		else if (((size_t)(te - t) == 10 && !strncasecmp(t, "text/plain", 10)) ||
			 ((size_t)(te - t) == 6 && !strncasecmp(t, "text/*", 6)) ||
			 ((size_t)(te - t) == 3 && !strncmp(t, "*/*", 3)))
			a->text = q > a->text ? q : a->text;
		else if ((size_t)(te - t) == 31 && !strncasecmp(t, "application/vnd.google.protobuf", 31) &&
			 http_param(te, stop, "proto", "io.prometheus.client.MetricFamily") &&
			 http_param(te, stop, "encoding", "delimited"))
			a->proto = q > a->proto ? q : a->proto;
		p = comma ? comma + 1 : end;
	}
}

/*
 * The format an Accept header asks for (RFC 9110 content negotiation between the formats
 * /metrics has; several Accept lines count as one list; q=0: not acceptable): the highest
 * q above 0 wins, protobuf over OpenMetrics over text 0.0.4 on a tie.
 */
static void http_negotiate(const struct http_accept *a, struct http_req *req)
{
	req->openmetrics = a->om > 0 && a->om >= a->text;
	req->protobuf = a->proto > 0 && a->proto >= a->om && a->proto >= a->text;
}

/* One "Name: value" header line; returns 0 or 400. */
static int http_header(const char *line, size_t len, struct http_req *req,
		       struct http_accept *acc)
{
	size_t n = 0, v;

	while (n < len && http_tchar(line[n]))
		n++;
	if (!n || n >= len || line[n] != ':')
		return 400;
	for (v = n + 1; v < len && (line[v] == ' ' || line[v] == '\t'); v++)
		;
	for (size_t i = v; i < len; i++)
		if ((unsigned char)line[i] < ' ' && line[i] != '\t')
			return 400;
	if (n == 6 && !strncasecmp(line, "Accept", 6))
		http_accept(line + v, len - v, acc);
	else if (n == 10 && !strncasecmp(line, "Connection", 10) && http_has(line + v, len - v, "close"))
		req->keep_alive = false;
	else if (n == 10 && !strncasecmp(line, "Connection", 10) &&
		 http_has(line + v, len - v, "keep-alive"))
		req->keep_alive = true;
	else if (n == 13 && !strncasecmp(line, "Authorization", 13)) {
		req->auth = line + v;
		req->auth_len = len - v;
		while (req->auth_len && (req->auth[req->auth_len - 1] == ' ' ||
					 req->auth[req->auth_len - 1] == '\t'))
			req->auth_len--;
	} else if ((n == 14 && !strncasecmp(line, "Content-Length", 14) &&
		  strspn(line + v, "0") != len - v) ||
		 (n == 17 && !strncasecmp(line, "Transfer-Encoding", 17)))
		req->keep_alive = false; /* a body is never read: the connection closes after it */
	return 0;
}

/* A partial request line: bytes no request line can hold make it 400 at once. */
static bool http_garbage(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if ((c < ' ' && c != '\r' && c != '\n') || c >= 0x7f)
			return true;
	}
	return false;
}

static enum http_parse_result http_fail(struct http_req *req, int status)
{
	req->status = status;
	req->keep_alive = false;
	return HTTP_DONE;
}

enum http_parse_result http_parse(const char *buf, size_t len, struct http_req *req)
{
	size_t lim = len < HTTP_LINE_MAX ? len : HTTP_LINE_MAX;
	size_t first = http_line_end(buf, lim), end, pos;
	struct http_accept acc = { -1, -1, -1 };
	bool v11 = false;
	int st;

	memset(req, 0, sizeof(*req));
	if (!first) {
		if (http_garbage(buf, lim))
			return http_fail(req, 400);
		return len >= HTTP_LINE_MAX ? http_fail(req, 414) : HTTP_MORE;
	}
	end = http_head_end(buf, len < HTTP_HEAD_MAX ? len : HTTP_HEAD_MAX);
	if (!end)
		return len >= HTTP_HEAD_MAX ? http_fail(req, 431) : HTTP_MORE;
	if ((st = http_request_line(buf, http_trim_eol(buf, first), req, &v11)))
		return http_fail(req, st);
	req->keep_alive = v11;
	for (pos = first; pos < end;) {
		size_t l = http_line_end(buf + pos, end - pos);
		size_t body = http_trim_eol(buf + pos, l);

		if (!body)
			break; /* the blank line */
		if (buf[pos] == ' ' || buf[pos] == '\t') /* obsolete line folding */
			return http_fail(req, 400);
		if ((st = http_header(buf + pos, body, req, &acc)))
			return http_fail(req, st);
		pos += l;
	}
	http_negotiate(&acc, req);
	req->len = end;
	return HTTP_DONE;
}

const char *http_reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 414: return "URI Too Long";
	case 429: return "Too Many Requests";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	default: return "Error";
	}
}

int http_head(struct sbuf *sb, int status, const char *content_type, size_t body_len,
	      bool keep_alive, const char *extra)
{
	sbuf_printf(sb, "HTTP/1.1 %d %s\r\n", status, http_reason(status));
	if (content_type)
		sbuf_printf(sb, "Content-Type: %s\r\n", content_type);
	sbuf_printf(sb, "Content-Length: %zu\r\n", body_len);
	if (status == 405)
		sbuf_puts(sb, "Allow: GET, HEAD\r\n");
	if (status == 401)
		sbuf_puts(sb, "WWW-Authenticate: Basic\r\n");
	if (extra)
		sbuf_puts(sb, extra);
	sbuf_puts(sb, "Cache-Control: no-store\r\n");
	sbuf_puts(sb, keep_alive ? "" : "Connection: close\r\n");
	sbuf_puts(sb, "\r\n");
	return sb->error;
}

int http_parse_listen(const char *spec, char *host, size_t hostlen, uint16_t *port)
{
	const char *colon = strrchr(spec, ':'), *p;
	char *end;
	unsigned long v;
	size_t hl;

	if (!colon) {
		p = spec;
		snprintf(host, hostlen, "127.0.0.1");
	} else {
		p = colon + 1;
		hl = (size_t)(colon - spec);
		if (hl >= 2 && spec[0] == '[' && spec[hl - 1] == ']') {
			spec++;
			hl -= 2;
		} else if (memchr(spec, ':', hl) || memchr(spec, '[', hl)) {
			return -EINVAL; /* an IPv6 address needs brackets */
		}
		if (hl >= hostlen)
			return -EINVAL;
		memcpy(host, spec, hl);
		host[hl] = '\0';
	}
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (errno || *end || v < 1 || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}
