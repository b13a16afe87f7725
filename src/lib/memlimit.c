#include "config.h"

#include "memlimit.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readfile.h"

#define MEMLIMIT_ROOT "/sys/fs/cgroup"

/* Whether the comma-separated list [s, e) names "memory". */
static bool memlimit_has_memory(const char *s, const char *e)
{
	while (s < e) {
		const char *c = memchr(s, ',', (size_t)(e - s));
		const char *end = c ? c : e;

		if (end - s == 6 && !memcmp(s, "memory", 6))
			return true;
		s = end + 1;
	}
	return false;
}

int memlimit_cgroup_path(const char *text, char *out, size_t len, bool *v2)
{
	const char *v2_path = NULL, *line = text;

	while (line && *line) {
		const char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
		const char *c1 = memchr(line, ':', (size_t)(end - line));
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;

		if (c2 && (memlimit_has_memory(c1 + 1, c2) ||
			   (c2 == c1 + 1 && !strncmp(line, "0:", 2)))) {
			bool is_v2 = c2 == c1 + 1;
			size_t n = (size_t)(end - c2 - 1);

			if (!is_v2 || !v2_path) {
				if (n + 1 > len)
					return -ENAMETOOLONG;
				memcpy(out, c2 + 1, n);
				out[n] = '\0';
				*v2 = is_v2;
				if (!is_v2)
					return 0; /* v1's memory controller wins over a v2 line */
				v2_path = out;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return v2_path ? 0 : -ENOENT;
}

bool memlimit_key(const char *text, const char *key, bool kb, uint64_t *v)
{
	size_t k = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char *end;
		unsigned long long n;

		if (strncmp(l, key, k) || (l[k] != ' ' && l[k] != ':' && l[k] != '\t'))
			continue;
		l += k + (l[k] == ':');
		errno = 0;
		n = strtoull(l, &end, 10);
		if (end == l || errno)
			return false;
		*v = kb ? (n > UINT64_MAX / 1024 ? UINT64_MAX : (uint64_t)n * 1024) : (uint64_t)n;
		return true;
	}
	return false;
}

bool memlimit_parse_limit(const char *text, uint64_t *v)
{
	char *end;
	unsigned long long n;

	if (!strncmp(text, "max", 3)) {
		*v = UINT64_MAX;
		return true;
	}
	errno = 0;
	n = strtoull(text, &end, 10);
	if (end == text || errno || (*end && *end != '\n'))
		return false;
	/* v1's "unlimited" is LLONG_MAX rounded down to a page: anything near it is none */
	*v = n >= (1ull << 62) ? UINT64_MAX : (uint64_t)n;
	return true;
}

/* A number (or "max") read from dir/name. */
static bool memlimit_file(const char *dir, const char *name, uint64_t *v)
{
	char path[512];
	int err;
	char *t;
	bool ok;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    !(t = readfile_text(path, &err)))
		return false;
	ok = memlimit_parse_limit(t, v);
	free(t);
	return ok;
}

/* v1: the hierarchy's limit and the usage less the file cache, from memory.stat. */
static void memlimit_v1(struct memlimit *m, const char *dir)
{
	uint64_t usage, active = 0, inactive = 0, lim;
	char path[512];
	int err;
	char *st;

	if ((size_t)snprintf(path, sizeof(path), "%s/memory.stat", dir) >= sizeof(path) ||
	    !(st = readfile_text(path, &err)))
		return;
	if (memlimit_key(st, "hierarchical_memory_limit", false, &lim))
		m->limit = lim >= (1ull << 62) ? UINT64_MAX : lim;
	memlimit_key(st, "total_active_file", false, &active);
	memlimit_key(st, "total_inactive_file", false, &inactive);
	free(st);
	if (memlimit_file(dir, "memory.usage_in_bytes", &usage))
		m->held = usage > active + inactive ? usage - active - inactive : 0;
}

/* v2: the smallest memory.max from the cgroup up, and memory.current less its file cache. */
static void memlimit_v2(struct memlimit *m, char *dir)
{
	uint64_t cur, file = 0, lim;
	char path[512];
	int err;
	char *st;

	if (memlimit_file(dir, "memory.current", &cur)) {
		if ((size_t)snprintf(path, sizeof(path), "%s/memory.stat", dir) < sizeof(path) &&
		    (st = readfile_text(path, &err))) {
			memlimit_key(st, "file", false, &file);
			free(st);
		}
		m->held = cur > file ? cur - file : 0;
	}
	while (strlen(dir) > strlen(MEMLIMIT_ROOT)) {
		char *slash = strrchr(dir, '/');

		if (memlimit_file(dir, "memory.max", &lim) && lim < m->limit)
			m->limit = lim;
		if (!slash)
			break;
		*slash = '\0';
	}
}

int memlimit_read(struct memlimit *m)
{
	char dir[512];
	bool v2 = false;
	int err;
	char *t;

	*m = (struct memlimit){ .limit = UINT64_MAX, .available = UINT64_MAX, .free = UINT64_MAX };
	if ((t = readfile_text("/proc/self/cgroup", &err))) {
		if (!memlimit_cgroup_path(t, m->cgroup, sizeof(m->cgroup), &v2) &&
		    (size_t)snprintf(dir, sizeof(dir), MEMLIMIT_ROOT "%s%s", v2 ? "" : "/memory",
				     strcmp(m->cgroup, "/") ? m->cgroup : "") < sizeof(dir)) {
			if (v2)
				memlimit_v2(m, dir);
			else
				memlimit_v1(m, dir);
		}
		free(t);
	}
	if (m->limit != UINT64_MAX)
		m->free = m->limit > m->held ? m->limit - m->held : 0;
	if (!(t = readfile_text("/proc/meminfo", &err)))
		return err;
	m->by_cgroup = m->limit != UINT64_MAX;
	if (memlimit_key(t, "MemAvailable", true, &m->available) && m->available < m->free) {
		m->free = m->available;
		m->by_cgroup = false;
	}
	free(t);
	return 0;
}
