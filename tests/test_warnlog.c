#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "warnlog.h"

Test(warnlog, repeats_are_counted_once_in_first_seen_order)
{
	struct warnlog w;
	char line[WARNLOG_LINE_LEN];

	warnlog_init(&w);
	for (int i = 0; i < 152311; i++)
		warnlog_add(&w, "request returned less than expected: 0");
	warnlog_add(&w, "other");
	warnlog_add(&w, "request returned less than expected: 0");
	cr_assert_eq(warnlog_lines(&w), 2);
	warnlog_line(&w, 0, false, line, sizeof(line));
	cr_assert_str_eq(line, "request returned less than expected: 0 (\u00d7152,312)");
	warnlog_line(&w, 1, false, line, sizeof(line));
	cr_assert_str_eq(line, "other");
	warnlog_line(&w, 0, true, line, sizeof(line));
	cr_assert_str_eq(line, "request returned less than expected: 0 (x152,312)");
}

Test(warnlog, a_full_table_counts_the_rest)
{
	struct warnlog w;
	char text[32], line[WARNLOG_LINE_LEN];

	warnlog_init(&w);
	for (int i = 0; i < WARNLOG_TEXTS + 1001; i++) {
		snprintf(text, sizeof(text), "w%d", i);
		warnlog_add(&w, text);
	}
	warnlog_add(&w, "w0");
	cr_assert_eq(warnlog_lines(&w), WARNLOG_TEXTS + 1);
	warnlog_line(&w, 0, false, line, sizeof(line));
	cr_assert_str_eq(line, "w0 (\u00d72)");
	warnlog_line(&w, WARNLOG_TEXTS, false, line, sizeof(line));
	cr_assert_str_eq(line, "1,001 more warnings");
}

Test(warnlog, long_texts_are_cut_and_still_match)
{
	struct warnlog w;
	char big[400];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	warnlog_init(&w);
	warnlog_add(&w, big);
	warnlog_add(&w, big);
	cr_assert_eq(w.n, 1);
	cr_assert_eq(w.e[0].times, 2);
	cr_assert_eq(strlen(w.e[0].text), WARNLOG_TEXT_LEN - 1);
}

Test(warnlog, grouping_ignores_the_locale)
{
	char buf[32];

	setlocale(LC_ALL, "de_DE.UTF-8"); /* may fail: C then, the same result */
	cr_assert_str_eq(warnlog_group(0, buf, sizeof(buf)), "0");
	cr_assert_str_eq(warnlog_group(999, buf, sizeof(buf)), "999");
	cr_assert_str_eq(warnlog_group(1000, buf, sizeof(buf)), "1,000");
	cr_assert_str_eq(warnlog_group(18446744073709551615ull, buf, sizeof(buf)),
			 "18,446,744,073,709,551,615");
	setlocale(LC_ALL, "C");
}
