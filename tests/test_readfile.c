#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "readfile.h"

/* A temp file holding len bytes of a repeating pattern; returns its path (static buffer). */
static const char *make_file(size_t len)
{
	static char path[] = "/tmp/ioprobe-readfile.XXXXXX";
	FILE *f;
	int fd;

	strcpy(path, "/tmp/ioprobe-readfile.XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	for (size_t i = 0; i < len; i++)
		fputc('a' + (int)(i % 26), f);
	fclose(f);
	return path;
}

Test(readfile, reads_past_the_first_buffer)
{
	const char *path = make_file(100000);
	int err = -1;
	char *text = readfile_text(path, &err);

	cr_assert_not_null(text);
	cr_assert_eq(err, 0);
	cr_assert_eq(strlen(text), 100000);
	cr_assert_eq(text[99999], 'a' + 99999 % 26);
	free(text);
	unlink(path);
}

Test(readfile, exactly_one_buffer_and_empty)
{
	const char *path = make_file(16383);
	int err = -1;
	char *text = readfile_text(path, &err);

	cr_assert_eq(strlen(text), 16383);
	free(text);
	unlink(path);
	path = make_file(0);
	text = readfile_text(path, &err);
	cr_assert_str_eq(text, "");
	free(text);
	unlink(path);
}

Test(readfile, missing_file_is_an_errno)
{
	int err = 0;

	cr_assert_null(readfile_text("/nonexistent/ioprobe", &err));
	cr_assert_eq(err, -ENOENT);
}

Test(readfile, procfs_files_have_no_size_but_are_read_whole)
{
	int err;
	char *text = readfile_text("/proc/self/mountinfo", &err);

	cr_assert_not_null(text);
	cr_assert(strstr(text, " - "), "not mountinfo text: %.80s", text);
	free(text);
}
