#include "config.h"

#include "mountinfo.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

/* One space-separated field of a line: not NUL-terminated, still escaped. */
struct field {
	const char *s;
	size_t len;
};

/* The fields of one line that we use or check, located but not yet decoded. */
struct fields {
	struct field devno;       /* "MAJ:MIN" */
	struct field root;
	struct field mount_point;
	struct field fstype;
	struct field source;
};

/* Walks the fields of one line; the line ends at its '\n' or the NUL. */
struct cursor {
	const char *p;
	const char *end;
	bool done;                /* the last field has been returned */
};

/*
 * Store the next field in f. Fields are separated by exactly one space (the
 * kernel escapes spaces inside fields), so a field may be empty. Returns 0, or
 * -EINVAL when the line has no more fields.
 */
static int next_field(struct cursor *c, struct field *f)
{
	const char *sp;

	if (c->done)
		return -EINVAL;
	sp = memchr(c->p, ' ', (size_t)(c->end - c->p));
	f->s = c->p;
	if (sp) {
		f->len = (size_t)(sp - c->p);
		c->p = sp + 1;
	} else {
		f->len = (size_t)(c->end - c->p);
		c->p = c->end;
		c->done = true;
	}
	return 0;
}

/* True when f is one or more decimal digits. */
static bool is_digits(const struct field *f)
{
	size_t i;

	if (!f->len)
		return false;
	for (i = 0; i < f->len; i++)
		if (f->s[i] < '0' || f->s[i] > '9')
			return false;
	return true;
}

/*
 * Parse decimal digits at *s (up to end) into *v, advancing *s. Returns 0, or
 * -EINVAL when there is no digit or the value exceeds UINT_MAX.
 */
static int parse_uint(const char **s, const char *end, unsigned *v)
{
	const char *p = *s;
	unsigned long long acc = 0;

	if (p == end || *p < '0' || *p > '9')
		return -EINVAL;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		acc = acc * 10 + (unsigned)(*p - '0');
		if (acc > UINT_MAX)
			return -EINVAL;
	}
	*v = (unsigned)acc;
	*s = p;
	return 0;
}

/* Parse the whole field f as "MAJ:MIN" (decimal). Returns 0 or -EINVAL. */
static int parse_devno(const struct field *f, unsigned *major, unsigned *minor)
{
	const char *p = f->s, *end = f->s + f->len;

	if (parse_uint(&p, end, major) || p == end || *p != ':')
		return -EINVAL;
	p++;
	if (parse_uint(&p, end, minor) || p != end)
		return -EINVAL;
	return 0;
}

/*
 * Locate and check the fields of the line starting at line (ending at its '\n'
 * or NUL). Returns 0, or -EINVAL when the line is malformed: a non-numeric ID
 * or parent ID, an empty root, mount point, options or fstype, no "-"
 * separator, or fewer than three fields after it. The mount source may be
 * empty (the kernel prints what userspace gave). MAJ:MIN is checked by the
 * caller through parse_devno(). Fields after the super options are ignored.
 */
static int split_line(const char *line, struct fields *out)
{
	struct cursor c = { line, strchrnul(line, '\n'), false };
	struct field id, parent, opts, f, super;

	if (next_field(&c, &id) || !is_digits(&id) ||
	    next_field(&c, &parent) || !is_digits(&parent) ||
	    next_field(&c, &out->devno) ||
	    next_field(&c, &out->root) || !out->root.len ||
	    next_field(&c, &out->mount_point) || !out->mount_point.len ||
	    next_field(&c, &opts) || !opts.len)
		return -EINVAL;
	/* zero or more optional fields ("shared:1", "master:2", ...) up to "-" */
	do {
		if (next_field(&c, &f))
			return -EINVAL;
	} while (f.len != 1 || f.s[0] != '-');
	if (next_field(&c, &out->fstype) || !out->fstype.len ||
	    next_field(&c, &out->source) ||
	    next_field(&c, &super))
		return -EINVAL;
	return 0;
}

/*
 * Decode the byte at *s (before end), advancing *s: a kernel octal escape
 * "\ooo" (value 1..0377) gives that byte, anything else (including "\000",
 * which would end the C string, and a lone or malformed backslash) is taken
 * literally.
 */
static char decode_byte(const char **s, const char *end)
{
	const char *p = *s;
	unsigned v;

	if (p[0] == '\\' && end - p >= 4 &&
	    p[1] >= '0' && p[1] <= '3' &&
	    p[2] >= '0' && p[2] <= '7' &&
	    p[3] >= '0' && p[3] <= '7') {
		v = (unsigned)(p[1] - '0') << 6 | (unsigned)(p[2] - '0') << 3 |
		    (unsigned)(p[3] - '0');
		if (v) {
			*s = p + 4;
			return (char)v;
		}
	}
	*s = p + 1;
	return p[0];
}

/* Decode f into dst (size bytes, size > 0), truncating; dst is always NUL-terminated. */
static void decode_field(const struct field *f, char *dst, size_t size)
{
	const char *p = f->s, *end = f->s + f->len;
	size_t n = 0;

	while (p < end && n < size - 1)
		dst[n++] = decode_byte(&p, end);
	dst[n] = '\0';
}

/*
 * Fill e from the fields found by split_line(). Returns 0, or -EINVAL (e left
 * untouched) for a bad MAJ:MIN.
 */
static int fill_entry(const struct fields *fl, struct mountinfo_entry *e)
{
	unsigned major, minor;

	if (parse_devno(&fl->devno, &major, &minor))
		return -EINVAL;
	e->major = major;
	e->minor = minor;
	decode_field(&fl->root, e->root, sizeof(e->root));
	decode_field(&fl->mount_point, e->mount_point, sizeof(e->mount_point));
	decode_field(&fl->fstype, e->fstype, sizeof(e->fstype));
	decode_field(&fl->source, e->source, sizeof(e->source));
	return 0;
}

/* Start of the line after the one starting at line, or NULL at the end of text. */
static const char *next_line(const char *line)
{
	const char *nl = strchr(line, '\n');

	return nl && nl[1] ? nl + 1 : NULL;
}

/* e is written only on success: every check happens before the first store. */
int mountinfo_parse_line(const char *line, struct mountinfo_entry *e)
{
	struct fields fl;

	if (split_line(line, &fl))
		return -EINVAL;
	return fill_entry(&fl, e);
}

/* e is written only on success. */
int mountinfo_find_dev(const char *text, unsigned major, unsigned minor, struct mountinfo_entry *e)
{
	const char *line;
	struct fields fl;
	unsigned maj, min;

	for (line = *text ? text : NULL; line; line = next_line(line)) {
		if (split_line(line, &fl) || parse_devno(&fl.devno, &maj, &min))
			continue;
		if (maj == major && min == minor)
			return fill_entry(&fl, e);
	}
	return -ENOENT;
}

/*
 * If the decoded mount point mp is path itself or a path-component prefix of
 * it, return true and store the decoded length of mp in *len. A mount point
 * ending in '/' (only "/" in practice) matches any path it prefixes. The
 * comparison decodes on the fly, so it is exact even for mount points longer
 * than mountinfo_entry.mount_point.
 */
static bool mount_point_covers(const struct field *mp, const char *path, size_t *len)
{
	const char *p = mp->s, *end = mp->s + mp->len;
	size_t n = 0;
	char c = '\0';

	while (p < end) {
		c = decode_byte(&p, end);
		if (path[n] != c)
			return false;   /* also stops at the NUL ending path */
		n++;
	}
	if (n == 0 || (c != '/' && path[n] != '\0' && path[n] != '/'))
		return false;
	*len = n;
	return true;
}

/* e is written only on success. */
int mountinfo_find_path(const char *text, const char *path, struct mountinfo_entry *e)
{
	const char *line;
	struct fields fl, best;
	unsigned maj, min;
	size_t len, best_len = 0;
	bool found = false;

	for (line = *text ? text : NULL; line; line = next_line(line)) {
		if (split_line(line, &fl) || parse_devno(&fl.devno, &maj, &min))
			continue;
		if (!mount_point_covers(&fl.mount_point, path, &len))
			continue;
		/* >= : among equal mount points the later line (an over-mount) wins */
		if (!found || len >= best_len) {
			best = fl;
			best_len = len;
			found = true;
		}
	}
	if (!found)
		return -ENOENT;
	return fill_entry(&best, e);
}
