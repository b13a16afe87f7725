/*
 * fuzz_mountinfo: mountinfo_parse_line() on every line of the input,
 * mountinfo_find_dev() for the devices it names and mountinfo_find_path()
 * for paths derived from it (its mount points, below and beside them, their
 * parents, roots and the input's last line itself).
 *
 * Invariants (abort() on violation):
 *  - parse_line returns 0 or -EINVAL, gives the same result on the line
 *    inside the text and on an exact-size heap copy, leaves the entry
 *    untouched on failure, and on success has NUL-terminated fields inside
 *    their arrays with non-empty root, mount point and fstype;
 *  - the result equals a reference parser written from proc(5) and the
 *    header (single-space fields, optional fields up to "-", octal escapes
 *    \001..\377 decoded, truncation to the arrays);
 *  - find_dev returns the first good line with that MAJ:MIN (or -ENOENT,
 *    entry untouched);
 *  - find_path returns the good line whose mount point is the longest
 *    component-boundary prefix of the path, the later one among equals, or
 *    -ENOENT with the entry untouched.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>

#include "fuzz_common.h"
#include "mountinfo.h"

#define MAX_LINES 512  /* lines looked at */
#define MAX_KEEP 8     /* good lines whose devices and mount points are queried */
#define MAX_PATHS 40

/* ---- reference parser ---- */

struct rfield {
	const char *s;
	size_t n;
};

/* Field iterator over [s, end): fields are separated by single spaces and may be empty. */
struct rsplit {
	const char *p, *end;
	bool done;
};

static bool rnext(struct rsplit *it, struct rfield *f)
{
	const char *q;

	if (it->done)
		return false;
	for (q = it->p; q < it->end && *q != ' '; q++)
		;
	f->s = it->p;
	f->n = (size_t)(q - it->p);
	if (q == it->end)
		it->done = true;
	else
		it->p = q + 1;
	return true;
}

static bool rdigits(const struct rfield *f)
{
	if (!f->n)
		return false;
	for (size_t i = 0; i < f->n; i++)
		if (f->s[i] < '0' || f->s[i] > '9')
			return false;
	return true;
}

/* "MAJ:MIN", both decimal and <= UINT_MAX. */
static bool rdevno(const struct rfield *f, unsigned *maj, unsigned *min)
{
	const char *colon = memchr(f->s, ':', f->n);
	struct rfield a, b;
	unsigned *out[2] = { maj, min };
	struct rfield *parts[2] = { &a, &b };

	if (!colon)
		return false;
	a.s = f->s;
	a.n = (size_t)(colon - f->s);
	b.s = colon + 1;
	b.n = f->n - a.n - 1;
	for (int k = 0; k < 2; k++) {
		uint64_t v = 0;

		if (!rdigits(parts[k]))
			return false;
		for (size_t i = 0; i < parts[k]->n; i++) {
			v = v * 10 + (uint64_t)(parts[k]->s[i] - '0');
			if (v > UINT_MAX)
				return false;
		}
		*out[k] = (unsigned)v;
	}
	return true;
}

static void rdecode(const struct rfield *f, char *dst, size_t size)
{
	size_t o = 0, i = 0;

	while (i < f->n && o + 1 < size) {
		const char *s = f->s + i;

		if (s[0] == '\\' && i + 4 <= f->n && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7' &&
		    (s[1] != '0' || s[2] != '0' || s[3] != '0')) {
			dst[o++] = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			i += 4;
		} else {
			dst[o++] = s[0];
			i++;
		}
	}
	dst[o] = '\0';
}

/* The reference mountinfo line parser: 0 or -EINVAL (e written only on success). */
static int ref_parse(const char *s, size_t len, struct mountinfo_entry *e)
{
	struct rsplit it = { s, s + len, false };
	struct rfield f[6], x, fstype, source, super;
	unsigned maj, min;

	for (int k = 0; k < 6; k++)
		if (!rnext(&it, &f[k]))
			return -EINVAL;
	if (!rdigits(&f[0]) || !rdigits(&f[1]) || !f[3].n || !f[4].n || !f[5].n)
		return -EINVAL;
	do {
		if (!rnext(&it, &x))
			return -EINVAL;
	} while (!(x.n == 1 && x.s[0] == '-'));
	if (!rnext(&it, &fstype) || !fstype.n || !rnext(&it, &source) || !rnext(&it, &super))
		return -EINVAL;
	if (!rdevno(&f[2], &maj, &min))
		return -EINVAL;
	e->major = maj;
	e->minor = min;
	rdecode(&f[3], e->root, sizeof(e->root));
	rdecode(&f[4], e->mount_point, sizeof(e->mount_point));
	rdecode(&fstype, e->fstype, sizeof(e->fstype));
	rdecode(&source, e->source, sizeof(e->source));
	return 0;
}

/* ---- checks ---- */

static struct mountinfo_entry *new_entry(void)
{
	struct mountinfo_entry *e = malloc(sizeof(*e));

	if (!e)
		abort();
	return e;
}

/* An entry filled with 0x5a: what poison() writes and untouched() expects. */
static struct mountinfo_entry poisoned;

static void poison(struct mountinfo_entry *e)
{
	memset(e, 0x5a, sizeof(*e));
}

static bool untouched(const struct mountinfo_entry *e)
{
	if (poisoned.major != 0x5a5a5a5a)
		poison(&poisoned);
	return memcmp(e, &poisoned, sizeof(*e)) == 0;
}

static bool same_entry(const struct mountinfo_entry *a, const struct mountinfo_entry *b)
{
	return a->major == b->major && a->minor == b->minor && !strcmp(a->root, b->root) &&
	       !strcmp(a->mount_point, b->mount_point) && !strcmp(a->fstype, b->fstype) &&
	       !strcmp(a->source, b->source);
}

static void check_entry(const struct mountinfo_entry *e)
{
	CHECK(fuzz_has_nul(e->root, sizeof(e->root)) && fuzz_has_nul(e->mount_point, sizeof(e->mount_point)) &&
	      fuzz_has_nul(e->fstype, sizeof(e->fstype)) && fuzz_has_nul(e->source, sizeof(e->source)),
	      "entry field not NUL-terminated");
	CHECK(e->root[0] && e->mount_point[0] && e->fstype[0], "empty root, mount point or fstype");
}

/* A good line: where it is and its decoded mount point (complete unless truncated). */
struct good {
	const char *line;
	size_t len;
	unsigned major, minor;
	char *mp;
	bool truncated;
};

/* The reference rule: mp covers path on a component boundary; its length in *len. */
static bool covers(const char *mp, const char *path, size_t *len)
{
	size_t n = strlen(mp);

	if (!n || strncmp(mp, path, n))
		return false;
	if (mp[n - 1] != '/' && path[n] != '\0' && path[n] != '/')
		return false;
	*len = n;
	return true;
}

static void check_find_path(const char *text, const struct good *g, size_t ng, bool any_truncated,
			    const char *path, struct mountinfo_entry *e, struct mountinfo_entry *want)
{
	size_t best = SIZE_MAX, best_len = 0, len;
	int ret;

	poison(e);
	ret = mountinfo_find_path(text, path, e);
	CHECK(ret == 0 || ret == -ENOENT, "find_path returned %d", ret);
	if (ret)
		CHECK(untouched(e), "find_path wrote the entry on failure");
	else
		check_entry(e);
	if (any_truncated) /* the reference below only sees truncated mount points */
		return;
	for (size_t i = 0; i < ng; i++) {
		if (!covers(g[i].mp, path, &len))
			continue;
		if (best == SIZE_MAX || len >= best_len) {
			best = i;
			best_len = len;
		}
	}
	if (best == SIZE_MAX) {
		CHECK(ret == -ENOENT, "find_path(\"%s\") found \"%s\", the reference nothing", path,
		      e->mount_point);
		return;
	}
	CHECK(ret == 0, "find_path(\"%s\") found nothing, the reference \"%s\"", path, g[best].mp);
	CHECK(ref_parse(g[best].line, g[best].len, want) == 0, "reference reparse");
	CHECK(same_entry(e, want), "find_path(\"%s\"): \"%s\" (%u:%u), the reference \"%s\" (%u:%u)",
	      path, e->mount_point, e->major, e->minor, want->mount_point, want->major, want->minor);
}

static char *concat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 1);

	if (!s)
		abort();
	memcpy(s, a, la);
	memcpy(s + la, b, lb + 1);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct mountinfo_entry *e1 = new_entry(), *e2 = new_entry(), *ref = new_entry();
	struct good g[MAX_LINES];
	char *paths[MAX_PATHS];
	size_t ng = 0, nlines = 0, npaths = 0;
	bool any_truncated = false, complete;
	const char *p, *last = text;

	for (p = text; *p && nlines < MAX_LINES; nlines++) {
		const char *end = strchrnul(p, '\n');
		size_t len = (size_t)(end - p);
		char *copy = fuzz_strndup((const uint8_t *)p, len);
		int r1, r2, r3;

		last = p;
		poison(e1);
		poison(e2);
		r1 = mountinfo_parse_line(p, e1);
		r2 = mountinfo_parse_line(copy, e2);
		r3 = ref_parse(p, len, ref);
		CHECK(r1 == 0 || r1 == -EINVAL, "parse_line returned %d", r1);
		CHECK(r1 == r2, "line parses differently as a copy: %d %d", r1, r2);
		CHECK(r1 == r3, "parse_line %d, reference %d on \"%s\"", r1, r3, copy);
		if (r1) {
			CHECK(untouched(e1) && untouched(e2), "parse_line wrote the entry on failure");
		} else {
			check_entry(e1);
			CHECK(same_entry(e1, e2), "line parses differently as a copy");
			CHECK(same_entry(e1, ref), "parse_line and the reference differ on \"%s\"", copy);
			g[ng].line = p;
			g[ng].len = len;
			g[ng].major = e1->major;
			g[ng].minor = e1->minor;
			g[ng].mp = concat(e1->mount_point, "");
			g[ng].truncated = strlen(e1->mount_point) == sizeof(e1->mount_point) - 1;
			any_truncated |= g[ng].truncated;
			ng++;
		}
		free(copy);
		p = *end ? end + 1 : end;
	}
	complete = *p == '\0';

	if (complete) {
		/* find_dev: the first good line with each of the first devices */
		for (size_t i = 0; i < ng && i < MAX_KEEP; i++) {
			size_t first = i;

			for (size_t j = 0; j < i; j++)
				if (g[j].major == g[i].major && g[j].minor == g[i].minor) {
					first = j;
					break;
				}
			poison(e1);
			CHECK(mountinfo_find_dev(text, g[i].major, g[i].minor, e1) == 0,
			      "find_dev %u:%u failed", g[i].major, g[i].minor);
			CHECK(ref_parse(g[first].line, g[first].len, ref) == 0, "reference reparse");
			CHECK(same_entry(e1, ref), "find_dev %u:%u is not the first match", g[i].major,
			      g[i].minor);
		}
		{
			/* a device that is not there */
			unsigned maj = 4095, min = 1048575;
			bool present = false;

			for (size_t i = 0; i < ng; i++)
				present |= g[i].major == maj && g[i].minor == min;
			poison(e1);
			if (!present)
				CHECK(mountinfo_find_dev(text, maj, min, e1) == -ENOENT && untouched(e1),
				      "find_dev of a missing device");
		}
	}

	/* paths: mount points, below, beside, parents, roots, the last line, fixed ones */
	paths[npaths++] = concat("/", "");
	paths[npaths++] = concat("/proc/self/mountinfo", "");
	paths[npaths++] = concat("", "");
	paths[npaths++] = concat(last, "");
	if (strchr(paths[npaths - 1], '\n'))
		*strchr(paths[npaths - 1], '\n') = '\0';
	for (size_t i = 0; i < ng && i < MAX_KEEP && npaths + 4 <= MAX_PATHS; i++) {
		char *parent;

		paths[npaths++] = concat(g[i].mp, "");
		paths[npaths++] = concat(g[i].mp, "/sub/dir");
		paths[npaths++] = concat(g[i].mp, "x");
		parent = concat(g[i].mp, "");
		if (strrchr(parent, '/'))
			strrchr(parent, '/')[0] = '\0';
		paths[npaths++] = parent;
	}
	for (size_t i = 0; i < npaths; i++)
		check_find_path(text, g, complete ? ng : 0, any_truncated || !complete, paths[i], e1,
				ref);
	/* a mount point must find a mount at least as long */
	for (size_t i = 0; i < ng && i < MAX_KEEP && complete && !any_truncated; i++) {
		CHECK(mountinfo_find_path(text, g[i].mp, e1) == 0 &&
		      strlen(e1->mount_point) >= strlen(g[i].mp),
		      "find_path of mount point \"%s\" gave \"%s\"", g[i].mp, e1->mount_point);
	}

	for (size_t i = 0; i < npaths; i++)
		free(paths[i]);
	for (size_t i = 0; i < ng; i++)
		free(g[i].mp);
	free(e1);
	free(e2);
	free(ref);
	free(text);
	return 0;
}
