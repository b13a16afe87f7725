/*
 * esc: text that is safe to put on a terminal. A path or device name may hold
 * a newline (forging a fake summary line) or an escape sequence (recolouring
 * or rewriting the terminal); human output, the view and messages show such
 * bytes escaped, as `ls -b` does: \n \t \r \a \b \f \v \e for the usual ones,
 * \xHH for any other control byte, for DEL, for the UTF-8 encoded C1 controls
 * (U+0080..U+009F) and for bytes that are not valid UTF-8. Everything else,
 * backslash included, passes through unchanged (so an ordinary path prints
 * exactly as ioping prints it). JSON output does not use this: json.c escapes
 * by JSON's own rules. Pure: no I/O.
 */
#ifndef IOPROBE_ESC_H
#define IOPROBE_ESC_H

#include <stdbool.h>
#include <stddef.h>

#include "sbuf.h"

/* Append s (len bytes) to sb with control characters escaped. Returns 0 or -ENOMEM. */
int esc_append(struct sbuf *sb, const char *s, size_t len);

/* esc_append() for a NUL-terminated string. */
int esc_puts(struct sbuf *sb, const char *s);

/*
 * Append s as one whitespace-free field (the target path at the end of a raw
 * line, so awk's $NF is the path): every byte esc_append() escapes, and also
 * space and backslash, becomes \xHH (lower-case hex); nothing else changes.
 * Decoding: replace each \xHH by byte HH. An empty s gives "\x" nothing, so
 * callers pass a non-empty one. Returns 0 or -ENOMEM.
 */
int esc_field(struct sbuf *sb, const char *s);

/*
 * Length of the valid UTF-8 sequence at s (len bytes left; ASCII counts as
 * 1, controls included), or 0 when s does not start one: a stray
 * continuation byte, an overlong form, a surrogate, beyond U+10FFFF, or a
 * sequence cut short (Unicode Table 3-7). The one UTF-8 validator: also
 * used by the JSON strings and the Prometheus label escaping.
 */
size_t esc_utf8_seq(const unsigned char *s, size_t len);

/* True when s (len bytes) would print unchanged (nothing to escape). */
bool esc_is_clean(const char *s, size_t len);

#endif
