#include "config.h"

#include "esc.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

size_t esc_utf8_seq(const unsigned char *s, size_t len)
{
	uint32_t cp;
	size_t n;

	if (!len)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * Length of the printable run element at s: a valid UTF-8 sequence that is
 * not a control (C0, DEL, or the C1 controls U+0080..U+009F), or 0 when the
 * first byte must be escaped.
 */
static size_t esc_utf8_len(const unsigned char *s, size_t len)
{
	size_t n = esc_utf8_seq(s, len);

	if (n == 1 && (s[0] < 0x20 || s[0] == 0x7f))
		return 0;
	if (n == 2 && s[0] == 0xc2 && s[1] <= 0x9f) /* U+0080..U+009F */
		return 0;
	return n;
}

static int esc_byte(struct sbuf *sb, unsigned char c)
{
	static const char named[] = "\aa\bb\tt\nn\vv\ff\rr\033e";
	const char *p = c ? memchr(named, c, sizeof(named) - 1) : NULL;
	char buf[8];

	if (p && (p - named) % 2 == 0) {
		buf[0] = '\\';
		buf[1] = p[1];
		return sbuf_append(sb, buf, 2);
	}
	snprintf(buf, sizeof(buf), "\\x%02x", c);
	return sbuf_append(sb, buf, 4);
}

int esc_append(struct sbuf *sb, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	int ret = 0;

	while (i < len && !ret) {
		size_t run = i, n;

		while (run < len && (n = esc_utf8_len(u + run, len - run)))
			run += n;
		if (run > i)
			ret = sbuf_append(sb, s + i, run - i);
		if (run < len && !ret)
			ret = esc_byte(sb, u[run++]);
		i = run;
	}
	return ret ? ret : sb->error;
}

int esc_field(struct sbuf *sb, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), i = 0, n;
	char hex[8];

	while (i < len) {
		n = esc_utf8_len(u + i, len - i);
		if (n && u[i] != ' ' && u[i] != '\\') {
			sbuf_append(sb, s + i, n);
			i += n;
			continue;
		}
		snprintf(hex, sizeof(hex), "\\x%02x", u[i++]);
		sbuf_append(sb, hex, 4);
	}
	return sb->error;
}

int esc_puts(struct sbuf *sb, const char *s)
{
	return esc_append(sb, s, strlen(s));
}

bool esc_is_clean(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len && (n = esc_utf8_len(u + i, len - i)))
		i += n;
	return i == len;
}
