/*
 * membudget: what a run of N targets needs in memory, from figures measured on this
 * design (Debian 12, x86-64, 2026-11-28, peak usage of a memory cgroup, kernel memory
 * included): the run's own processes 7.0 MiB with one target; each further target 0.94 MiB
 * over a short run and 1.13 MiB over 20 s of one-second periods (its probe process, its
 * page tables, the mapping it shares with the run); --record-requests 0.5 MiB more a target
 * at 100 requests a second; the view 4.1 MiB a target in all (its screens' models, mostly
 * set up at the start: 64 targets at 269 MiB, 10 MiB with one, nearly flat over 20 s); plus
 * each target's request buffers (-Q x -s). The budget keeps a margin over those figures.
 * Pure: no I/O.
 */
#ifndef IOPROBE_MEMBUDGET_H
#define IOPROBE_MEMBUDGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define MEMBUDGET_BASE (8ull << 20)            /* the run's own processes */
#define MEMBUDGET_TARGET (1280ull << 10)       /* a target's probe process and mapping */
#define MEMBUDGET_RECORD_REQUESTS (640ull << 10) /* a target's requests recorded one by one */
#define MEMBUDGET_VIEW (3584ull << 10)         /* a target's screen in the view (-X) */

struct membudget_run {
	unsigned targets;
	uint64_t depth;        /* requests in flight per target (-Q; 1 without) */
	uint64_t request_size; /* bytes of one request (-s) */
	bool record_requests;  /* --record-requests */
	bool view;             /* -X */
};

/* The bytes run r needs: the base, each target's share, and its buffers on whole pages. */
uint64_t membudget_need(const struct membudget_run *r);

/* The bytes of one target's share (without the base). */
uint64_t membudget_per_target(const struct membudget_run *r);

#endif
