#include <criterion/criterion.h>

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "sbuf.h"

/* Encode in and check the complete output (quotes included) is want. */
static void expect(const char *in, const char *want)
{
	struct sbuf sb = SBUF_INIT;

	cr_assert_eq(json_append_string(&sb, in), 0);
	cr_assert_str_eq(sbuf_str(&sb), want);
	cr_assert_eq(sb.len, strlen(want));
	sbuf_free(&sb);
}

/*
 * Strict JSON string-literal checker, written independently of src/lib/json.c.
 * Accepts exactly one string literal filling str[0..len): opening and closing
 * quote, no raw byte below 0x20, only the RFC 8259 escapes, and well-formed
 * UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF). Stricter
 * than JSON where json.c promises more: \uXXXX must be U+0001..U+00FF (json.c
 * escapes single bytes only, so it never needs surrogate pairs). When orig is
 * not NULL, also rebuilds the bytes json_append_string() was given (a \u00XX
 * escape stands for byte XX) and stores them there (NUL-terminated; it must
 * hold len bytes).
 */
static bool json_string_ok(const char *str, size_t len, char *orig)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 1, o = 0;

	if (len < 2 || s[0] != '"' || s[len - 1] != '"')
		return false;
	while (i < len - 1) {
		unsigned char c = s[i];

		if (c < 0x20 || c == '"') {
			return false;
		} else if (c == '\\') {
			const char *ok = "\"\\/bfnrt";
			const char *dec = "\"\\/\b\f\n\r\t";
			const char *hit;
			unsigned cp = 0;
			int k;

			if (i + 1 >= len - 1)
				return false;
			c = s[i + 1];
			hit = c ? strchr(ok, c) : NULL;
			if (hit) {
				if (orig)
					orig[o++] = dec[hit - ok];
				i += 2;
				continue;
			}
			if (c != 'u' || i + 6 > len - 1)
				return false;
			for (k = 2; k < 6; k++) {
				unsigned char h = s[i + (size_t)k];

				cp <<= 4;
				if (h >= '0' && h <= '9')
					cp |= (unsigned)(h - '0');
				else if (h >= 'a' && h <= 'f')
					cp |= (unsigned)(h - 'a' + 10);
				else if (h >= 'A' && h <= 'F')
					cp |= (unsigned)(h - 'A' + 10);
				else
					return false;
			}
			if (cp == 0 || cp > 0xff)
				return false;   /* json.c only escapes single non-NUL bytes */
			if (orig)
				orig[o++] = (char)cp;
			i += 6;
		} else if (c < 0x80) {
			if (orig)
				orig[o++] = (char)c;
			i++;
		} else {
			unsigned cp;
			size_t n, k;

			if (c >= 0xc0 && c < 0xe0) {
				n = 2;
				cp = c & 0x1fu;
			} else if (c >= 0xe0 && c < 0xf0) {
				n = 3;
				cp = c & 0x0fu;
			} else if (c >= 0xf0 && c < 0xf8) {
				n = 4;
				cp = c & 0x07u;
			} else {
				return false;
			}
			if (i + n > len - 1)
				return false;
			for (k = 1; k < n; k++) {
				if ((s[i + k] & 0xc0) != 0x80)
					return false;
				cp = cp << 6 | (s[i + k] & 0x3fu);
			}
			if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
			    (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
			    (cp >= 0xd800 && cp <= 0xdfff))
				return false;
			if (orig) {
				memcpy(orig + o, s + i, n);
				o += n;
			}
			i += n;
		}
	}
	if (orig)
		orig[o] = '\0';
	return true;
}

/* xorshift64*: deterministic, seeded per test. */
static uint64_t next_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ULL;
}

/*
 * Fill buf (size > 1) with a random NUL-terminated byte string biased towards
 * the interesting cases: ASCII, control bytes, lead/continuation bytes at the
 * boundaries of the valid ranges, and well-formed sequences.
 */
static void random_string(uint64_t *st, char *buf, size_t size)
{
	static const unsigned char edge[] = {
		0x01, 0x1f, '"', '\\', 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1,
		0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5,
		0xf7, 0xf8, 0xfe, 0xff,
	};
	static const char *const seqs[] = {
		"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xed\x9f\xbf",
		"\xee\x80\x80", "\xef\xbf\xbf", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80",
		"\xf0\x90\x80\x80",
	};
	size_t n = (size_t)(next_rand(st) % (size - 1)), i = 0;

	while (i < n) {
		uint64_t r = next_rand(st);

		switch (r % 4) {
		case 0:
			buf[i++] = (char)(r >> 8 & 0xff ? r >> 8 & 0xff : 'x');
			break;
		case 1:
			buf[i++] = (char)edge[(r >> 8) % sizeof(edge)];
			break;
		case 2:
			buf[i++] = (char)(0x20 + (r >> 8) % 0x5f);
			break;
		default: {
			const char *q = seqs[(r >> 8) % (sizeof(seqs) / sizeof(seqs[0]))];
			size_t ql = strlen(q);

			if (i + ql > n)
				ql = n - i;     /* sometimes truncate the sequence */
			memcpy(buf + i, q, ql);
			i += ql;
			break;
		}
		}
	}
	buf[n] = '\0';
}

Test(json, empty_string)
{
	expect("", "\"\"");
}

Test(json, plain_ascii_passes_through)
{
	expect("hello, world", "\"hello, world\"");
	/* '/' needs no escape and is not given one */
	expect("/dev/sda1 (ext4) ~{}[]<>", "\"/dev/sda1 (ext4) ~{}[]<>\"");
}

Test(json, every_printable_except_quote_and_backslash_verbatim)
{
	char in[0x60], want[0x62];
	size_t n = 0;
	int c;

	for (c = 0x20; c < 0x7f; c++)
		if (c != '"' && c != '\\')
			in[n++] = (char)c;
	in[n] = '\0';
	want[0] = '"';
	memcpy(want + 1, in, n);
	want[n + 1] = '"';
	want[n + 2] = '\0';
	expect(in, want);
}

Test(json, quote_escaped)
{
	expect("\"", "\"\\\"\"");
	expect("say \"hi\"", "\"say \\\"hi\\\"\"");
}

Test(json, backslash_escaped)
{
	expect("\\", "\"\\\\\"");
	expect("C:\\dir\\", "\"C:\\\\dir\\\\\"");
}

Test(json, short_form_control_escapes)
{
	expect("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
	expect("a\nb", "\"a\\nb\"");
}

Test(json, every_control_byte)
{
	char in[2] = { 0, 0 };
	char want[16];
	int c;

	for (c = 0x01; c < 0x20; c++) {
		in[0] = (char)c;
		switch (c) {
		case '\b':
			strcpy(want, "\"\\b\"");
			break;
		case '\f':
			strcpy(want, "\"\\f\"");
			break;
		case '\n':
			strcpy(want, "\"\\n\"");
			break;
		case '\r':
			strcpy(want, "\"\\r\"");
			break;
		case '\t':
			strcpy(want, "\"\\t\"");
			break;
		default:
			snprintf(want, sizeof(want), "\"\\u%04x\"", (unsigned)c);
			break;
		}
		expect(in, want);
	}
	/* spot checks of the lowercase hex form */
	expect("\x01", "\"\\u0001\"");
	expect("\x1b[0m", "\"\\u001b[0m\"");
	expect("\x1f", "\"\\u001f\"");
	expect("\x0b", "\"\\u000b\"");
}

Test(json, del_escaped)
{
	expect("\x7f", "\"\\u007f\"");
	expect("a\x7f" "b", "\"a\\u007fb\"");
}

Test(json, valid_two_byte_utf8_passes_through)
{
	expect("caf\xc3\xa9", "\"caf\xc3\xa9\"");
	expect("\xc2\x80", "\"\xc2\x80\"");       /* U+0080, lowest */
	expect("\xdf\xbf", "\"\xdf\xbf\"");       /* U+07FF, highest */
}

Test(json, valid_three_byte_utf8_passes_through)
{
	expect("\xe2\x82\xac 5", "\"\xe2\x82\xac 5\"");     /* euro sign */
	expect("\xe0\xa0\x80", "\"\xe0\xa0\x80\"");         /* U+0800, lowest */
	expect("\xed\x9f\xbf", "\"\xed\x9f\xbf\"");         /* U+D7FF, below surrogates */
	expect("\xee\x80\x80", "\"\xee\x80\x80\"");         /* U+E000, above surrogates */
	expect("\xef\xbf\xbf", "\"\xef\xbf\xbf\"");         /* U+FFFF */
}

Test(json, valid_four_byte_utf8_passes_through)
{
	expect("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");  /* U+1F600 */
	expect("\xf0\x90\x80\x80", "\"\xf0\x90\x80\x80\"");  /* U+10000, lowest */
	expect("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");  /* U+10FFFF, highest */
	expect("\xf3\xa0\x80\x81", "\"\xf3\xa0\x80\x81\"");  /* U+E0001 */
}

Test(json, invalid_lead_bytes)
{
	expect("\xff", "\"\\u00ff\"");
	expect("\xfe", "\"\\u00fe\"");
	expect("\xf8\x88\x80\x80\x80", "\"\\u00f8\\u0088\\u0080\\u0080\\u0080\"");
	expect("\xf5\x80\x80\x80", "\"\\u00f5\\u0080\\u0080\\u0080\"");
	expect("a\xff" "b", "\"a\\u00ffb\"");
}

Test(json, lone_continuation_bytes)
{
	expect("\x80", "\"\\u0080\"");
	expect("\xbf", "\"\\u00bf\"");
	expect("x\x80\x80y", "\"x\\u0080\\u0080y\"");
	/* a valid sequence followed by a stray continuation byte */
	expect("\xc3\xa9\xa9", "\"\xc3\xa9\\u00a9\"");
}

Test(json, truncated_sequence_at_end)
{
	expect("\xc3", "\"\\u00c3\"");
	expect("\xe2\x82", "\"\\u00e2\\u0082\"");
	expect("\xf0\x9f\x98", "\"\\u00f0\\u009f\\u0098\"");
	expect("ok\xf0", "\"ok\\u00f0\"");
}

Test(json, truncated_sequence_before_other_bytes)
{
	/* each byte of the broken sequence is escaped, what follows is read afresh */
	expect("\xe2\x82" "A", "\"\\u00e2\\u0082A\"");
	expect("\xe2\xc3\xa9", "\"\\u00e2\xc3\xa9\"");
	expect("\xf0\x9f\x98\"", "\"\\u00f0\\u009f\\u0098\\\"\"");
	expect("\xc3\n", "\"\\u00c3\\n\"");
}

Test(json, overlong_forms)
{
	expect("\xc0\xaf", "\"\\u00c0\\u00af\"");                          /* '/' */
	expect("\xc1\xbf", "\"\\u00c1\\u00bf\"");
	expect("\xe0\x80\xaf", "\"\\u00e0\\u0080\\u00af\"");
	expect("\xe0\x9f\xbf", "\"\\u00e0\\u009f\\u00bf\"");               /* U+07FF in 3 */
	expect("\xf0\x80\x80\xaf", "\"\\u00f0\\u0080\\u0080\\u00af\"");
	expect("\xf0\x8f\xbf\xbf", "\"\\u00f0\\u008f\\u00bf\\u00bf\"");     /* U+FFFF in 4 */
}

Test(json, utf16_surrogates)
{
	expect("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"");   /* U+D800 */
	expect("\xed\xbf\xbf", "\"\\u00ed\\u00bf\\u00bf\"");   /* U+DFFF */
	/* CESU-8 style pair for U+1F600 */
	expect("\xed\xa0\xbd\xed\xb8\x80",
	       "\"\\u00ed\\u00a0\\u00bd\\u00ed\\u00b8\\u0080\"");
}

Test(json, above_max_code_point)
{
	expect("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"");   /* U+110000 */
	expect("\xf4\xbf\xbf\xbf", "\"\\u00f4\\u00bf\\u00bf\\u00bf\"");
	expect("\xf7\xbf\xbf\xbf", "\"\\u00f7\\u00bf\\u00bf\\u00bf\"");
}

Test(json, appends_to_existing_content)
{
	struct sbuf sb = SBUF_INIT;

	cr_assert_eq(sbuf_puts(&sb, "{\"k\":"), 0);
	cr_assert_eq(json_append_string(&sb, "v\t"), 0);
	cr_assert_eq(sbuf_putc(&sb, '}'), 0);
	cr_assert_str_eq(sbuf_str(&sb), "{\"k\":\"v\\t\"}");
	sbuf_free(&sb);
}

Test(json, long_input)
{
	struct sbuf sb = SBUF_INIT;
	char in[10001];

	memset(in, 'a', sizeof(in) - 1);
	in[sizeof(in) - 1] = '\0';
	in[5000] = '\n';
	cr_assert_eq(json_append_string(&sb, in), 0);
	cr_assert_eq(sb.len, 10000 + 1 + 2);
	cr_assert(json_string_ok(sb.buf, sb.len, NULL));
	sbuf_free(&sb);
}

Test(json, sticky_sbuf_error_is_reported)
{
	struct sbuf sb = SBUF_INIT;

	sb.error = -ENOMEM;
	cr_assert_eq(json_append_string(&sb, "x"), -ENOMEM);
	cr_assert_eq(json_append_string(&sb, "\xff\n"), -ENOMEM);
	sbuf_free(&sb);
}

Test(json, validator_self_check)
{
	cr_assert(json_string_ok("\"a\\n\\u00ff\xc3\xa9\"", 13, NULL));
	cr_assert_not(json_string_ok("\"a", 2, NULL));
	cr_assert_not(json_string_ok("\"\n\"", 3, NULL));
	cr_assert_not(json_string_ok("\"\\x\"", 4, NULL));
	cr_assert_not(json_string_ok("\"\\u00g0\"", 8, NULL));
	cr_assert_not(json_string_ok("\"\"\"", 3, NULL));
	cr_assert_not(json_string_ok("\"\\\"", 3, NULL));
	cr_assert_not(json_string_ok("\"\xff\"", 3, NULL));
	cr_assert_not(json_string_ok("\"\xc0\xaf\"", 4, NULL));
	cr_assert_not(json_string_ok("\"\xed\xa0\x80\"", 5, NULL));
	cr_assert_not(json_string_ok("\"\xf4\x90\x80\x80\"", 6, NULL));
	cr_assert_not(json_string_ok("\"\xe2\x82\"", 4, NULL));
}

Test(json, property_random_bytes_give_valid_json_and_lose_nothing)
{
	struct sbuf sb = SBUF_INIT;
	uint64_t st = 0x9e3779b97f4a7c15ULL;
	char in[64], back[64 * 6 + 3];
	int i;

	for (i = 0; i < 50000; i++) {
		random_string(&st, in, sizeof(in));
		sbuf_reset(&sb);
		cr_assert_eq(json_append_string(&sb, in), 0);
		cr_assert(json_string_ok(sb.buf, sb.len, back),
			  "invalid JSON for input #%d: %s", i, sb.buf);
		cr_assert_str_eq(back, in, "input #%d not recoverable from %s", i, sb.buf);
	}
	sbuf_free(&sb);
}

Test(json, python_json_module_accepts_output)
{
	static const char *const fixed[] = {
		"", "plain", "\"\\/", "\x01\x1f\x7f\b\f\n\r\t", "\xff\xfe\x80",
		"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82",
		"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	};
	const char *cmd =
		"python3 -c 'import json,sys\n"
		"n = 0\n"
		"for line in sys.stdin.buffer:\n"
		"    v = json.loads(line.decode(\"utf-8\", \"strict\"))\n"
		"    assert type(v) is str\n"
		"    n += 1\n"
		"sys.exit(0 if n == int(sys.argv[1]) else 3)' ";
	struct sbuf sb = SBUF_INIT, c = SBUF_INIT;
	uint64_t st = 42;
	size_t k, count = sizeof(fixed) / sizeof(fixed[0]) + 200;
	char in[48];
	FILE *py;
	int status;

	signal(SIGPIPE, SIG_IGN);       /* a crashing python must fail the test, not kill it */
	cr_assert_eq(sbuf_printf(&c, "%s%zu", cmd, count), 0);
	py = popen(sbuf_str(&c), "w");
	cr_assert_not_null(py);
	for (k = 0; k < count; k++) {
		if (k < sizeof(fixed) / sizeof(fixed[0])) {
			sbuf_reset(&sb);
			cr_assert_eq(json_append_string(&sb, fixed[k]), 0);
		} else {
			random_string(&st, in, sizeof(in));
			sbuf_reset(&sb);
			cr_assert_eq(json_append_string(&sb, in), 0);
		}
		/* one literal per line: output never holds a raw newline */
		cr_assert_null(memchr(sb.buf, '\n', sb.len));
		fwrite(sb.buf, 1, sb.len, py);
		fputc('\n', py);
	}
	status = pclose(py);
	cr_assert_eq(status, 0, "python3 rejected the output (status %d)", status);
	sbuf_free(&sb);
	sbuf_free(&c);
}

/* The object writer: ioping's pretty layout and the compact one, nested objects, commas. */
Test(json, object_writer_pretty_and_compact)
{
	struct sbuf sb = SBUF_INIT;
	struct json_w w = { &sb, false, 0, true };

	json_w_open(&w, NULL);
	json_w_u64(&w, "count", 3);
	json_w_open(&w, "target");
	json_w_str(&w, "path", "a\"b");
	json_w_close(&w);
	json_w_raw(&w, "iops", "%.1f", 2.5);
	json_w_close(&w);
	cr_assert_str_eq(sbuf_str(&sb), "{\n  \"count\": 3,\n  \"target\": {\n    \"path\": \"a\\\"b\"\n  },\n"
					 "  \"iops\": 2.5\n}");
	sbuf_reset(&sb);
	w = (struct json_w){ &sb, true, 0, true };
	json_w_open(&w, NULL);
	json_w_u64(&w, "a", 1);
	json_w_open(&w, "b");
	json_w_close(&w);
	json_w_close(&w);
	cr_assert_str_eq(sbuf_str(&sb), "{\"a\":1,\"b\":{}}");
	sbuf_free(&sb);
}
