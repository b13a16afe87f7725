#include <criterion/criterion.h>
#include <string.h>

#include "sbuf.h"

Test(sbuf, empty_is_empty_string)
{
	struct sbuf sb = SBUF_INIT;

	cr_assert_str_eq(sbuf_str(&sb), "");
	cr_assert_eq(sb.len, 0);
	sbuf_free(&sb);
}

Test(sbuf, append_printf_and_reset)
{
	struct sbuf sb = SBUF_INIT;

	cr_assert_eq(sbuf_puts(&sb, "abc"), 0);
	cr_assert_eq(sbuf_putc(&sb, '-'), 0);
	cr_assert_eq(sbuf_printf(&sb, "%d/%s", 42, "x"), 0);
	cr_assert_str_eq(sbuf_str(&sb), "abc-42/x");
	cr_assert_eq(sb.len, 8);
	sbuf_reset(&sb);
	cr_assert_str_eq(sbuf_str(&sb), "");
	cr_assert_eq(sbuf_printf(&sb, "%s", "y"), 0);
	cr_assert_str_eq(sbuf_str(&sb), "y");
	sbuf_free(&sb);
}

Test(sbuf, grows_past_initial_capacity)
{
	struct sbuf sb = SBUF_INIT;
	char line[1000];

	memset(line, 'z', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	for (int i = 0; i < 100; i++)
		cr_assert_eq(sbuf_puts(&sb, line), 0);
	cr_assert_eq(sb.len, 99900);
	cr_assert_eq(strspn(sbuf_str(&sb), "z"), 99900);
	sbuf_free(&sb);
}

Test(sbuf, embedded_nul_kept_in_length)
{
	struct sbuf sb = SBUF_INIT;

	cr_assert_eq(sbuf_append(&sb, "a\0b", 3), 0);
	cr_assert_eq(sb.len, 3);
	cr_assert_eq(memcmp(sb.buf, "a\0b", 4), 0);
	sbuf_free(&sb);
}
