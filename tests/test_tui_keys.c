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
		{ 't', TUI_ACT_RESPONSE },
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
	cr_assert_eq(footer, 10, "q space p +/- r l w t d ?");
	cr_assert_eq(help, 12, "the footer's keys, Ctrl-L and Esc");
	cr_assert_eq(ov_help, 9, "q p +/- r Ctrl-L Enter k j a");
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
	struct tui_keys_ctx c = { "↑↓", 3, false };
	char buf[256];

	tui_keys_overview_footer(&c, false, buf, sizeof(buf));
	cr_assert_str_eq(buf, "q quit  p pause  +/- interval  r reset -> the selected target  "
			      "↑↓ select  Enter/1-3 open  a all/one");
	tui_keys_overview_footer(&c, true, buf, sizeof(buf));
	cr_assert_str_eq(buf, "q quit  p +/- r reset -> selected  ↑↓ Enter/1-3 open  a all/one");
	c = (struct tui_keys_ctx){ "up/down", 12, true };
	tui_keys_overview_footer(&c, true, buf, sizeof(buf));
	cr_assert_str_eq(buf, "q quit  p +/- r reset -> ALL  up/down Enter/1-12 open  a all/one");
	tui_keys_overview_footer(&c, false, buf, 12);
	cr_assert_str_eq(buf, "q quit  p p", "cut, NUL-terminated");
}
