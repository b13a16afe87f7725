/*
 * json: JSON text helpers. Pure: no I/O.
 */
#ifndef IOPROBE_JSON_H
#define IOPROBE_JSON_H

#include "sbuf.h"

/*
 * Append s to sb as a JSON string literal, quotes included, so the result is
 * always valid JSON (RFC 8259) whatever bytes s holds: '"' and '\\' are
 * escaped, control bytes become \b \f \n \r \t or \u00XX, DEL becomes \u007f,
 * valid UTF-8 sequences pass through, and each byte of an invalid or overlong
 * UTF-8 sequence (or a surrogate) becomes \u00XX (its Latin-1 reading), so no
 * information is lost. Returns 0 or -ENOMEM.
 */
int json_append_string(struct sbuf *sb, const char *s);

#endif
