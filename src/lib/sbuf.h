/*
 * sbuf: a growable, always NUL-terminated text buffer used to compose report
 * lines before they are written out in one piece. Pure: no I/O.
 */
#ifndef IOPROBE_SBUF_H
#define IOPROBE_SBUF_H

#include <stdarg.h>
#include <stddef.h>

struct sbuf {
	char *buf;   /* NUL-terminated contents, or NULL before the first append */
	size_t len;  /* bytes used, excluding the NUL */
	size_t cap;  /* bytes allocated */
	int error;   /* sticky: -ENOMEM once an allocation failed, else 0 */
};

#define SBUF_INIT { NULL, 0, 0, 0 }

/* Append len bytes of s. On allocation failure sets sb->error and returns -ENOMEM. */
int sbuf_append(struct sbuf *sb, const char *s, size_t len);

/* Append a NUL-terminated string. Returns 0 or -ENOMEM. */
int sbuf_puts(struct sbuf *sb, const char *s);

/* Append one byte. Returns 0 or -ENOMEM. */
int sbuf_putc(struct sbuf *sb, char c);

/* Append printf-style formatted text. Returns 0 or -ENOMEM. */
int sbuf_printf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* As sbuf_printf with a va_list. */
int sbuf_vprintf(struct sbuf *sb, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* Forget the contents but keep the allocation (len = 0, error = 0). */
void sbuf_reset(struct sbuf *sb);

/* Contents as a C string; never NULL (an empty buffer gives ""). */
const char *sbuf_str(const struct sbuf *sb);

/* Release the allocation; the sbuf may be reused afterwards. */
void sbuf_free(struct sbuf *sb);

#endif
