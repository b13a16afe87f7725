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
};

#define TUI_KEY_CTRL_C 3
#define TUI_KEY_CTRL_L 12

struct tui_keydef {
	const char *keys;     /* the key characters (NUL-terminated; Ctrl keys as codes) */
	enum tui_action action;
	const char *footer;   /* "+/-" in the footer, NULL: not in the footer */
	const char *label;    /* the footer's word ("interval") */
	const char *help_key; /* "+  -" in the help overlay */
	const char *help;     /* its line in the help overlay */
};

/* The table, in footer and help order; *n is set to its length. */
const struct tui_keydef *tui_keys(size_t *n);

/* The action bound to key ch (a character or a Ctrl code); TUI_ACT_NONE if none. */
enum tui_action tui_key_action(int ch);

#endif
