/*
 * tui_keys: the view's one key table. Each entry binds keys to an action and
 * carries the words the footer and the help overlay show, so the handler's
 * switch, the footer and the help can never disagree. Pure: no curses (the
 * caller maps curses' special keys, F1, to their plain equivalent first).
 */
#ifndef IOPROBE_TUI_KEYS_H
#define IOPROBE_TUI_KEYS_H

#include <stddef.h>

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
	TUI_ACT_DEVICE,
	TUI_ACT_HELP,
	TUI_ACT_REDRAW,
	/* the overview of several targets */
	TUI_ACT_OPEN,         /* open the selected (or typed) target's screen */
	TUI_ACT_UP,
	TUI_ACT_DOWN,
	TUI_ACT_ALL,          /* p, +/-, r act on all targets / on the selected one */
	TUI_ACT_BACK,         /* a target's screen: back to the overview */
};

/* Where a binding holds: the target's screen, the overview, or both. */
enum tui_key_scope { TUI_KEYS_SCREEN = 1, TUI_KEYS_OVERVIEW = 2, TUI_KEYS_BOTH = 3 };

#define TUI_KEY_CTRL_C 3
#define TUI_KEY_CTRL_L 12
#define TUI_KEY_ESC 27

struct tui_keydef {
	const char *keys;     /* the key characters (NUL-terminated; Ctrl keys as codes) */
	enum tui_action action;
	const char *footer;   /* "+/-" in the footer, NULL: not in the footer */
	const char *label;    /* the footer's word ("interval") */
	const char *help_key; /* "+  -" in the help overlay */
	const char *help;     /* its line in the help overlay */
	enum tui_key_scope scope;
};

/* The table, in footer and help order (every scope); *n is set to its length. */
const struct tui_keydef *tui_keys(size_t *n);

/* The action bound to key ch (a character or a Ctrl code) on a target's screen; TUI_ACT_NONE
 * if none. */
enum tui_action tui_key_action(int ch);

/* The same where scope says (TUI_KEYS_SCREEN or TUI_KEYS_OVERVIEW). */
enum tui_action tui_key_action_in(enum tui_key_scope scope, int ch);

#endif
