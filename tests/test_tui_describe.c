/* tui_describe: a screen header's texts from the command line's settings, the same for a
 * live run (the CLI's view_cfg) and a replay (the recording's). */
#include <criterion/criterion.h>

#include <string.h>

#include "tui_describe.h"

#define MS 1000000ull

Test(tui_describe, target_with_and_without_a_name)
{
	struct report_target rt = { "/dev/loop3", "block device", "", 64ull << 20, "vic" };
	char buf[256];

	cr_assert(strstr(tui_describe_target(buf, sizeof(buf), &rt), "vic: /dev/loop3 ("),
		  "%s", buf);
	rt.name = NULL;
	cr_assert(!strncmp(tui_describe_target(buf, sizeof(buf), &rt), "/dev/loop3 (", 12),
		  "%s", buf);
	rt.path = "/tmp/a\033[2Jb"; /* a terminal escape in a path is shown, not obeyed */
	cr_assert_null(strchr(tui_describe_target(buf, sizeof(buf), &rt), '\033'), "%s", buf);
}

Test(tui_describe, mode_says_direct_and_the_engine)
{
	struct view_cfg o = { .direct = true };
	char buf[96];

	cr_assert(strstr(tui_describe_mode(buf, sizeof(buf), &o, "io_uring"), "direct"), "%s", buf);
	cr_assert(strstr(buf, "io_uring"), "%s", buf);
	o.direct = false;
	cr_assert(strstr(tui_describe_mode(buf, sizeof(buf), &o, "sync"), "buffered"), "%s", buf);
	o.write = true;
	cr_assert(strstr(tui_describe_mode(buf, sizeof(buf), &o, NULL), "write"), "%s", buf);
}

Test(tui_describe, pace_from_its_limit_until_changed)
{
	struct view_cfg o = { .rate_limit = 10 };
	char buf[96];

	cr_assert_str_eq(tui_describe_pace(buf, sizeof(buf), &o, 100 * MS, false, true),
			 "rate 10.0/s (every 100 ms)");
	cr_assert_str_eq(tui_describe_pace(buf, sizeof(buf), &o, 50 * MS, true, true),
			 "every 50 ms");
	o = (struct view_cfg){ .burst = 4 };
	cr_assert_str_eq(tui_describe_pace(buf, sizeof(buf), &o, 0, false, true),
			 "bursts of 4 flood (interval 0)");
	o = (struct view_cfg){ .speed_limit = 1 << 20 };
	cr_assert(!strncmp(tui_describe_pace(buf, sizeof(buf), &o, 4 * MS, false, true),
			   "speed ", 6), "%s", buf);
}

Test(tui_describe, period_label)
{
	struct view_cfg o = { 0 };
	char buf[48];

	cr_assert_str_eq(tui_describe_period(buf, sizeof(buf), &o, 1000 * MS, true), "1 s");
	o.print_interval = 5000 * MS;
	cr_assert_str_eq(tui_describe_period(buf, sizeof(buf), &o, 1000 * MS, true), "-P 5 s");
	o.print_count = 100;
	cr_assert_str_eq(tui_describe_period(buf, sizeof(buf), &o, 1000 * MS, true), "-p 100");
}
