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

#endif
