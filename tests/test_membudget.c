/* membudget: the run's memory from its targets, depth, request size and recording. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "membudget.h"

Test(membudget, one_target)
{
	struct membudget_run r = { .targets = 1, .depth = 1, .request_size = 4096 };

	cr_assert_eq(membudget_per_target(&r), MEMBUDGET_TARGET + 4096);
	cr_assert_eq(membudget_need(&r), MEMBUDGET_BASE + MEMBUDGET_TARGET + 4096);
}

Test(membudget, grows_with_targets_depth_and_recording)
{
	struct membudget_run r = { .targets = 64, .depth = 16, .request_size = 5000 };
	uint64_t each = MEMBUDGET_TARGET + 16 * 8192; /* 5000 B on two pages */

	cr_assert_eq(membudget_need(&r), MEMBUDGET_BASE + 64 * each);
	r.record_requests = true;
	cr_assert_eq(membudget_need(&r), MEMBUDGET_BASE + 64 * (each + MEMBUDGET_RECORD_REQUESTS));
	r.view = true;
	cr_assert_eq(membudget_need(&r),
		     MEMBUDGET_BASE + 64 * (each + MEMBUDGET_RECORD_REQUESTS + MEMBUDGET_VIEW));
	/* the figure the test machine's refusal printed for 64 plain targets: 88.2 MiB */
	r = (struct membudget_run){ .targets = 64, .depth = 1, .request_size = 4096 };
	cr_assert_eq(membudget_need(&r), (8ull << 20) + 64 * ((1280ull << 10) + 4096));
}

Test(membudget, saturates)
{
	struct membudget_run r = { .targets = 4, .depth = UINT64_MAX, .request_size = 1 << 20 };

	cr_assert_eq(membudget_need(&r), UINT64_MAX);
	r = (struct membudget_run){ .targets = 0, .depth = 0, .request_size = 0 };
	cr_assert_eq(membudget_need(&r), MEMBUDGET_BASE + MEMBUDGET_TARGET, "zeros count as one");
}
