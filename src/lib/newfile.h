/*
 * newfile: a file created under a random name that nothing else can have
 * prepared: PREFIX.<12 hex digits>, O_CREAT|O_EXCL|O_NOFOLLOW, a new name
 * drawn while one is taken (whatever sits there — a link, a FIFO, another
 * user's file — is never opened). The directory's temp file and the
 * textfile's temp name are made here.
 */
#ifndef IOPROBE_NEWFILE_H
#define IOPROBE_NEWFILE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Create prefix.<random> relative to dirfd (AT_FDCWD: the working directory)
 * with open flags (O_RDWR, O_WRONLY, O_NONBLOCK, O_SYNC...) and mode; the name
 * goes to name (namelen bytes). Returns the descriptor, or -errno
 * (-ENAMETOOLONG when the name does not fit, -EEXIST after 100 names taken).
 */
int newfile_create(int dirfd, const char *prefix, int flags, mode_t mode, char *name,
		   size_t namelen);

#endif
