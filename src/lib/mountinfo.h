/*
 * mountinfo: parse /proc/self/mountinfo text (proc(5)). Pure: works on text
 * given by the caller; opening the file is someone else's job.
 */
#ifndef IOPROBE_MOUNTINFO_H
#define IOPROBE_MOUNTINFO_H

#include <stddef.h>

struct mountinfo_entry {
	unsigned major, minor; /* field 3 */
	char root[4096];       /* field 4, octal escapes (\040 etc.) decoded */
	char mount_point[4096];/* field 5, decoded */
	char fstype[256];      /* first field after " - " */
	char source[4096];     /* mount source after fstype, decoded */
};

/*
 * Parse one mountinfo line (with or without its trailing newline) into e.
 * Returns 0, or -EINVAL when the line is malformed (missing fields, no " - "
 * separator, bad MAJ:MIN). Fields longer than the entry's arrays are
 * truncated, never overflowed.
 */
int mountinfo_parse_line(const char *line, struct mountinfo_entry *e);

/*
 * Find the mount whose MAJ:MIN equals major:minor in the whole text (lines
 * separated by '\n'); the first match wins (ioping's rule). Returns 0 and fills
 * e, -ENOENT when none matches. Malformed lines are skipped.
 */
int mountinfo_find_dev(const char *text, unsigned major, unsigned minor, struct mountinfo_entry *e);

/*
 * Find the mount whose mount point is the longest path prefix of path (an
 * absolute, normalised path) — on a path-component boundary, "/" matching
 * everything; among equal mount points the later line wins (over-mounts).
 * Returns 0 and fills e, -ENOENT when none matches.
 */
int mountinfo_find_path(const char *text, const char *path, struct mountinfo_entry *e);

#endif
