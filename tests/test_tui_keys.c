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
	size_t n, footer = 0, help = 0;
	const struct tui_keydef *k = tui_keys(&n);

	for (size_t i = 0; i < n; i++) {
		cr_assert(k[i].keys && *k[i].keys, "entry %zu has keys", i);
		cr_assert((k[i].footer == NULL) == (k[i].label == NULL));
		cr_assert((k[i].help == NULL) == (k[i].help_key == NULL));
		footer += k[i].footer != NULL;
		help += k[i].help != NULL;
	}
	cr_assert_eq(footer, 10, "q space p +/- r l w t d ?");
	cr_assert_eq(help, 11, "the footer's keys and Ctrl-L");
	cr_assert_str_eq(k[0].footer, "q");
}
