/* Unit tests for src/disk/sweepgrid.c: the size x depth grid, its best point, limit and plan. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "stats.h"
#include "sweepgrid.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)

static struct sweepgrid_cfg cfg_of(const uint64_t *sizes, size_t ns, const unsigned *depths,
				   size_t nd, bool automatic)
{
	struct sweepgrid_cfg c = { .nsizes = ns, .ndepths = nd, .depth_auto = automatic,
				   .best_aqu = SWEEPGRID_BEST_AQU,
				   .limit_aqu = SWEEPGRID_LIMIT_AQU };

	memcpy(c.sizes, sizes, ns * sizeof(*sizes));
	if (nd)
		memcpy(c.depths, depths, nd * sizeof(*depths));
	return c;
}

/* Add a row to the current cell: asked/s, aqu-sz, kept up, the verdict's words. */
static long add(struct sweepgrid *g, uint64_t size, unsigned depth, double asked, double aqu,
		bool kept_up, const char *words)
{
	struct sweep_row r = { .size = size, .depth = depth, .asked = asked, .achieved = asked,
			       .aqu = aqu, .kept_up = kept_up, .pieces = 1 };

	return sweepgrid_add(g, &r, words, words);
}

Test(sweepgrid, list_cells_run_size_by_depth)
{
	static const uint64_t sizes[] = { 256 * KiB, 512 * KiB, 5 * MiB };
	static const unsigned depths[] = { 1, 4 };
	struct sweepgrid_cfg c = cfg_of(sizes, 3, depths, 2, false);
	struct sweepgrid g;
	uint64_t size, want_s[] = { 256 * KiB, 256 * KiB, 512 * KiB, 512 * KiB, 5 * MiB, 5 * MiB };
	unsigned depth, want_d[] = { 1, 4, 1, 4, 1, 4 };
	size_t n = 0;

	sweepgrid_init(&g, &c);
	while (sweepgrid_next_cell(&g, &size, &depth)) {
		cr_assert_lt(n, 6);
		cr_assert_eq(size, want_s[n]);
		cr_assert_eq(depth, want_d[n]);
		n++;
	}
	cr_assert_eq(n, 6);
	cr_assert_not(sweepgrid_next_cell(&g, &size, &depth), "over stays over");
	sweepgrid_free(&g);
}

Test(sweepgrid, add_needs_a_cell)
{
	static const uint64_t sizes[] = { 4 * KiB };
	struct sweepgrid_cfg c = cfg_of(sizes, 1, NULL, 0, false);
	struct sweepgrid g;
	uint64_t size;
	unsigned depth;

	sweepgrid_init(&g, &c);
	cr_assert_eq(add(&g, 4 * KiB, 1, 10, 0.1, true, "keeps up"), -EINVAL);
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	cr_assert_eq(depth, 1, "no depth list: depth 1");
	for (int i = 0; i < 100; i++) /* grows past its first allocation */
		cr_assert_eq(add(&g, 4 * KiB, 1, 10 + i, 0.1, true, "keeps up"), i);
	cr_assert_str_eq(g.rows[99].r.verdict, "keeps up", "the verdict is the row's own copy");
	sweepgrid_free(&g);
}

/*
 * -Q auto on a serial disk: depth 1's knee is its capacity; depth 2 queues (aqu-sz follows)
 * but buys no throughput: the grid stops there and goes to the next size.
 */
Test(sweepgrid, auto_depth_stops_when_depth_buys_nothing)
{
	static const uint64_t sizes[] = { 256 * KiB, 512 * KiB };
	struct sweepgrid_cfg c = cfg_of(sizes, 2, NULL, 0, true);
	struct sweepgrid g;
	uint64_t size;
	unsigned depth;

	sweepgrid_init(&g, &c);
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	cr_assert_eq(depth, 1);
	add(&g, size, 1, 128, 0.92, true, "keeps up");
	add(&g, size, 1, 256, 0.99, false, "falls short: device saturated");
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	cr_assert_eq(size, 256 * KiB);
	cr_assert_eq(depth, 2, "depth 1 followed and kept up: double");
	add(&g, size, 2, 128, 1.2, true, "keeps up");
	add(&g, size, 2, 256, 1.98, false, "falls short: device saturated");
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	cr_assert_eq(size, 512 * KiB, "the knee did not rise 10 %%: the next size");
	cr_assert_eq(depth, 1);
	sweepgrid_free(&g);
}

/* A parallel device: the knee doubles with the depth while its queue follows, to depth 4. */
Test(sweepgrid, auto_depth_doubles_while_the_queue_follows)
{
	static const uint64_t sizes[] = { 4 * KiB };
	struct sweepgrid_cfg c = cfg_of(sizes, 1, NULL, 0, true);
	struct sweepgrid g;
	uint64_t size;
	unsigned depth, seen[8];
	size_t n = 0;

	sweepgrid_init(&g, &c);
	while (sweepgrid_next_cell(&g, &size, &depth)) {
		seen[n++] = depth;
		add(&g, size, depth, 1000.0 * depth, 0.5 * depth, true, "keeps up");
		/* the device has 4 queues: beyond 4 the queue stays at 4 */
		add(&g, size, depth, 2000.0 * depth, depth <= 4 ? depth : 4.0, false,
		    "falls short: device saturated");
		cr_assert_lt(n, 8);
	}
	cr_assert_eq(n, 4, "1, 2, 4, then 8 whose aqu-sz 4 does not follow: %zu", n);
	cr_assert_eq(seen[3], 8);
	sweepgrid_free(&g);
}

Test(sweepgrid, auto_depth_stops_at_its_deepest)
{
	static const uint64_t sizes[] = { 4 * KiB };
	struct sweepgrid_cfg c = cfg_of(sizes, 1, NULL, 0, true);
	struct sweepgrid g;
	uint64_t size;
	unsigned depth, last = 0;

	sweepgrid_init(&g, &c);
	while (sweepgrid_next_cell(&g, &size, &depth)) {
		add(&g, size, depth, 1000.0 * depth, depth, true, "keeps up");
		last = depth;
	}
	cr_assert_eq(last, SWEEPGRID_AUTO_DEPTH_MAX);
	sweepgrid_free(&g);
}

/*
 * The operators' table: 256 KiB keeps up at 140/s (35 MiB/s) with aqu-sz 0.95; 512 KiB keeps
 * up at 70/s only with aqu-sz 1.9 (two pieces); at depth 4, 1.5 MiB at 100/s (150 MiB/s) keeps
 * up with aqu-sz 3.8 and 120/s falls short.
 */
static void notes_grid(struct sweepgrid *g)
{
	static const uint64_t sizes[] = { 256 * KiB, 512 * KiB, 1536 * KiB };
	static const unsigned depths[] = { 1, 4 };
	struct sweepgrid_cfg c = cfg_of(sizes, 3, depths, 2, false);
	uint64_t size;
	unsigned depth;

	sweepgrid_init(g, &c);
	cr_assert(sweepgrid_next_cell(g, &size, &depth)); /* 256 KiB, 1 */
	add(g, size, depth, 100, 0.7, true, "keeps up");
	add(g, size, depth, 140, 0.95, true, "keeps up");
	add(g, size, depth, 160, 1.0, false, "falls short: device saturated");
	cr_assert(sweepgrid_next_cell(g, &size, &depth)); /* 256 KiB, 4 */
	add(g, size, depth, 150, 2.5, true, "keeps up");
	cr_assert(sweepgrid_next_cell(g, &size, &depth)); /* 512 KiB, 1 */
	add(g, size, depth, 70, 1.9, true, "keeps up");
	cr_assert(sweepgrid_next_cell(g, &size, &depth)); /* 512 KiB, 4 */
	add(g, size, depth, 90, 3.9, true, "keeps up");
	cr_assert(sweepgrid_next_cell(g, &size, &depth)); /* 1.5 MiB, 1 */
	add(g, size, depth, 30, 1.0, false, "falls short: device saturated");
	cr_assert(sweepgrid_next_cell(g, &size, &depth)); /* 1.5 MiB, 4 */
	add(g, size, depth, 50, 2.0, true, "keeps up");
	add(g, size, depth, 140, 4.0, false, "falls short: device saturated");
	add(g, size, depth, 100, 3.8, true, "keeps up");
	add(g, size, depth, 120, 4.0, false, "falls short: device saturated");
	add(g, size, depth, 110, 4.6, true, "keeps up");
	cr_assert_not(sweepgrid_next_cell(g, &size, &depth));
}

Test(sweepgrid, best_is_the_most_bytes_kept_up_near_aqu_1)
{
	struct sweepgrid g;
	struct sbuf sb = SBUF_INIT;
	long i;

	notes_grid(&g);
	i = sweepgrid_best(&g);
	cr_assert_eq(i, 1, "256 KiB at 140/s: %ld", i);
	sweepgrid_format_best(&sb, &g);
	cr_assert_str_eq(sbuf_str(&sb), "best: 256 KiB at 35 MiB/s (140/s, aqu-sz 0.95, keeps up)\n");
	sbuf_free(&sb);
	sweepgrid_free(&g);
}

Test(sweepgrid, limit_is_the_most_bytes_kept_up_within_aqu_4)
{
	struct sweepgrid g;
	struct sbuf sb = SBUF_INIT;
	long beyond, i;

	notes_grid(&g);
	i = sweepgrid_limit(&g, &beyond);
	cr_assert_eq(g.rows[i].r.size, 1536 * KiB);
	cr_assert_float_eq(g.rows[i].r.asked, 100, 1e-9, "110/s kept up but with aqu-sz 4.6");
	cr_assert_float_eq(g.rows[beyond].r.asked, 110, 1e-9, "the next rate asked above it");
	sweepgrid_format_limit(&sb, &g);
	cr_assert_str_eq(sbuf_str(&sb), "limit: 1.50 MiB at 150 MiB/s, depth 4 (aqu-sz 3.80, "
			 "keeps up; beyond it aqu-sz 4.60 is above 4)\n");
	sbuf_free(&sb);
	sweepgrid_free(&g);
}

Test(sweepgrid, limit_beyond_falls_short)
{
	static const uint64_t sizes[] = { 1536 * KiB };
	static const unsigned depths[] = { 4 };
	struct sweepgrid_cfg c = cfg_of(sizes, 1, depths, 1, false);
	struct sweepgrid g;
	struct sbuf sb = SBUF_INIT;
	uint64_t size;
	unsigned depth;

	sweepgrid_init(&g, &c);
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	add(&g, size, depth, 100, 3.8, true, "keeps up");
	add(&g, size, depth, 200, 4.0, false, "falls short: device saturated");
	add(&g, size, depth, 150, 4.0, false, "falls short: device saturated");
	sweepgrid_format_limit(&sb, &g);
	cr_assert_str_eq(sbuf_str(&sb), "limit: 1.50 MiB at 150 MiB/s, depth 4 (aqu-sz 3.80, "
			 "keeps up; beyond it falls short: device saturated)\n");
	sbuf_free(&sb);
	sweepgrid_free(&g);
}

/* A probe short of CPU (measured, a cgroup's 3 % quota): the cell stops at the probe's limit,
 * and the grid says so instead of passing it for the device's. */
Test(sweepgrid, a_probe_short_of_cpu_is_its_limit_not_the_devices)
{
	static const uint64_t sizes[] = { 256 * KiB };
	static const unsigned depths[] = { 4 };
	struct sweepgrid_cfg c = cfg_of(sizes, 1, depths, 1, false);
	struct sweep_row r = { .size = 256 * KiB, .depth = 4, .asked = 1024, .achieved = 1024,
			       .aqu = 0.06, .kept_up = true, .pieces = 1, .cpu_ms_s = 12 };
	struct sweepgrid_cpu cpu;
	struct sweepgrid g;
	struct sbuf sb = SBUF_INIT;
	uint64_t size;
	unsigned depth;

	sweepgrid_init(&g, &c);
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	sweepgrid_add(&g, &r, "keeps up", "keeps up");
	r.asked = 1280;
	r.achieved = 1086;
	r.kept_up = false;
	r.probe_side = true;
	r.cpu_ms_s = 952;
	sweepgrid_add(&g, &r, "falls short: probe limited: CPU", "falls short: probe limited: CPU");
	sweepgrid_cpu(&g, &cpu);
	cr_assert_eq(cpu.steps, 2);
	cr_assert_eq(cpu.waited, 1, "12 ms of each second is no material wait");
	cr_assert_float_eq(cpu.max_ms_s, 952, 1e-9);
	cr_assert_eq(cpu.cells_probe_side, 1);
	sweepgrid_format_limit(&sb, &g);
	cr_assert_str_eq(sbuf_str(&sb), "limit: 256 KiB at 256 MiB/s, depth 4 (aqu-sz 0.06, keeps up; "
			 "beyond it falls short: probe limited: CPU: the probe's limit, not the "
			 "device's)\ncpu: the probe waited for a CPU 50 ms of each second or more in 1 "
			 "of 2 steps (up to 952 ms, measured); 1 cell stopped at the probe's limit, not "
			 "the device's: best and limit are lower bounds of the device's\n");
	sbuf_reset(&sb);
	sweepgrid_json_end(&sb, &g);
	cr_assert(strstr(sbuf_str(&sb), "\"cpu\": {\"steps\": 2, \"waited\": 1, \"max_ms_s\": "
			 "952.0, \"cells_probe_side\": 1}"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	sweepgrid_free(&g);
}

Test(sweepgrid, thresholds_are_the_users)
{
	struct sweepgrid g;
	long i;

	notes_grid(&g);
	g.cfg.best_aqu = 1.85;  /* 512 KiB at 70/s (aqu-sz 1.9) now qualifies: the same bytes */
	g.cfg.limit_aqu = 5;    /* 1.5 MiB at 110/s (aqu-sz 4.6) now too */
	i = sweepgrid_best(&g);
	cr_assert_eq(g.rows[i].r.size, 256 * KiB, "a tie goes to the earlier row");
	g.cfg.best_aqu = 2;     /* 1.5 MiB at 50/s, depth 4 (aqu-sz 2.0): 75 MiB/s */
	i = sweepgrid_best(&g);
	cr_assert_eq(g.rows[i].r.size, 1536 * KiB);
	g.cfg.best_aqu = 0.5;
	cr_assert_eq(sweepgrid_best(&g), -1, "nothing kept up at aqu-sz 0.6 or less");
	i = sweepgrid_limit(&g, NULL);
	cr_assert_float_eq(g.rows[i].r.asked, 110, 1e-9);
	sweepgrid_free(&g);
}

Test(sweepgrid, none_qualifies)
{
	static const uint64_t sizes[] = { 4 * KiB };
	struct sweepgrid_cfg c = cfg_of(sizes, 1, NULL, 0, false);
	struct sweepgrid g;
	struct sbuf sb = SBUF_INIT;
	uint64_t size;
	unsigned depth;

	sweepgrid_init(&g, &c);
	sweepgrid_format_best(&sb, &g);
	cr_assert_eq(sb.len, 0, "no row: no conclusion");
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	add(&g, size, depth, 8, 1.0, false, "falls short: device saturated");
	sweepgrid_format_best(&sb, &g);
	sweepgrid_format_limit(&sb, &g);
	cr_assert_str_eq(sbuf_str(&sb), "best: none: no step kept up with aqu-sz at most 1.10\n"
			 "limit: none: no step kept up with aqu-sz at most 4\n");
	sbuf_free(&sb);
	sweepgrid_free(&g);
}

Test(sweepgrid, plan_duration)
{
	static const uint64_t sizes[] = { 256 * KiB, 512 * KiB, 5 * MiB };
	static const unsigned depths[] = { 1, 4 };
	struct sweepgrid_cfg c = cfg_of(sizes, 3, depths, 2, false);
	struct sweepgrid_plan p;
	struct sbuf sb = SBUF_INIT;

	sweepgrid_plan(&c, 5, 1500000000ull, &p);
	cr_assert_eq(p.cells, 6);
	cr_assert_eq(p.total_ns, 45000000000ull);
	cr_assert_not(sweepgrid_plan_too_long(&p));
	sweepgrid_format_plan(&sb, &p);
	cr_assert_str_eq(sbuf_str(&sb), "plan: 3 sizes x 2 depths = 6 sweeps x 5 rates x "
			 "1.50 s a step = 45 s\n");
	/* auto rates: at most SWEEP_MAX_STEPS each, 6 x 32 x 5 s = 16 min */
	sweepgrid_plan(&c, 0, 5000000000ull, &p);
	cr_assert_eq(p.total_ns, 6ull * SWEEP_MAX_STEPS * 5000000000ull);
	cr_assert(sweepgrid_plan_too_long(&p));
	sbuf_reset(&sb);
	sweepgrid_format_plan(&sb, &p);
	cr_assert_str_eq(sbuf_str(&sb), "plan: 3 sizes x 2 depths = 6 sweeps x at most 32 rates "
			 "(auto) x 5 s a step = at most 16 min\n");
	/* exactly at the bound is fine */
	sweepgrid_plan(&c, 20, 5000000000ull, &p);
	cr_assert_eq(p.total_ns, SWEEPGRID_BOUND_NS);
	cr_assert_not(sweepgrid_plan_too_long(&p));
	/* auto depths: 1, 2, ... 64 is 7 at most */
	c.depth_auto = true;
	sweepgrid_plan(&c, 2, 1000000000ull, &p);
	cr_assert_eq(p.depths, 7);
	cr_assert_eq(p.cells, 21);
	sbuf_reset(&sb);
	sweepgrid_format_plan(&sb, &p);
	cr_assert_str_eq(sbuf_str(&sb), "plan: 3 sizes x depths 1, 2, 4, ... 64 (auto, at most 7) "
			 "= at most 21 sweeps x 2 rates x 1 s a step = at most 42 s\n");
	sbuf_free(&sb);
}

Test(sweepgrid, row_and_json)
{
	static const uint64_t sizes[] = { 512 * KiB };
	struct sweepgrid_cfg c = cfg_of(sizes, 1, NULL, 0, false);
	struct sweepgrid g;
	struct sbuf sb = SBUF_INIT;
	struct sweep_row r = { .size = 512 * KiB, .depth = 1, .asked = 50, .achieved = 50,
			       .expected = 100, .dev_rate = 99.5, .pieces = 2, .flushes = 0,
			       .aqu = 0.98, .await_ms = 14.1, .util = 99.0, .dev_mbs = 24.9,
			       .p50_ns = 14000000, .p99_ns = 15000000, .kept_up = true };
	uint64_t size;
	unsigned depth;

	sweepgrid_init(&g, &c);
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	cr_assert_eq(sweepgrid_add(&g, &r, "keeps up: dev 100/s", "keeps up"), 0);
	sweepgrid_format_header(&sb);
	sweepgrid_format_row(&sb, &g, 0);
	cr_assert_str_eq(sbuf_str(&sb),
		"size      depth   asked/s  asked-B/s     got/s       tps  tps-calc pieces flush  "
		"aqu-sz    await  %util     MB/s   p50-ms   p99-ms  verdict\n"
		"512 KiB       1        50     25 MiB        50      99.5     100.0      2     0  "
		"  0.98    14.10   99.0    24.90   14.000   15.000  keeps up: dev 100/s\n");
	sbuf_reset(&sb);
	sweepgrid_json_row(&sb, &g, 0);
	cr_assert(strstr(sbuf_str(&sb), "{\"depth\": 1, \"pieces\": 2, \"flushes\": 0, \"size\": 524288, "),
		  "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "\"expected\": 100.000"), "%s", sbuf_str(&sb));
	cr_assert_eq(sbuf_str(&sb)[sb.len - 1], '}');
	sbuf_reset(&sb);
	sweepgrid_json_end(&sb, &g);
	cr_assert(strstr(sbuf_str(&sb), "\"best\": {\"row\": 0, \"size\": 524288, \"depth\": 1, "
			 "\"asked\": 50.000"), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "\"line\": \"best: 512 KiB at 25 MiB/s (50/s, aqu-sz 0.98, "
			 "keeps up)\"}"), "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "\"limit\": {\"row\": 0"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	sweepgrid_free(&g);
}

/*
 * -Q auto with split requests: a 1 MiB request in 4 pieces on a serial disk queues 2.45 at
 * depth 1 (never 4: one piece in service, the rest waiting): depth 2 still follows.
 */
Test(sweepgrid, auto_depth_follows_from_the_queue_of_depth_1)
{
	static const uint64_t sizes[] = { 1 * MiB };
	struct sweepgrid_cfg c = cfg_of(sizes, 1, NULL, 0, true);
	struct sweepgrid g;
	uint64_t size;
	unsigned depth;

	sweepgrid_init(&g, &c);
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	add(&g, size, 1, 30, 2.0, true, "keeps up");
	add(&g, size, 1, 60, 2.45, false, "falls short: device saturated");
	cr_assert(sweepgrid_more(&g), "depth 2 follows");
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	cr_assert_eq(depth, 2);
	add(&g, size, 2, 60, 3.0, true, "keeps up"); /* the knee doubled */
	add(&g, size, 2, 120, 3.2, false, "falls short: device saturated");
	cr_assert_not(sweepgrid_more(&g), "aqu-sz 3.2 is not 1.5 x 2.45: over");
	cr_assert_eq(g.depth, 2, "more() leaves the grid as it was");
	cr_assert_not(sweepgrid_next_cell(&g, &size, &depth));
	sweepgrid_free(&g);
}

Test(sweepgrid, more_on_a_list)
{
	static const uint64_t sizes[] = { 4 * KiB, 8 * KiB };
	struct sweepgrid_cfg c = cfg_of(sizes, 2, NULL, 0, false);
	struct sweepgrid g;
	uint64_t size;
	unsigned depth;

	sweepgrid_init(&g, &c);
	cr_assert(sweepgrid_more(&g));
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	cr_assert(sweepgrid_more(&g));
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	cr_assert_eq(size, 8 * KiB);
	cr_assert_not(sweepgrid_more(&g), "the last cell");
	g.done = true;
	cr_assert_not(sweepgrid_next_cell(&g, &size, &depth), "a grid marked over");
	sweepgrid_free(&g);
}

/* -G: reads and writes apart in the row and its JSON. */
Test(sweepgrid, read_write_apart)
{
	static const uint64_t sizes[] = { 4 * KiB };
	struct sweepgrid_cfg c = cfg_of(sizes, 1, NULL, 0, false);
	struct sweepgrid g;
	struct sbuf sb = SBUF_INIT;
	struct sweep_row r = { .size = 4 * KiB, .depth = 1, .asked = 10, .achieved = 10,
			       .pieces = 1, .flushes = 0.5, .p50_ns = 1000000, .p99_ns = 19000000,
			       .kept_up = true };
	struct stats rd, wr;
	uint64_t size;
	unsigned depth;

	stats_init(&rd);
	stats_init(&wr);
	for (int i = 0; i < 100; i++) {
		stats_add(&rd, 19000000);
		stats_add(&wr, 190000);
	}
	sweep_row_split(&r, &rd, &wr);
	cr_assert(r.split);
	sweepgrid_init(&g, &c);
	cr_assert(sweepgrid_next_cell(&g, &size, &depth));
	sweepgrid_add(&g, &r, "keeps up", "keeps up");
	sweepgrid_format_row(&sb, &g, 0);
	cr_assert(strstr(sbuf_str(&sb), "  read   19.000   19.000 write    0.190    0.190  keeps up\n"),
		  "%s", sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "   0.5 "), "half the requests write, each with a flush");
	sbuf_reset(&sb);
	sweepgrid_json_row(&sb, &g, 0);
	cr_assert(strstr(sbuf_str(&sb), "\"flushes\": 0.5, \"read\": {\"p50\": 19"), "%s",
		  sbuf_str(&sb));
	cr_assert(strstr(sbuf_str(&sb), "\"write\": {\"p50\": 19"), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	sweepgrid_free(&g);
}
