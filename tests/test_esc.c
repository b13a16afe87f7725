/* Unit tests for src/lib/esc.c: what reaches a terminal from a path or device name. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "esc.h"

static char *escaped(const char *s, size_t len)
{
	static char out[256];
	struct sbuf sb = SBUF_INIT;

	cr_assert_eq(esc_append(&sb, s, len), 0);
	snprintf(out, sizeof(out), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	return out;
}

#define ESC(lit) escaped(lit, sizeof(lit) - 1)

Test(esc, plain_text_is_unchanged)
{
	cr_assert_str_eq(ESC("/mnt/data"), "/mnt/data");
	cr_assert_str_eq(ESC("a\"b\\c d"), "a\"b\\c d", "backslash and quotes pass through");
	cr_assert_str_eq(ESC(""), "");
	cr_assert(esc_is_clean("/mnt/data", 9));
}

Test(esc, named_control_characters)
{
	cr_assert_str_eq(ESC("a\nb"), "a\\nb");
	cr_assert_str_eq(ESC("\t\r\a\b\f\v"), "\\t\\r\\a\\b\\f\\v");
	cr_assert_str_eq(ESC("\033[31mred"), "\\e[31mred");
	cr_assert(!esc_is_clean("a\nb", 3));
}

Test(esc, other_control_bytes_and_del_as_hex)
{
	cr_assert_str_eq(ESC("\x01\x1f\x7f"), "\\x01\\x1f\\x7f");
	cr_assert_str_eq(escaped("a\0b", 3), "a\\x00b", "a NUL inside the length");
}

Test(esc, valid_utf8_passes_through)
{
	cr_assert_str_eq(ESC("caf\xc3\xa9 \xe2\x94\x82 \xf0\x9f\x92\xbe"),
			 "caf\xc3\xa9 \xe2\x94\x82 \xf0\x9f\x92\xbe");
	cr_assert(esc_is_clean("\xc3\xa9", 2));
}

Test(esc, c1_controls_and_invalid_utf8_as_hex)
{
	/* U+009B (CSI) encoded in UTF-8, a lone 8-bit CSI, a truncated sequence */
	cr_assert_str_eq(ESC("\xc2\x9b" "1m"), "\\xc2\\x9b1m");
	cr_assert_str_eq(ESC("\x9b" "1m"), "\\x9b1m");
	cr_assert_str_eq(ESC("x\xe2\x94"), "x\\xe2\\x94");
	/* overlong "/" and a UTF-16 surrogate */
	cr_assert_str_eq(ESC("\xc0\xaf"), "\\xc0\\xaf");
	cr_assert_str_eq(ESC("\xed\xa0\x80"), "\\xed\\xa0\\x80");
	cr_assert_str_eq(ESC("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80", "beyond U+10FFFF");
}

Test(esc, puts_stops_at_nul)
{
	struct sbuf sb = SBUF_INIT;

	cr_assert_eq(esc_puts(&sb, "x\ny"), 0);
	cr_assert_str_eq(sbuf_str(&sb), "x\\ny");
	sbuf_free(&sb);
}

/* esc_field: one whitespace-free field; space and backslash escaped too, UTF-8 kept. */
Test(esc, field)
{
	struct sbuf sb = SBUF_INIT;

	cr_assert_eq(esc_field(&sb, "/dev/sda"), 0);
	cr_assert_str_eq(sbuf_str(&sb), "/dev/sda");
	sbuf_reset(&sb);
	esc_field(&sb, "a b\tc\\d\xc3\xa9\xff\x7f");
	cr_assert_str_eq(sbuf_str(&sb), "a\\x20b\\x09c\\x5cd\xc3\xa9\\xff\\x7f");
	sbuf_free(&sb);
}

Test(esc, utf8_sequence_lengths)
{
	cr_assert_eq(esc_utf8_seq((const unsigned char *)"a", 1), 1);
	cr_assert_eq(esc_utf8_seq((const unsigned char *)"\n", 1), 1, "controls are valid UTF-8");
	cr_assert_eq(esc_utf8_seq((const unsigned char *)"\xc2\x9b", 2), 2, "so is U+009B");
	cr_assert_eq(esc_utf8_seq((const unsigned char *)"\xe2\x94\x82", 3), 3);
	cr_assert_eq(esc_utf8_seq((const unsigned char *)"\xe2\x94", 2), 0, "cut short");
	cr_assert_eq(esc_utf8_seq((const unsigned char *)"\x80", 1), 0, "stray continuation");
	cr_assert_eq(esc_utf8_seq((const unsigned char *)"", 0), 0);
}

/* The one validator (JSON strings use it too): Unicode Table 3-7's edges. */
#define SEQ(lit) esc_utf8_seq((const unsigned char *)(lit), sizeof(lit) - 1)
Test(esc, utf8_sequence_table_edges)
{
	cr_assert_eq(SEQ("\xc1\xbf"), 0, "overlong two-byte lead");
	cr_assert_eq(SEQ("\xc2\x80"), 2, "U+0080, lowest two-byte");
	cr_assert_eq(SEQ("\xe0\x9f\xbf"), 0, "overlong below U+0800");
	cr_assert_eq(SEQ("\xe0\xa0\x80"), 3, "U+0800");
	cr_assert_eq(SEQ("\xed\x9f\xbf"), 3, "U+D7FF");
	cr_assert_eq(SEQ("\xed\xa0\x80"), 0, "U+D800, a surrogate");
	cr_assert_eq(SEQ("\xee\x80\x80"), 3, "U+E000");
	cr_assert_eq(SEQ("\xf0\x8f\xbf\xbf"), 0, "overlong below U+10000");
	cr_assert_eq(SEQ("\xf0\x90\x80\x80"), 4, "U+10000");
	cr_assert_eq(SEQ("\xf4\x8f\xbf\xbf"), 4, "U+10FFFF");
	cr_assert_eq(SEQ("\xf4\x90\x80\x80"), 0, "beyond U+10FFFF");
	cr_assert_eq(SEQ("\xf5\x80\x80\x80"), 0, "lead beyond U+10FFFF");
	cr_assert_eq(SEQ("\xe2\x00\x82"), 0, "a NUL is no continuation byte");
}
