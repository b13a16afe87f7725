/*
 * tui_text: the curses text primitives every panel paints with — the
 * attribute table (colour pairs, or bold / reverse / underline / dim on a
 * monochrome terminal or with NO_COLOR, so meaning survives without
 * colour), clipped UTF-8 text, fills, word wrap and panel title rows.
 * Every function clips to the width it is given: nothing wraps onto the
 * next row by accident.
 */
#ifndef IOPROBE_TUI_TEXT_H
#define IOPROBE_TUI_TEXT_H

#include <stdbool.h>

#include "tui_layout.h"

/* What a piece of text means; tui_text_setup() maps it to curses attributes. */
enum tui_attr {
	TA_NORMAL, TA_DATA, TA_SLOW, TA_ERROR, TA_CLIP, TA_PAUSED, TA_TITLE, TA_HEAD,
	TA_LABEL, TA_OK, TA_WARN, TA_BAD, TA_KEY, TA_DIM, TA_SEL, TA_BOLD,
	TA_HEAT1, TA_HEAT2, TA_HEAT3, TA_HEAT4, TA_HEAT5, /* the heatmap's colour ramp */
	TA_P99,
	TA_CURVE1, TA_CURVE2, TA_CURVE3, TA_CURVE4, TA_CURVE5, TA_CURVE6, /* the grid's curves */
	TA_NATTR
};

/* Define colour pairs (color) or the monochrome attributes (!color); after curses started. */
void tui_text_setup(bool color);

/*
 * Put UTF-8 text at (y, x), at most w cells, in attribute a. Undecodable
 * bytes and non-printable characters show as '?'. Text cut at w never ends
 * in part of a number: a number (digits, points, commas) the cut would fall
 * inside is left out whole ("17959 requests of " rather than "... of 400"
 * for 40000). Returns the cells used.
 */
int tui_text_put(int y, int x, int w, enum tui_attr a, const char *s);

/* The display width of UTF-8 text in cells. */
int tui_text_width(const char *s);

/* Right-align text in the w cells from x. */
void tui_text_put_right(int y, int x, int w, enum tui_attr a, const char *s);

/* Repeat the (one-cell) UTF-8 character ch n times from (y, x). */
void tui_text_fill(int y, int x, int n, enum tui_attr a, const char *ch);

/* Put text word-wrapped from row y on, w cells wide, above row end. Returns the next row. */
int tui_text_wrapped(int y, int x, int w, int end, enum tui_attr a, const char *s);

/* The horizontal and vertical rule characters ("─" "│", or "-" "|" in ASCII). */
const char *tui_text_hline(bool ascii);
const char *tui_text_vline(bool ascii);

/*
 * A panel title row over r's first row: "── text ───── right ─". A right
 * part that does not fit is left out, unless it is a warning (TA_BAD): then
 * the title yields. right may be NULL.
 */
void tui_text_title(const struct tui_rect *r, const char *text, const char *right,
		    enum tui_attr right_attr, bool ascii);

#endif
