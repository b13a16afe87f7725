#include "config.h"

#include "sweepgrid.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "json.h"
#include "verdict.h"

void sweepgrid_init(struct sweepgrid *g, const struct sweepgrid_cfg *cfg)
{
	memset(g, 0, sizeof(*g));
	g->cfg = *cfg;
	if (g->cfg.nsizes > SWEEPGRID_MAX_SIZES)
		g->cfg.nsizes = SWEEPGRID_MAX_SIZES;
	if (g->cfg.ndepths > SWEEPGRID_MAX_DEPTHS)
		g->cfg.ndepths = SWEEPGRID_MAX_DEPTHS;
	if (!g->cfg.depth_auto && !g->cfg.ndepths) { /* no list: depth 1 */
		g->cfg.depths[0] = 1;
		g->cfg.ndepths = 1;
	}
}

void sweepgrid_free(struct sweepgrid *g)
{
	free(g->rows);
	g->rows = NULL;
	g->nrows = g->cap = 0;
}

/* The current cell's knee (highest asked that kept up) and highest aqu-sz. */
static void sweepgrid_cell_stats(const struct sweepgrid *g, double *knee, double *aqu)
{
	*knee = *aqu = 0;
	for (size_t i = g->cell_first; i < g->nrows; i++) {
		const struct sweep_row *r = &g->rows[i].r;

		if (r->kept_up && r->asked > *knee)
			*knee = r->asked;
		if (r->aqu > *aqu)
			*aqu = r->aqu;
	}
}

/* -Q auto: does the next depth at this size follow from the cell just run? */
static bool sweepgrid_auto_deeper(struct sweepgrid *g)
{
	double knee, aqu;
	bool follows, gains;

	sweepgrid_cell_stats(g, &knee, &aqu);
	follows = g->prev_knee > 0 ? aqu >= g->prev_aqu * SWEEPGRID_FOLLOW : aqu > 0;
	gains = g->prev_knee > 0 ? knee >= g->prev_knee * (1 + SWEEPGRID_GAIN) : knee > 0;
	if (!follows || !gains || g->depth * 2 > SWEEPGRID_AUTO_DEPTH_MAX)
		return false;
	g->prev_knee = knee;
	g->prev_aqu = aqu;
	g->depth *= 2;
	return true;
}

bool sweepgrid_next_cell(struct sweepgrid *g, uint64_t *size, unsigned *depth)
{
	if (g->done || !g->cfg.nsizes)
		return false;
	if (!g->started) {
		g->started = true;
		g->depth = g->cfg.depth_auto ? 1 : g->cfg.depths[0];
	} else if (g->cfg.depth_auto) {
		if (!sweepgrid_auto_deeper(g)) {
			g->size_i++;
			g->depth = 1;
			g->prev_knee = g->prev_aqu = 0;
		}
	} else if (++g->depth_i >= g->cfg.ndepths) {
		g->depth_i = 0;
		g->size_i++;
		g->depth = g->cfg.depths[0];
	} else {
		g->depth = g->cfg.depths[g->depth_i];
	}
	if (g->size_i >= g->cfg.nsizes) {
		g->done = true;
		return false;
	}
	g->cells++;
	g->cell_first = g->nrows;
	*size = g->cfg.sizes[g->size_i];
	*depth = g->depth;
	return true;
}

bool sweepgrid_more(const struct sweepgrid *g)
{
	struct sweepgrid copy = *g; /* next_cell reads the rows, changes only the cursor */
	uint64_t size;
	unsigned depth;

	return sweepgrid_next_cell(&copy, &size, &depth);
}

long sweepgrid_add(struct sweepgrid *g, const struct sweep_row *r, const char *verdict,
		   const char *words)
{
	struct sweepgrid_row *row;

	if (!g->cells)
		return -EINVAL;
	if (g->nrows == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 32;
		struct sweepgrid_row *n = realloc(g->rows, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		g->rows = n;
		g->cap = cap;
	}
	row = &g->rows[g->nrows];
	row->r = *r;
	snprintf(row->verdict, sizeof(row->verdict), "%s", verdict ? verdict : "");
	snprintf(row->words, sizeof(row->words), "%s", words ? words : "");
	row->r.verdict = row->verdict;
	row->cell = g->cells - 1;
	return (long)g->nrows++;
}

static double sweepgrid_bps(const struct sweep_row *r)
{
	return r->asked * (double)r->size;
}

/* The row moving the most bytes/s that kept up with aqu-sz at most aqu; -1 when none. */
static long sweepgrid_most(const struct sweepgrid *g, double aqu)
{
	long best = -1;

	for (size_t i = 0; i < g->nrows; i++) {
		const struct sweep_row *r = &g->rows[i].r;

		if (!r->kept_up || !(r->aqu <= aqu))
			continue;
		if (best < 0 || sweepgrid_bps(r) > sweepgrid_bps(&g->rows[best].r))
			best = (long)i;
	}
	return best;
}

long sweepgrid_best(const struct sweepgrid *g)
{
	return sweepgrid_most(g, g->cfg.best_aqu + SWEEPGRID_BEST_SLACK);
}

long sweepgrid_limit(const struct sweepgrid *g, long *beyond)
{
	long lim = sweepgrid_most(g, g->cfg.limit_aqu), next = -1;

	for (size_t i = 0; lim >= 0 && i < g->nrows; i++) {
		const struct sweepgrid_row *r = &g->rows[i];

		if (r->cell != g->rows[lim].cell || !(r->r.asked > g->rows[lim].r.asked))
			continue;
		if (next < 0 || r->r.asked < g->rows[next].r.asked)
			next = (long)i;
	}
	if (beyond)
		*beyond = next;
	return lim;
}

/* How many depths -Q auto tries at most: 1, 2, 4, ... SWEEPGRID_AUTO_DEPTH_MAX. */
static size_t sweepgrid_auto_depths(void)
{
	size_t n = 0;

	for (unsigned d = 1; d <= SWEEPGRID_AUTO_DEPTH_MAX; d *= 2)
		n++;
	return n;
}

void sweepgrid_plan(const struct sweepgrid_cfg *cfg, size_t nrates, uint64_t step_ns,
		    struct sweepgrid_plan *out)
{
	long double total;

	memset(out, 0, sizeof(*out));
	out->sizes = cfg->nsizes;
	out->depth_auto = cfg->depth_auto;
	out->depths = cfg->depth_auto ? sweepgrid_auto_depths() : cfg->ndepths ? cfg->ndepths : 1;
	out->cells = out->sizes * out->depths;
	out->rates_auto = !nrates;
	out->steps = nrates ? nrates : SWEEP_MAX_STEPS;
	out->step_ns = step_ns;
	total = (long double)out->cells * (long double)out->steps * (long double)step_ns;
	out->total_ns = total >= 0x1p64L ? UINT64_MAX : (uint64_t)total;
}

bool sweepgrid_plan_too_long(const struct sweepgrid_plan *p)
{
	return p->total_ns > SWEEPGRID_BOUND_NS;
}

void sweepgrid_format_plan(struct sbuf *sb, const struct sweepgrid_plan *p)
{
	char step[FMT_BUFSZ], total[FMT_BUFSZ];
	bool most = p->rates_auto || p->depth_auto;

	fmt_value(step, sizeof(step), p->step_ns, FMT_TIME);
	fmt_value(total, sizeof(total), p->total_ns, FMT_TIME);
	sbuf_printf(sb, "plan: %zu size%s x ", p->sizes, p->sizes == 1 ? "" : "s");
	if (p->depth_auto)
		sbuf_printf(sb, "depths 1, 2, 4, ... %u (auto, at most %zu)", SWEEPGRID_AUTO_DEPTH_MAX,
			    p->depths);
	else
		sbuf_printf(sb, "%zu depth%s", p->depths, p->depths == 1 ? "" : "s");
	sbuf_printf(sb, " = %s%zu sweep%s x ", p->depth_auto ? "at most " : "", p->cells,
		    p->cells == 1 ? "" : "s");
	if (p->rates_auto)
		sbuf_printf(sb, "at most %zu rates (auto)", p->steps);
	else
		sbuf_printf(sb, "%zu rate%s", p->steps, p->steps == 1 ? "" : "s");
	sbuf_printf(sb, " x %s a step = %s%s\n", step, most ? "at most " : "", total);
}

void sweepgrid_format_header(struct sbuf *sb)
{
	sbuf_printf(sb, "%-9s %5s %9s %10s %9s %9s %9s %6s %5s %7s %8s %6s %8s %8s %8s  %s\n",
		    "size", "depth", "asked/s", "asked-B/s", "got/s", "tps", "tps-calc", "pieces",
		    "flush", "aqu-sz", "await", "%util", "MB/s", "p50-ms", "p99-ms", "verdict");
}

static void sweepgrid_ms(struct sbuf *sb, uint64_t ns)
{
	if (!ns)
		sbuf_printf(sb, " %8s", "-");
	else
		sbuf_printf(sb, " %8.3f", (double)ns / 1e6);
}

void sweepgrid_format_row(struct sbuf *sb, const struct sweepgrid *g, size_t i)
{
	const struct sweep_row *r = &g->rows[i].r;
	char size[FMT_BUFSZ], bps[FMT_BUFSZ], asked[32], got[32];

	fmt_value(size, sizeof(size), r->size, FMT_SIZE);
	fmt_value(bps, sizeof(bps), (uint64_t)llround(sweepgrid_bps(r)), FMT_SIZE);
	verdict_rate_text(asked, sizeof(asked), r->asked);
	verdict_rate_text(got, sizeof(got), r->achieved);
	sbuf_printf(sb, "%-9s %5u %9s %10s %9s %9.1f %9.1f %6u %5g %7.2f %8.2f %6.1f %8.2f", size,
		    r->depth, asked, bps, got, r->dev_rate, r->expected, r->pieces, r->flushes,
		    r->aqu, r->await_ms, r->util, r->dev_mbs);
	sweepgrid_ms(sb, r->p50_ns);
	sweepgrid_ms(sb, r->p99_ns);
	if (r->split) { /* -G: reads and writes apart before the verdict */
		sbuf_puts(sb, "  read");
		sweepgrid_ms(sb, r->read_p50_ns);
		sweepgrid_ms(sb, r->read_p99_ns);
		sbuf_puts(sb, " write");
		sweepgrid_ms(sb, r->write_p50_ns);
		sweepgrid_ms(sb, r->write_p99_ns);
	}
	sbuf_printf(sb, "  %s\n", g->rows[i].verdict[0] ? g->rows[i].verdict : "-");
}

/* "256 KiB at 35.0 MiB/s" and ", depth 4" when deeper than 1. */
static void sweepgrid_point(struct sbuf *sb, const struct sweep_row *r)
{
	char size[FMT_BUFSZ], bps[FMT_BUFSZ];

	fmt_value(size, sizeof(size), r->size, FMT_SIZE);
	fmt_value(bps, sizeof(bps), (uint64_t)llround(sweepgrid_bps(r)), FMT_SIZE);
	sbuf_printf(sb, "%s at %s/s", size, bps);
	if (r->depth > 1)
		sbuf_printf(sb, ", depth %u", r->depth);
}

void sweepgrid_format_best(struct sbuf *sb, const struct sweepgrid *g)
{
	long i = sweepgrid_best(g);
	char rate[32];

	if (!g->nrows)
		return;
	if (i < 0) {
		sbuf_printf(sb, "best: none: no step kept up with aqu-sz at most %.2f\n",
			    g->cfg.best_aqu + SWEEPGRID_BEST_SLACK);
		return;
	}
	verdict_rate_text(rate, sizeof(rate), g->rows[i].r.asked);
	sbuf_puts(sb, "best: ");
	sweepgrid_point(sb, &g->rows[i].r);
	sbuf_printf(sb, " (%s/s, aqu-sz %.2f, %s)\n", rate, g->rows[i].r.aqu, g->rows[i].words);
}

void sweepgrid_format_limit(struct sbuf *sb, const struct sweepgrid *g)
{
	long beyond, i = sweepgrid_limit(g, &beyond);

	if (!g->nrows)
		return;
	if (i < 0) {
		sbuf_printf(sb, "limit: none: no step kept up with aqu-sz at most %g\n",
			    g->cfg.limit_aqu);
		return;
	}
	sbuf_puts(sb, "limit: ");
	sweepgrid_point(sb, &g->rows[i].r);
	sbuf_printf(sb, " (aqu-sz %.2f, %s; ", g->rows[i].r.aqu, g->rows[i].words);
	if (beyond < 0)
		sbuf_puts(sb, "nothing above it was asked)\n");
	else if (!g->rows[beyond].r.kept_up)
		sbuf_printf(sb, "beyond it %s%s)\n", g->rows[beyond].words,
			    g->rows[beyond].r.probe_side ? ": the probe's limit, not the device's" : "");
	else
		sbuf_printf(sb, "beyond it aqu-sz %.2f is above %g)\n", g->rows[beyond].r.aqu,
			    g->cfg.limit_aqu);
	sweepgrid_format_cpu(sb, g);
}

void sweepgrid_cpu(const struct sweepgrid *g, struct sweepgrid_cpu *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < g->nrows; i++) {
		const struct sweep_row *r = &g->rows[i].r;
		bool last = i + 1 == g->nrows || g->rows[i + 1].cell != g->rows[i].cell;

		c->steps++;
		if (r->cpu_ms_s >= VERDICT_CPU_SHARE * 1e3) {
			c->waited++;
			c->max_ms_s = r->cpu_ms_s > c->max_ms_s ? r->cpu_ms_s : c->max_ms_s;
		}
		/* a cell's steps end at its first shortfall (or its last rate) */
		if (last && !r->kept_up && r->probe_side)
			c->cells_probe_side++;
	}
}

void sweepgrid_format_cpu(struct sbuf *sb, const struct sweepgrid *g)
{
	struct sweepgrid_cpu c;

	sweepgrid_cpu(g, &c);
	if (!c.waited && !c.cells_probe_side)
		return;
	sbuf_printf(sb, "cpu: the probe waited for a CPU %.0f ms of each second or more in %zu of "
		    "%zu steps (up to %.0f ms, measured)", VERDICT_CPU_SHARE * 1e3, c.waited,
		    c.steps, c.max_ms_s);
	if (c.cells_probe_side)
		sbuf_printf(sb, "; %zu cell%s stopped at the probe's limit, not the device's: best "
			    "and limit are lower bounds of the device's", c.cells_probe_side,
			    c.cells_probe_side == 1 ? "" : "s");
	sbuf_putc(sb, '\n');
}

void sweepgrid_json_row(struct sbuf *sb, const struct sweepgrid *g, size_t i)
{
	const struct sweep_row *r = &g->rows[i].r;
	struct sbuf one = SBUF_INIT;

	sweep_json_row(&one, r);
	sbuf_printf(sb, "{\"depth\": %u, \"pieces\": %u, \"flushes\": %g, ", r->depth, r->pieces,
		    r->flushes);
	if (r->split)
		sbuf_printf(sb, "\"read\": {\"p50\": %" PRIu64 ", \"p99\": %" PRIu64 "}, "
			    "\"write\": {\"p50\": %" PRIu64 ", \"p99\": %" PRIu64 "}, ",
			    r->read_p50_ns, r->read_p99_ns, r->write_p50_ns, r->write_p99_ns);
	if (one.len > 1)
		sbuf_append(sb, sbuf_str(&one) + 1, one.len - 1);
	else
		sbuf_putc(sb, '}');
	sbuf_free(&one);
}

/* One conclusion's JSON value: the row's key numbers and the line (null when none). */
static void sweepgrid_json_point(struct sbuf *sb, const struct sweepgrid *g, long i, bool best)
{
	struct sbuf line = SBUF_INIT;
	const struct sweep_row *r;

	if (i < 0) {
		sbuf_puts(sb, "null");
		return;
	}
	r = &g->rows[i].r;
	if (best)
		sweepgrid_format_best(&line, g);
	else
		sweepgrid_format_limit(&line, g);
	if (line.len)
		line.buf[--line.len] = '\0';
	sbuf_printf(sb, "{\"row\": %ld, \"size\": %" PRIu64 ", \"depth\": %u, \"asked\": %.3f, "
		    "\"asked_bps\": %.0f, \"aqu_sz\": %.2f, \"line\": ", i, r->size, r->depth,
		    r->asked, sweepgrid_bps(r), r->aqu);
	json_append_string(sb, sbuf_str(&line));
	sbuf_putc(sb, '}');
	sbuf_free(&line);
}

void sweepgrid_json_end(struct sbuf *sb, const struct sweepgrid *g)
{
	struct sweepgrid_cpu c;

	sbuf_printf(sb, "\"best_aqu\": %g, \"limit_aqu\": %g, \"best\": ", g->cfg.best_aqu,
		    g->cfg.limit_aqu);
	sweepgrid_json_point(sb, g, sweepgrid_best(g), true);
	sbuf_puts(sb, ", \"limit\": ");
	sweepgrid_json_point(sb, g, sweepgrid_limit(g, NULL), false);
	sweepgrid_cpu(g, &c);
	sbuf_printf(sb, ", \"cpu\": {\"steps\": %zu, \"waited\": %zu, \"max_ms_s\": %.1f, "
		    "\"cells_probe_side\": %zu}", c.steps, c.waited, c.max_ms_s,
		    c.cells_probe_side);
}
