#include "config.h"

#include "tui_keys.h"

#include <string.h>

#include "common.h"

static const struct tui_keydef keydefs[] = {
	{ "qQ\003", TUI_ACT_QUIT, "q", "quit", "q  Ctrl-C", "quit (the summary follows)" },
	{ " ", TUI_ACT_FREEZE, "space", "freeze", "space", "freeze / unfreeze the display" },
	{ "p", TUI_ACT_PAUSE, "p", "pause", "p", "pause / resume probing" },
	{ "+=", TUI_ACT_FASTER, "+/-", "interval", "+  -", "halve / double the interval" },
	{ "-_", TUI_ACT_SLOWER, NULL, NULL, NULL, NULL },
	{ "r", TUI_ACT_RESET, "r", "reset", "r", "reset the statistics" },
	{ "l", TUI_ACT_SCALE, "l", "log/lin", "l", "log / linear latency scale" },
	{ "w", TUI_ACT_WINDOW, "w", "window", "w", "window: 1 min, 10 min, 1 h" },
	{ "t", TUI_ACT_RESPONSE, "t", "svc/resp", "t", "graph: service / response time" },
	{ "d", TUI_ACT_DEVICE, "d", "device", "d", "next device in the iostat panel" },
	{ "?h", TUI_ACT_HELP, "?", "help", "?  h  F1", "this help" },
	{ "\014", TUI_ACT_REDRAW, NULL, NULL, "Ctrl-L", "redraw the screen" },
};

const struct tui_keydef *tui_keys(size_t *n)
{
	*n = ARRAY_SIZE(keydefs);
	return keydefs;
}

enum tui_action tui_key_action(int ch)
{
	if (ch <= 0 || ch > 255)
		return TUI_ACT_NONE;
	for (size_t i = 0; i < ARRAY_SIZE(keydefs); i++)
		if (strchr(keydefs[i].keys, ch))
			return keydefs[i].action;
	return TUI_ACT_NONE;
}
