#include "config.h"

#include "devstack.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mountinfo.h"

/* Most slaves/ entries looked at per device (more sets truncated). */
#define SLAVES_MAX 64

/* ------------------------------------------------------------------ pure parsers */

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Parse decimal digits at *s into *v (<= max), advancing *s. 0 or -EINVAL. */
static int parse_dec(const char **s, uint64_t max, uint64_t *v)
{
	const char *p = *s;
	uint64_t acc = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (acc > (max - d) / 10)
			return -EINVAL;
		acc = acc * 10 + d;
	}
	*s = p;
	*v = acc;
	return 0;
}

/* True when s holds only white space. */
static bool only_space(const char *s)
{
	for (; *s; s++)
		if (!is_space(*s))
			return false;
	return true;
}

int devstack_parse_devno(const char *text, unsigned *major, unsigned *minor)
{
	uint64_t ma, mi;
	const char *p = text;

	if (!text || !major || !minor)
		return -EINVAL;
	if (parse_dec(&p, UINT_MAX, &ma) || *p++ != ':' || parse_dec(&p, UINT_MAX, &mi) ||
	    !only_space(p))
		return -EINVAL;
	*major = (unsigned)ma;
	*minor = (unsigned)mi;
	return 0;
}

int devstack_parse_u64(const char *text, uint64_t *v)
{
	const char *p = text;
	uint64_t x;

	if (!text || !v)
		return -EINVAL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (parse_dec(&p, UINT64_MAX, &x) || !only_space(p))
		return -EINVAL;
	*v = x;
	return 0;
}

/* Copy [s, s + n) into out of len bytes, truncating; always NUL-terminates (len > 0). */
static void copy_span(char *out, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

int devstack_parse_scheduler(const char *text, char *out, size_t len)
{
	const char *open, *close, *p, *w = NULL;
	size_t wlen = 0;
	int words = 0;

	if (!text || !out || !len)
		return -EINVAL;
	open = strchr(text, '[');
	if (open) {
		close = strchr(open + 1, ']');
		if (!close || close == open + 1 || strchr(close + 1, '['))
			return -EINVAL;
		copy_span(out, len, open + 1, (size_t)(close - open - 1));
		return 0;
	}
	if (strchr(text, ']'))
		return -EINVAL;
	for (p = text; *p; ) {
		while (is_space(*p))
			p++;
		if (!*p)
			break;
		w = p;
		while (*p && !is_space(*p))
			p++;
		wlen = (size_t)(p - w);
		words++;
	}
	if (words != 1)
		return -EINVAL;
	copy_span(out, len, w, wlen);
	return 0;
}

int devstack_parse_line(const char *text, char *out, size_t len)
{
	size_t n;

	if (!text || !out || !len)
		return -EINVAL;
	n = strcspn(text, "\n");
	if (!n)
		return -EINVAL;
	copy_span(out, len, text, n);
	return 0;
}

/* ------------------------------------------------------------------ reading sysfs */

/* Read up to len - 1 bytes of path into buf, NUL-terminated. 0 or -errno. */
static int read_text(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < len - 1) {
		ssize_t r = read(fd, buf + got, len - 1 - got);

		if (r < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			close(fd);
			return -err;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	return 0;
}

/* Build dir/rel into buf. 0 or -ENAMETOOLONG. */
static int join(char *buf, size_t len, const char *dir, const char *rel)
{
	int n = snprintf(buf, len, "%s/%s", dir, rel);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Read the attribute dir/rel into buf. 0 or -errno. */
static int read_attr(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	int err = join(path, sizeof(path), dir, rel);

	return err ? err : read_text(path, buf, len);
}

static bool attr_exists(const char *dir, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	return !join(path, sizeof(path), dir, rel) && stat(path, &st) == 0;
}

static unsigned attr_uint(const char *dir, const char *rel)
{
	char buf[64];
	uint64_t v;

	if (read_attr(dir, rel, buf, sizeof(buf)) || devstack_parse_u64(buf, &v) || v > UINT_MAX)
		return 0;
	return (unsigned)v;
}

static void attr_line(const char *dir, const char *rel, char *out, size_t len)
{
	char buf[PATH_MAX + 64];

	out[0] = '\0';
	if (!read_attr(dir, rel, buf, sizeof(buf)))
		devstack_parse_line(buf, out, len);
}

static int attr_devno(const char *dir, const char *rel, unsigned *major, unsigned *minor)
{
	char buf[64];
	int err = read_attr(dir, rel, buf, sizeof(buf));

	return err ? err : devstack_parse_devno(buf, major, minor);
}

/* Fill the queue/ attributes of d from the disk directory qdir. */
static void read_queue(const char *qdir, struct devstack_dev *d)
{
	char buf[256];
	uint64_t v;

	d->logical_block_size = attr_uint(qdir, "queue/logical_block_size");
	d->physical_block_size = attr_uint(qdir, "queue/physical_block_size");
	d->max_sectors_kb = attr_uint(qdir, "queue/max_sectors_kb");
	d->max_segments = attr_uint(qdir, "queue/max_segments");
	d->nr_requests = attr_uint(qdir, "queue/nr_requests");
	d->rotational = -1;
	if (!read_attr(qdir, "queue/rotational", buf, sizeof(buf)) &&
	    !devstack_parse_u64(buf, &v) && v <= 1)
		d->rotational = (int)v;
	d->write_cache = -1;
	if (!read_attr(qdir, "queue/write_cache", buf, sizeof(buf)))
		d->write_cache = !strncmp(buf, "write back", 10) ? 1 :
				 !strncmp(buf, "write through", 13) ? 0 : -1;
	d->scheduler[0] = '\0';
	if (!read_attr(qdir, "queue/scheduler", buf, sizeof(buf)))
		devstack_parse_scheduler(buf, d->scheduler, sizeof(d->scheduler));
}

/* ------------------------------------------------------------------ the walk */

struct ctx {
	const char *root;
	const char *mountinfo;
	devstack_stat_fn statfn;
	void *arg;
	struct devstack *out;
	bool below[DEVSTACK_MAX];   /* a device was found under dev[i] */
};

static int add_dev(struct ctx *c, unsigned major, unsigned minor, unsigned depth, int parent);

/* Index of major:minor among the devices found so far, or -1. */
static int find_dev(const struct ctx *c, unsigned major, unsigned minor)
{
	size_t i;

	for (i = 0; i < c->out->ndev; i++)
		if (c->out->dev[i].major == major && c->out->dev[i].minor == minor)
			return (int)i;
	return -1;
}

/* True when major:minor is parent or one of its ancestors. */
static bool is_ancestor(const struct ctx *c, int parent, unsigned major, unsigned minor)
{
	while (parent >= 0) {
		const struct devstack_dev *d = &c->out->dev[parent];

		if (d->major == major && d->minor == minor)
			return true;
		parent = d->parent;
	}
	return false;
}

/* Add major:minor below dev[idx]; failures mark the stack incomplete. */
static void add_below(struct ctx *c, int idx, unsigned major, unsigned minor)
{
	int r = add_dev(c, major, minor, c->out->dev[idx].depth + 1, idx);

	if (r >= 0)
		c->below[idx] = true;
	else if (r != -ELOOP && r != -E2BIG)
		c->out->incomplete = true;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Recurse into every slaves/ entry of dev[idx] (directory dir), in name order. */
static void walk_slaves(struct ctx *c, int idx, const char *dir)
{
	static const size_t namelen = DEVSTACK_NAME_LEN;
	char (*names)[DEVSTACK_NAME_LEN];
	char sdir[PATH_MAX];
	struct dirent *e;
	size_t n = 0, i;
	DIR *dp;

	if (join(sdir, sizeof(sdir), dir, "slaves"))
		return;
	dp = opendir(sdir);
	if (!dp)
		return;     /* no slaves/ (git keeps no empty directories): a bottom device */
	names = calloc(SLAVES_MAX, namelen);
	if (!names) {
		closedir(dp);
		c->out->incomplete = true;
		return;
	}
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == SLAVES_MAX || strlen(e->d_name) >= namelen) {
			c->out->truncated = true;
			continue;
		}
		memcpy(names[n++], e->d_name, strlen(e->d_name) + 1);
	}
	closedir(dp);
	qsort(names, n, namelen, cmp_names);
	for (i = 0; i < n; i++) {
		char rel[DEVSTACK_NAME_LEN + 16];
		unsigned ma, mi;

		snprintf(rel, sizeof(rel), "%s/dev", names[i]);
		if (attr_devno(sdir, rel, &ma, &mi)) {
			c->out->incomplete = true;
			continue;
		}
		add_below(c, idx, ma, mi);
	}
	free(names);
}

/*
 * The block device behind the anonymous device 0:minor through mountinfo
 * (MAJ:MIN match first, then path's mount when path is not NULL). On
 * success stores it in *major_out, *minor_out and returns 0; -ENOENT when
 * there is none. e (scratch, not NULL) receives the mount found, or
 * fstype[0] == '\0' when no mount matched.
 */
static int anon_to_blockdev(const struct ctx *c, unsigned minor, const char *path,
			    unsigned *major_out, unsigned *minor_out, struct mountinfo_entry *e)
{
	struct devstack_stat st;

	e->fstype[0] = '\0';
	if (!c->mountinfo)
		return -ENOENT;
	if (mountinfo_find_dev(c->mountinfo, 0, minor, e) &&
	    (!path || mountinfo_find_path(c->mountinfo, path, e))) {
		e->fstype[0] = '\0';
		return -ENOENT;
	}
	if (!c->statfn || strncmp(e->source, "/dev/", 5) != 0)
		return -ENOENT;
	memset(&st, 0, sizeof(st));
	if (c->statfn(c->arg, e->source, &st) || !st.is_blkdev || st.rdev_major == 0)
		return -ENOENT;
	*major_out = st.rdev_major;
	*minor_out = st.rdev_minor;
	return 0;
}

/* Follow loop/backing_file of dev[idx]. */
static void walk_loop(struct ctx *c, int idx)
{
	struct devstack_dev *d = &c->out->dev[idx];
	struct mountinfo_entry *e;
	struct devstack_stat st;
	unsigned ma, mi;

	if (!d->backing_file[0])
		return;
	if (!c->statfn) {
		c->out->incomplete = true;
		return;
	}
	memset(&st, 0, sizeof(st));
	if (c->statfn(c->arg, d->backing_file, &st)) {
		c->out->incomplete = true;
		return;
	}
	ma = st.is_blkdev ? st.rdev_major : st.dev_major;
	mi = st.is_blkdev ? st.rdev_minor : st.dev_minor;
	if (ma == 0) {
		e = malloc(sizeof(*e));
		if (!e) {
			c->out->incomplete = true;
			return;
		}
		if (anon_to_blockdev(c, mi, NULL, &ma, &mi, e)) {
			free(e);
			c->out->dev[idx].no_blockdev_below = true;
			return;
		}
		free(e);
	}
	add_below(c, idx, ma, mi);
}

/*
 * Add major:minor (and, recursively, what lies below it) at depth under
 * dev[parent]. Returns its index (an existing one when it was met before),
 * -ELOOP for a cycle, -E2BIG when a limit was reached, or -errno when its
 * sysfs entry cannot be read.
 */
static int add_dev(struct ctx *c, unsigned major, unsigned minor, unsigned depth, int parent)
{
	struct devstack *out = c->out;
	struct devstack_dev *d;
	char link[PATH_MAX], dir[PATH_MAX], disk[PATH_MAX];
	const char *base;
	char *slash;
	int idx, n;
	bool partition;
	uint64_t size;
	char buf[64];

	if (is_ancestor(c, parent, major, minor)) {
		out->cycle = true;
		return -ELOOP;
	}
	idx = find_dev(c, major, minor);
	if (idx >= 0)
		return idx;
	if (depth >= DEVSTACK_MAX_DEPTH || out->ndev >= DEVSTACK_MAX) {
		out->truncated = true;
		return -E2BIG;
	}
	n = snprintf(link, sizeof(link), "%s/dev/block/%u:%u", c->root, major, minor);
	if (n < 0 || (size_t)n >= sizeof(link))
		return -ENAMETOOLONG;
	if (!realpath(link, dir))
		return -errno;
	base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	if (!*base || strlen(base) >= DEVSTACK_NAME_LEN)
		return -EINVAL;

	idx = (int)out->ndev++;
	d = &out->dev[idx];
	memset(d, 0, sizeof(*d));
	c->below[idx] = false;
	d->major = major;
	d->minor = minor;
	d->depth = depth;
	d->parent = parent;
	memcpy(d->name, base, strlen(base) + 1);
	if (!read_attr(dir, "size", buf, sizeof(buf)) && !devstack_parse_u64(buf, &size) &&
	    size <= UINT64_MAX / 512)
		d->size_bytes = size * 512;

	partition = attr_exists(dir, "partition");
	memcpy(disk, dir, strlen(dir) + 1);
	slash = strrchr(disk, '/');
	if (partition && slash && slash != disk) {
		*slash = '\0';
		d->kind = DEVSTACK_PARTITION;
		read_queue(disk, d);
	} else {
		read_queue(dir, d);
		if (attr_exists(dir, "dm")) {
			d->kind = DEVSTACK_DM;
			attr_line(dir, "dm/name", d->dm_name, sizeof(d->dm_name));
		} else if (attr_exists(dir, "md")) {
			d->kind = DEVSTACK_MD;
			attr_line(dir, "md/level", d->md_level, sizeof(d->md_level));
		} else if (strncmp(d->name, "loop", 4) == 0) {
			d->kind = DEVSTACK_LOOP;
			attr_line(dir, "loop/backing_file", d->backing_file, sizeof(d->backing_file));
		} else {
			d->kind = DEVSTACK_DISK;
		}
	}

	if (d->kind == DEVSTACK_PARTITION) {
		unsigned ma, mi;

		if (attr_devno(disk, "dev", &ma, &mi))
			out->incomplete = true;
		else
			add_below(c, idx, ma, mi);
	} else if (d->kind == DEVSTACK_LOOP) {
		walk_loop(c, idx);
	} else {
		walk_slaves(c, idx, dir);
	}
	return idx;
}

static void finish(struct ctx *c)
{
	struct devstack *out = c->out;
	size_t i;

	out->nleaves = 0;
	for (i = 0; i < out->ndev; i++)
		if (!c->below[i])
			out->leaf[out->nleaves++] = i;
	out->no_blockdev = out->ndev == 0;
}

static void save_mount(struct devstack *out, const struct mountinfo_entry *e)
{
	if (!e->fstype[0])
		return;
	copy_span(out->fstype, sizeof(out->fstype), e->fstype, strlen(e->fstype));
	copy_span(out->source, sizeof(out->source), e->source, strlen(e->source));
	copy_span(out->mount_point, sizeof(out->mount_point), e->mount_point,
		  strlen(e->mount_point));
}

static int resolve(const char *sysfs_root, const char *mountinfo_text, const char *path,
		   unsigned major, unsigned minor, devstack_stat_fn statfn, void *arg,
		   struct devstack *out)
{
	struct ctx c;
	int r;

	memset(out, 0, sizeof(*out));
	out->major = major;
	out->minor = minor;
	memset(&c, 0, sizeof(c));
	c.root = sysfs_root;
	c.mountinfo = mountinfo_text;
	c.statfn = statfn;
	c.arg = arg;
	c.out = out;

	if (major == 0) {
		struct mountinfo_entry *e = malloc(sizeof(*e));
		unsigned ma, mi;

		if (!e)
			return -ENOMEM;
		r = anon_to_blockdev(&c, minor, path, &ma, &mi, e);
		save_mount(out, e);
		free(e);
		if (r) {
			finish(&c);
			return 0;
		}
		out->via_mountinfo = true;
		major = ma;
		minor = mi;
	}
	r = add_dev(&c, major, minor, 0, -1);
	if (r < 0) {
		unsigned asked_major = out->major, asked_minor = out->minor;

		if (out->via_mountinfo) {
			/* The mount source names a device sysfs does not know. */
			out->ndev = 0;
			out->incomplete = true;
			finish(&c);
			return 0;
		}
		memset(out, 0, sizeof(*out));
		out->major = asked_major;
		out->minor = asked_minor;
		out->no_blockdev = true;
		return r;
	}
	finish(&c);
	return 0;
}

int devstack_resolve(const char *sysfs_root, const char *mountinfo_text,
		     unsigned major, unsigned minor,
		     devstack_stat_fn statfn, void *arg, struct devstack *out)
{
	if (!sysfs_root || !out)
		return -EINVAL;
	return resolve(sysfs_root, mountinfo_text, NULL, major, minor, statfn, arg, out);
}

int devstack_resolve_path(const char *sysfs_root, const char *mountinfo_text, const char *path,
			  devstack_stat_fn statfn, void *arg, struct devstack *out)
{
	struct devstack_stat st;
	int r;

	if (!sysfs_root || !path || !statfn || !out)
		return -EINVAL;
	memset(&st, 0, sizeof(st));
	r = statfn(arg, path, &st);
	if (r)
		return r < 0 ? r : -EIO;
	if (st.is_blkdev)
		return resolve(sysfs_root, mountinfo_text, NULL, st.rdev_major, st.rdev_minor,
			       statfn, arg, out);
	return resolve(sysfs_root, mountinfo_text, path, st.dev_major, st.dev_minor,
		       statfn, arg, out);
}

int devstack_stat_path(void *arg, const char *path, struct devstack_stat *st)
{
	struct stat sb;

	(void)arg;
	if (!path || !st)
		return -EINVAL;
	if (stat(path, &sb))
		return -errno;
	memset(st, 0, sizeof(*st));
	st->dev_major = major(sb.st_dev);
	st->dev_minor = minor(sb.st_dev);
	st->is_blkdev = S_ISBLK(sb.st_mode);
	if (st->is_blkdev) {
		st->rdev_major = major(sb.st_rdev);
		st->rdev_minor = minor(sb.st_rdev);
	}
	return 0;
}

/* ------------------------------------------------------------------ describe */

static void describe_dev(const struct devstack_dev *d, struct sbuf *sb)
{
	sbuf_puts(sb, d->name);
	if (d->kind == DEVSTACK_DM && d->dm_name[0])
		sbuf_printf(sb, " (%s)", d->dm_name);
	if (d->kind == DEVSTACK_LOOP && d->backing_file[0])
		sbuf_printf(sb, " (%s%s)", d->backing_file,
			    d->no_blockdev_below ? ": no block device" : "");
}

int devstack_describe(const struct devstack *ds, struct sbuf *sb)
{
	unsigned depth, maxdepth = 0;
	size_t i;

	if (!ds || !sb)
		return -EINVAL;
	if (!ds->ndev) {
		sbuf_puts(sb, "no block device");
		if (ds->fstype[0])
			sbuf_printf(sb, " (%s %s on %s)", ds->fstype, ds->source, ds->mount_point);
		return sb->error;
	}
	for (i = 0; i < ds->ndev; i++)
		if (ds->dev[i].depth > maxdepth)
			maxdepth = ds->dev[i].depth;
	for (depth = 0; depth <= maxdepth; depth++) {
		bool first = true;

		for (i = 0; i < ds->ndev; i++) {
			if (ds->dev[i].depth != depth)
				continue;
			if (!first)
				sbuf_puts(sb, ", ");
			else if (depth)
				sbuf_puts(sb, " \xe2\x86\x92 "); /* " → " */
			first = false;
			describe_dev(&ds->dev[i], sb);
		}
	}
	if (ds->truncated)
		sbuf_puts(sb, " (truncated)");
	if (ds->cycle)
		sbuf_puts(sb, " (cycle)");
	return sb->error;
}
