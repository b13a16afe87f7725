/*
 * jsonr: a small JSON reader for one text (one line of a recording): the
 * whole value parsed into a flat array of nodes, strings decoded, numbers
 * kept as text until asked for (so a 64-bit integer is read exactly and a
 * double round-trips "%.17g"). Pure: no I/O.
 *
 * Strings: the RFC 8259 escapes; \u0080..\u00ff become the single byte
 * (json_append_string writes each byte of invalid UTF-8 so, which this
 * undoes: a path round-trips byte for byte); other \uXXXX (surrogate pairs
 * too) become UTF-8. A decoded NUL byte is refused. Nesting is limited to
 * JSONR_DEPTH, the nodes to JSONR_NODES.
 */
#ifndef IOPROBE_JSONR_H
#define IOPROBE_JSONR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSONR_DEPTH 32
#define JSONR_NODES (1u << 20)

enum jsonr_type { JSONR_NULL, JSONR_BOOL, JSONR_NUM, JSONR_STR, JSONR_ARR, JSONR_OBJ };

struct jsonr_node {
	enum jsonr_type type;
	const char *key;   /* an object member's key (decoded), else NULL */
	const char *text;  /* a string's decoded bytes, a number's text, "true"/"false" */
	int child;         /* first element or member, -1 when none */
	int next;          /* the next sibling, -1 when last */
};

struct jsonr {
	struct jsonr_node *node; /* node[0] is the root */
	size_t n, cap;
	char *buf;               /* decoded strings and number texts (owned) */
	size_t buflen;
};

#define JSONR_INIT { NULL, 0, 0, NULL, 0 }

/*
 * Parse text[0..len) as exactly one JSON value (surrounding white space
 * allowed); the nodes replace any earlier parse. Returns 0, -EINVAL with
 * msg saying where the text is not JSON, or -ENOMEM.
 */
int jsonr_parse(struct jsonr *j, const char *text, size_t len, char *msg, size_t msglen);

/* Member key of object node obj; -1 when obj is no object or has no such key. */
int jsonr_get(const struct jsonr *j, int obj, const char *key);

/* First element/member of node i (-1 when none or i < 0), and the next sibling. */
int jsonr_first(const struct jsonr *j, int i);
int jsonr_next(const struct jsonr *j, int i);

/* Elements or members of node i (0 for a scalar or i < 0). */
size_t jsonr_count(const struct jsonr *j, int i);

/* Node i as an unsigned 64-bit integer (digits only, no sign, no fraction); false if not. */
bool jsonr_u64(const struct jsonr *j, int i, uint64_t *v);

/* Node i as a signed 64-bit integer; false if not one. */
bool jsonr_i64(const struct jsonr *j, int i, int64_t *v);

/* Node i as a number (any JSON number); false if not one. */
bool jsonr_double(const struct jsonr *j, int i, double *v);

/* Node i as a boolean; false if not one. */
bool jsonr_bool(const struct jsonr *j, int i, bool *v);

/* Node i's decoded string; NULL if it is not a string. */
const char *jsonr_str(const struct jsonr *j, int i);

/* Release the nodes and strings (j may be parsed again afterwards). */
void jsonr_free(struct jsonr *j);

#endif
