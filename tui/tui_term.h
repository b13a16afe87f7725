/*
 * tui_term: owning the terminal — curses set-up and tear-down, the
 * character set and colour decisions, signal handling while the screen is
 * ours, and keeping stderr off the screen.
 *
 * While open: stdin is in raw mode (Ctrl-C arrives as a key), stderr
 * (fd 2) is redirected into a memory file whose text tui_term_close()
 * hands back, and no signal leaves the terminal broken:
 *   - SIGSEGV/SIGBUS/SIGFPE/SIGILL/SIGABRT/SIGTRAP/SIGSYS, and every other
 *     signal whose default action ends the process (SIGQUIT, SIGUSR1/2,
 *     SIGALRM, SIGXCPU, SIGXFSZ, real-time signals, ...) while it is still
 *     at SIG_DFL: tui_term_emergency(), then the default action;
 *   - SIGINT/SIGTERM/SIGHUP, only where nobody handles them yet (the CLI
 *     normally does): set the caller's stop flag;
 *   - a handler of the caller that ends the process itself (the CLI's
 *     second-signal _exit) calls tui_term_emergency() first.
 * Opening and closing hold these signals, so a signal never finds the
 * terminal half changed.
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

/*
 * Can the view start here? TERM is set, not "dumb", and has a terminfo
 * entry (checked without touching the terminal). 0, or -ENOTTY with msg.
 */
int tui_term_check(char *msg, size_t msglen);

/*
 * Async-signal-safe: put the terminal back as found (leave the alternate
 * screen, show the cursor, restore termios) and copy the captured stderr
 * out. For a signal handler about to end the process; a no-op when the
 * screen is not open.
 */
void tui_term_emergency(void);

/*
 * Add the asynchronous signals the view handles to set: other threads
 * block them so they reach the UI thread, which holds them while the
 * terminal changes hands.
 */
void tui_term_sigset(sigset_t *set);

/* Whether colour is in use (valid after tui_term_open). */
bool tui_term_color(void);

/*
 * Give the terminal back: end curses, restore stderr and the signal
 * dispositions, and append whatever was written to stderr meanwhile to
 * captured (may be NULL). Idempotent.
 */
void tui_term_close(struct sbuf *captured);

#endif
