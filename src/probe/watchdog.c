#include "config.h"

#include "watchdog.h"

#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "common.h"
#include "out.h"

/* The shared pages: the parent's "stop" flag, then one control block per probe. */
struct watchdog_page {
	atomic_int done;
	struct probe_ctl ctl[];
};

bool watchdog_due(struct watchdog_seen *w, uint64_t since, uint64_t now, uint64_t first_warn)
{
	if (since != w->warned_for) {
		/* a new request (or none): start counting again */
		w->warned_for = since;
		w->next = first_warn;
	}
	if (!since || now <= since || now - since < w->next)
		return false;
	w->next *= 2;
	return true;
}

uint64_t watchdog_wait(const struct watchdog_seen *w, uint64_t since, uint64_t now,
		       uint64_t first_warn)
{
	uint64_t due;

	if (!since || since != w->warned_for)
		return first_warn; /* none, or a new one: due first_warn after its start at least */
	due = since + w->next;
	return due > now ? due - now : 0;
}

/*
 * One look at probe i's request in flight; warns when it has been there long enough.
 * Returns ns until it can next be due (watchdog_wait).
 */
static uint64_t watchdog_look(struct watchdog_page *pg, size_t i, struct watchdog_seen *w,
			      uint64_t first_warn, const char *prefix)
{
	uint64_t since = atomic_load_explicit(&pg->ctl[i].inflight, memory_order_relaxed);
	uint64_t now = clock_now();

	if (watchdog_due(w, since, now, first_warn) && !atomic_load(&pg->done)) {
		char line[PATH_MAX + 160];
		int n = snprintf(line, sizeof(line), "%srequest in flight for %.1f s\n", prefix,
				 (double)(now - since) / NS_PER_S);

		if (n > 0)
			out_write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n :
						       sizeof(line) - 1);
	}
	return watchdog_wait(w, since, now, first_warn);
}

/*
 * The child: a look at each probe's request in flight, then a nap until the first of them
 * can be due (a warning comes on time, and an idle run wakes it once a second, not ten
 * times), until done or the parent is gone. death: SIGKILL it when the thread that forked it
 * ends (only when that is the main thread: a target's thread ends before the run; getppid()
 * tells the parent's end then).
 */
static void watchdog_child(struct watchdog_page *pg, size_t n, uint64_t first_warn,
			   const char *const *prefix, pid_t parent, bool death)
{
	struct watchdog_seen *seen = calloc(n, sizeof(*seen));
	int null = open("/dev/null", O_RDWR);

	/* never hold the parent's stdin/stdout (a pipe reader waits for EOF) */
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	/* nor any other of its descriptors (a --record pipe's write end: its EOF) */
	syscall(SYS_close_range, STDERR_FILENO + 1, ~0u, 0);
	signal(SIGINT, SIG_IGN); /* the parent handles the terminal's signals */
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	if (death)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (seen && !atomic_load(&pg->done) && getppid() == parent) {
		uint64_t nap = first_warn < WATCHDOG_NAP_MAX_NS ? first_warn : WATCHDOG_NAP_MAX_NS;
		struct timespec ts;

		for (size_t i = 0; i < n; i++) {
			uint64_t wait = watchdog_look(pg, i, &seen[i], first_warn, prefix[i]);

			nap = wait < nap ? wait : nap;
		}
		nap = nap < 1000000ull ? 1000000ull : nap; /* 1 ms at least: never a busy loop */
		ts = (struct timespec){ (time_t)(nap / 1000000000ull), (long)(nap % 1000000000ull) };
		nanosleep(&ts, NULL);
	}
	_exit(0);
}

/* Fork a child watching w's page; its pid, or -errno. */
static pid_t watchdog_fork(struct watchdog *w)
{
	pid_t parent = getpid();
	bool main_thread = (pid_t)syscall(SYS_gettid) == parent;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0)
		watchdog_child(w->page, w->n, w->first_warn, (const char *const *)w->prefix,
			       parent, main_thread);
	return pid;
}

void watchdog_check(struct watchdog *w)
{
	uint64_t now = clock_now();
	pid_t old, pid;
	char text[160];
	int st;

	if (!w->page || now - atomic_load(&w->checked) < WATCHDOG_CHECK_NS ||
	    atomic_flag_test_and_set(&w->busy))
		return;
	atomic_store(&w->checked, now);
	old = atomic_load(&w->pid);
	if (old <= 0 || waitpid(old, &st, WNOHANG) != old) {
		atomic_flag_clear(&w->busy);
		return;
	}
	pid = watchdog_fork(w);
	atomic_store(&w->pid, pid > 0 ? pid : 0);
	atomic_flag_clear(&w->busy);
	if (pid > 0)
		snprintf(text, sizeof(text), "the hang watchdog (pid %d) %s %d; started again "
			 "(pid %d)", (int)old, WIFSIGNALED(st) ? "was killed by signal" :
			 "ended with status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st),
			 (int)pid);
	else
		snprintf(text, sizeof(text), "the hang watchdog (pid %d) ended and cannot be "
			 "started again (%s): a hung request is no longer warned about", (int)old,
			 strerror((int)-pid));
	if (w->say)
		w->say(text);
}

/* Free what watchdog_start_n kept (the prefixes). */
static void watchdog_free_prefix(struct watchdog *w)
{
	for (size_t i = 0; w->prefix && i < w->n; i++)
		free(w->prefix[i]);
	free(w->prefix);
	w->prefix = NULL;
}

int watchdog_start_n(struct watchdog *w, size_t n, uint64_t first_warn,
		     const char *const *prefix, void (*say)(const char *text))
{
	struct watchdog_page *pg;
	size_t len = sizeof(*pg) + n * sizeof(pg->ctl[0]);
	pid_t pid;

	memset(w, 0, sizeof(*w));
	if (!n)
		return -EINVAL;
	w->prefix = calloc(n, sizeof(*w->prefix));
	for (size_t i = 0; w->prefix && i < n; i++)
		if (!(w->prefix[i] = strdup(prefix[i] ? prefix[i] : "")))
			break;
	w->n = n;
	if (!w->prefix || !w->prefix[n - 1]) {
		watchdog_free_prefix(w);
		return -ENOMEM;
	}
	pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pg == MAP_FAILED) {
		watchdog_free_prefix(w);
		return -errno;
	}
	memset(pg, 0, len);
	w->page = pg;
	w->len = len;
	w->first_warn = first_warn;
	w->say = say;
	pid = watchdog_fork(w);
	if (pid < 0) {
		munmap(pg, len);
		w->page = NULL;
		watchdog_free_prefix(w);
		return (int)pid;
	}
	w->ctl = pg->ctl;
	atomic_store(&w->pid, pid);
	atomic_store(&w->checked, clock_now());
	return 0;
}

int watchdog_start(struct watchdog *w, uint64_t first_warn, const char *prefix)
{
	return watchdog_start_n(w, 1, first_warn, &prefix, NULL);
}

void watchdog_stop(struct watchdog *w)
{
	struct watchdog_page *pg = w->page;
	pid_t pid;

	if (!pg)
		return;
	while (atomic_flag_test_and_set(&w->busy))
		; /* a watchdog_check still under way (the probes have ended: none comes after) */
	atomic_store(&pg->done, 1);
	pid = atomic_load(&w->pid);
	if (pid > 0) {
		kill(pid, SIGKILL); /* no need to wait out its nap */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	munmap(pg, w->len);
	watchdog_free_prefix(w);
	w->page = NULL;
	w->ctl = NULL;
	w->pid = 0;
	atomic_flag_clear(&w->busy);
}
