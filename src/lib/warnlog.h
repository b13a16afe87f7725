/*
 * warnlog: warnings kept for later in fixed memory — each distinct text
 * once with how many times it came, in order of first appearance. A front
 * end that cannot print while it runs (the full-screen view) collects
 * them here and prints one line per text afterwards, so a warning repeated
 * a million times costs a counter, not a million lines. Pure: no I/O.
 */
#ifndef IOPROBE_WARNLOG_H
#define IOPROBE_WARNLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WARNLOG_TEXTS 16     /* distinct texts kept; later new ones are only counted */
#define WARNLOG_TEXT_LEN 128 /* longer texts are cut (a request's warning is ~60 bytes) */
#define WARNLOG_LINE_LEN (WARNLOG_TEXT_LEN + 40)

struct warnlog_entry {
	char text[WARNLOG_TEXT_LEN];
	uint64_t times;
};

struct warnlog {
	struct warnlog_entry e[WARNLOG_TEXTS];
	size_t n;            /* entries used */
	uint64_t others;     /* warnings with a new text after the table was full */
};

/* Start empty. */
void warnlog_init(struct warnlog *w);

/* Count text: a known text adds one to its entry, a new one takes the next entry. */
void warnlog_add(struct warnlog *w, const char *text);

/*
 * Line i (0 <= i < warnlog_lines(w)) into buf without "ioprobe: " or a
 * newline: the text, with " (×152,311)" (" (x152,311)" when ascii) when it
 * came more than once; the last line is "152,311 more warnings" when the
 * table overflowed. Numbers are grouped by commas whatever the locale.
 */
void warnlog_line(const struct warnlog *w, size_t i, bool ascii, char *buf, size_t len);

/* How many lines warnlog_line gives. */
size_t warnlog_lines(const struct warnlog *w);

/* n with a comma every three digits ("152,311") into buf; returns buf. */
char *warnlog_group(uint64_t n, char *buf, size_t len);

#endif
