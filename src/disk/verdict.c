#include "config.h"

#include "verdict.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "fmt.h"

uint64_t verdict_piece_bytes(const struct verdict_dev *d)
{
	uint64_t sectors = (uint64_t)d->max_sectors_kb * 1024;
	uint64_t segments = (uint64_t)d->max_segments * VERDICT_SEGMENT_BYTES;

	if (!sectors || !segments)
		return sectors ? sectors : segments;
	return sectors < segments ? sectors : segments;
}

int verdict_expect(const struct verdict_probe *p, const struct verdict_dev *d, double rate,
		   struct verdict_expect *out)
{
	double ws, fc;
	uint64_t chunk;

	if (out)
		memset(out, 0, sizeof(*out));
	if (!p || !d || !out || !p->size)
		return -EINVAL;
	chunk = verdict_piece_bytes(d);
	out->pieces = chunk ? (unsigned)((p->size + chunk - 1) / chunk) : 1;
	ws = p->write_share < 0 ? 0 : p->write_share > 1 ? 1 : p->write_share;
	fc = p->flush && ws > 0 && d->write_cache != VERDICT_CACHE_THROUGH ? 1 : 0;
	out->pieces_f = out->pieces;
	/* --layers counted the block requests each request became (the kernel's split, not
	 * sysfs's): those, where no flush of its own rides along */
	if (p->layers_known && p->layer_pieces >= 1 && (ws == 0 || !p->flush)) {
		out->pieces_f = p->layer_pieces;
		out->pieces = (unsigned)lround(p->layer_pieces);
		out->measured = true;
	}
	if (!isfinite(rate) || rate < 0)
		rate = 0;
	out->r_s = rate * (1 - ws) * out->pieces_f;
	out->w_s = rate * ws * (out->pieces_f + fc);
	out->f_s = rate * ws * fc;
	out->total = out->r_s + out->w_s;
	out->per_request = (1 - ws) * out->pieces_f + ws * (out->pieces_f + fc);
	out->own_aqu = out->pieces_f * (p->depth ? p->depth : 1);
	return 0;
}

void verdict_hist_init(struct verdict_hist *h)
{
	memset(h, 0, sizeof(*h));
}

/* The device's own rules (saturated, depth, the probe's side) once nothing above it held. */
static enum verdict_reason verdict_why_device(const struct verdict_hist *h, const struct verdict *v,
					      double mean, bool in_device)
{
	/* the share of the window the probe waited on its requests, but for its measured CPU
	 * wait inside them (a probe descheduled mid-request did not wait on the device) ... */
	double waited = v->mean_ns > 0 ? v->probe_busy * fmax(0, v->mean_ns - v->cpu_req_ns) /
						 v->mean_ns : v->probe_busy;
	/* ... and the share it waited for a CPU: a probe that did nothing but these two all the
	 * window, mostly the first, is held by its depth */
	double cpu = v->cpu_known ? fmin(1, v->cpu_ms_s / 1e3) : 0;
	bool at_ceiling = h->periods >= 2 && h->ceiling > 0 &&
			  v->dev_rate >= VERDICT_CEILING_SHARE * h->ceiling;

	if (v->busy >= VERDICT_BUSY_SATURATED ||
	    (v->aqu >= VERDICT_CEILING_AQU * v->own_aqu && in_device) ||
	    (at_ceiling && v->aqu >= VERDICT_CEILING_AQU && in_device))
		return VERDICT_DEVICE_SATURATED;
	/* it waited throughout, the device had room: the depth is the limit when the device's
	 * time is a fair part of each request; else the time went to the probe's own side (a
	 * CPU wait measured says so; else inferred: its schedule, the file system) */
	if (waited + cpu >= VERDICT_PROBE_WAITED && waited >= cpu &&
	    mean <= VERDICT_DEPTH_DEV_FACTOR * v->dev_ms)
		return VERDICT_DEPTH_LIMITED;
	return v->cpu_material ? VERDICT_PROBE_CPU : VERDICT_PROBE_LIMITED;
}

/*
 * With --layers: the requests' measured time in each layer. Half or more of it above the
 * device in one layer names that layer; else the device's rules, with the device's measured
 * share of the time deciding "in the device".
 */
static enum verdict_reason verdict_why_layers(const struct verdict_hist *h,
					      const struct verdict *v)
{
	double total = v->submit_ns + v->throttle_ns + v->queue_ns + v->device_ns;
	double share = VERDICT_LAYER_SHARE * total;
	enum verdict_reason r;

	if (total <= 0) /* every measured request was served without the device */
		return v->cpu_material ? VERDICT_PROBE_CPU : VERDICT_PROBE_LIMITED;
	if (v->throttle_ns >= share)
		return VERDICT_THROTTLED;
	if (v->queue_ns >= share)
		return VERDICT_QUEUED;
	if (v->submit_ns >= share && !v->cpu_material)
		return VERDICT_WAIT_ABOVE;
	r = verdict_why_device(h, v, total / 1e6, v->device_ns >= VERDICT_CEILING_DEV_SHARE * total);
	/* held by its depth, the device not full, and nearly all of the probe's own time per
	 * request (not only the layers': the wake-up after the completion is in none) measured
	 * in the device: the device's time per request is the limit */
	if (r == VERDICT_DEPTH_LIMITED && v->mean_ns > 0 &&
	    v->device_ns >= VERDICT_DEVICE_SLOW_SHARE * v->mean_ns)
		return VERDICT_DEVICE_SLOW;
	return r;
}

/* Why the probe falls short, from the interval's numbers (v filled but for the reason). */
static enum verdict_reason verdict_why(const struct verdict_hist *h, const struct verdict *v)
{
	double mean = v->mean_ns / 1e6;
	/* the probe's own time per request but its measured CPU wait */
	double above = fmax(0, v->mean_ns - v->cpu_req_ns) / 1e6;

	/* requests answered with an error that explain the shortfall: theirs, measured */
	if (v->failed && (double)v->failed >= VERDICT_FAILED_SHARE *
						     (v->asked - v->achieved) * v->window_s)
		return VERDICT_FAILED;
	if (v->stall_ns) /* one request held far longer than the rest: the window's shortfall */
		return VERDICT_STALLED;
	if (!v->done) /* nothing finished: either the device is busy or it never saw the request */
		return v->busy >= VERDICT_BUSY_SATURATED ? VERDICT_DEVICE_SATURATED :
		       v->cpu_material			 ? VERDICT_PROBE_CPU :
							   VERDICT_WAIT_ABOVE;
	if (v->layers_known) /* measured in the kernel: the layer that held the requests */
		return verdict_why_layers(h, v);
	/* inferred from times: not while the probe's measured CPU wait is material (its requests'
	 * share of it is a mean; the rest of their time may be CPU too) */
	if (above > VERDICT_WAIT_ABOVE_FACTOR * v->dev_ms &&
	    above - v->dev_ms >= VERDICT_WAIT_ABOVE_MIN_MS && !v->cpu_material)
		return VERDICT_WAIT_ABOVE;
	return verdict_why_device(h, v, mean, v->dev_ms >= VERDICT_CEILING_DEV_SHARE * mean);
}

/* Fill v's device numbers from d; returns false when there is no usable row. */
static bool verdict_device(const struct verdict_probe *p, const struct verdict_dev *d,
			   struct verdict *v)
{
	const struct iostat_row *r = d->row;
	struct verdict_expect at_asked, at_got;

	/* the probe's own share of the device: from its own count where it was taken at the
	 * device's read (requests a starved process had not yet heard of count too) */
	double own_rate = p->finished_known && p->period_ns ?
				  (double)p->finished * NS_PER_S / (double)p->period_ns : v->rate;

	if (!r || r->reset || verdict_expect(p, d, v->asked, &at_asked) ||
	    verdict_expect(p, d, own_rate, &at_got))
		return false;
	snprintf(v->dev, sizeof(v->dev), "%s", d->name ? d->name : "");
	v->dev_rate = r->r_s + r->w_s;
	v->expected = at_asked.total;
	v->own = at_got.total;
	v->pieces = at_asked.pieces;
	v->pieces_mean = at_asked.pieces_f;
	v->pieces_measured = at_asked.measured;
	v->piece_bytes = verdict_piece_bytes(d);
	v->piece_segments = d->max_segments &&
			    v->piece_bytes == (uint64_t)d->max_segments * VERDICT_SEGMENT_BYTES &&
			    v->piece_bytes < (uint64_t)d->max_sectors_kb * 1024;
	v->flush_counted = p->flush && p->write_share > 0 &&
			   d->write_cache != VERDICT_CACHE_THROUGH;
	v->f_s = r->f_s;
	v->f_await = r->f_await;
	v->busy = r->util;
	v->aqu = r->aqu_sz;
	v->own_aqu = at_asked.own_aqu;
	v->await = r->await;
	v->dev_ms = v->rate > 0 ? r->aqu_sz * 1000 / v->rate : 0;
	return true;
}

/* The device checks of one interval: other I/O and queue building. */
static void verdict_checks(const struct verdict_hist *h, const struct verdict_probe *p,
			   const struct verdict_dev *d, double secs, struct verdict *v)
{
	struct verdict_expect e;
	double margin;
	bool above;

	verdict_expect(p, d, v->rate, &e);
	margin = fmax(VERDICT_OTHER_SHARE * v->own, VERDICT_OTHER_MIN_S) +
		 2 * e.per_request / secs;
	v->other_io = v->dev_rate > v->own + margin;
	v->device_less = v->dev_rate < VERDICT_LESS_SHARE * v->own && v->own - v->dev_rate >= margin;
	above = v->aqu > v->own_aqu + VERDICT_QUEUE_MARGIN;
	/* an interval holding a stall judges no queue: its one long request fills aqu-sz and
	 * await (VERDICT_STALL_*) */
	/* ... nor by await alone while the probe or the host waited for a CPU: a device served by
	 * threads (a loop device's worker, a FUSE server) then waits for one too */
	bool by_aqu = above && (h->prev_above || v->aqu > h->prev_aqu);
	bool by_await = h->base_n >= VERDICT_BASELINE_PERIODS && !v->cpu_material &&
			!v->host_short &&
			v->await > VERDICT_AWAIT_FACTOR * h->base_await + VERDICT_AWAIT_MIN_MS;

	v->queue_building = !h->win_stall[h->win_at] && (by_aqu || by_await);
	v->queue_by_await = v->queue_building && !by_aqu;
}

/* Remember this interval for the next one. */
static void verdict_remember(struct verdict_hist *h, const struct verdict *v)
{
	h->periods++;
	if (v->dev_rate > h->ceiling)
		h->ceiling = v->dev_rate;
	h->prev_aqu = v->aqu;
	h->prev_above = v->aqu > v->own_aqu + VERDICT_QUEUE_MARGIN;
	/* the baseline is the probe's own picture: intervals with other load do not count */
	if (h->base_n < VERDICT_BASELINE_PERIODS && v->dev_rate > 0 && !v->other_io &&
	    !v->queue_building && !h->win_stall[h->win_at] && !v->cpu_material && !v->host_short) {
		h->base_await = (h->base_await * h->base_n + v->await) / (h->base_n + 1);
		h->base_n++;
	}
}

/*
 * The interval's stall (VERDICT_STALL_*): its longest request's time, or 0 when none stands out.
 * What the probe spent waiting for a CPU is no stall of the device's: this interval's wait, and
 * the previous one's (h's newest) too, since the request may have started there (a request of
 * 600 ms in an interval of 700 ms with 389 ms of CPU wait, its previous holding 1.2 s, read
 * "stalled" on an idle loop device).
 */
static uint64_t verdict_stall(const struct verdict_hist *h, const struct verdict_probe *p)
{
	uint64_t longest = p->max_ns > p->inflight_ns ? p->max_ns : p->inflight_ns;
	uint64_t wait = p->cpu_wait_ns;

	if (h->win_n && h->win_cpu_known[h->win_at])
		wait += h->win_cpu[h->win_at];
	if (p->cpu_known)
		longest = longest > wait ? longest - wait : 0;
	if (!longest || (double)longest < VERDICT_STALL_SHARE * (double)p->period_ns ||
	    (double)longest < VERDICT_STALL_FACTOR * (double)p->p50_ns)
		return 0;
	return longest;
}

/* Add this interval to h's rate window (a new asked rate starts a new window). */
static void verdict_window_push(struct verdict_hist *h, const struct verdict_probe *p,
				double asked)
{
	uint64_t stall;

	if (h->win_n && fabs(asked - h->win_asked) > 1e-9 * fmax(1, asked)) {
		h->win_n = 0;
		h->was_short = false;
	}
	h->win_asked = asked;
	stall = verdict_stall(h, p); /* before the window moves: h's newest is the previous */
	h->win_at = (h->win_at + 1) % VERDICT_WINDOW;
	h->win_done[h->win_at] = p->done;
	h->win_ns[h->win_at] = p->period_ns;
	h->win_sum[h->win_at] = p->sum_ns;
	h->win_stall[h->win_at] = stall;
	h->win_failed[h->win_at] = p->failed;
	/* net of the CPU wait the stall is no longer equal to the age in flight: say which it was */
	h->win_stall_inflight[h->win_at] = stall && p->inflight_ns && p->inflight_ns >= p->max_ns;
	h->win_cpu[h->win_at] = p->cpu_wait_ns;
	h->win_cpu_known[h->win_at] = p->cpu_known;
	if (h->win_n < VERDICT_WINDOW)
		h->win_n++;
}

/* The window's rate numbers into v: achieved, short_pct, mean, the probe's busy share. */
static void verdict_window(const struct verdict_hist *h, const struct verdict_probe *p,
			   struct verdict *v)
{
	double done = 0, ns = 0, sum = 0, cpu = 0, cpu_ns = 0, cpu_done = 0, due, share, slack;
	unsigned depth = p->depth;

	for (unsigned i = 0; i < h->win_n; i++) {
		unsigned k = (h->win_at + VERDICT_WINDOW - i) % VERDICT_WINDOW;

		done += (double)h->win_done[k];
		ns += (double)h->win_ns[k];
		sum += (double)h->win_sum[k];
		if (h->win_cpu_known[k]) { /* the window's intervals where it was measured */
			cpu += (double)h->win_cpu[k];
			cpu_ns += (double)h->win_ns[k];
			cpu_done += (double)h->win_done[k];
		}
		v->failed += h->win_failed[k];
		if (h->win_stall[k] > v->stall_ns) {
			v->stall_ns = h->win_stall[k];
			v->stall_now = i == 0 && h->win_stall_inflight[k];
		}
	}
	v->window_s = ns / NS_PER_S;
	v->achieved = ns > 0 ? done / v->window_s : 0;
	v->short_pct = v->asked > 0 ? (v->achieved - v->asked) / v->asked * 100 : 0;
	v->mean_ns = done > 0 ? sum / done : 0;
	v->cpu_known = cpu_ns > 0; /* a last interval after the prober ended has none of its own */
	if (v->cpu_known) {
		v->cpu_ms_s = cpu / cpu_ns * 1e3;
		v->cpu_req_ns = cpu_done > 0 ? cpu / cpu_done : 0;
		v->cpu_material = cpu >= VERDICT_CPU_SHARE * cpu_ns;
	}
	v->probe_busy = ns > 0 ? sum / (ns * (depth ? depth : 1)) : 0;
	v->max_rate = v->mean_ns > 0 ? (depth ? depth : 1) * NS_PER_S / v->mean_ns : 0;
	due = v->asked * v->window_s;
	share = h->was_short ? VERDICT_RECOVER_SHARE : VERDICT_KEEP_SHARE;
	slack = due < VERDICT_KEEP_SLACK_BELOW ? VERDICT_KEEP_SLACK_REQS : 0;
	v->falls_short = v->asked > 0 && ns > 0 && done + slack < share * due;
}

/* The interval's measured layers (--layers) into v. */
static void verdict_layers_in(const struct verdict_probe *p, struct verdict *v)
{
	v->inferred = p->layers_tried;
	v->layers_known = p->layers_known && p->layers_requests > 0;
	if (!v->layers_known)
		return;
	v->layers_requests = p->layers_requests;
	v->layers_no_device = p->layers_no_device;
	v->submit_ns = p->layer_ns[0];
	v->throttle_ns = p->layer_ns[1];
	v->queue_ns = p->layer_ns[2];
	v->device_ns = p->layer_ns[3];
	v->pieces_measured_mean = p->layer_pieces;
}

int verdict_judge(struct verdict_hist *h, const struct verdict_probe *p,
		  const struct verdict_dev *dev, size_t ndev, struct verdict *out)
{
	double secs;

	if (out)
		memset(out, 0, sizeof(*out));
	if (!h || !p || !out)
		return -EINVAL;
	secs = (double)p->period_ns / NS_PER_S;
	out->asked = isfinite(p->asked) && p->asked > 0 ? p->asked : 0;
	out->rate = secs > 0 ? (double)p->done / secs : 0;
	out->done = p->done;
	out->skipped = p->skipped;
	out->p50_ns = p->p50_ns;
	out->p99_ns = p->p99_ns;
	out->late_max_ns = p->late_max_ns;
	out->throttle_known = p->throttle_known;
	out->throttled_ms_s = p->throttle_known && secs > 0 ? (double)p->throttled_ns / 1e6 / secs : 0;
	out->host_some = p->host_some >= 0 ? p->host_some * 100 : -1;
	out->host_short = p->host_some >= VERDICT_HOST_SOME_SHARE;
	verdict_layers_in(p, out);
	verdict_window_push(h, p, out->asked);
	verdict_window(h, p, out);
	h->was_short = out->falls_short;
	out->have_dev = ndev > 0 && dev && secs > 0 && verdict_device(p, &dev[0], out);
	if (!out->have_dev) {
		out->state = VERDICT_NONE;
		out->reason = out->asked > 0 ? VERDICT_NO_DEVICE : VERDICT_UNPACED;
		return 0;
	}
	out->base_await = h->base_n ? h->base_await : 0;
	out->ceiling = h->ceiling > out->dev_rate ? h->ceiling : out->dev_rate;
	verdict_checks(h, p, &dev[0], secs, out);
	if (out->falls_short)
		out->reason = verdict_why(h, out);
	if (out->device_less && out->asked > 0) /* state stays VERDICT_NONE: nothing to judge */
		out->reason = out->layers_known && out->layers_no_device == out->layers_requests ?
				      VERDICT_PAGE_CACHE : VERDICT_DEVICE_LESS;
	else if (out->other_io)
		out->state = VERDICT_OTHER_IO;
	else if (out->queue_building)
		out->state = VERDICT_QUEUE_BUILDING;
	else if (out->asked <= 0)
		out->reason = VERDICT_UNPACED; /* state stays VERDICT_NONE */
	else if (out->falls_short)
		out->state = VERDICT_FALLS_SHORT;
	else
		out->state = VERDICT_KEEPS_UP;
	verdict_remember(h, out);
	return 0;
}

const char *verdict_state_text(enum verdict_state s)
{
	switch (s) {
	case VERDICT_KEEPS_UP: return "keeps up";
	case VERDICT_FALLS_SHORT: return "falls short";
	case VERDICT_OTHER_IO: return "other I/O";
	case VERDICT_QUEUE_BUILDING: return "queue building";
	case VERDICT_NONE: break;
	}
	return "no verdict";
}

const char *verdict_reason_text(enum verdict_reason r)
{
	switch (r) {
	case VERDICT_DEVICE_SATURATED: return "device saturated";
	case VERDICT_WAIT_ABOVE: return "wait above the device";
	case VERDICT_PROBE_LIMITED: return "probe limited";
	case VERDICT_PROBE_CPU: return "probe limited: CPU";
	case VERDICT_THROTTLED: return "throttled above the device";
	case VERDICT_QUEUED: return "queued";
	case VERDICT_DEVICE_SLOW: return "device slow";
	case VERDICT_PAGE_CACHE: return "page cache";
	case VERDICT_UNPACED: return "unpaced";
	case VERDICT_NO_DEVICE: return "no device row";
	case VERDICT_DEVICE_LESS: return "the device saw less";
	case VERDICT_DEPTH_LIMITED: return "depth limited";
	case VERDICT_STALLED: return "stalled";
	case VERDICT_FAILED: return "requests failed";
	case VERDICT_NO_REASON: break;
	}
	return "";
}

const char *verdict_state_key(enum verdict_state s)
{
	switch (s) {
	case VERDICT_KEEPS_UP: return "keeps_up";
	case VERDICT_FALLS_SHORT: return "falls_short";
	case VERDICT_OTHER_IO: return "other_io";
	case VERDICT_QUEUE_BUILDING: return "queue_building";
	case VERDICT_NONE: break;
	}
	return "none";
}

const char *verdict_reason_key(enum verdict_reason r)
{
	switch (r) {
	case VERDICT_DEVICE_SATURATED: return "device_saturated";
	case VERDICT_WAIT_ABOVE: return "wait_above_device";
	case VERDICT_PROBE_LIMITED: return "probe_limited";
	case VERDICT_PROBE_CPU: return "probe_limited_cpu";
	case VERDICT_THROTTLED: return "throttled";
	case VERDICT_QUEUED: return "queued";
	case VERDICT_DEVICE_SLOW: return "device_slow";
	case VERDICT_PAGE_CACHE: return "page_cache";
	case VERDICT_UNPACED: return "unpaced";
	case VERDICT_NO_DEVICE: return "no_device_row";
	case VERDICT_DEVICE_LESS: return "device_less";
	case VERDICT_DEPTH_LIMITED: return "depth_limited";
	case VERDICT_STALLED: return "stalled";
	case VERDICT_FAILED: return "requests_failed";
	case VERDICT_NO_REASON: break;
	}
	return "";
}

enum verdict_reason verdict_reason_of(const struct verdict *v)
{
	return v->state == VERDICT_FALLS_SHORT || v->state == VERDICT_NONE ? v->reason :
	       VERDICT_NO_REASON;
}

char *verdict_words(const struct verdict *v, char *buf, size_t len)
{
	bool why = v->state == VERDICT_FALLS_SHORT && v->reason != VERDICT_NO_REASON;

	snprintf(buf, len, "%s%s%s", verdict_state_text(v->state), why ? ": " : "",
		 why ? verdict_reason_text(v->reason) : "");
	return buf;
}

void verdict_rate_text(char *buf, size_t len, double rate)
{
	bool whole = fabs(rate - round(rate)) < 0.05;

	snprintf(buf, len, fabs(rate) >= 99.5 || whole ? "%.0f" : "%.1f", rate);
}

static void put_rate(struct sbuf *sb, const char *before, double rate, const char *after)
{
	char t[48];

	verdict_rate_text(t, sizeof(t), rate);
	sbuf_printf(sb, "%s%s%s", before, t, after);
}

static void put_time(struct sbuf *sb, const char *before, uint64_t ns)
{
	char t[FMT_BUFSZ];

	sbuf_printf(sb, "%s%s", before, fmt_value(t, sizeof(t), ns, FMT_TIME));
}

/* "asked 200/s  got 131/s (-35 %)" or "asked -  got 131/s". */
static void put_asked_got(struct sbuf *sb, const struct verdict *v)
{
	if (v->asked > 0)
		put_rate(sb, "asked ", v->asked, "/s  ");
	else
		sbuf_puts(sb, "asked -  ");
	put_rate(sb, "got ", v->achieved, "/s");
	if (v->asked > 0)
		sbuf_printf(sb, " (%s%.0f %%)", v->short_pct >= 0.5 ? "+" : "",
			    fabs(v->short_pct) < 0.5 ? 0.0 : v->short_pct);
}

int verdict_format_probe(struct sbuf *sb, const struct verdict *v)
{
	sbuf_puts(sb, "probe: ");
	put_asked_got(sb, v);
	sbuf_printf(sb, "  skipped %llu", (unsigned long long)v->skipped);
	put_time(sb, "  p50 ", v->p50_ns);
	put_time(sb, "  p99 ", v->p99_ns);
	return sb->error;
}

int verdict_format_rates(struct sbuf *sb, const struct verdict *v)
{
	put_asked_got(sb, v);
	if (v->have_dev) {
		put_rate(sb, "  dev ", v->dev_rate, "/s");
		if (v->asked > 0)
			put_rate(sb, " (expected ", v->expected, ")");
	}
	return sb->error;
}

/* "dev 140/s (expected 140: 1 piece + 1 flush per request)"; split requests say, but for brief,
 * which limit cut them: "4 pieces of 128 KiB (max_sectors_kb)" or "(max_segments)". */
static void put_dev(struct sbuf *sb, const struct verdict *v, double expected, bool brief)
{
	put_rate(sb, "dev ", v->dev_rate, "/s");
	put_rate(sb, " (expected ", expected, ": ");
	if (v->pieces_measured) {
		sbuf_printf(sb, "%.2f pieces (measured) per request)", v->pieces_mean);
		return;
	}
	sbuf_printf(sb, "%u piece%s", v->pieces, v->pieces == 1 ? "" : "s");
	if (!brief && v->pieces > 1 && v->piece_bytes)
		sbuf_printf(sb, " of %llu KiB (%s)", (unsigned long long)(v->piece_bytes >> 10),
			    v->piece_segments ? "max_segments" : "max_sectors_kb");
	sbuf_printf(sb, "%s per request", v->flush_counted ? " + 1 flush" : "");
	/* split by the kernel, the count from sysfs is the least it can be: 5 MiB writes at
	 * depth 4 made 6-8 % more device requests (alignment, page boundaries); --layers
	 * counts them */
	if (!brief && v->pieces > 1)
		sbuf_puts(sb, ", computed: at least");
	sbuf_putc(sb, ')');
}

/*
 * The device's queue (aqu-sz, await: the whole device's), then with --layers what the probe's
 * own requests spent queued before it, measured: "; the probe's requests queued 513 us of
 * 1.20 ms before the device (measured)" — a long device queue its requests did not wait in
 * reads so.
 */
static void put_queue(struct sbuf *sb, const struct verdict *v)
{
	if (v->queue_by_await) /* the await rule alone: its numbers first, an aqu-sz below the
				* probe's own would read as no queue at all */
		sbuf_printf(sb, "await %.2f ms, above %g x the first intervals' %.2f ms + %g ms "
			    "(aqu-sz %.2f, the probe's own up to %.0f)", v->await,
			    VERDICT_AWAIT_FACTOR, v->base_await, VERDICT_AWAIT_MIN_MS, v->aqu,
			    v->own_aqu);
	else
		sbuf_printf(sb, "aqu-sz %.2f (the probe's own up to %.0f), await %.2f ms", v->aqu,
			    v->own_aqu, v->await);
	if (v->base_await > 0 && !v->queue_by_await)
		sbuf_printf(sb, " (first intervals %.2f ms)", v->base_await);
	if (!v->layers_known)
		return;
	put_time(sb, "; the probe's requests queued ", (uint64_t)v->queue_ns);
	put_time(sb, " of ", (uint64_t)(v->submit_ns + v->throttle_ns + v->queue_ns +
					v->device_ns));
	sbuf_puts(sb, " before the device (measured)");
}

/* "24.6 ms of 25.0 ms<where>, device 61.0 us, busy 3 %": one layer's share, measured. */
static void put_layer(struct sbuf *sb, const struct verdict *v, double ns, const char *where)
{
	double total = v->submit_ns + v->throttle_ns + v->queue_ns + v->device_ns;

	put_time(sb, "", (uint64_t)ns);
	put_time(sb, " of ", (uint64_t)total);
	sbuf_puts(sb, where);
	put_time(sb, ", device ", (uint64_t)v->device_ns);
	sbuf_printf(sb, ", busy %.0f %%", v->busy);
}

/* " (host cpu some 38 %, its cgroup throttled 380 ms/s)": what was measured beside it. */
static void put_cpu_host(struct sbuf *sb, const struct verdict *v)
{
	bool thr = v->throttle_known && v->throttled_ms_s >= 0.5;

	if (v->host_some < 0 && !thr)
		return;
	sbuf_puts(sb, " (");
	if (v->host_some >= 0)
		sbuf_printf(sb, "host cpu some %.0f %%%s", v->host_some, thr ? ", " : "");
	if (thr)
		sbuf_printf(sb, "its cgroup throttled %.0f ms/s", v->throttled_ms_s);
	sbuf_putc(sb, ')');
}

/* The falls-short clause; brief leaves out what the rates line says (got, asked, dev). */
static void put_short(struct sbuf *sb, const struct verdict *v, bool brief)
{
	sbuf_printf(sb, "%s: ", verdict_reason_text(v->reason));
	if (!brief) {
		put_rate(sb, "got ", v->achieved, "/s");
		put_rate(sb, " of ", v->asked, "");
		sbuf_printf(sb, " (%.0f %%), ", v->short_pct);
	}
	switch (v->reason) {
	case VERDICT_WAIT_ABOVE:
		if (v->layers_known) {
			put_layer(sb, v, v->submit_ns, " in submit (file system, page cache, FUSE; "
				  "measured)");
			break;
		}
		put_time(sb, "probe mean ", (uint64_t)v->mean_ns);
		sbuf_printf(sb, " against %.2f ms in the device per request (busy %.0f %%): %s"
			    "throttling, file system, page cache, FUSE or network",
			    v->dev_ms, v->busy, v->inferred ? "inferred: " : "");
		break;
	case VERDICT_THROTTLED:
		put_layer(sb, v, v->throttle_ns, " in the cgroup's throttle (measured)");
		break;
	case VERDICT_QUEUED:
		put_layer(sb, v, v->queue_ns, " queued before the device (scheduler, tags, other "
			  "I/O; measured)");
		break;
	case VERDICT_DEVICE_SLOW:
		put_time(sb, "", (uint64_t)v->device_ns);
		put_time(sb, " of ", (uint64_t)v->mean_ns);
		sbuf_printf(sb, " per request in the device (measured), busy %.0f %%", v->busy);
		break;
	case VERDICT_DEVICE_SATURATED:
		sbuf_printf(sb, "busy %.0f %%", v->busy);
		if (!brief) {
			sbuf_puts(sb, ", ");
			put_dev(sb, v, v->expected, brief);
		}
		break;
	case VERDICT_DEPTH_LIMITED:
		put_time(sb, "one request takes ", (uint64_t)v->mean_ns);
		sbuf_printf(sb, " (%.3f ms of it in the device, busy %.0f %%)", v->dev_ms, v->busy);
		break;
	case VERDICT_STALLED:
		put_time(sb, v->stall_now ? "a request in flight for " : "a request took ",
			 v->stall_ns);
		if (v->p50_ns)
			put_time(sb, " (the others' p50 ", v->p50_ns);
		sbuf_printf(sb, "%s, busy %.0f %%", v->p50_ns ? ")" : "", v->busy);
		break;
	case VERDICT_FAILED:
		sbuf_printf(sb, "%" PRIu64 " failed in %.1f s beside %" PRIu64
			    " done (answered with an error, measured), busy %.0f %%", v->failed,
			    v->window_s,
			    (uint64_t)(v->achieved * v->window_s + 0.5), v->busy);
		break;
	case VERDICT_PROBE_LIMITED:
		sbuf_printf(sb, "busy %.0f %%, the device's time %.0f %% of the probe's (inferred: "
			    "its schedule or the file system held it)", v->busy,
			    v->mean_ns > 0 ? fmin(100, v->dev_ms * 1e8 / v->mean_ns) : 0);
		break;
	case VERDICT_PROBE_CPU:
		sbuf_printf(sb, "the probe waited %.0f ms of each second for a CPU", v->cpu_ms_s);
		put_cpu_host(sb, v);
		sbuf_printf(sb, ", busy %.0f %%", v->busy);
		break;
	default:
		sbuf_printf(sb, "busy %.0f %%", v->busy);
		break;
	}
	if (v->max_rate > 0 && v->reason == VERDICT_DEVICE_SATURATED)
		put_time(sb, ", one request takes ", (uint64_t)v->mean_ns);
	if (v->max_rate > 0 && (v->reason == VERDICT_DEVICE_SATURATED ||
				v->reason == VERDICT_DEPTH_LIMITED || v->reason == VERDICT_DEVICE_SLOW))
		put_rate(sb, ": at most ", v->max_rate, "/s at this depth");
}

static int verdict_put(struct sbuf *sb, const struct verdict *v, bool brief)
{
	sbuf_puts(sb, verdict_state_text(v->state));
	switch (v->state) {
	case VERDICT_NONE:
		if (v->reason == VERDICT_PAGE_CACHE) {
			sbuf_printf(sb, ": page cache: none of the probe's %" PRIu64 " measured "
				    "requests reached the device (measured)", v->layers_requests);
			put_rate(sb, ", dev ", v->dev_rate, "/s");
			break;
		}
		if (v->reason == VERDICT_DEVICE_LESS) {
			put_rate(sb, ": the device saw ", v->dev_rate, "/s");
			put_rate(sb, " of the ", v->own, "/s the probe's requests explain");
			sbuf_puts(sb, " (page cache? a stacked device?)");
			break;
		}
		sbuf_printf(sb, ": %s", v->reason == VERDICT_UNPACED ?
			    "unpaced (nothing asked to compare with)" :
			    "no device row for this interval");
		break;
	case VERDICT_KEEPS_UP:
		sbuf_puts(sb, ": ");
		put_dev(sb, v, v->expected, brief);
		sbuf_printf(sb, ", f/s %.0f, await %.2f ms, aqu-sz %.2f, busy %.0f %%", v->f_s,
			    v->await, v->aqu, v->busy);
		break;
	case VERDICT_FALLS_SHORT:
		sbuf_puts(sb, ": ");
		put_short(sb, v, brief);
		break;
	case VERDICT_OTHER_IO:
		sbuf_puts(sb, ": ");
		put_rate(sb, "dev ", v->dev_rate, "/s");
		put_rate(sb, ", the probe's own ", v->own, "/s");
		if (v->queue_building) {
			sbuf_puts(sb, "; queue building: ");
			put_queue(sb, v);
		}
		if (v->falls_short) {
			sbuf_puts(sb, "; falls short: ");
			put_short(sb, v, brief);
		}
		break;
	case VERDICT_QUEUE_BUILDING:
		sbuf_puts(sb, ": ");
		put_queue(sb, v);
		if (v->falls_short) {
			sbuf_puts(sb, "; falls short: ");
			put_short(sb, v, brief);
		}
		break;
	}
	/* measured beside a device-side state: the probe's own CPU wait, so it is not taken
	 * for the device's */
	if (v->cpu_material && v->state != VERDICT_NONE &&
	    !(v->falls_short && v->reason == VERDICT_PROBE_CPU)) {
		sbuf_printf(sb, "; the probe waited %.0f ms of each second for a CPU", v->cpu_ms_s);
		put_cpu_host(sb, v);
	}
	return sb->error;
}

void verdict_probe_settings(struct verdict_probe *p, double asked, uint64_t size, bool write,
			    bool read_write, bool cached, unsigned depth)
{
	memset(p, 0, sizeof(*p));
	p->asked = asked;
	p->size = size;
	p->write_share = read_write ? 0.5 : write ? 1.0 : 0.0;
	p->flush = p->write_share > 0 && !cached;
	p->depth = depth;
	p->host_some = -1; /* unknown until measured */
}

void verdict_probe_interval(struct verdict_probe *p, uint64_t period_ns, const struct stats *lat,
			    uint64_t skipped, uint64_t inflight_ns)
{
	p->period_ns = period_ns;
	p->done = lat->count;
	p->skipped = skipped;
	p->p50_ns = stats_percentile(lat, 50);
	p->p99_ns = stats_percentile(lat, 99);
	p->sum_ns = lat->sum;
	p->max_ns = lat->max;
	p->inflight_ns = inflight_ns;
	p->failed = 0;
	p->late_max_ns = 0;
	p->finished = 0;
	p->finished_known = false; /* verdict_probe_finished() */
	verdict_probe_cpu(p, false, 0, false, 0, -1); /* unknown until the caller measures it */
	verdict_probe_layers(p, p->layers_tried, 0, 0, NULL, 0);
}

void verdict_probe_finished(struct verdict_probe *p, uint64_t finished)
{
	p->finished = finished;
	p->finished_known = true;
}

void verdict_probe_layers(struct verdict_probe *p, bool tried, uint64_t requests,
			  uint64_t no_device, const double layer_ns[4], double pieces)
{
	p->layers_tried = tried;
	p->layers_known = requests > 0;
	p->layers_requests = requests;
	p->layers_no_device = no_device;
	for (int i = 0; i < 4; i++)
		p->layer_ns[i] = requests && layer_ns ? layer_ns[i] : 0;
	p->layer_pieces = requests ? pieces : 0;
}

void verdict_probe_cpu(struct verdict_probe *p, bool known, uint64_t wait_ns, bool throttle_known,
		       uint64_t throttled_ns, int64_t host_some_ns)
{
	p->cpu_known = known;
	p->cpu_wait_ns = known ? wait_ns : 0;
	p->throttle_known = throttle_known;
	p->throttled_ns = throttle_known ? throttled_ns : 0;
	p->host_some = host_some_ns >= 0 && p->period_ns ?
			       fmin(1, (double)host_some_ns / (double)p->period_ns) : -1;
}

int verdict_format(struct sbuf *sb, const struct verdict *v)
{
	return verdict_put(sb, v, false);
}

int verdict_format_brief(struct sbuf *sb, const struct verdict *v)
{
	return verdict_put(sb, v, true);
}
