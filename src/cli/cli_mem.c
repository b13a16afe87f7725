/*
 * The run's memory, budgeted before anything starts: a run of N targets that its memory
 * cgroup (or the host) cannot hold is refused with the figure it needs, instead of a process
 * of it being killed by the OOM killer mid-run with no output (64 targets in a 64 MB cgroup).
 */
#include "config.h"

#include <stdint.h>

#include "cli.h"
#include "cli_int.h"
#include "fmt.h"
#include "membudget.h"
#include "memlimit.h"
#include "opts.h"

int cli_mem_check(const struct opts *o)
{
	struct membudget_run br = { .targets = o->npaths, .record_requests = o->record_requests,
				    .view = o->tui };
	char need[FMT_BUFSZ], base[FMT_BUFSZ], each[FMT_BUFSZ], avail[FMT_BUFSZ], lim[FMT_BUFSZ],
	     held[FMT_BUFSZ];
	struct memlimit m;
	uint64_t want;

	opts_largest_request(o, &br.request_size, &br.depth);
	want = membudget_need(&br);
	if (memlimit_read(&m) || want <= m.free)
		return -1;
	fmt_value(need, sizeof(need), want, FMT_SIZE);
	fmt_value(each, sizeof(each), membudget_per_target(&br), FMT_SIZE);
	fmt_value(avail, sizeof(avail), m.free, FMT_SIZE);
	if (m.by_cgroup)
		cli_msg("%u target%s need%s about %s of memory (%s for the run and %s a target), "
			"more than the %s free in memory cgroup %s (limit %s, %s held): probe fewer "
			"targets in one run%s", o->npaths, o->npaths == 1 ? "" : "s",
			o->npaths == 1 ? "s" : "", need,
			fmt_value(base, sizeof(base), MEMBUDGET_BASE, FMT_SIZE), each, avail, m.cgroup,
			fmt_value(lim, sizeof(lim), m.limit, FMT_SIZE),
			fmt_value(held, sizeof(held), m.held, FMT_SIZE),
			o->record_requests ? " or without --record-requests" : "");
	else
		cli_msg("%u target%s need%s about %s of memory, more than the %s the host has "
			"available (MemAvailable)", o->npaths, o->npaths == 1 ? "" : "s",
			o->npaths == 1 ? "s" : "", need, avail);
	return CLI_EXIT_USAGE;
}
