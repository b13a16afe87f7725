#include "config.h"

#include "membudget.h"

#define MEMBUDGET_PAGE 4096ull

uint64_t membudget_per_target(const struct membudget_run *r)
{
	uint64_t stride = (r->request_size + MEMBUDGET_PAGE - 1) / MEMBUDGET_PAGE * MEMBUDGET_PAGE;
	uint64_t depth = r->depth ? r->depth : 1;
	uint64_t buffers = stride > UINT64_MAX / depth ? UINT64_MAX : stride * depth;
	uint64_t share = MEMBUDGET_TARGET + (r->record_requests ? MEMBUDGET_RECORD_REQUESTS : 0) +
			 (r->view ? MEMBUDGET_VIEW : 0);

	return buffers > UINT64_MAX - share ? UINT64_MAX : share + buffers;
}

uint64_t membudget_need(const struct membudget_run *r)
{
	uint64_t each = membudget_per_target(r), n = r->targets ? r->targets : 1;

	if (each > (UINT64_MAX - MEMBUDGET_BASE) / n)
		return UINT64_MAX;
	return MEMBUDGET_BASE + each * n;
}
