#include "config.h"

#include "json.h"

#include <stddef.h>

/*
 * Length of the well-formed UTF-8 sequence starting at s (2..4), or 0 when the
 * byte at s does not start one: bad lead byte, missing or wrong continuation
 * byte (including the NUL ending the string, so we never read past it),
 * overlong form, UTF-16 surrogate (U+D800..U+DFFF) or code point above
 * U+10FFFF. Follows Table 3-7 of the Unicode standard; s[0] must be >= 0x80.
 */
static size_t utf8_seq_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;      /* overlong below U+0800 */
		else if (s[0] == 0xed)
			hi = 0x9f;      /* surrogates U+D800..U+DFFF */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;      /* overlong below U+10000 */
		else if (s[0] == 0xf4)
			hi = 0x8f;      /* above U+10FFFF */
	} else {
		return 0;               /* 0x80..0xc1 (continuation, overlong lead), 0xf5..0xff */
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

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
			n = utf8_seq_len(p);
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
