/*
 * memlimit: how much memory this process may still take — its memory cgroup's limit (v1's
 * hierarchical_memory_limit, or v2's smallest memory.max on the way to the root) less what
 * the cgroup holds that cannot be reclaimed (its usage less its file cache: kernel memory,
 * page tables and anonymous and shared memory stay), and the host's MemAvailable. The text
 * parsers are pure; memlimit_read() reads /proc and /sys.
 */
#ifndef IOPROBE_MEMLIMIT_H
#define IOPROBE_MEMLIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct memlimit {
	uint64_t limit;     /* the cgroup's limit in bytes; UINT64_MAX when it has none */
	uint64_t held;      /* what the cgroup holds that is not file cache */
	uint64_t available; /* the host's MemAvailable */
	uint64_t free;      /* what this run may take: min(limit - held, available) */
	bool by_cgroup;     /* free is the cgroup's (limit - held), not MemAvailable */
	char cgroup[256];   /* the cgroup's path ("/" for the root), "" when none was found */
};

/*
 * The memory cgroup's path in the text of /proc/self/cgroup: v1's line whose controllers
 * include "memory" (*v2 false), else v2's "0::" line (*v2 true). Returns 0, or -ENOENT when
 * neither is there, -ENAMETOOLONG when it does not fit len.
 */
int memlimit_cgroup_path(const char *text, char *out, size_t len, bool *v2);

/* The value of key in a "key value" text (memory.stat, /proc/meminfo's "Key: N kB" in
 * bytes when kb). Returns true with *v, or false when key is absent or not a number. */
bool memlimit_key(const char *text, const char *key, bool kb, uint64_t *v);

/*
 * A limit file's text (memory.max "max\n" or a number; v1's limit_in_bytes, whose "no
 * limit" is a page-rounded LLONG_MAX): the limit in bytes, UINT64_MAX for none. Returns
 * true, or false for text that is neither.
 */
bool memlimit_parse_limit(const char *text, uint64_t *v);

/*
 * Read this process's limits into m. Without a memory cgroup (or a readable one) the limit
 * is UINT64_MAX and only MemAvailable bounds m->free. Returns 0, or -errno when
 * /proc/meminfo cannot be read (m->free is then UINT64_MAX).
 */
int memlimit_read(struct memlimit *m);

#endif
