/*
 * watchdog: warns on stderr when a request stays in flight too long (a hung
 * disk), so the operator knows the tool is not frozen. It runs in a forked
 * child process, not a thread: a second thread would share the file table
 * and make every pread() take the kernel's slower, refcounted file lookup —
 * measured at +7 % on cached 4 KiB reads. The probe publishes the start of
 * the request in flight in a probe_ctl on a shared page. The caller's
 * threads that wait for the probes call watchdog_check (prober_run's idle
 * callback: no thread of its own), which starts a new process on the same
 * page when the first died (kill -9): a later hang is still warned about,
 * and the death is said.
 */
#ifndef IOPROBE_WATCHDOG_H
#define IOPROBE_WATCHDOG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define WATCHDOG_CHECK_NS 250000000ull /* watchdog_check looks at most this often */

struct probe_ctl; /* probe.h: the probe publishes its request in flight there */

/* What a watcher remembers of one probe: the request it warned about, the next warning. */
struct watchdog_seen {
	uint64_t warned_for, next;
};

/*
 * The warning rule, for the watchdog and any other watcher (the recorder):
 * since is the start of the request in flight (probe_ctl.inflight, 0 when
 * none), now the monotonic time. True when a warning is due ("request in
 * flight for (now - since) s"): first after first_warn ns, then each time
 * the wait doubles; a new request starts the count again.
 */
bool watchdog_due(struct watchdog_seen *w, uint64_t since, uint64_t now, uint64_t first_warn);

/*
 * After watchdog_due(w, since, now, first_warn): ns from now until this probe can next be
 * due — its request's next warning, or, with none in flight (or one not seen yet), a
 * request starting now at the earliest (first_warn). 0 when due already.
 */
uint64_t watchdog_wait(const struct watchdog_seen *w, uint64_t since, uint64_t now,
		       uint64_t first_warn);

/* The watchdog child's longest nap: how late it sees the parent's end without PDEATHSIG. */
#define WATCHDOG_NAP_MAX_NS 1000000000ull

struct watchdog {
	struct probe_ctl *ctl; /* on a shared page: give ctl[i] to probe i (p->ctl) */
	_Atomic pid_t pid;     /* the child, or 0 when none runs */
	void *page;            /* the shared mapping */
	size_t len;            /* its length */
	size_t n;              /* probes watched */
	uint64_t first_warn;
	char **prefix;         /* n copies: a new child warns as the first did */
	void (*say)(const char *text); /* the child's death said (thread-safe; NULL: not said) */
	_Atomic uint64_t checked; /* monotonic ns of the last watchdog_check look */
	atomic_flag busy;      /* one watchdog_check at a time */
};

/*
 * Start the watchdog: a request in flight first_warn ns gets a
 * "<prefix>request in flight for N s" line on stderr, and another each time
 * the wait doubles. Start it before opening the target, so the child holds
 * no descriptor of it. Returns 0 or -errno (then w->ctl is NULL).
 */
int watchdog_start(struct watchdog *w, uint64_t first_warn, const char *prefix);

/*
 * The same for n probes (several targets): w->ctl is an array of n control
 * blocks, probe i's warnings start with prefix[i] (the strings must outlive
 * the call only until it returns: copies are kept); say (may be NULL) is
 * what watchdog_check says. Returns 0 or -errno (then w->ctl is NULL).
 */
int watchdog_start_n(struct watchdog *w, size_t n, uint64_t first_warn,
		     const char *const *prefix, void (*say)(const char *text));

/*
 * Look after the child (from any thread, often: it looks at most every
 * WATCHDOG_CHECK_NS, one caller at a time, never waits): when it died before
 * watchdog_stop (killed), a new one is started on the same page and say
 * hears "the hang watchdog (pid N) was killed by signal 9; started again
 * (pid M)" — or, when none can be started, that a hung request is no longer
 * warned about. Not after watchdog_stop began.
 */
void watchdog_check(struct watchdog *w);

/* Stop the child and wait for it; release the page (no watchdog_check runs). Idempotent. */
void watchdog_stop(struct watchdog *w);

#endif
