/* Unit tests for tui/tui_keys.c: one table for the handler, the footer and the help. */
#include <criterion/criterion.h>
#include <string.h>

#include "tui_keys.h"

Test(tui_keys, every_documented_key_acts)
{
	static const struct { int ch; enum tui_action act; } cases[] = {
		{ 'q', TUI_ACT_QUIT }, { 'Q', TUI_ACT_QUIT }, { TUI_KEY_CTRL_C, TUI_ACT_QUIT },
		{ ' ', TUI_ACT_FREEZE }, { 'p', TUI_ACT_PAUSE }, { '+', TUI_ACT_FASTER },
		{ '=', TUI_ACT_FASTER }, { '-', TUI_ACT_SLOWER }, { '_', TUI_ACT_SLOWER },
		{ 'r', TUI_ACT_RESET }, { 'l', TUI_ACT_SCALE }, { 'w', TUI_ACT_WINDOW },
		{ 't', TUI_ACT_RESPONSE }, { 'm', TUI_ACT_HEATMAP }, { 'b', TUI_ACT_HISTOGRAM },
		{ 'd', TUI_ACT_DEVICE }, { '?', TUI_ACT_HELP }, { 'h', TUI_ACT_HELP },
		{ TUI_KEY_CTRL_L, TUI_ACT_REDRAW },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_assert_eq(tui_key_action(cases[i].ch), cases[i].act, "key %d", cases[i].ch);
}

Test(tui_keys, unbound_and_out_of_range_keys_do_nothing)
{
	cr_assert_eq(tui_key_action('x'), TUI_ACT_NONE);
	cr_assert_eq(tui_key_action(0), TUI_ACT_NONE);
	cr_assert_eq(tui_key_action(-1), TUI_ACT_NONE);
	cr_assert_eq(tui_key_action(0x19a), TUI_ACT_NONE, "a curses KEY_ code");
}

Test(tui_keys, footer_and_help_come_from_the_table)
{
	size_t n, footer = 0, help = 0, ov_help = 0;
	const struct tui_keydef *k = tui_keys(&n);

	for (size_t i = 0; i < n; i++) {
		cr_assert(k[i].keys && *k[i].keys, "entry %zu has keys", i);
		cr_assert((k[i].footer == NULL) == (k[i].label == NULL));
		cr_assert((k[i].help == NULL) == (k[i].help_key == NULL));
		cr_assert(k[i].scope, "entry %zu holds somewhere", i);
		footer += k[i].footer && (k[i].scope & TUI_KEYS_SCREEN);
		help += k[i].help && (k[i].scope & TUI_KEYS_SCREEN);
		ov_help += k[i].help && (k[i].scope & TUI_KEYS_OVERVIEW);
	}
	cr_assert_eq(footer, 12, "q space p +/- r l w t m b d ?");
	cr_assert_eq(help, 14, "the footer's keys, Ctrl-L and Esc");
	cr_assert_eq(ov_help, 12, "q p +/- r Ctrl-L k/j Enter s / w a ?");
	cr_assert_str_eq(k[0].footer, "q");
}

/* The overview's keys come from the same table; each key means one thing where it holds. */
Test(tui_keys, overview_keys_share_the_table)
{
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, 'q'), TUI_ACT_QUIT);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, TUI_KEY_CTRL_C), TUI_ACT_QUIT);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, TUI_KEY_CTRL_L), TUI_ACT_REDRAW);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, '\n'), TUI_ACT_OPEN);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, 'k'), TUI_ACT_UP);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, 'j'), TUI_ACT_DOWN);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, 'a'), TUI_ACT_ALL);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, '+'), TUI_ACT_FASTER);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, 'l'), TUI_ACT_NONE, "a screen key");
	cr_assert_eq(tui_key_action('j'), TUI_ACT_NONE, "an overview key");
	cr_assert_eq(tui_key_action(TUI_KEY_ESC), TUI_ACT_BACK);
}

/* The overview's footer is the table's overview entries, in table order. */
Test(tui_keys, overview_footer_comes_from_the_table)
{
	struct tui_keys_ctx c = { "↑↓", 3, false, 0 };
	char buf[256];

	tui_keys_overview_footer(&c, false, buf, sizeof(buf));
	cr_assert_str_eq(buf, "q quit  p pause  +/- interval  r reset -> the selected target  "
			      "↑↓ select  Enter/1-3 open  s sort  / filter  w window  a all/one  "
			      "? help");
	tui_keys_overview_footer(&c, true, buf, sizeof(buf));
	cr_assert_str_eq(buf, "q quit  p +/- r reset -> selected  ↑↓ Enter/1-3 open  s sort  "
			      "/ filter  w window  a all/one  ? help");
	c = (struct tui_keys_ctx){ "up/down", 12, true, 0 };
	tui_keys_overview_footer(&c, true, buf, sizeof(buf));
	cr_assert_str_eq(buf, "q quit  p +/- r reset -> ALL  up/down Enter/1-12 open  s sort  "
			      "/ filter  w window  a all/one  ? help");
	tui_keys_overview_footer(&c, false, buf, 12);
	cr_assert_str_eq(buf, "q quit  p p", "cut, NUL-terminated");
}

/* The new overview keys (issue 25): the window, sort, filter and help. */
Test(tui_keys, overview_window_sort_filter_help)
{
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, 'w'), TUI_ACT_WINDOW);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, 's'), TUI_ACT_SORT);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, '/'), TUI_ACT_FILTER);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, '?'), TUI_ACT_HELP);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_OVERVIEW, 'h'), TUI_ACT_HELP);
	cr_assert_eq(tui_key_action('w'), TUI_ACT_WINDOW, "the screen's own window key");
	cr_assert_eq(tui_key_action('s'), TUI_ACT_NONE, "sort is the overview's");
	cr_assert_eq(tui_key_action('/'), TUI_ACT_NONE);
}

static int cells(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += (*s & 0xc0) != 0x80;
	return n;
}

/* Fitted to the width: wide, terse, then whole entries left out from the end, help kept. */
Test(tui_keys, overview_footer_fits_the_width)
{
	struct tui_keys_ctx c = { "↑↓", 3, false, 0 };
	char buf[256];
	int n;

	n = tui_keys_overview_footer_fit(&c, 200, buf, sizeof(buf));
	cr_assert_str_eq(buf, "q quit  p pause  +/- interval  r reset -> the selected target  "
			      "↑↓ select  Enter/1-3 open  s sort  / filter  w window  a all/one  "
			      "? help");
	cr_assert_eq(n, cells(buf));
	tui_keys_overview_footer_fit(&c, 80, buf, sizeof(buf));
	cr_assert_str_eq(buf, "q quit  p +/- r reset -> selected  ↑↓ Enter/1-3 open  s sort  "
			      "/ filter  ? help");
	c = (struct tui_keys_ctx){ "up/down", 24, false, 0 };
	n = tui_keys_overview_footer_fit(&c, 40, buf, sizeof(buf));
	cr_assert_str_eq(buf, "q quit  p pause -> selected  ? help", "two-digit targets");
	cr_assert_leq(n, 40);
	for (int w = 16; w <= 200; w++) {
		c = (struct tui_keys_ctx){ "↑↓", 256, w % 2, 0 };
		n = tui_keys_overview_footer_fit(&c, w, buf, sizeof(buf));
		cr_assert_eq(n, cells(buf));
		cr_assert_leq(n, w, "width %d: %s", w, buf);
		cr_assert(strstr(buf, "? help"), "width %d: the help key stays", w);
		cr_assert(strncmp(buf, "q quit", 6) == 0);
		cr_assert(n < 2 || buf[strlen(buf) - 1] != ' ', "no trailing separator");
	}
}

/* A replay's keys: its screen's and its overview's, from the same table. */
Test(tui_keys, replay_keys)
{
	struct tui_keys_ctx c = { "↑↓", 2, false, TUI_KEYS_REPLAY_OV };
	char buf[256];

	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, ' '), TUI_ACT_PLAY);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, 'p'), TUI_ACT_PLAY);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, '.'), TUI_ACT_STEP_FWD);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, ','), TUI_ACT_STEP_BACK);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, 'g'), TUI_ACT_START);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, 'G'), TUI_ACT_END);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, '+'), TUI_ACT_FASTER);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, '-'), TUI_ACT_SLOWER);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, 'w'), TUI_ACT_WINDOW);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, 'r'), TUI_ACT_NONE); /* nothing to reset */
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, 'q'), TUI_ACT_QUIT);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY, 27), TUI_ACT_BACK);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY_OV, ' '), TUI_ACT_PLAY);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY_OV, 'j'), TUI_ACT_DOWN);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY_OV, 's'), TUI_ACT_SORT);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY_OV, 'a'), TUI_ACT_NONE);
	cr_assert_eq(tui_key_action_in(TUI_KEYS_REPLAY_OV, '/'), TUI_ACT_FILTER); /* as live */
	/* the live screen's keys are unchanged */
	cr_assert_eq(tui_key_action(' '), TUI_ACT_FREEZE);
	cr_assert_eq(tui_key_action('p'), TUI_ACT_PAUSE);
	cr_assert_eq(tui_key_action('.'), TUI_ACT_NONE);
	tui_keys_overview_footer(&c, false, buf, sizeof(buf));
	cr_assert_str_eq(buf, "q quit  space pause  </> step  +/- speed  g/G start/end  "
			      "↑↓ select  Enter/1-2 open  s sort  / filter  w window  ? help");
}

/* The display keys' settings: each toggles its own, with the status line's words. */
Test(tui_keys, show_keys_toggle_the_display)
{
	struct tui_show s = { .log = true };
	const char *note;

	cr_assert(tui_show_key(&s, TUI_ACT_SCALE, &note) && !s.log && !note);
	cr_assert(tui_show_key(&s, TUI_ACT_WINDOW, &note) && s.win == TUI_WIN_10MIN);
	cr_assert(tui_show_key(&s, TUI_ACT_WINDOW, &note) && tui_show_key(&s, TUI_ACT_WINDOW, &note));
	cr_assert_eq(s.win, TUI_WIN_1MIN, "the window wraps round");
	cr_assert(tui_show_key(&s, TUI_ACT_RESPONSE, &note) && s.response);
	cr_assert_str_eq(note, "graph: response time (from the scheduled start)");
	cr_assert(tui_show_key(&s, TUI_ACT_HEATMAP, &note) && s.heatmap);
	cr_assert_str_eq(note, "graph: latency heatmap (requests per cell)");
	cr_assert(tui_show_key(&s, TUI_ACT_HISTOGRAM, &note) && s.histogram);
	cr_assert_str_eq(note, "latency histogram of the window");
	cr_assert(!tui_show_key(&s, TUI_ACT_RESET, &note), "not a display key");
	cr_assert(s.response && s.heatmap && s.histogram && !s.log);
}
