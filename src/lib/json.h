/*
 * json: JSON text helpers. Pure: no I/O.
 */
#ifndef IOPROBE_JSON_H
#define IOPROBE_JSON_H

#include <stdbool.h>
#include <stdint.h>

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

/*
 * A small JSON object writer into sb: pretty (ioping's layout: a newline and
 * two spaces per level before each key and closing brace) or compact (no
 * whitespace). Start with { sb, compact, 0, true }; keys are written in call
 * order, each preceded by a comma unless it is its object's first.
 */
struct json_w {
	struct sbuf *sb;
	bool compact;
	int depth;   /* objects open */
	bool first;  /* the next key is its object's first */
};

/* "key": (the separator and indentation before it); the value follows from the caller. */
void json_w_key(struct json_w *w, const char *key);
/* Open an object: "key": { (or a bare { when key is NULL). */
void json_w_open(struct json_w *w, const char *key);
/* Close the innermost object. */
void json_w_close(struct json_w *w);
/* "key": v as a decimal integer. */
void json_w_u64(struct json_w *w, const char *key, uint64_t v);
/* "key": "v" (json_append_string's escaping). */
void json_w_str(struct json_w *w, const char *key, const char *v);
/* "key": v formatted with fmt (one double; the caller keeps it valid JSON). */
void json_w_raw(struct json_w *w, const char *key, const char *fmt, double v);

#endif
