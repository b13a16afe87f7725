/* Unit tests for src/out/outw.c: the shared stdout writer (on a pipe and /dev/full). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "outw.h"

/* Read what the pipe holds (the writer end closed) into buf, NUL-terminated. */
static void drain(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
}

Test(outw, flush_writes_whole_and_resets)
{
	struct outw w;
	struct sbuf sb = SBUF_INIT;
	char got[64];
	int fds[2];

	cr_assert_eq(pipe(fds), 0);
	outw_init(&w, fds[1], false);
	sbuf_puts(&sb, "4 KiB <<< x\n");
	cr_assert_eq(outw_flush(&w, &sb), 0);
	cr_assert_eq(sb.len, 0, "the buffer is reset for the next piece");
	sbuf_puts(&sb, "second\n");
	cr_assert_eq(outw_flush(&w, &sb), 0);
	close(fds[1]);
	drain(fds[0], got, sizeof(got));
	cr_assert_str_eq(got, "4 KiB <<< x\nsecond\n");
	cr_assert_eq(w.err, 0);
	close(fds[0]);
	sbuf_free(&sb);
	outw_destroy(&w);
}

Test(outw, json_array_separates_objects)
{
	struct outw w;
	struct sbuf sb = SBUF_INIT;

	outw_init(&w, -1, false);
	outw_json_sep(&w, &sb);
	sbuf_puts(&sb, "{}");
	outw_json_sep(&w, &sb);
	sbuf_puts(&sb, "{}");
	outw_json_sep(&w, &sb);
	cr_assert_str_eq(sbuf_str(&sb), "{},{},");
	sbuf_free(&sb);
	outw_destroy(&w);
}

Test(outw, json_lines_need_no_separator)
{
	struct outw w;
	struct sbuf sb = SBUF_INIT;

	outw_init(&w, -1, true);
	outw_json_sep(&w, &sb);
	outw_json_sep(&w, &sb);
	cr_assert_eq(sb.len, 0);
	sbuf_free(&sb);
	outw_destroy(&w);
}

Test(outw, buffer_error_is_returned_without_writing)
{
	struct outw w;
	struct sbuf sb = SBUF_INIT;
	char got[16];
	int fds[2];

	cr_assert_eq(pipe(fds), 0);
	outw_init(&w, fds[1], false);
	sbuf_puts(&sb, "half a line");
	sb.error = -ENOMEM;
	cr_assert_eq(outw_flush(&w, &sb), -ENOMEM);
	cr_assert_eq(w.err, -ENOMEM);
	close(fds[1]);
	drain(fds[0], got, sizeof(got));
	cr_assert_str_eq(got, "", "nothing of a broken piece is written");
	close(fds[0]);
	sbuf_free(&sb);
	outw_destroy(&w);
}

Test(outw, first_error_is_kept)
{
	struct outw w;
	struct sbuf sb = SBUF_INIT;
	int fd = open("/dev/full", O_WRONLY);

	cr_assert_geq(fd, 0);
	outw_init(&w, fd, false);
	outw_keep_err(&w, 0);
	cr_assert_eq(w.err, 0, "0 is no error");
	sbuf_puts(&sb, "x\n");
	cr_assert_eq(outw_flush(&w, &sb), -ENOSPC);
	outw_keep_err(&w, -EPIPE);
	cr_assert_eq(w.err, -ENOSPC, "a later error does not replace the first");
	close(fd);
	sbuf_free(&sb);
	outw_destroy(&w);
}
