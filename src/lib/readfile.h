/*
 * readfile: the whole of a small text file (procfs, sysfs) as a string.
 */
#ifndef IOPROBE_READFILE_H
#define IOPROBE_READFILE_H

/*
 * Read path to its end into a malloc'ed, NUL-terminated string (the caller
 * frees it). Returns NULL with *err set to -errno (-ENOMEM included); *err
 * is 0 on success.
 */
char *readfile_text(const char *path, int *err);

#endif
