/*
 * promfile: the --prometheus FILE.prom output for node_exporter's textfile
 * collector, which may read the file at any moment: each version is written
 * to a temporary name in the same directory (one node_exporter ignores: it
 * does not end in .prom) and renamed over FILE.prom.
 */
#ifndef IOPROBE_PROMFILE_H
#define IOPROBE_PROMFILE_H

#include <stdbool.h>
#include <stddef.h>

/* True when path names a file ending in ".prom" (something before the suffix). Pure. */
bool promfile_name_ok(const char *path);

/*
 * Replace path with the len bytes of text (mode 0644) through a new file
 * "<path>.tmp.<12 random hex digits>" created with O_CREAT|O_EXCL|O_NOFOLLOW
 * (whatever sits at a name already, link, FIFO or file, is never opened:
 * another name is drawn) and rename(2). Returns 0 or -errno; on failure the
 * temporary name is removed if it still refers to the file this call created.
 */
int promfile_write(const char *path, const char *text, size_t len);

#endif
