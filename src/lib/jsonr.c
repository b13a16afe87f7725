#include "config.h"

#include "jsonr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"

struct jsonr_p {
	struct jsonr *j;
	const char *s, *end, *start;
	char *out;      /* the next free byte of j->buf */
	char *msg;
	size_t msglen;
	int err;
};

static int jp_fail(struct jsonr_p *p, const char *what)
{
	if (!p->err)
		p->err = err_set(p->msg, p->msglen, -EINVAL, "%s at byte %zu", what,
				 (size_t)(p->s - p->start));
	return -1;
}

static void jp_ws(struct jsonr_p *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static int jp_node(struct jsonr_p *p, enum jsonr_type type)
{
	struct jsonr *j = p->j;

	if (j->n >= JSONR_NODES)
		return jp_fail(p, "too many values");
	if (j->n == j->cap) {
		size_t cap = j->cap ? j->cap * 2 : 64;
		struct jsonr_node *nn = realloc(j->node, cap * sizeof(*nn));

		if (!nn) {
			p->err = -ENOMEM;
			err_set(p->msg, p->msglen, -ENOMEM, "out of memory");
			return -1;
		}
		j->node = nn;
		j->cap = cap;
	}
	j->node[j->n] = (struct jsonr_node){ type, NULL, NULL, -1, -1 };
	return (int)j->n++;
}

static int jp_hex4(struct jsonr_p *p, unsigned *v)
{
	*v = 0;
	if (p->end - p->s < 4)
		return jp_fail(p, "short \\u escape");
	for (int i = 0; i < 4; i++) {
		char c = *p->s++;

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else
			return jp_fail(p, "bad \\u escape");
	}
	return 0;
}

static void jp_utf8(struct jsonr_p *p, unsigned cp)
{
	if (cp < 0x80) {
		*p->out++ = (char)cp;
	} else if (cp < 0x800) {
		*p->out++ = (char)(0xc0 | (cp >> 6));
		*p->out++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*p->out++ = (char)(0xe0 | (cp >> 12));
		*p->out++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*p->out++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*p->out++ = (char)(0xf0 | (cp >> 18));
		*p->out++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*p->out++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*p->out++ = (char)(0x80 | (cp & 0x3f));
	}
}

/* A string literal at p->s (the opening quote): decoded into j->buf; its text or NULL. */
static const char *jp_string(struct jsonr_p *p)
{
	char *text = p->out;
	unsigned cp, lo;

	p->s++;
	for (;;) {
		if (p->s >= p->end) {
			jp_fail(p, "unterminated string");
			return NULL;
		}
		unsigned char c = (unsigned char)*p->s++;

		if (c == '"')
			break;
		if (c < 0x20) {
			jp_fail(p, "control byte in a string");
			return NULL;
		}
		if (c != '\\') {
			*p->out++ = (char)c;
			continue;
		}
		if (p->s >= p->end) {
			jp_fail(p, "unterminated string");
			return NULL;
		}
		switch (*p->s++) {
		case '"': *p->out++ = '"'; break;
		case '\\': *p->out++ = '\\'; break;
		case '/': *p->out++ = '/'; break;
		case 'b': *p->out++ = '\b'; break;
		case 'f': *p->out++ = '\f'; break;
		case 'n': *p->out++ = '\n'; break;
		case 'r': *p->out++ = '\r'; break;
		case 't': *p->out++ = '\t'; break;
		case 'u':
			if (jp_hex4(p, &cp))
				return NULL;
			if (cp == 0) {
				jp_fail(p, "NUL in a string");
				return NULL;
			}
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (p->end - p->s < 6 || p->s[0] != '\\' || p->s[1] != 'u') {
					jp_fail(p, "lone surrogate");
					return NULL;
				}
				p->s += 2;
				if (jp_hex4(p, &lo))
					return NULL;
				if (lo < 0xdc00 || lo >= 0xe000) {
					jp_fail(p, "lone surrogate");
					return NULL;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp < 0xe000) {
				jp_fail(p, "lone surrogate");
				return NULL;
			}
			if (cp >= 0x80 && cp <= 0xff)
				*p->out++ = (char)cp; /* one byte, as json_append_string wrote it */
			else
				jp_utf8(p, cp);
			break;
		default:
			jp_fail(p, "bad escape");
			return NULL;
		}
	}
	*p->out++ = '\0';
	return text;
}

static const char *jp_number(struct jsonr_p *p)
{
	const char *b = p->s;
	char *text = p->out;

	if (p->s < p->end && *p->s == '-')
		p->s++;
	if (p->s >= p->end || *p->s < '0' || *p->s > '9') {
		jp_fail(p, "bad number");
		return NULL;
	}
	if (*p->s == '0')
		p->s++;
	else
		while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
			p->s++;
	if (p->s < p->end && *p->s == '.') {
		p->s++;
		if (p->s >= p->end || *p->s < '0' || *p->s > '9') {
			jp_fail(p, "bad number");
			return NULL;
		}
		while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
			p->s++;
	}
	if (p->s < p->end && (*p->s == 'e' || *p->s == 'E')) {
		p->s++;
		if (p->s < p->end && (*p->s == '+' || *p->s == '-'))
			p->s++;
		if (p->s >= p->end || *p->s < '0' || *p->s > '9') {
			jp_fail(p, "bad number");
			return NULL;
		}
		while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
			p->s++;
	}
	memcpy(p->out, b, (size_t)(p->s - b));
	p->out += p->s - b;
	*p->out++ = '\0';
	return text;
}

static bool jp_word(struct jsonr_p *p, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, w, n))
		return false;
	p->s += n;
	return true;
}

static int jp_value(struct jsonr_p *p, int depth);

/* The members or elements of a container node i, after its opening bracket. */
static int jp_items(struct jsonr_p *p, int i, bool obj, int depth)
{
	int prev = -1;
	char close = obj ? '}' : ']';

	jp_ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		return 0;
	}
	for (;;) {
		const char *key = NULL;
		int c;

		jp_ws(p);
		if (obj) {
			if (p->s >= p->end || *p->s != '"')
				return jp_fail(p, "expected a key");
			if (!(key = jp_string(p)))
				return -1;
			jp_ws(p);
			if (p->s >= p->end || *p->s != ':')
				return jp_fail(p, "expected ':'");
			p->s++;
		}
		if ((c = jp_value(p, depth + 1)) < 0)
			return -1;
		p->j->node[c].key = key;
		if (prev < 0)
			p->j->node[i].child = c;
		else
			p->j->node[prev].next = c;
		prev = c;
		jp_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			return 0;
		}
		return jp_fail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int jp_value(struct jsonr_p *p, int depth)
{
	int i;

	if (depth > JSONR_DEPTH)
		return jp_fail(p, "nested too deep");
	jp_ws(p);
	if (p->s >= p->end)
		return jp_fail(p, "unexpected end");
	switch (*p->s) {
	case '{':
	case '[':
		if ((i = jp_node(p, *p->s == '{' ? JSONR_OBJ : JSONR_ARR)) < 0)
			return -1;
		p->s++;
		return jp_items(p, i, p->j->node[i].type == JSONR_OBJ, depth) ? -1 : i;
	case '"':
		if ((i = jp_node(p, JSONR_STR)) < 0)
			return -1;
		p->j->node[i].text = jp_string(p);
		return p->j->node[i].text ? i : -1;
	case 't':
	case 'f':
		if ((i = jp_node(p, JSONR_BOOL)) < 0)
			return -1;
		p->j->node[i].text = *p->s == 't' ? "true" : "false";
		if (!jp_word(p, p->j->node[i].text))
			return jp_fail(p, "bad literal");
		return i;
	case 'n':
		if ((i = jp_node(p, JSONR_NULL)) < 0)
			return -1;
		if (!jp_word(p, "null"))
			return jp_fail(p, "bad literal");
		return i;
	default:
		if ((i = jp_node(p, JSONR_NUM)) < 0)
			return -1;
		p->j->node[i].text = jp_number(p);
		return p->j->node[i].text ? i : -1;
	}
}

int jsonr_parse(struct jsonr *j, const char *text, size_t len, char *msg, size_t msglen)
{
	struct jsonr_p p = { j, text, text + len, text, NULL, msg, msglen, 0 };

	if (msglen)
		msg[0] = '\0';
	j->n = 0;
	if (j->buflen < len + 1) {
		free(j->buf);
		j->buf = malloc(len + 1); /* decoded text and NULs never outgrow the input */
		j->buflen = j->buf ? len + 1 : 0;
		if (!j->buf)
			return err_set(msg, msglen, -ENOMEM, "out of memory");
	}
	p.out = j->buf;
	if (jp_value(&p, 0) < 0) {
		j->n = 0;
		return p.err ? p.err : -EINVAL;
	}
	jp_ws(&p);
	if (p.s != p.end) {
		jp_fail(&p, "text after the value");
		j->n = 0;
		return p.err;
	}
	return 0;
}

static bool jsonr_ok(const struct jsonr *j, int i)
{
	return i >= 0 && (size_t)i < j->n;
}

int jsonr_get(const struct jsonr *j, int obj, const char *key)
{
	if (!jsonr_ok(j, obj) || j->node[obj].type != JSONR_OBJ)
		return -1;
	for (int c = j->node[obj].child; c >= 0; c = j->node[c].next)
		if (!strcmp(j->node[c].key, key))
			return c;
	return -1;
}

int jsonr_first(const struct jsonr *j, int i)
{
	return jsonr_ok(j, i) ? j->node[i].child : -1;
}

int jsonr_next(const struct jsonr *j, int i)
{
	return jsonr_ok(j, i) ? j->node[i].next : -1;
}

size_t jsonr_count(const struct jsonr *j, int i)
{
	size_t n = 0;

	for (int c = jsonr_first(j, i); c >= 0; c = j->node[c].next)
		n++;
	return n;
}

/* Digits only (at least one) into *v, without overflow; false otherwise. */
static bool jsonr_digits(const char *t, uint64_t *v)
{
	uint64_t r = 0;

	if (!*t)
		return false;
	for (; *t; t++) {
		if (*t < '0' || *t > '9')
			return false;
		if (r > (UINT64_MAX - (uint64_t)(*t - '0')) / 10)
			return false;
		r = r * 10 + (uint64_t)(*t - '0');
	}
	*v = r;
	return true;
}

bool jsonr_u64(const struct jsonr *j, int i, uint64_t *v)
{
	if (!jsonr_ok(j, i) || j->node[i].type != JSONR_NUM)
		return false;
	return jsonr_digits(j->node[i].text, v);
}

bool jsonr_i64(const struct jsonr *j, int i, int64_t *v)
{
	const char *t;
	uint64_t u;

	if (!jsonr_ok(j, i) || j->node[i].type != JSONR_NUM)
		return false;
	t = j->node[i].text;
	if (*t == '-') {
		if (!jsonr_digits(t + 1, &u) || u > (uint64_t)INT64_MAX + 1)
			return false;
		*v = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
		return true;
	}
	if (!jsonr_digits(t, &u) || u > INT64_MAX)
		return false;
	*v = (int64_t)u;
	return true;
}

bool jsonr_double(const struct jsonr *j, int i, double *v)
{
	char *end;

	if (!jsonr_ok(j, i) || j->node[i].type != JSONR_NUM)
		return false;
	*v = strtod(j->node[i].text, &end);
	return !*end;
}

bool jsonr_bool(const struct jsonr *j, int i, bool *v)
{
	if (!jsonr_ok(j, i) || j->node[i].type != JSONR_BOOL)
		return false;
	*v = j->node[i].text[0] == 't';
	return true;
}

const char *jsonr_str(const struct jsonr *j, int i)
{
	if (!jsonr_ok(j, i) || j->node[i].type != JSONR_STR)
		return NULL;
	return j->node[i].text;
}

void jsonr_free(struct jsonr *j)
{
	free(j->node);
	free(j->buf);
	*j = (struct jsonr)JSONR_INIT;
}
