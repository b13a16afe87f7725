/*
 * tui_ovpaint: the overview of several targets painted with curses, from
 * what its caller decided (rows, order, selection, window, notes). Shared by
 * the live overview (tui_multi.c) and a replay's (tui_replay.c).
 */
#ifndef IOPROBE_TUI_OVPAINT_H
#define IOPROBE_TUI_OVPAINT_H

#include <stdbool.h>
#include <stddef.h>

#include "tui_overview.h"

/* What the painter reads (top it scrolls to keep the selection shown). */
struct tui_ovp {
	size_t n;                       /* targets */
	const struct tui_ov_row *rows;  /* n, in the order given */
	const size_t *order;            /* the rows shown, in the sort's order */
	size_t nshow, sel, slowest, top;
	enum tui_ov_window window;
	enum tui_ov_sort sort;
	const char *filter, *edit;      /* the filter applied ("" none), the one typed */
	bool editing, ascii, help, all;
	const char *note;               /* the status line's note, NULL: the slowest */
	const char *head;               /* the title's start in place of "ioprobe", or NULL */
	const char *window_help;        /* the help's words on the windows */
	unsigned keys;                  /* the key table's scope (tui_keys.h); 0 the overview */
};

/* Rows of targets that fit on the screen (title, heads, status lines and footer aside). */
size_t tui_ovp_fit_rows(void);

/* Paint the whole screen (erase ... refresh). */
void tui_ovp_paint(struct tui_ovp *o);

#endif
