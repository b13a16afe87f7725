/*
 * msg: the text of an error, composed below main() and printed by the CLI
 * (after "ioprobe: "). Functions that can fail take (char *msg, size_t
 * msglen) and return 0 or a negative errno; err_set() fills msg and returns
 * that errno in one statement: `return err_set(msg, msglen, -EBUSY, ...)`.
 * errno_name() gives the symbolic name ("EIO") messages and reports show.
 */
#ifndef IOPROBE_MSG_H
#define IOPROBE_MSG_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Size of a message buffer: room for a PATH_MAX path four times over (each
 * byte of it may be shown escaped as \xHH) and the reason around it.
 */
#define MSG_MAX (4 * 4096 + 512)

/*
 * Write the formatted text into msg (msglen bytes, may be 0) and return err.
 * A text longer than msglen loses bytes from its middle, shown as "...", never
 * its end: the reason after a very long path stays complete.
 */
int err_set(char *msg, size_t msglen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* err_set() with a va_list. */
int err_vset(char *msg, size_t msglen, int err, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* The errno name for a negative errno ("EIO"); "E<n>" in buf when unknown. */
const char *errno_name(int neg_errno, char *buf, size_t len);

/*
 * errno_name() read back: the positive errno of name for 1..ERRNO_NAME_MAX-1 ("EIO" -> 5,
 * "E200" -> 200 when 200 has no name of its own), 0 when name is none of them. A sorted
 * table built once (thread-safe): O(log n) a name, however many are looked up.
 */
#define ERRNO_NAME_MAX 4096
int errno_from_name(const char *name);

#endif
