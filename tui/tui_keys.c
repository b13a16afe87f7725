#include "config.h"

#include "tui_keys.h"

#include <string.h>

#include "common.h"

static const struct tui_keydef keydefs[] = {
	{ "qQ\003", TUI_ACT_QUIT, "q", "quit", "q  Ctrl-C", "quit (the summary follows)",
	  TUI_KEYS_BOTH },
	{ " ", TUI_ACT_FREEZE, "space", "freeze", "space", "freeze / unfreeze the display",
	  TUI_KEYS_SCREEN },
	{ "p", TUI_ACT_PAUSE, "p", "pause", "p", "pause / resume probing", TUI_KEYS_BOTH },
	{ "+=", TUI_ACT_FASTER, "+/-", "interval", "+  -", "halve / double the interval",
	  TUI_KEYS_BOTH },
	{ "-_", TUI_ACT_SLOWER, NULL, NULL, NULL, NULL, TUI_KEYS_BOTH },
	{ "r", TUI_ACT_RESET, "r", "reset", "r", "reset the statistics", TUI_KEYS_BOTH },
	{ "l", TUI_ACT_SCALE, "l", "log/lin", "l", "log / linear latency scale", TUI_KEYS_SCREEN },
	{ "w", TUI_ACT_WINDOW, "w", "window", "w", "window: 1 min, 10 min, 1 h", TUI_KEYS_SCREEN },
	{ "t", TUI_ACT_RESPONSE, "t", "svc/resp", "t", "graph: service / response time",
	  TUI_KEYS_SCREEN },
	{ "d", TUI_ACT_DEVICE, "d", "device", "d", "next device in the iostat panel",
	  TUI_KEYS_SCREEN },
	{ "?h", TUI_ACT_HELP, "?", "help", "?  h  F1", "this help", TUI_KEYS_SCREEN },
	{ "\014", TUI_ACT_REDRAW, NULL, NULL, "Ctrl-L", "redraw the screen", TUI_KEYS_BOTH },
	{ "\n\r", TUI_ACT_OPEN, NULL, NULL, "Enter  1-9", "open the target's screen",
	  TUI_KEYS_OVERVIEW },
	{ "k", TUI_ACT_UP, NULL, NULL, "k  Up", "select the target above", TUI_KEYS_OVERVIEW },
	{ "j", TUI_ACT_DOWN, NULL, NULL, "j  Down", "select the target below", TUI_KEYS_OVERVIEW },
	{ "a", TUI_ACT_ALL, NULL, NULL, "a", "p, +/-, r act on all targets / the selected one",
	  TUI_KEYS_OVERVIEW },
	{ "\033", TUI_ACT_BACK, NULL, NULL, "Esc", "back to the overview (several targets)",
	  TUI_KEYS_SCREEN },
};

const struct tui_keydef *tui_keys(size_t *n)
{
	*n = ARRAY_SIZE(keydefs);
	return keydefs;
}

enum tui_action tui_key_action_in(enum tui_key_scope scope, int ch)
{
	if (ch <= 0 || ch > 255)
		return TUI_ACT_NONE;
	for (size_t i = 0; i < ARRAY_SIZE(keydefs); i++)
		if ((keydefs[i].scope & scope) && strchr(keydefs[i].keys, ch))
			return keydefs[i].action;
	return TUI_ACT_NONE;
}

enum tui_action tui_key_action(int ch)
{
	return tui_key_action_in(TUI_KEYS_SCREEN, ch);
}
