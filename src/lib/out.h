/*
 * out: unbuffered writes of whole report pieces to standard output, so each
 * line reaches a pipe as soon as it is produced, with every error seen.
 */
#ifndef IOPROBE_OUT_H
#define IOPROBE_OUT_H

#include <stddef.h>

#include "sbuf.h"

/*
 * Write all len bytes of buf to fd, retrying short writes and EINTR.
 * Returns 0, -EPIPE when the reader went away (SIGPIPE must be ignored), or
 * another -errno (-ENOSPC for /dev/full...).
 */
int out_write(int fd, const char *buf, size_t len);

/* out_write() of sb's text, or sb's error (-ENOMEM) without writing. */
int out_write_sbuf(int fd, const struct sbuf *sb);

/*
 * Make sure fds 0, 1 and 2 are open (on /dev/null when they were closed), so
 * no file the program opens later can take their numbers. Returns 0 or -errno.
 */
int out_guard_std_fds(void);

#endif
