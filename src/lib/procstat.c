#include "config.h"

#include "procstat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mountinfo.h"

int procstat_schedstat(const char *text, uint64_t *run_ns, uint64_t *wait_ns)
{
	unsigned long long run, wait;

	if (!text || sscanf(text, "%llu %llu", &run, &wait) != 2)
		return -EINVAL;
	*run_ns = run;
	*wait_ns = wait;
	return 0;
}

/* The value of "key=NUMBER" or "key NUMBER" in line (up to its end); false when absent. */
static bool procstat_key(const char *line, const char *end, const char *key, char sep,
			 uint64_t *v)
{
	size_t kl = strlen(key);

	for (const char *p = line; p && p + kl < end; p = strpbrk(p, " \t\n")) {
		unsigned long long x;
		char *e;

		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
			p++;
		if ((size_t)(end - p) <= kl || strncmp(p, key, kl) || p[kl] != sep)
			continue;
		x = strtoull(p + kl + 1, &e, 10);
		if (e == p + kl + 1)
			return false;
		*v = x;
		return true;
	}
	return false;
}

int procstat_psi_some(const char *text, uint64_t *total_us)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l);

		if (!strncmp(l, "some ", 5) && procstat_key(l + 5, end, "total", '=', total_us))
			return 0;
	}
	return -EINVAL;
}

int procstat_cpu_throttled(const char *text, uint64_t *ns)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l);
		uint64_t v;

		if (!strncmp(l, "throttled_time ", 15) && procstat_key(l, end, "throttled_time",
								      ' ', &v)) {
			*ns = v;
			return 0;
		}
		if (!strncmp(l, "throttled_usec ", 15) && procstat_key(l, end, "throttled_usec",
								      ' ', &v)) {
			*ns = v * 1000;
			return 0;
		}
	}
	return -ENOENT;
}

double procstat_cpu_quota(const char *quota_text, const char *period_text)
{
	long long q, p;
	char max[4];

	if (!period_text)
		return -EINVAL;
	if (!quota_text) { /* v2 cpu.max: "max PERIOD" or "QUOTA PERIOD" */
		if (sscanf(period_text, "%3s", max) == 1 && !strcmp(max, "max"))
			return 0;
		if (sscanf(period_text, "%lld %lld", &q, &p) != 2 || q <= 0 || p <= 0)
			return -EINVAL;
		return (double)q / (double)p;
	}
	if (sscanf(quota_text, "%lld", &q) != 1 || sscanf(period_text, "%lld", &p) != 1 || p <= 0)
		return -EINVAL;
	return q < 0 ? 0 : (double)q / (double)p;
}

/* word is one of the comma-separated items of list[0..n). */
static bool procstat_in_list(const char *list, size_t n, const char *word)
{
	size_t wl = strlen(word);

	for (const char *p = list; p < list + n;) {
		const char *c = memchr(p, ',', (size_t)(list + n - p));
		size_t il = (size_t)((c ? c : list + n) - p);

		if (il == wl && !strncmp(p, word, wl))
			return true;
		p += il + 1;
	}
	return false;
}

/* Copy [s, s + n) with a NUL into out[len]. */
static int procstat_copy(const char *s, size_t n, char *out, size_t len)
{
	if (n + 1 > len)
		return -ENAMETOOLONG;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

int procstat_cgroup_path(const char *text, const char *controller, char *out, size_t len)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l);
		const char *c1 = memchr(l, ':', (size_t)(end - l)), *c2;

		if (!c1 || !(c2 = memchr(c1 + 1, ':', (size_t)(end - c1 - 1))))
			continue;
		if (controller ? procstat_in_list(c1 + 1, (size_t)(c2 - c1 - 1), controller) :
				 (c2 == c1 + 1 && c1 - l == 1 && *l == '0'))
			return procstat_copy(c2 + 1, (size_t)(end - c2 - 1), out, len);
	}
	return -ENOENT;
}

/* One mountinfo line's super options (its last field), into [*s, *s + *n). */
static bool procstat_superopts(const char *l, const char *end, const char **s, size_t *n)
{
	const char *sp = end;

	while (sp > l && sp[-1] != ' ')
		sp--;
	if (sp == l)
		return false;
	*s = sp;
	*n = (size_t)(end - sp);
	return true;
}

int procstat_cgroup_mount(const char *mountinfo, const char *controller, char *out, size_t len)
{
	const char *l = mountinfo;

	for (; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l);
		struct mountinfo_entry *e = malloc(sizeof(*e));
		char line[4096];
		const char *so;
		size_t n;
		int r = -ENOENT;

		if (!e)
			return -ENOMEM;
		if ((size_t)(end - l) < sizeof(line) && !procstat_copy(l, (size_t)(end - l), line,
								       sizeof(line)) &&
		    !mountinfo_parse_line(line, e) &&
		    (controller ? !strcmp(e->fstype, "cgroup") &&
					  procstat_superopts(l, end, &so, &n) &&
					  procstat_in_list(so, n, controller) :
				  !strcmp(e->fstype, "cgroup2")))
			r = procstat_copy(e->mount_point, strlen(e->mount_point), out, len);
		free(e);
		if (r != -ENOENT)
			return r;
	}
	return -ENOENT;
}
