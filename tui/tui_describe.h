/*
 * tui_describe: the texts of a target's screen header — "NAME: PATH (what
 * it is)", the mode ("read direct, io_uring engine"), the pace ("rate 10/s
 * (every 100 ms)", "bursts of 4 every 1 s", "flood (interval 0)") and the
 * period label ("1 s", "-P 5 s", "-p 100") — from what the command line
 * said (struct view_cfg: the CLI's for a live run, made from the recording's
 * header for a replay), so that live and replayed screens say the same.
 * Pure: no curses, no clocks, no I/O.
 */
#ifndef IOPROBE_TUI_DESCRIBE_H
#define IOPROBE_TUI_DESCRIBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "view.h"

/* "NAME: PATH (fstype device size)" (no name: the path first), terminal escapes quoted. */
char *tui_describe_target(char *buf, size_t len, const struct report_target *rt);

/* The mode and the engine (NULL: not shown), as tui_fmt_mode() writes it. */
char *tui_describe_mode(char *buf, size_t len, const struct view_cfg *o, const char *engine);

/*
 * The pace at interval ns between starts: the -r rate or -l speed it came from unless
 * changed (the interval keys changed it), bursts of -b first; 0 is a flood.
 */
char *tui_describe_pace(char *buf, size_t len, const struct view_cfg *o, uint64_t interval,
			bool changed, bool ascii);

/* The periods' label: "-p N", "-P T", else the span period ns ("1 s"). */
char *tui_describe_period(char *buf, size_t len, const struct view_cfg *o, uint64_t period,
			  bool ascii);

#endif
