#include "config.h"

#include "diskstats.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

/* A blank-separated token: not NUL-terminated. */
struct token {
	const char *s;
	size_t len;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * Store in t the next token of [*p, end) and advance *p past it. Returns
 * false when only blanks are left.
 */
static bool next_token(const char **p, const char *end, struct token *t)
{
	const char *s = *p;

	while (s < end && is_blank(*s))
		s++;
	if (s == end) {
		*p = s;
		return false;
	}
	t->s = s;
	while (s < end && !is_blank(*s))
		s++;
	t->len = (size_t)(s - t->s);
	*p = s;
	return true;
}

/* Parse a token of decimal digits into *v. Returns 0 or -EINVAL (empty, non-digit, overflow). */
static int token_u64(const struct token *t, uint64_t *v)
{
	uint64_t acc = 0;
	size_t i;

	if (!t->len)
		return -EINVAL;
	for (i = 0; i < t->len; i++) {
		unsigned d;

		if (t->s[i] < '0' || t->s[i] > '9')
			return -EINVAL;
		d = (unsigned)(t->s[i] - '0');
		if (acc > (UINT64_MAX - d) / 10)
			return -EINVAL;
		acc = acc * 10 + d;
	}
	*v = acc;
	return 0;
}

static int token_uint(const struct token *t, unsigned *v)
{
	uint64_t x;

	if (token_u64(t, &x) || x > UINT_MAX)
		return -EINVAL;
	*v = (unsigned)x;
	return 0;
}

/*
 * Read the statistics of [p, end) into out->v and out->nfields, applying the
 * field-count rules of the header. Returns 0 or -EINVAL.
 */
static int parse_stats(const char *p, const char *end, struct disk_counters *out)
{
	uint64_t raw[DISKSTATS_NFIELDS];
	struct token t;
	unsigned n = 0;

	while (next_token(&p, end, &t)) {
		uint64_t x;

		if (token_u64(&t, &x))
			return -EINVAL;
		if (n < DISKSTATS_NFIELDS)
			raw[n] = x;
		if (n < UINT_MAX)
			n++;
	}
	if (n == 4) {
		/* pre-2.6.25 partition: reads, sectors read, writes, sectors written */
		out->v[DS_RD_IOS] = raw[0];
		out->v[DS_RD_SECTORS] = raw[1];
		out->v[DS_WR_IOS] = raw[2];
		out->v[DS_WR_SECTORS] = raw[3];
		out->nfields = 4;
		return 0;
	}
	if (n < 11)
		return -EINVAL;
	out->nfields = n < DISKSTATS_NFIELDS ? n : DISKSTATS_NFIELDS;
	memcpy(out->v, raw, out->nfields * sizeof(raw[0]));
	return 0;
}

static const char *line_end(const char *line)
{
	const char *nl = strchr(line, '\n');

	return nl ? nl : line + strlen(line);
}

bool diskstats_field_is_u32(unsigned f)
{
	switch (f) {
	case DS_RD_TICKS:
	case DS_WR_TICKS:
	case DS_IN_FLIGHT:
	case DS_IO_TICKS:
	case DS_TIME_IN_QUEUE:
	case DS_DC_TICKS:
	case DS_FL_TICKS:
		return true;
	default:
		return false;
	}
}

int diskstats_parse_line(const char *line, struct disk_counters *out)
{
	const char *p, *end;
	struct token tmaj, tmin, tname;
	int err;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!line)
		return -EINVAL;
	p = line;
	end = line_end(line);
	if (!next_token(&p, end, &tmaj) || !next_token(&p, end, &tmin) ||
	    !next_token(&p, end, &tname))
		return -EINVAL;
	if (token_uint(&tmaj, &out->major) || token_uint(&tmin, &out->minor) ||
	    tname.len >= sizeof(out->name))
		goto bad;
	memcpy(out->name, tname.s, tname.len);
	out->name[tname.len] = '\0';
	err = parse_stats(p, end, out);
	if (err)
		goto bad;
	return 0;
bad:
	memset(out, 0, sizeof(*out));
	return -EINVAL;
}

int diskstats_parse_sysfs_stat(const char *text, struct disk_counters *out)
{
	const char *end;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!text)
		return -EINVAL;
	/* The file is one line; tolerate a trailing newline but nothing after it. */
	end = line_end(text);
	if (*end == '\n') {
		const char *q = end + 1;

		while (*q == '\n' || is_blank(*q))
			q++;
		if (*q)
			return -EINVAL;
	}
	if (parse_stats(text, end, out)) {
		memset(out, 0, sizeof(*out));
		return -EINVAL;
	}
	return 0;
}

/* True when [s, end) holds only blanks. */
static bool is_blank_line(const char *s, const char *end)
{
	for (; s < end; s++)
		if (!is_blank(*s))
			return false;
	return true;
}

int diskstats_foreach(const char *text, diskstats_cb cb, void *arg, size_t *nbad)
{
	const char *p;

	if (nbad)
		*nbad = 0;
	if (!text || !cb)
		return -EINVAL;
	for (p = text; *p; ) {
		const char *end = line_end(p);
		struct disk_counters c;

		if (!is_blank_line(p, end)) {
			if (diskstats_parse_line(p, &c) == 0) {
				int r = cb(&c, arg);

				if (r)
					return r;
			} else if (nbad) {
				(*nbad)++;
			}
		}
		p = *end ? end + 1 : end;
	}
	return 0;
}

struct collect {
	struct disk_counters *out;
	size_t cap;
	size_t n;
};

static int collect_cb(const struct disk_counters *c, void *arg)
{
	struct collect *col = arg;

	if (col->n < col->cap)
		col->out[col->n] = *c;
	col->n++;
	return 0;
}

int diskstats_parse(const char *text, struct disk_counters *out, size_t cap)
{
	struct collect col = { out, out ? cap : 0, 0 };
	int r;

	r = diskstats_foreach(text, collect_cb, &col, NULL);
	if (r)
		return r;
	return col.n > INT_MAX ? INT_MAX : (int)col.n;
}

struct find {
	unsigned major, minor;
	const char *name;           /* match by name when not NULL */
	struct disk_counters *out;
};

static int find_cb(const struct disk_counters *c, void *arg)
{
	struct find *f = arg;
	bool hit = f->name ? strcmp(c->name, f->name) == 0
			   : c->major == f->major && c->minor == f->minor;

	if (!hit)
		return 0;
	*f->out = *c;
	return 1;
}

int diskstats_find(const char *text, unsigned major, unsigned minor, struct disk_counters *out)
{
	struct find f = { major, minor, NULL, out };

	if (!text || !out)
		return -EINVAL;
	return diskstats_foreach(text, find_cb, &f, NULL) == 1 ? 0 : -ENOENT;
}

int diskstats_find_name(const char *text, const char *name, struct disk_counters *out)
{
	struct find f = { 0, 0, name, out };

	if (!text || !name || !out)
		return -EINVAL;
	return diskstats_foreach(text, find_cb, &f, NULL) == 1 ? 0 : -ENOENT;
}
