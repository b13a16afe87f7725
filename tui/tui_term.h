/*
 * tui_term: owning the terminal — curses set-up and tear-down, the
 * character set and colour decisions, signal handling while the screen is
 * ours, and keeping stderr off the screen.
 *
 * While open: stdin is in raw mode (Ctrl-C arrives as a key), stderr
 * (fd 2) is redirected into a memory file whose text tui_term_close()
 * hands back, SIGSEGV/SIGBUS/SIGFPE/SIGILL/SIGABRT restore the terminal
 * (async-signal-safe writes of the saved escape sequences and termios),
 * copy the captured stderr out and re-raise with the default action, and
 * SIGINT/SIGTERM/SIGHUP — only where nobody handles them yet (the CLI
 * normally does) — set the caller's stop flag.
 */
#ifndef IOPROBE_TUI_TERM_H
#define IOPROBE_TUI_TERM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "sbuf.h"

struct tui_term_opts {
	bool force_ascii;  /* --ascii */
	bool no_color;     /* --no-color */
};

/*
 * Decide the character set before the screen opens: ASCII when asked, when
 * the locale's codeset is not UTF-8 (setlocale(LC_ALL, "") is called here)
 * or when TERM is "linux" (console fonts lack braille).
 */
bool tui_term_want_ascii(const struct tui_term_opts *o);

/*
 * Take over the terminal: unset LINES/COLUMNS, set the locale, start
 * curses (raw, noecho, keypad, no cursor, short ESC delay), colours unless
 * o->no_color, NO_COLOR (non-empty) or a monochrome terminal. stop is set
 * by the fallback signal handlers. Returns 0, or -errno with msg filled
 * (nothing left changed).
 */
int tui_term_open(const struct tui_term_opts *o, volatile sig_atomic_t *stop, char *msg,
		  size_t msglen);

/* Whether colour is in use (valid after tui_term_open). */
bool tui_term_color(void);

/*
 * Give the terminal back: end curses, restore stderr and the signal
 * dispositions, and append whatever was written to stderr meanwhile to
 * captured (may be NULL). Idempotent.
 */
void tui_term_close(struct sbuf *captured);

#endif
