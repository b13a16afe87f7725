#include "config.h"

#include "tui_overview.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "tui_fmt.h"

#define OV_TARGET_MIN 12
#define OV_TARGET_MAX 48

/* Heading and width (a separating space included) of each column; the target's and the
 * sparkline's are their minimum. */
static const struct {
	const char *name;
	int w;
} ov_cols[TUI_OV_NCOLS] = {
	[TUI_OV_NUM] = { "#", 6 },
	[TUI_OV_TARGET] = { "target", OV_TARGET_MIN },
	[TUI_OV_DEV] = { "dev", 9 },
	[TUI_OV_RATE] = { "got/asked", 12 },
	[TUI_OV_LAST] = { "last", 8 },
	[TUI_OV_P50] = { "p50", 8 },
	[TUI_OV_P99] = { "p99", 8 },
	[TUI_OV_MAX] = { "max", 8 },
	[TUI_OV_FAIL] = { "fail", 5 },
	[TUI_OV_SKIP] = { "skip", 5 },
	[TUI_OV_VERDICT] = { "verdict", 11 },
	[TUI_OV_BUSY] = { "busy", 6 },
	[TUI_OV_AWAIT] = { "await", 8 },
	[TUI_OV_SPARKC] = { "latency", TUI_OV_SPARK_MIN + 1 },
};

/* Left out first when the width is short (79 cells are left at 80: the verdict, the last
 * request and the sparkline stay there). */
static const enum tui_ov_col ov_drop[] = {
	TUI_OV_MAX, TUI_OV_DEV, TUI_OV_SKIP, TUI_OV_AWAIT, TUI_OV_BUSY, TUI_OV_SPARKC,
	TUI_OV_FAIL, TUI_OV_VERDICT, TUI_OV_LAST, TUI_OV_P50, TUI_OV_RATE,
};

/* Display cells of UTF-8 text whose characters are one cell each. */
static int ov_cells(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += (*s & 0xc0) != 0x80;
	return n;
}

/* ---- rows and the slowest one ----------------------------------------------------------- */

enum tui_ov_vclass tui_ov_vclass(const struct tui_ov_row *r)
{
	if (!r->have_verdict)
		return TUI_OV_VC_NONE;
	switch (r->v.state) {
	case VERDICT_KEEPS_UP:
		return TUI_OV_VC_OK;
	case VERDICT_OTHER_IO:
	case VERDICT_QUEUE_BUILDING:
		return TUI_OV_VC_DEVICE;
	case VERDICT_FALLS_SHORT:
		if (r->v.reason == VERDICT_DEVICE_SATURATED || r->v.reason == VERDICT_WAIT_ABOVE ||
		    r->v.reason == VERDICT_STALLED || r->v.reason == VERDICT_THROTTLED ||
		    r->v.reason == VERDICT_QUEUED || r->v.reason == VERDICT_DEVICE_SLOW ||
		    r->v.reason == VERDICT_FAILED)
			return TUI_OV_VC_DEVICE;
		return TUI_OV_VC_PROBE;
	case VERDICT_NONE:
		break;
	}
	return TUI_OV_VC_NONE;
}

const char *tui_ov_vshort(const struct tui_ov_row *r)
{
	if (!r->have_verdict)
		return "no verdict";
	switch (r->v.state) {
	case VERDICT_KEEPS_UP:
		return "keeps up";
	case VERDICT_OTHER_IO:
		return "other I/O";
	case VERDICT_QUEUE_BUILDING:
		return "queue bld";
	case VERDICT_FALLS_SHORT:
		switch (r->v.reason) {
		case VERDICT_DEVICE_SATURATED: return "saturated";
		case VERDICT_WAIT_ABOVE: return "wait above";
		case VERDICT_DEPTH_LIMITED: return "depth lim";
		case VERDICT_STALLED: return "stalled";
		case VERDICT_PROBE_LIMITED: return "probe lim";
		case VERDICT_PROBE_CPU: return "probe CPU";
		case VERDICT_THROTTLED: return "throttled";
		case VERDICT_QUEUED: return "queued";
		case VERDICT_DEVICE_SLOW: return "dev slow";
		case VERDICT_FAILED: return "failing";
		default: return "short";
		}
	case VERDICT_NONE:
		break;
	}
	return "no verdict";
}

/* A row the slowest may be: running, with requests in the window or a device-side verdict. */
static bool ov_candidate(const struct tui_ov_row *r)
{
	return !r->state && (r->count || tui_ov_vclass(r) == TUI_OV_VC_DEVICE);
}

/* r's probe waited for a CPU (measured): its p99 holds that wait, not its device's time. */
static bool ov_cpu_bound(const struct tui_ov_row *r)
{
	return r->have_verdict && r->v.cpu_material;
}

/*
 * a ranks above b: the device side first; then, when either probe waited for a CPU
 * (measured), the device's own await (its p99 holds the CPU wait); else the higher p99.
 */
static bool ov_ranks_above(const struct tui_ov_row *a, const struct tui_ov_row *b)
{
	bool da = tui_ov_vclass(a) == TUI_OV_VC_DEVICE, db = tui_ov_vclass(b) == TUI_OV_VC_DEVICE;

	if (da != db)
		return da;
	if ((ov_cpu_bound(a) || ov_cpu_bound(b)) && a->have_verdict && b->have_verdict &&
	    a->v.have_dev && b->v.have_dev)
		return a->v.await > b->v.await;
	return a->p99 > b->p99;
}

size_t tui_ov_slowest(const struct tui_ov_row *rows, size_t n)
{
	size_t best = TUI_OV_NONE;

	for (size_t i = 0; i < n; i++)
		if (ov_candidate(&rows[i]) &&
		    (best == TUI_OV_NONE || ov_ranks_above(&rows[i], &rows[best])))
			best = i;
	return best;
}

const char *tui_ov_rule_text(void)
{
	return "slowest (!): a target whose device is the limit (device saturated), has "
	       "other load (other I/O, queue building), a wait above the device or a stall "
	       "ranks first; then the highest p99 over the window — or, where a probe waited "
	       "for a CPU (probe CPU, measured), the highest device await. Probe, CPU or depth "
	       "limited alone never outranks a slower device.";
}

char *tui_ov_reason(const struct tui_ov_row *r, bool ascii, char *buf, size_t len)
{
	const struct verdict *v = &r->v;
	char a[32], b[32], t[TUI_FMT_LEN], u[TUI_FMT_LEN], w[64];

	tui_fmt_time(t, sizeof(t), r->p99, ascii);
	if (tui_ov_vclass(r) != TUI_OV_VC_DEVICE) {
		snprintf(buf, len, "highest p99 %s (%s)", t,
			 r->have_verdict ? verdict_words(v, w, sizeof(w)) : "no verdict");
		return buf;
	}
	switch (v->state) {
	case VERDICT_OTHER_IO:
		verdict_rate_text(a, sizeof(a), v->dev_rate);
		verdict_rate_text(b, sizeof(b), v->own);
		snprintf(buf, len, "other I/O: dev %s/s for the probe's %s/s, aqu-sz %.2f, "
			 "busy %.0f %%, p99 %s", a, b, v->aqu, v->busy, t);
		break;
	case VERDICT_QUEUE_BUILDING:
		tui_fmt_time(u, sizeof(u), (uint64_t)(v->await * 1e6), ascii);
		if (v->queue_by_await) /* the await rule alone: its numbers first */
			snprintf(buf, len, "queue building: await %s, above %g x the first "
				 "intervals' %s (aqu-sz %.2f), busy %.0f %%, p99 %s", u,
				 VERDICT_AWAIT_FACTOR, tui_fmt_time(w, sizeof(w),
				 (uint64_t)(v->base_await * 1e6), ascii), v->aqu, v->busy, t);
		else
			snprintf(buf, len, "queue building: aqu-sz %.2f (the probe's own %.0f), await "
				 "%s, busy %.0f %%, p99 %s", v->aqu, v->own_aqu, u, v->busy, t);
		break;
	default: /* falls short */
		if (v->reason == VERDICT_WAIT_ABOVE) {
			tui_fmt_time(u, sizeof(u), (uint64_t)v->mean_ns, ascii);
			snprintf(buf, len, "wait above the device: mean %s against %s in the "
				 "device, p99 %s", u,
				 tui_fmt_time(w, sizeof(w), (uint64_t)(v->dev_ms * 1e6), ascii), t);
			break;
		}
		verdict_rate_text(a, sizeof(a), v->achieved);
		verdict_rate_text(b, sizeof(b), v->asked);
		snprintf(buf, len, "device saturated: got %s/%s, busy %.0f %%, aqu-sz %.2f, p99 %s",
			 a, b, v->busy, v->aqu, t);
		break;
	}
	return buf;
}

void tui_ov_fit_clauses(char *s, int width)
{
	static const char *const seps[] = { ", ", "; ", " (" };

	while (ov_cells(s) > width) {
		char *cut = NULL;

		for (size_t k = 0; k < ARRAY_SIZE(seps); k++)
			for (char *p = strstr(s, seps[k]); p; p = strstr(p + 1, seps[k]))
				if (p > s && (!cut || p > cut))
					cut = p;
		if (!cut)
			return;
		*cut = '\0';
	}
}

/* ---- sort and filter -------------------------------------------------------------------- */

const char *tui_ov_sort_name(enum tui_ov_sort s)
{
	static const char *const names[TUI_OV_NSORTS] = {
		[TUI_OV_SORT_GIVEN] = "given order", [TUI_OV_SORT_P99] = "p99",
		[TUI_OV_SORT_VERDICT] = "verdict", [TUI_OV_SORT_BUSY] = "busy",
		[TUI_OV_SORT_AWAIT] = "await", [TUI_OV_SORT_RATE] = "rate",
	};

	return s < TUI_OV_NSORTS ? names[s] : "";
}

const char *tui_ov_label(const struct tui_ov_row *r)
{
	return r->name[0] ? r->name : r->target;
}

bool tui_ov_match(const struct tui_ov_row *r, const char *filter)
{
	return !filter || !*filter || strstr(r->target, filter) || strstr(r->name, filter);
}

/* The verdict order's rank: the device side, the probe side, no verdict, keeps up. */
static int ov_severity(const struct tui_ov_row *r)
{
	switch (tui_ov_vclass(r)) {
	case TUI_OV_VC_DEVICE: return 3;
	case TUI_OV_VC_PROBE: return 2;
	case TUI_OV_VC_NONE: return 1;
	case TUI_OV_VC_OK: break;
	}
	return 0;
}

/* a goes strictly before b in order s (rows without the key's value last). */
static bool ov_before(const struct tui_ov_row *a, const struct tui_ov_row *b, enum tui_ov_sort s)
{
	switch (s) {
	case TUI_OV_SORT_P99:
		return a->count && (!b->count || a->p99 > b->p99);
	case TUI_OV_SORT_VERDICT:
		if (ov_severity(a) != ov_severity(b))
			return ov_severity(a) > ov_severity(b);
		return a->p99 > b->p99;
	case TUI_OV_SORT_BUSY:
		return a->have_io && (!b->have_io || a->busy > b->busy);
	case TUI_OV_SORT_AWAIT:
		return a->have_io && (!b->have_io || a->await > b->await);
	case TUI_OV_SORT_RATE:
		return a->achieved > b->achieved;
	case TUI_OV_SORT_GIVEN:
	case TUI_OV_NSORTS:
		break;
	}
	return false;
}

size_t tui_ov_order(const struct tui_ov_row *rows, size_t n, enum tui_ov_sort sort,
		    const char *filter, size_t *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = k;

		if (!tui_ov_match(&rows[i], filter))
			continue;
		/* insertion: stable, and n is at most a few hundred */
		while (j > 0 && ov_before(&rows[i], &rows[out[j - 1]], sort)) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = i;
		k++;
	}
	return k;
}

/* ---- columns, scrolling, number keys ---------------------------------------------------- */

const char *tui_ov_col_name(enum tui_ov_col c)
{
	return c < TUI_OV_NCOLS ? ov_cols[c].name : "";
}

void tui_ov_columns(int width, int target_need, struct tui_ov_cols *out)
{
	bool shown[TUI_OV_NCOLS];
	int need = 0, x = 0, extra, tw = OV_TARGET_MIN, sw = ov_cols[TUI_OV_SPARKC].w;
	int twant = target_need + 1 > OV_TARGET_MAX ? OV_TARGET_MAX : target_need + 1;

	for (int c = 0; c < TUI_OV_NCOLS; c++) {
		shown[c] = true;
		need += ov_cols[c].w;
	}
	for (size_t k = 0; k < ARRAY_SIZE(ov_drop) && need > width; k++) {
		shown[ov_drop[k]] = false;
		need -= ov_cols[ov_drop[k]].w;
	}
	extra = width - need;
	if (extra > 0 && twant > tw) {
		int add = twant - tw < extra ? twant - tw : extra;

		tw += add;
		extra -= add;
	}
	if (extra > 0 && shown[TUI_OV_SPARKC]) {
		int add = TUI_OV_SPARK_MAX + 1 - sw < extra ? TUI_OV_SPARK_MAX + 1 - sw : extra;

		sw += add;
	}
	for (int c = 0; c < TUI_OV_NCOLS; c++) {
		int w = !shown[c] ? 0 : c == TUI_OV_TARGET ? tw : c == TUI_OV_SPARKC ? sw :
			ov_cols[c].w;

		if (x + w > width) /* narrower than the columns that always stay: never cut one */
			w = 0;
		out->x[c] = x;
		out->w[c] = w;
		x += w;
	}
}

size_t tui_ov_scroll(size_t top, size_t sel, size_t n, size_t rows)
{
	if (!rows || n <= rows)
		return 0;
	if (sel < top)
		top = sel;
	if (sel >= top + rows)
		top = sel - rows + 1;
	if (top > n - rows)
		top = n - rows;
	return top;
}

int tui_ov_digit(unsigned *acc, int digit, size_t n)
{
	unsigned v = *acc * 10 + (unsigned)digit;

	if (digit < 0 || digit > 9 || v == 0 || v > n) {
		*acc = 0;
		return -2;
	}
	if ((size_t)v * 10 > n) { /* no second digit can follow */
		*acc = 0;
		return (int)v - 1;
	}
	*acc = v;
	return -1;
}

int tui_ov_digits_target(unsigned *acc, size_t n)
{
	unsigned v = *acc;

	*acc = 0;
	return v >= 1 && v <= n ? (int)v - 1 : -1;
}

/* ---- the sparkline ---------------------------------------------------------------------- */

void tui_ov_spark_range(const struct tui_ov_row *r, int n, uint64_t *lo, uint64_t *hi)
{
	if (n > TUI_OV_SPARK_MAX)
		n = TUI_OV_SPARK_MAX;
	for (int i = TUI_OV_SPARK_MAX - (n > 0 ? n : 0); i < TUI_OV_SPARK_MAX; i++) {
		uint64_t v = r->spark[i];

		if (!v)
			continue;
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
}

/* The block (0-7) of v on the log scale lo..hi. */
static int ov_level(uint64_t v, uint64_t lo, uint64_t hi)
{
	int level;

	if (hi <= lo || !lo || v <= lo)
		return 0;
	if (v >= hi)
		return 7;
	level = (int)(log((double)v / (double)lo) / log((double)hi / (double)lo) * 7.0 + 0.5);
	return level < 0 ? 0 : level > 7 ? 7 : level;
}

void tui_ov_spark(const struct tui_ov_row *r, int n, uint64_t lo, uint64_t hi, bool ascii,
		  char *out, size_t len)
{
	static const char *const blocks[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char ramp[] = ".:-=+*#@";
	size_t o = 0;

	if (!len)
		return;
	if (n > TUI_OV_SPARK_MAX)
		n = TUI_OV_SPARK_MAX;
	for (int i = TUI_OV_SPARK_MAX - (n > 0 ? n : 0); i < TUI_OV_SPARK_MAX; i++) {
		uint64_t v = r->spark[i];
		int level = ov_level(v, lo, hi);

		if (o + (ascii || !v ? 1 : 3) + 1 > len)
			break;
		if (!v) {
			out[o++] = r->spark_fail >> i & 1 ? 'x' : ' ';
		} else if (ascii) {
			out[o++] = ramp[level];
		} else {
			memcpy(out + o, blocks[level], 3);
			o += 3;
		}
	}
	out[o] = '\0';
}

/* ---- the latency windows ---------------------------------------------------------------- */

#define OV_HSUB_BITS 5                 /* 32 buckets per power of two */
#define OV_HTOP_BIT 36                 /* from 2^36 ns up: the last bucket */

static size_t ov_hidx(uint64_t v)
{
	unsigned msb, g;

	if (v < 2u << OV_HSUB_BITS)
		return (size_t)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb >= OV_HTOP_BIT)
		return TUI_OV_HIST_N - 1;
	g = msb - OV_HSUB_BITS;
	return ((size_t)g << OV_HSUB_BITS) + (size_t)(v >> g);
}

/* The middle of bucket i. */
static uint64_t ov_hmid(size_t i)
{
	unsigned g;

	if (i < 2u << OV_HSUB_BITS)
		return i;
	g = (unsigned)(i >> OV_HSUB_BITS) - 1;
	return ((uint64_t)((i & ((1u << OV_HSUB_BITS) - 1)) + (1u << OV_HSUB_BITS)) << g) +
	       ((1ull << g) >> 1);
}

void tui_ov_hist_init(struct tui_ov_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void tui_ov_hist_add_n(struct tui_ov_hist *h, uint64_t ns, uint64_t n)
{
	uint32_t *b = &h->b[ov_hidx(ns)];

	if (!n)
		return;
	*b = n > UINT32_MAX - *b ? UINT32_MAX : *b + (uint32_t)n; /* saturates rather than wrap */
	h->count += n;
	h->min = ns < h->min ? ns : h->min;
	h->max = ns > h->max ? ns : h->max;
}

void tui_ov_hist_add(struct tui_ov_hist *h, uint64_t ns)
{
	tui_ov_hist_add_n(h, ns, 1);
}

void tui_ov_hist_merge(struct tui_ov_hist *dst, const struct tui_ov_hist *src)
{
	if (!src->count)
		return;
	for (size_t i = 0; i < TUI_OV_HIST_N; i++)
		dst->b[i] = src->b[i] > UINT32_MAX - dst->b[i] ? UINT32_MAX : dst->b[i] + src->b[i];
	dst->count += src->count;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
}

uint64_t tui_ov_hist_pct(const struct tui_ov_hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	rank = rank < 1 ? 1 : rank > h->count ? h->count : rank;
	for (size_t i = 0; i < TUI_OV_HIST_N; i++) {
		uint64_t v;

		seen += h->b[i];
		if (seen < rank)
			continue;
		v = i == TUI_OV_HIST_N - 1 ? h->max : ov_hmid(i);
		return v < h->min ? h->min : v > h->max ? h->max : v;
	}
	return h->max;
}

const char *tui_ov_window_label(enum tui_ov_window w)
{
	switch (w) {
	case TUI_OV_W10: return "last 10 s";
	case TUI_OV_W60: return "last 60 s";
	case TUI_OV_WALL: return "all";
	case TUI_OV_NWINDOWS: break;
	}
	return "";
}

void tui_ov_win_init(struct tui_ov_win *w, uint64_t from)
{
	memset(w, 0, sizeof(*w)); /* every page written now: the memory is flat from the start */
	for (size_t i = 0; i < TUI_OV_SECS; i++)
		tui_ov_hist_init(&w->sec[i]);
	for (size_t i = 0; i < TUI_OV_BLOCKS; i++)
		tui_ov_hist_init(&w->blk[i]);
	tui_ov_hist_init(&w->all);
	w->from = from;
}

/* Add ns to slice k of a ring of n slices (a slot holding a later slice: k is too old). */
static void ov_slice_add(struct tui_ov_hist *h, uint64_t *id, size_t n, uint64_t k, uint64_t ns,
			 uint64_t cnt)
{
	size_t s = (size_t)(k % n);

	if (id[s] > k + 1)
		return;
	if (id[s] < k + 1) {
		tui_ov_hist_init(&h[s]);
		id[s] = k + 1;
	}
	tui_ov_hist_add_n(&h[s], ns, cnt);
}

void tui_ov_win_add_n(struct tui_ov_win *w, uint64_t end, uint64_t ns, uint64_t n)
{
	if (end < w->from || !n)
		return;
	ov_slice_add(w->sec, w->sec_id, TUI_OV_SECS, end / TUI_OV_SEC_NS, ns, n);
	ov_slice_add(w->blk, w->blk_id, TUI_OV_BLOCKS, end / (TUI_OV_SEC_NS * TUI_OV_BLOCK_S), ns,
		     n);
	tui_ov_hist_add_n(&w->all, ns, n);
}

void tui_ov_win_add(struct tui_ov_win *w, uint64_t end, uint64_t ns)
{
	tui_ov_win_add_n(w, end, ns, 1);
}

/* Merge the slices numbered first..last (inclusive) of a ring of n into out. */
static void ov_slices_merge(struct tui_ov_hist *out, const struct tui_ov_hist *h,
			    const uint64_t *id, size_t n, uint64_t first, uint64_t last)
{
	for (size_t s = 0; s < n; s++)
		if (id[s] && id[s] - 1 >= first && id[s] - 1 <= last)
			tui_ov_hist_merge(out, &h[s]);
}

void tui_ov_win_get(const struct tui_ov_win *w, enum tui_ov_window which, uint64_t now,
		    struct tui_ov_hist *out)
{
	uint64_t sec = now / TUI_OV_SEC_NS, blk = sec / TUI_OV_BLOCK_S;

	if (which == TUI_OV_WALL) {
		*out = w->all;
		return;
	}
	tui_ov_hist_init(out);
	if (which == TUI_OV_W10) {
		if (sec)
			ov_slices_merge(out, w->sec, w->sec_id, TUI_OV_SECS,
					sec >= 10 ? sec - 10 : 0, sec - 1);
		return;
	}
	if (blk) /* the last 12 whole blocks, then the whole seconds of the current one */
		ov_slices_merge(out, w->blk, w->blk_id, TUI_OV_BLOCKS,
				blk >= TUI_OV_BLOCKS - 1 ? blk - (TUI_OV_BLOCKS - 1) : 0, blk - 1);
	if (sec > blk * TUI_OV_BLOCK_S)
		ov_slices_merge(out, w->sec, w->sec_id, TUI_OV_SECS, blk * TUI_OV_BLOCK_S, sec - 1);
}
