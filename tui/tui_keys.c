#include "config.h"

#include "tui_keys.h"

#include <stdio.h>
#include <string.h>

#include "common.h"

#define RP TUI_KEYS_REPLAY
#define RPO TUI_KEYS_REPLAY_OV

static const struct tui_keydef keydefs[] = {
	{ "qQ\003", TUI_ACT_QUIT, "q", "quit", "q  Ctrl-C", "quit (the summary follows)",
	  TUI_KEYS_BOTH, TUI_KG_NONE },
	/* a replay (--replay FILE -X): its screen (RP) and its overview (RPO) */
	{ "qQ\003", TUI_ACT_QUIT, "q", "quit", "q  Ctrl-C", "quit the replay", RP | RPO,
	  TUI_KG_NONE },
	{ " p", TUI_ACT_PLAY, "space", "pause", "space  p", "replay: pause / resume", RP | RPO,
	  TUI_KG_NONE },
	{ ".", TUI_ACT_STEP_FWD, "</>", "step", ",  .",
	  "replay: one period back / forward (Left Right)", RP | RPO, TUI_KG_NONE },
	{ ",", TUI_ACT_STEP_BACK, NULL, NULL, NULL, NULL, RP | RPO, TUI_KG_NONE },
	{ "+=", TUI_ACT_FASTER, "+/-", "speed", "+  -", "replay: speed x1, x10, x100", RP | RPO,
	  TUI_KG_NONE },
	{ "-_", TUI_ACT_SLOWER, NULL, NULL, NULL, NULL, RP | RPO, TUI_KG_NONE },
	{ "g", TUI_ACT_START, "g/G", "start/end", "g  G",
	  "replay: to the first / last period (Home End)", RP, TUI_KG_NONE },
	{ "G", TUI_ACT_END, NULL, NULL, NULL, NULL, RP, TUI_KG_NONE },
	{ "g", TUI_ACT_START, "g/G", "start/end", "g  G",
	  "replay: to the first / last period", RPO, TUI_KG_NONE },
	{ "G", TUI_ACT_END, NULL, NULL, NULL, NULL, RPO, TUI_KG_NONE },
	{ " ", TUI_ACT_FREEZE, "space", "freeze", "space", "freeze / unfreeze the display",
	  TUI_KEYS_SCREEN, TUI_KG_NONE },
	{ "p", TUI_ACT_PAUSE, "p", "pause", "p", "pause / resume probing", TUI_KEYS_BOTH,
	  TUI_KG_TARGETED },
	{ "+=", TUI_ACT_FASTER, "+/-", "interval", "+  -", "halve / double the interval",
	  TUI_KEYS_BOTH, TUI_KG_TARGETED },
	{ "-_", TUI_ACT_SLOWER, NULL, NULL, NULL, NULL, TUI_KEYS_BOTH, TUI_KG_TARGETED },
	{ "r", TUI_ACT_RESET, "r", "reset", "r", "reset the statistics", TUI_KEYS_BOTH,
	  TUI_KG_TARGETED },
	{ "l", TUI_ACT_SCALE, "l", "log/lin", "l", "log / linear latency scale",
	  TUI_KEYS_SCREEN | RP, TUI_KG_NONE },
	{ "w", TUI_ACT_WINDOW, "w", "window", "w", "window: 1 min, 10 min, 1 h",
	  TUI_KEYS_SCREEN | RP, TUI_KG_NONE },
	{ "t", TUI_ACT_RESPONSE, "t", "svc/resp", "t", "graph: service / response time",
	  TUI_KEYS_SCREEN | RP, TUI_KG_NONE },
	{ "d", TUI_ACT_DEVICE, "d", "device", "d", "next device in the iostat panel",
	  TUI_KEYS_SCREEN | RP, TUI_KG_NONE },
	{ "m", TUI_ACT_HEATMAP, "m", "map", "m", "graph: scatter / latency heatmap (counts shaded)",
	  TUI_KEYS_SCREEN | RP, TUI_KG_NONE },
	{ "b", TUI_ACT_HISTOGRAM, "b", "hist", "b",
	  "latency histogram of the window (in place of periods and requests)",
	  TUI_KEYS_SCREEN | RP, TUI_KG_NONE },
	{ "\014", TUI_ACT_REDRAW, NULL, NULL, "Ctrl-L", "redraw the screen",
	  TUI_KEYS_BOTH | RP | RPO, TUI_KG_NONE },
	{ "k", TUI_ACT_UP, "@", "select", "k j Up Down", "select a row (also PgUp, PgDn, Home, "
	  "End)", TUI_KEYS_OVERVIEW | RPO, TUI_KG_NAV },
	{ "j", TUI_ACT_DOWN, NULL, NULL, NULL, NULL, TUI_KEYS_OVERVIEW | RPO, TUI_KG_NAV },
	{ "\n\r", TUI_ACT_OPEN, "Enter/1-#", "open", "Enter  1-#",
	  "open the selected target's screen, or the one numbered",
	  TUI_KEYS_OVERVIEW | RPO, TUI_KG_NAV },
	{ "s", TUI_ACT_SORT, "s", "sort", "s", "sort: given, p99, verdict, busy, await, rate",
	  TUI_KEYS_OVERVIEW | RPO, TUI_KG_NONE },
	{ "/", TUI_ACT_FILTER, "/", "filter", "/",
	  "filter rows by path (Enter applies, Esc clears)", TUI_KEYS_OVERVIEW | RPO, TUI_KG_NONE },
	{ "w", TUI_ACT_WINDOW, "w", "window", "w", "p50/p99/max over the last 60 s, all, 10 s",
	  TUI_KEYS_OVERVIEW | RPO, TUI_KG_NONE },
	{ "a", TUI_ACT_ALL, "a", "all/one", "a", "p, +/-, r act on all targets / the selected one",
	  TUI_KEYS_OVERVIEW, TUI_KG_NONE },
	{ "?h", TUI_ACT_HELP, "?", "help", "?  h  F1", "this help",
	  TUI_KEYS_BOTH | RP | RPO, TUI_KG_NONE },
	{ "\033", TUI_ACT_BACK, NULL, NULL, "Esc", "back to the overview (several targets)",
	  TUI_KEYS_SCREEN | RP, TUI_KG_NONE },
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

/* Appends the footer words fmt to the buffer at *at, '@' and '#' expanded. */
static void keys_put_words(const struct tui_keys_ctx *c, const char *fmt, char *buf, size_t len,
			   size_t *at)
{
	for (const char *p = fmt; *p && *at + 1 < len; p++) {
		int n;

		if (*p == '@')
			n = snprintf(buf + *at, len - *at, "%s", c->arrows);
		else if (*p == '#')
			n = snprintf(buf + *at, len - *at, "%zu", c->ntargets);
		else
			n = snprintf(buf + *at, len - *at, "%c", *p);
		*at += n > 0 ? (size_t)n : 0;
		if (*at >= len)
			*at = len - 1;
	}
}

/* Entry i is in the overview's footer (of scope sc); with keep below the table's length,
 * only the first keep such entries and the help key are. */
static bool keys_in_ov_footer(size_t i, size_t keep, unsigned sc)
{
	size_t k = 0;

	if (!keydefs[i].footer || !(keydefs[i].scope & sc))
		return false;
	if (keydefs[i].action == TUI_ACT_HELP || keep >= ARRAY_SIZE(keydefs))
		return true;
	for (size_t j = 0; j < i; j++)
		k += keydefs[j].footer && (keydefs[j].scope & sc) &&
		     keydefs[j].action != TUI_ACT_HELP;
	return k < keep;
}

/* The index of the next overview footer entry after i (n if none). */
static size_t keys_next_ov(size_t i, size_t n, size_t keep, unsigned sc)
{
	while (++i < n && !keys_in_ov_footer(i, keep, sc))
		;
	return i;
}

static void keys_footer(const struct tui_keys_ctx *c, bool terse, size_t keep, char *buf,
			size_t len)
{
	unsigned sc = c->scope ? c->scope : TUI_KEYS_OVERVIEW;
	size_t n = ARRAY_SIZE(keydefs), at = 0, i = keys_next_ov((size_t)-1, n, keep, sc);

	if (!len)
		return;
	buf[0] = '\0';
	for (; i < n; i = keys_next_ov(i, n, keep, sc)) {
		const struct tui_keydef *k = &keydefs[i];
		size_t next = keys_next_ov(i, n, keep, sc);
		bool last = next >= n || keydefs[next].group != k->group || k->group == TUI_KG_NONE;

		keys_put_words(c, k->footer, buf, len, &at);
		if (!terse || last) {
			keys_put_words(c, " ", buf, len, &at);
			keys_put_words(c, k->label, buf, len, &at);
		}
		if (last && k->group == TUI_KG_TARGETED)
			keys_put_words(c, terse ? (c->all ? " -> ALL" : " -> selected")
					   : (c->all ? " -> ALL targets" : " -> the selected target"),
				       buf, len, &at);
		if (next < n)
			keys_put_words(c, terse && !last ? " " : "  ", buf, len, &at);
	}
}

void tui_keys_overview_footer(const struct tui_keys_ctx *c, bool terse, char *buf, size_t len)
{
	keys_footer(c, terse, ARRAY_SIZE(keydefs), buf, len);
}

/* Display cells of UTF-8 text whose characters are one cell each (the arrows). */
static int keys_cells(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += (*s & 0xc0) != 0x80;
	return n;
}

int tui_keys_overview_footer_fit(const struct tui_keys_ctx *c, int width, char *buf, size_t len)
{
	size_t keep = ARRAY_SIZE(keydefs);

	if (!len)
		return 0;
	keys_footer(c, false, keep, buf, len);
	if (keys_cells(buf) <= width)
		return keys_cells(buf);
	for (;;) {
		keys_footer(c, true, keep, buf, len);
		if (keys_cells(buf) <= width || keep <= 1)
			return keys_cells(buf);
		if (keep >= ARRAY_SIZE(keydefs)) { /* from all of them, one less each time */
			keep = 0;
			for (size_t i = 0; i < ARRAY_SIZE(keydefs); i++)
				keep += keydefs[i].footer &&
					(keydefs[i].scope & (c->scope ? c->scope :
							     TUI_KEYS_OVERVIEW)) &&
					keydefs[i].action != TUI_ACT_HELP;
		}
		keep--;
	}
}

bool tui_show_key(struct tui_show *s, enum tui_action act, const char **note)
{
	*note = NULL;
	switch (act) {
	case TUI_ACT_SCALE:
		s->log = !s->log;
		return true;
	case TUI_ACT_WINDOW:
		s->win = (enum tui_window)((s->win + 1) % TUI_WINDOWS);
		return true;
	case TUI_ACT_RESPONSE:
		s->response = !s->response;
		*note = s->response ? "graph: response time (from the scheduled start)" :
				      "graph: service time (latency)";
		return true;
	case TUI_ACT_HEATMAP:
		s->heatmap = !s->heatmap;
		*note = s->heatmap ? "graph: latency heatmap (requests per cell)" : "graph: scatter";
		return true;
	case TUI_ACT_HISTOGRAM:
		s->histogram = !s->histogram;
		*note = s->histogram ? "latency histogram of the window" : "periods and requests";
		return true;
	default:
		return false;
	}
}
