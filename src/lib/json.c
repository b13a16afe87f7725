#include "config.h"

#include "json.h"

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "esc.h"

/* Short escape for c ('"', '\\' and the control bytes JSON names), or 0. */
static char short_escape(unsigned char c)
{
	switch (c) {
	case '"':
		return '"';
	case '\\':
		return '\\';
	case '\b':
		return 'b';
	case '\f':
		return 'f';
	case '\n':
		return 'n';
	case '\r':
		return 'r';
	case '\t':
		return 't';
	default:
		return 0;
	}
}

/* Append c as \u00xx (lowercase hex). Returns 0 or the sbuf error. */
static int append_u00(struct sbuf *sb, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0x0f] };

	return sbuf_append(sb, esc, sizeof(esc));
}

int json_append_string(struct sbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);
	const unsigned char *run = p;   /* start of bytes copied verbatim, not yet appended */
	size_t n;
	char e;

	sbuf_putc(sb, '"');
	while (*p) {
		if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\') {
			p++;
			continue;
		}
		if (*p >= 0x80) {
			n = esc_utf8_seq(p, (size_t)(end - p));
			if (n) {
				p += n;
				continue;
			}
		}
		/* p needs escaping: flush the verbatim run first. */
		sbuf_append(sb, (const char *)run, (size_t)(p - run));
		e = short_escape(*p);
		if (e) {
			char esc[2] = { '\\', e };

			sbuf_append(sb, esc, sizeof(esc));
		} else {
			/* other control bytes, DEL, and each byte of a bad UTF-8 sequence */
			append_u00(sb, *p);
		}
		run = ++p;
	}
	sbuf_append(sb, (const char *)run, (size_t)(p - run));
	/* sbuf errors are sticky, so the last append reports any earlier failure. */
	return sbuf_putc(sb, '"');
}

static void json_w_indent(struct json_w *w)
{
	if (w->compact)
		return;
	sbuf_putc(w->sb, '\n');
	for (int i = 0; i < w->depth; i++)
		sbuf_puts(w->sb, "  ");
}

void json_w_key(struct json_w *w, const char *key)
{
	if (!w->first)
		sbuf_putc(w->sb, ',');
	w->first = false;
	json_w_indent(w);
	json_append_string(w->sb, key);
	sbuf_puts(w->sb, w->compact ? ":" : ": ");
}

void json_w_open(struct json_w *w, const char *key)
{
	if (key)
		json_w_key(w, key);
	sbuf_putc(w->sb, '{');
	w->depth++;
	w->first = true;
}

void json_w_close(struct json_w *w)
{
	w->depth--;
	json_w_indent(w);
	sbuf_putc(w->sb, '}');
	w->first = false;
}

void json_w_u64(struct json_w *w, const char *key, uint64_t v)
{
	json_w_key(w, key);
	sbuf_printf(w->sb, "%" PRIu64, v);
}

void json_w_str(struct json_w *w, const char *key, const char *v)
{
	json_w_key(w, key);
	json_append_string(w->sb, v);
}

void json_w_raw(struct json_w *w, const char *key, const char *fmt, double v)
{
	json_w_key(w, key);
	sbuf_printf(w->sb, fmt, v);
}
