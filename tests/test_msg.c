/* Unit tests for src/lib/msg.c: error texts that never lose their reason. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "msg.h"

Test(msg, returns_the_error_and_fills_the_text)
{
	char msg[64];

	cr_assert_eq(err_set(msg, sizeof(msg), -EBUSY, "device %s is busy", "sda"), -EBUSY);
	cr_assert_str_eq(msg, "device sda is busy");
}

Test(msg, zero_length_buffer_is_left_alone)
{
	char msg[4] = "abc";

	cr_assert_eq(err_set(msg, 0, -EIO, "x"), -EIO);
	cr_assert_str_eq(msg, "abc");
}

Test(msg, exact_fit)
{
	char msg[6];

	err_set(msg, sizeof(msg), -1, "%s", "12345");
	cr_assert_str_eq(msg, "12345");
}

Test(msg, long_text_loses_its_middle_not_its_end)
{
	char path[10000], msg[200];

	memset(path, 'a', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	err_set(msg, sizeof(msg), -ENAMETOOLONG, "stat \"%s\" failed: %s", path,
		strerror(ENAMETOOLONG));
	cr_assert_eq(strlen(msg), sizeof(msg) - 1);
	cr_assert(!strncmp(msg, "stat \"aaa", 9), "the head stays: %s", msg);
	cr_assert(strstr(msg, "..."), "the cut is marked: %s", msg);
	cr_assert(strstr(msg, "a\" failed: File name too long") &&
		  !strcmp(msg + strlen(msg) - 13, "name too long"), "the end stays: %s", msg);
}

Test(msg, tiny_buffer_keeps_the_end)
{
	char msg[5];

	err_set(msg, sizeof(msg), -1, "%s", "0123456789");
	cr_assert_str_eq(msg, "6789");
}

Test(msg, errno_names_read_back)
{
	char buf[32];

	cr_assert_eq(errno_from_name("EIO"), EIO);
	cr_assert_eq(errno_from_name("ENOSPC"), ENOSPC);
	cr_assert_eq(errno_from_name(errno_name(-200, buf, sizeof(buf))), 200);
	cr_assert_eq(errno_from_name("E5"), 0); /* 5 has a name: EIO */
	cr_assert_eq(errno_from_name("E0"), 0);
	cr_assert_eq(errno_from_name("E4096"), 0);
	cr_assert_eq(errno_from_name("X1"), 0);
	cr_assert_eq(errno_from_name("EIOX"), 0);
	cr_assert_eq(errno_from_name(""), 0);
	for (int k = 1; k < ERRNO_NAME_MAX; k++)
		cr_assert_eq(errno_from_name(errno_name(-k, buf, sizeof(buf))), k, "errno %d", k);
}
