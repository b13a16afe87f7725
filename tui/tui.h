/*
 * tui: the full-screen view (ncursesw). It reads only what a probe publishes
 * (session records, probe_ctl: the probe itself runs in a child process) and
 * sends commands back through the session's accessors. This header exposes
 * the view_ops the CLI calls; no curses type appears in it, and src/ never
 * includes curses.
 */
#ifndef IOPROBE_TUI_H
#define IOPROBE_TUI_H

#include "view.h"

/* The full-screen view: check() refuses non-terminals; run() shows the probe. */
extern const struct view_ops tui_view;

#endif
