/*
 * child: what a process forked to run a request that can hang (the prober's
 * probe loop, the opener's preparation) sets up first, so that it never holds
 * what the caller owns: the terminal's signals are ignored (the caller decides
 * when to stop and says so), every descriptor but the ones it needs is closed,
 * stdio is /dev/null (a hung child never holds a pipe's write end open).
 */
#ifndef IOPROBE_CHILD_H
#define IOPROBE_CHILD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Ignore SIGINT, SIGTERM, SIGHUP and SIGPIPE; run kick (no SA_RESTART, so it
 * interrupts a sleep) on SIGUSR1; unblock every signal; receive death_sig when
 * the parent dies. Returns -ESRCH when the parent (parent) already died: the
 * child should then end at once.
 */
int child_signals(pid_t parent, void (*kick)(int), int death_sig);

/* Close every descriptor but keep[0..n-1] (sorted, >= 0); stdio becomes /dev/null. */
void child_fds(const int *keep, size_t n);

/*
 * Drop the caller's references to fds[0..n-1] (each >= 0) without ever being
 * the one that drops the last: a process of its own (forked twice, so that
 * nobody waits for it; every other descriptor closed, stdio /dev/null) takes
 * copies and closes them once the caller's copies, closed at once, are gone
 * (it waits for a pipe's EOF: closing first would leave the caller's last). The last
 * close of a file on a disk that hangs (an unnamed temp file's eviction, a
 * truncation) then blocks that process, never the caller, which waits for that
 * process's end at most 100 ms (so that on a healthy disk the closes, and a kept
 * file's lock, are over when it returns; a signal ends the wait). When no process
 * can be started the caller closes them itself (-errno returned; they are closed).
 */
int child_close_apart(const int *fds, size_t n);

/* The most bytes of arg child_call() brings back. */
#define CHILD_CALL_ARG_MAX 1024

/*
 * fn(arg, msg, msglen) run in a child process (set up as above: signals
 * ignored, every descriptor but keep[0..nkeep-1] closed; keep sorted), its
 * result, msg and the first argsize (<= CHILD_CALL_ARG_MAX) bytes of *arg as
 * it left them brought back. Waits until it ends; when *stop (may be NULL) is
 * set and the child has not answered grace_ns later (a request on a disk
 * that hangs), it is given up: -ETIMEDOUT, msg saying so, the child left to
 * end when its request returns. -ECHILD (msg filled) when it could not be
 * started or died.
 */
int child_call(int (*fn)(void *arg, char *msg, size_t msglen), void *arg, size_t argsize,
	       const int *keep, size_t nkeep, const volatile sig_atomic_t *stop,
	       uint64_t grace_ns, char *msg, size_t msglen);

#endif
