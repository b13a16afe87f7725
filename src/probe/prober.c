#include "config.h"

#include "prober.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "clock.h"
#include "common.h"
#include "engine.h"
#include "msg.h"
#include "procstat.h"
#include "readfile.h"
#include "ring.h"

#define PROBER_RECS 4096      /* records between one child and the caller (a power of two)... */
#define PROBER_RECS_MIN 512   /* ...fewer with many probers, this many at least */
#define PROBER_RECS_ALL (8u * PROBER_RECS) /* ...the probers of one run together at most */
#define PROBER_TALLIES 16     /* closed periods' tallies waiting (a power of two)... */
#define PROBER_TALLIES_MIN 4  /* ...fewer with many probers, this many at least */
#define PROBER_TALLIES_ALL (4u * PROBER_TALLIES) /* ...the probers of one run together at most */
#define PROBER_TEXTS 16       /* warnings waiting (a power of two) */
#define PROBER_TEXT_LEN 256   /* a warning's text at most (probe_warn's buffer) */
#define PROBER_WAKE_GAP_NS 10000000ull /* the child wakes a busy caller at most every 10 ms,
					* an idle one (idle_wait) at every record... */
#define PROBER_POLL_MS 20     /* ...which looks this often after a stop or while busy... */
#define PROBER_BUSY_NS 100000000ull /* ...busy: records found twice within this */
/*
 * ...and otherwise when the child wakes it, the child ends (its pidfd), a stop is notified
 * (prober_notify_stop) or this long passed (the idle callback's cadence: the hang watchdog's
 * process looked after). At 20 ms, 16 idle targets woke the main process 800 times a second
 * for nothing (1.6 % of a core at 1 request/s).
 */
#define PROBER_IDLE_MS 1000
/*
 * The child's longest sleep between requests (clock_set_slice): the caller's kick (SIGUSR1,
 * every PROBER_KICK_NS after a stop while no request is in flight) ends it; at 50 ms an idle
 * child at 1 request/s woke 20 times a second.
 */
#define PROBER_CHILD_SLICE_NS 1000000000ull
#define PROBER_FULL_WAIT_NS 50000L /* the child's pause while the ring is full */
#define PROBER_KICK_NS 50000000ull /* after a stop, the child's sleep is interrupted this often */

enum prober_kind { PR_SAMPLE, PR_PERIOD, PR_BURST_END, PR_WARNING, PR_SKIPPED };

struct prober_rec {
	enum prober_kind kind;
	enum notice notice;  /* PR_SAMPLE */
	union {
		struct sample sample;                     /* PR_SAMPLE */
		struct { uint64_t hi, step, n; } skipped; /* PR_SKIPPED */
	};
};

enum prober_state { PROBER_RUNNING, PROBER_DONE };

/* The shared mapping: the probe first (prober_alloc returns it). */
struct prober_shm {
	struct probe probe;
	struct probe_ctl ctl;
	struct ring recs;     /* struct prober_rec */
	struct ring tallies;  /* struct tally, one per PR_PERIOD */
	struct ring texts;    /* char[PROBER_TEXT_LEN], one per PR_WARNING */
	volatile sig_atomic_t stop; /* the child's stop flag, set by the caller */
	_Atomic int state;          /* enum prober_state, the child's */
	atomic_bool waiting;        /* the caller sleeps on the eventfd */
	atomic_bool idle_wait;      /* ...for long (PROBER_IDLE_MS): wake it at every record */
	_Atomic uint64_t last_wake; /* monotonic ns of the child's last eventfd write */
	int wake_fd;
	_Atomic pid_t child;        /* the running child's pid, 0 when none */
	bool cpu_known;             /* the child's run delay over its life, read at its end */
	uint64_t cpu_wait_ns;
	int result;                 /* probe_run()'s, valid once PROBER_DONE */
	bool started;               /* the caller's: the last prober_run started its child */
	char msg[MSG_MAX];
	size_t map_len;             /* the whole mapping's: this header, then the rings' storage */
	uint64_t nrecs, ntallies;   /* the rings' capacities (powers of two) */
	struct prober_rec *rec_data; /* nrecs, in the mapping after the header */
	struct tally *tally_data;   /* ntallies, after them */
	char (*text_data)[PROBER_TEXT_LEN]; /* PROBER_TEXTS, last */
};

static struct prober_shm *prober_shm_of(struct probe *p)
{
	return (struct prober_shm *)(void *)p; /* the probe is the mapping's first member */
}

uint64_t prober_ring_size(uint64_t full, uint64_t least, uint64_t all, unsigned probers)
{
	uint64_t cap = full;

	while (cap > least && probers > 1 && cap * probers > all)
		cap /= 2;
	return cap;
}

/* Round n up to a multiple of the alignment of every member the mapping holds. */
static size_t prober_align(size_t n)
{
	const size_t a = _Alignof(max_align_t);

	return (n + a - 1) / a * a;
}

struct probe *prober_alloc(unsigned probers)
{
	uint64_t nrecs = prober_ring_size(PROBER_RECS, PROBER_RECS_MIN, PROBER_RECS_ALL, probers);
	uint64_t ntallies = prober_ring_size(PROBER_TALLIES, PROBER_TALLIES_MIN,
					     PROBER_TALLIES_ALL, probers);
	size_t recs_at = prober_align(sizeof(struct prober_shm));
	size_t tallies_at = prober_align(recs_at + nrecs * sizeof(struct prober_rec));
	size_t texts_at = prober_align(tallies_at + ntallies * sizeof(struct tally));
	size_t len = texts_at + (size_t)PROBER_TEXTS * PROBER_TEXT_LEN;
	unsigned char *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				   -1, 0);
	struct prober_shm *m = (struct prober_shm *)(void *)base;

	if (base == MAP_FAILED)
		return NULL;
	m->wake_fd = -1; /* the rest is zero, as mmap gives it */
	m->map_len = len;
	m->nrecs = nrecs;
	m->ntallies = ntallies;
	/* the child is forked with the mapping at the same address: the pointers hold there */
	m->rec_data = (struct prober_rec *)(void *)(base + recs_at);
	m->tally_data = (struct tally *)(void *)(base + tallies_at);
	m->text_data = (char (*)[PROBER_TEXT_LEN])(void *)(base + texts_at);
	return &m->probe;
}

void prober_free(struct probe *p)
{
	if (p)
		munmap(prober_shm_of(p), prober_shm_of(p)->map_len);
}

struct probe_ctl *prober_ctl(struct probe *p)
{
	return &prober_shm_of(p)->ctl;
}

bool prober_cpu_wait(struct probe *p, uint64_t *ns)
{
	struct prober_shm *m = prober_shm_of(p);

	*ns = m->cpu_known ? m->cpu_wait_ns : 0;
	return m->cpu_known;
}

pid_t prober_pid(struct probe *p)
{
	return p ? atomic_load(&prober_shm_of(p)->child) : 0;
}

/* ---- the child ---- */

/* Wake the caller if it sleeps, at most every PROBER_WAKE_GAP_NS unless forced. */
static void prober_wake(struct prober_shm *m, bool force)
{
	uint64_t now, one = 1;

	/* the record pushed before, the caller's flags after: pairs with prober_sleep's fence
	 * (either it sees the record before it sleeps, or this sees it waiting) */
	atomic_thread_fence(memory_order_seq_cst);
	if (!atomic_load_explicit(&m->waiting, memory_order_relaxed))
		return; /* the caller is busy reading: no clock read, no syscall */
	now = clock_now();
	if (!force && !atomic_load_explicit(&m->idle_wait, memory_order_relaxed) &&
	    now - atomic_load_explicit(&m->last_wake, memory_order_relaxed) < PROBER_WAKE_GAP_NS)
		return; /* a busy caller looks again within PROBER_POLL_MS */
	atomic_store_explicit(&m->last_wake, now, memory_order_relaxed);
	atomic_store_explicit(&m->waiting, false, memory_order_relaxed);
	if (write(m->wake_fd, &one, sizeof(one)) < 0) {
		/* the counter is saturated: the caller wakes anyway */
	}
}

/* Push into r, waiting while it is full (the caller reads); dropped only after a stop. */
static void prober_push(struct prober_shm *m, struct ring *r, const void *rec)
{
	const struct timespec pause = { 0, PROBER_FULL_WAIT_NS };

	while (ring_full(r) && !m->stop) {
		prober_wake(m, true);
		nanosleep(&pause, NULL);
	}
	ring_push(r, rec);
}

static int prober_on_request(void *ctx, const struct sample *s, enum notice n)
{
	struct prober_shm *m = ctx;
	struct prober_rec rec = { .kind = PR_SAMPLE, .notice = n, .sample = *s };

	prober_push(m, &m->recs, &rec);
	prober_wake(m, false);
	return 0;
}

static int prober_on_period(void *ctx, const struct tally *t)
{
	struct prober_shm *m = ctx;
	struct prober_rec rec = { .kind = PR_PERIOD };

	prober_push(m, &m->tallies, t);
	prober_push(m, &m->recs, &rec);
	prober_wake(m, true);
	return 0;
}

static int prober_on_burst_end(void *ctx)
{
	struct prober_shm *m = ctx;
	struct prober_rec rec = { .kind = PR_BURST_END };

	prober_push(m, &m->recs, &rec);
	prober_wake(m, false);
	return 0;
}

static void prober_on_warn(void *ctx, const char *text)
{
	struct prober_shm *m = ctx;
	struct prober_rec rec = { .kind = PR_WARNING };
	char line[PROBER_TEXT_LEN];

	snprintf(line, sizeof(line), "%s", text);
	prober_push(m, &m->texts, line);
	prober_push(m, &m->recs, &rec);
	prober_wake(m, true);
}

static void prober_on_skipped(void *ctx, uint64_t hi, uint64_t step, uint64_t n)
{
	struct prober_shm *m = ctx;
	struct prober_rec rec = { .kind = PR_SKIPPED, .skipped = { hi, step, n } };

	prober_push(m, &m->recs, &rec);
	prober_wake(m, false);
}

static void prober_on_kick(int sig)
{
	(void)sig; /* only interrupts a sleep; the stop flag says why */
}

static void sort2(int *a)
{
	if (a[0] > a[1]) {
		int t = a[0];

		a[0] = a[1];
		a[1] = t;
	}
}

/* The child: its copy of the caller's memory at fork holds heard, the caller's sink. */
/* The child's run delay over its life (schedstat), read at its end: the caller's after. */
static void prober_note_cpu(struct prober_shm *m)
{
	uint64_t run;
	int err;
	char *t = readfile_text("/proc/thread-self/schedstat", &err);

	m->cpu_known = t && !procstat_schedstat(t, &run, &m->cpu_wait_ns);
	free(t);
}

static _Noreturn void prober_child(struct prober_shm *m, pid_t parent,
				   const struct probe_sink *heard)
{
	struct probe *p = &m->probe;
	/* only what the caller's sink hears crosses: -q -B runs send no sample at all */
	struct probe_sink sink = { m, heard->request ? prober_on_request : NULL,
				   heard->period ? prober_on_period : NULL,
				   heard->burst_end ? prober_on_burst_end : NULL,
				   prober_on_warn, heard->skipped ? prober_on_skipped : NULL, NULL };
	struct engine own;
	int keep[2] = { p->engine->params.fd, m->wake_fd };
	int ret;

	if (child_signals(parent, prober_on_kick, SIGKILL))
		_exit(0);
	/* its one thread takes the caller's kick (a stop): no need to look every 50 ms */
	clock_set_slice(PROBER_CHILD_SLICE_NS);
	sort2(keep);
	child_fds(keep, 2);
	ret = engine_start(&own, p->engine->ops, &p->engine->params);
	if (ret) {
		m->result = err_set(m->msg, sizeof(m->msg), ret,
				    "failed to start the %s engine: %s", p->engine->ops->name,
				    strerror(-ret));
	} else {
		p->engine = &own;
		m->result = probe_run(p, &sink, &m->stop, m->msg, sizeof(m->msg));
		engine_stop(&own);
	}
	/* the target closed before the caller hears the end: an io_uring worker, which shares
	 * this descriptor table and may outlive _exit, must not keep a -WWW device claimed */
	close(keep[0] == m->wake_fd ? keep[1] : keep[0]);
	prober_note_cpu(m);
	atomic_store(&m->state, PROBER_DONE);
	atomic_store(&m->waiting, true);
	prober_wake(m, true);
	close(m->wake_fd); /* nothing left open at exit but stdio on /dev/null */
	_exit(0);
}

/* ---- the caller ---- */

/*
 * Hand every record waiting to the sink, in order. After a sink error (*err, kept) the
 * records are only taken, so the child never waits on a ring nobody reads.
 */
static void prober_drain(struct prober_shm *m, const struct probe_sink *sink, int *err)
{
	static const struct probe_sink none = { 0 };
	struct prober_rec rec;
	struct tally t;
	char text[PROBER_TEXT_LEN];
	int ret = 0;

	while (ring_pop(&m->recs, &rec)) {
		if (*err || ret)
			sink = &none;
		switch (rec.kind) {
		case PR_SAMPLE:
			if (sink->request && !ret)
				ret = sink->request(sink->ctx, &rec.sample, rec.notice);
			break;
		case PR_PERIOD:
			if (ring_pop(&m->tallies, &t) && sink->period && !ret)
				ret = sink->period(sink->ctx, &t);
			break;
		case PR_BURST_END:
			if (sink->burst_end && !ret)
				ret = sink->burst_end(sink->ctx);
			break;
		case PR_WARNING:
			if (ring_pop(&m->texts, text) && sink->warn)
				sink->warn(sink->ctx, text);
			break;
		case PR_SKIPPED:
			if (sink->skipped)
				sink->skipped(sink->ctx, rec.skipped.hi, rec.skipped.step,
					      rec.skipped.n);
			break;
		}
	}
	if (!*err)
		*err = ret;
}

/* The process-wide stop notice: an eventfd made at the first prober_run, closed at exit (-1). */
static _Atomic int prober_stop_fd = -1;
static pthread_once_t prober_stop_once = PTHREAD_ONCE_INIT;

static void prober_stop_make(void)
{
	atomic_store(&prober_stop_fd, eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
}

/* At exit the notice is closed (nothing is left open); a signal after finds -1. */
__attribute__((destructor)) static void prober_stop_release(void)
{
	int fd = atomic_exchange(&prober_stop_fd, -1);

	if (fd >= 0)
		close(fd);
}

void prober_notify_stop(void)
{
	int fd = atomic_load(&prober_stop_fd);
	uint64_t one = 1;

	if (fd >= 0 && write(fd, &one, sizeof(one)) < 0) {
		/* saturated: it is readable anyway */
	}
}

/*
 * Sleep on the eventfd until the child wakes us, it ends (pidfd; -1: unknown), a stop is
 * notified (once seen, *stop_seen: the notice stays readable) or the wait passed: the idle
 * one (the child then wakes us at every record: idle_wait), or PROBER_POLL_MS while
 * stopping, while records come (busy: looks found some twice within PROBER_BUSY_NS; the
 * child then wakes us at most every PROBER_WAKE_GAP_NS) or when an end could go unheard.
 */
static void prober_sleep(struct prober_shm *m, int pidfd, bool *stop_seen, bool stopping,
			 bool busy)
{
	int sfd = atomic_load(&prober_stop_fd);
	struct pollfd pfd[3] = {
		{ .fd = m->wake_fd, .events = POLLIN }, { .fd = pidfd, .events = POLLIN },
		{ .fd = *stop_seen ? -1 : sfd, .events = POLLIN }, /* a negative fd is skipped */
	};
	bool idle = !(stopping || busy || pidfd < 0 || sfd < 0 || *stop_seen);
	int wait = idle ? PROBER_IDLE_MS : PROBER_POLL_MS;
	uint64_t v;

	atomic_store_explicit(&m->idle_wait, idle, memory_order_relaxed);
	atomic_store_explicit(&m->waiting, true, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst); /* pairs with prober_wake's */
	if (ring_count(&m->recs) == 0 && atomic_load(&m->state) == PROBER_RUNNING &&
	    poll(pfd, 3, wait) > 0 && (pfd[2].revents & POLLIN))
		*stop_seen = true; /* EINTR (a stop signal) is a wake-up too */
	if (read(m->wake_fd, &v, sizeof(v)) < 0) {
		/* EAGAIN: nothing was pending */
	}
}

/*
 * The child was given up (killed, its request still in the kernel): the run's wall time up
 * to now, and what was in flight as the result's message.
 */
static int prober_gave_up(struct prober_shm *m, char *msg, size_t msglen)
{
	uint64_t since = atomic_load(&m->probe.ctl->inflight);
	unsigned n = atomic_load(&m->probe.ctl->inflight_n);
	double secs = since ? (double)(clock_now() - since) / NS_PER_S : 0;

	if (m->probe.first_start)
		m->probe.acct.total.wall = clock_now() - m->probe.first_start;
	if (!n)
		n = since ? 1 : 0;
	if (!n)
		return err_set(msg, msglen, -ETIMEDOUT,
			       "the probe did not stop within %.1f s of the stop; given up",
			       (double)PROBER_GRACE_NS / NS_PER_S);
	return err_set(msg, msglen, -ETIMEDOUT,
		       "%u request%s in flight (hung %.1f s) at the stop: %s not complete", n,
		       n == 1 ? "" : "s", secs, n == 1 ? "it did" : "they did");
}

/* Start the child for sink; returns its pid or -errno. */
static pid_t prober_fork(struct prober_shm *m, const struct probe_sink *sink)
{
	pid_t parent = getpid(), pid;
	sigset_t kick, old;
	int err;

	/* a kick before the child's handler is in place must wait for it, not kill it */
	sigemptyset(&kick);
	sigaddset(&kick, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &kick, &old);
	pid = fork();
	if (pid == 0)
		prober_child(m, parent, sink); /* unblocks every signal once its handlers are set */
	err = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return pid < 0 ? -err : pid;
}

/* The child ended by itself (status, when already collected): its result. */
static int prober_reap(struct prober_shm *m, pid_t pid, bool reaped, int status, char *msg,
		       size_t msglen)
{
	while (!reaped && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (atomic_load(&m->state) != PROBER_DONE)
		return err_set(msg, msglen, -ECHILD, "the probe process ended unexpectedly (%s %d)",
			       WIFSIGNALED(status) ? "signal" : "status",
			       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	snprintf(msg, msglen, "%s", m->msg);
	return m->result;
}

bool prober_started(struct probe *p)
{
	return prober_shm_of(p)->started;
}

int prober_run(struct probe *p, const struct probe_sink *sink, const volatile sig_atomic_t *stop,
	       char *msg, size_t msglen)
{
	struct prober_shm *m = prober_shm_of(p);
	struct engine *engine = p->engine;
	uint64_t stop_at = 0, kicked = 0, last_found = 0;
	int ret, sink_err = 0, status = 0, pidfd;
	bool stop_seen = false;
	pid_t pid;

	if (!p->ctl)
		p->ctl = &m->ctl;
	m->started = false;
	m->stop = 0;
	atomic_store(&m->state, PROBER_RUNNING);
	m->cpu_known = false;
	atomic_store(&m->waiting, false);
	if (ring_init_at(&m->recs, m->rec_data, sizeof(m->rec_data[0]), m->nrecs) ||
	    ring_init_at(&m->tallies, m->tally_data, sizeof(m->tally_data[0]), m->ntallies) ||
	    ring_init_at(&m->texts, m->text_data, sizeof(m->text_data[0]), PROBER_TEXTS))
		return err_set(msg, msglen, -EINVAL, "the probe's ring could not be set up");
	/* the child writes the records as they come and the caller reads them: taken pages go
	 * back, so a slow probe does not touch all its records over half an hour, nor a long run
	 * all its 60 KB tallies (64 targets for 20 s at -P 1: 136 MB peak in their cgroup) */
	ring_hand_back(&m->recs, true);
	ring_hand_back(&m->tallies, true);
	m->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (m->wake_fd < 0)
		return err_set(msg, msglen, -errno, "cannot start the probe: eventfd: %s",
			       strerror(errno));
	pid = prober_fork(m, sink);
	if (pid < 0) {
		close(m->wake_fd);
		return err_set(msg, msglen, -ECHILD, "cannot start the probe process: %s",
			       strerror(-pid));
	}
	atomic_store(&m->child, pid);
	m->started = true;
	pthread_once(&prober_stop_once, prober_stop_make);
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0); /* -1 (before Linux 5.3): looked for often */
	for (;;) {
		/* records came since the last look, and at the look before (a stream, not one) */
		bool reaped, found = ring_count(&m->recs) > 0, busy = false;

		if (found) {
			uint64_t now = clock_now();

			busy = now - last_found < PROBER_BUSY_NS;
			last_found = now;
		}

		prober_drain(m, sink, &sink_err);
		reaped = waitpid(pid, &status, WNOHANG) == pid;
		if (reaped || atomic_load(&m->state) == PROBER_DONE) {
			prober_drain(m, sink, &sink_err); /* what came after the last look */
			ret = prober_reap(m, pid, reaped, status, msg, msglen);
			break;
		}
		if ((*stop || sink_err) && !stop_at) {
			stop_at = clock_now();
			m->stop = 1;
		}
		/* end its sleep between requests (a request in flight is left to finish: an
		 * interrupted wait would abandon it, and a slow one completes in the grace) */
		if (stop_at && clock_now() - kicked >= PROBER_KICK_NS &&
		    !atomic_load(&p->ctl->inflight)) {
			kicked = clock_now();
			kill(pid, SIGUSR1);
		}
		if (stop_at && clock_now() - stop_at >= PROBER_GRACE_NS) {
			kill(pid, SIGKILL); /* it dies when its request returns, if ever */
			ret = prober_gave_up(m, msg, msglen);
			break;
		}
		if (sink->idle)
			sink->idle(sink->ctx);
		prober_sleep(m, pidfd, &stop_seen, stop_at != 0, busy);
	}
	if (pidfd >= 0)
		close(pidfd);
	atomic_store(&m->child, 0);
	close(m->wake_fd);
	m->wake_fd = -1;
	p->engine = engine; /* the child ran its own copy */
	return sink_err ? sink_err : ret;
}
