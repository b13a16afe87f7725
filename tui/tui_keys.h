/*
 * tui_keys: the view's one key table. Each entry binds keys to an action and
 * carries the words the footer and the help overlay show, so the handler's
 * switch, the footer and the help can never disagree. Pure: no curses (the
 * caller maps curses' special keys, F1, to their plain equivalent first).
 */
#ifndef IOPROBE_TUI_KEYS_H
#define IOPROBE_TUI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "tui_model.h"

enum tui_action {
	TUI_ACT_NONE,
	TUI_ACT_QUIT,
	TUI_ACT_FREEZE,
	TUI_ACT_PAUSE,
	TUI_ACT_FASTER,
	TUI_ACT_SLOWER,
	TUI_ACT_RESET,
	TUI_ACT_SCALE,
	TUI_ACT_WINDOW,
	TUI_ACT_RESPONSE,
	TUI_ACT_HEATMAP,      /* the latency graph: scatter / heatmap */
	TUI_ACT_HISTOGRAM,    /* the histogram panel in place of the periods and requests */
	TUI_ACT_DEVICE,
	TUI_ACT_HELP,
	TUI_ACT_REDRAW,
	/* the overview of several targets */
	TUI_ACT_OPEN,         /* open the selected (or typed) target's screen */
	TUI_ACT_UP,
	TUI_ACT_DOWN,
	TUI_ACT_ALL,          /* p, +/-, r act on all targets / on the selected one */
	TUI_ACT_BACK,         /* a target's screen: back to the overview */
	TUI_ACT_SORT,         /* the overview's next sort order */
	TUI_ACT_FILTER,       /* the overview's path filter: edit it on the status line */
	/* a replay (--replay FILE -X) */
	TUI_ACT_PLAY,         /* pause / resume the replay */
	TUI_ACT_STEP_FWD,     /* one period forward (pauses) */
	TUI_ACT_STEP_BACK,    /* one period back (pauses) */
	TUI_ACT_START,        /* to the first period */
	TUI_ACT_END,          /* to the last period */
};

/* Where a binding holds: the target's screen, the overview, or both; a replay's screen,
 * a replay's overview. */
enum tui_key_scope { TUI_KEYS_SCREEN = 1, TUI_KEYS_OVERVIEW = 2, TUI_KEYS_BOTH = 3,
		     TUI_KEYS_REPLAY = 4, TUI_KEYS_REPLAY_OV = 8 };

#define TUI_KEY_CTRL_C 3
#define TUI_KEY_CTRL_L 12
#define TUI_KEY_ESC 27

/* Footer groups of the overview: a terse footer joins a group's keys and keeps only the
 * group's last label; the targeted group is followed by where its keys act. */
enum tui_key_group { TUI_KG_NONE, TUI_KG_NAV, TUI_KG_TARGETED };

struct tui_keydef {
	const char *keys;     /* the key characters (NUL-terminated; Ctrl keys as codes) */
	enum tui_action action;
	const char *footer;   /* "+/-" in the footer, NULL: not in the footer; in the overview's
			       * footer '@' stands for the arrows and '#' for the targets' count */
	const char *label;    /* the footer's word ("interval") */
	const char *help_key; /* "+  -" in the help overlay */
	const char *help;     /* its line in the help overlay */
	enum tui_key_scope scope;
	enum tui_key_group group;
};

/* What the overview's footer names besides the keys. */
struct tui_keys_ctx {
	const char *arrows; /* "↑↓" or "up/down" */
	size_t ntargets;
	bool all;           /* the targeted keys act on every target, not the selected one */
	unsigned scope;     /* the entries shown: 0 TUI_KEYS_OVERVIEW, or TUI_KEYS_REPLAY_OV */
};

/* The table, in footer and help order (every scope); *n is set to its length. */
const struct tui_keydef *tui_keys(size_t *n);

/* The action bound to key ch (a character or a Ctrl code) on a target's screen; TUI_ACT_NONE
 * if none. */
enum tui_action tui_key_action(int ch);

/* The same where scope says (TUI_KEYS_SCREEN, TUI_KEYS_OVERVIEW or TUI_KEYS_REPLAY). */
enum tui_action tui_key_action_in(enum tui_key_scope scope, int ch);

/* The overview's footer, written into buf (always NUL-terminated): every entry of the table
 * that holds in the overview and has footer words, in table order, "KEY label" two spaces
 * apart, the targeted group followed by "-> the selected target" or "-> ALL targets". terse:
 * each group's keys joined by one space with only its last label, and shorter target words. */
void tui_keys_overview_footer(const struct tui_keys_ctx *c, bool terse, char *buf, size_t len);

/* The overview's footer in at most width cells (a UTF-8 character is one cell): the wide
 * form, else the terse one, else the terse one with whole entries left out from the end —
 * the help key stays, its overlay lists them all — so no key or word is ever cut. Returns
 * the cells the footer takes (it may exceed width only when "q quit" and the help key do). */
int tui_keys_overview_footer_fit(const struct tui_keys_ctx *c, int width, char *buf, size_t len);

/* What a target's screen shows, as its display keys (l w t m b) set it. */
struct tui_show {
	bool log;                 /* the latency axis on a log scale */
	enum tui_window win;      /* the graph's window */
	bool response;            /* response times, not service times */
	bool heatmap;             /* the heatmap, not the scatter */
	bool histogram;           /* the histogram in the periods' and requests' place */
};

/*
 * Apply a display action to s (TUI_ACT_SCALE, _WINDOW, _RESPONSE, _HEATMAP, _HISTOGRAM):
 * true with *note set to the status line's words when it was one (NULL for the scale and
 * the window, which show themselves), false for any other action (s unchanged).
 */
bool tui_show_key(struct tui_show *s, enum tui_action act, const char **note);

#endif
