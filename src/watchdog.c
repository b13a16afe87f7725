#include "config.h"

#include "watchdog.h"

#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "out.h"

/* The shared page: the probe's control block and the parent's "stop" flag. */
struct watchdog_page {
	struct probe_ctl ctl;
	atomic_int done;
};

static void watchdog_child(struct watchdog_page *pg, uint64_t first_warn, const char *prefix,
			   pid_t parent)
{
	uint64_t warned_for = 0, next = first_warn;
	int null = open("/dev/null", O_RDWR);

	/* never hold the parent's stdin/stdout (a pipe reader waits for EOF) */
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	signal(SIGINT, SIG_IGN); /* the parent handles the terminal's signals */
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (!atomic_load(&pg->done) && getppid() == parent) {
		struct timespec ts = { 0, 100000000L };
		uint64_t since, now;

		nanosleep(&ts, NULL);
		since = atomic_load_explicit(&pg->ctl.inflight, memory_order_relaxed);
		now = clock_now();
		if (since != warned_for) {
			/* a new request (or none): start counting again */
			warned_for = since;
			next = first_warn;
		}
		if (since && now > since && now - since >= next && !atomic_load(&pg->done)) {
			char line[128];
			int n = snprintf(line, sizeof(line), "%srequest in flight for %.1f s\n",
					 prefix, (double)(now - since) / 1e9);

			if (n > 0)
				out_write(STDERR_FILENO, line, (size_t)n);
			next *= 2;
		}
	}
	_exit(0);
}

int watchdog_start(struct watchdog *w, uint64_t first_warn, const char *prefix)
{
	struct watchdog_page *pg;
	pid_t parent = getpid(), pid;

	memset(w, 0, sizeof(*w));
	pg = mmap(NULL, sizeof(*pg), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pg == MAP_FAILED)
		return -errno;
	memset(pg, 0, sizeof(*pg));
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		munmap(pg, sizeof(*pg));
		return err;
	}
	if (pid == 0)
		watchdog_child(pg, first_warn, prefix, parent);
	w->ctl = &pg->ctl;
	w->pid = pid;
	return 0;
}

void watchdog_stop(struct watchdog *w)
{
	struct watchdog_page *pg = (struct watchdog_page *)w->ctl;

	if (!pg)
		return;
	atomic_store(&pg->done, 1);
	if (w->pid > 0) {
		kill(w->pid, SIGKILL); /* no need to wait out its 100 ms nap */
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	munmap(pg, sizeof(*pg));
	w->ctl = NULL;
	w->pid = 0;
}
