#include "config.h"

#include "sbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sbuf_reserve(struct sbuf *sb, size_t extra)
{
	size_t need, cap;
	char *p;

	if (sb->error)
		return sb->error;
	if (extra > (size_t)-1 / 2 - sb->len)
		return sb->error = -ENOMEM;
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return 0;
	cap = sb->cap ? sb->cap : 128;
	while (cap < need)
		cap *= 2;
	p = realloc(sb->buf, cap);
	if (!p)
		return sb->error = -ENOMEM;
	sb->buf = p;
	sb->cap = cap;
	return 0;
}

int sbuf_append(struct sbuf *sb, const char *s, size_t len)
{
	int ret = sbuf_reserve(sb, len);

	if (ret)
		return ret;
	memcpy(sb->buf + sb->len, s, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}

int sbuf_puts(struct sbuf *sb, const char *s)
{
	return sbuf_append(sb, s, strlen(s));
}

int sbuf_putc(struct sbuf *sb, char c)
{
	return sbuf_append(sb, &c, 1);
}

int sbuf_vprintf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	int n, ret;

	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return sb->error = -EINVAL;
	ret = sbuf_reserve(sb, (size_t)n);
	if (ret)
		return ret;
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
	return 0;
}

int sbuf_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = sbuf_vprintf(sb, fmt, ap);
	va_end(ap);
	return ret;
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	sb->error = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

const char *sbuf_str(const struct sbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

void sbuf_free(struct sbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	sb->error = 0;
}
