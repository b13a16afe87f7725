#include "config.h"

#include "tui_draw.h"

#include <stdio.h>
#include <string.h>

#include "tui_fmt.h"
#include "sbuf.h"
#include "tui_text.h"
#include "tui_verdict.h"
#include "verdict.h"

/* iostat-like number: "%.2f" while it fits, then three digits with a suffix. */
static char *tui_io_num(char *buf, size_t len, double v)
{
	if (v < 1000)
		snprintf(buf, len, "%.2f", v < 0 ? 0 : v);
	else
		tui_fmt_rate(buf, len, v);
	return buf;
}

static enum tui_attr tui_io_state_attr(enum tui_io_state s)
{
	switch (s) {
	case TUI_IO_OK: return TA_OK;
	case TUI_IO_INIT: return TA_DIM;
	default: return TA_WARN;
	}
}

static enum tui_attr tui_busy_attr(double util)
{
	return util >= 90 ? TA_ERROR : util >= 60 ? TA_SLOW : TA_DATA;
}

static enum tui_attr tui_verdict_attr(const struct verdict *v)
{
	switch (v->state) {
	case VERDICT_KEEPS_UP: return TA_OK;
	case VERDICT_NONE: return TA_DIM;
	case VERDICT_FALLS_SHORT: /* the probe's own side: yellow, not the device's red */
		return v->reason == VERDICT_PROBE_CPU || v->reason == VERDICT_PROBE_LIMITED ||
			       v->reason == VERDICT_DEPTH_LIMITED ? TA_WARN : TA_BAD;
	default: return TA_BAD;
	}
}

/* The verdict's rates line and verdict line into a and b; false before the first verdict. */
static bool tui_io_verdict(const struct tui_frame *f, struct sbuf *a, struct sbuf *b)
{
	return f->verdict && !tui_verdict_text(f->verdict, a, b);
}

/* Milliseconds "7.41" of ns; "-" for none. */
static char *tui_io_ms(char *buf, size_t len, uint64_t ns)
{
	if (!ns)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", (double)ns / 1e6);
	return buf;
}

/* Where a panel writes next: one line at a time, nothing below the rectangle. */
struct tui_pen {
	int y, end, x, w;
};

/* One line of text at the pen, then the next line. */
static void pen_line(struct tui_pen *p, enum tui_attr a, const char *text)
{
	if (p->y < p->end)
		tui_text_put(p->y, p->x, p->w, a, text);
	p->y++;
}

/* Two labelled values on one line, iostat's way: "r/s       12.00  w/s       3.00". */
static void pen_pair(struct tui_pen *p, const char *l1, const char *v1, const char *l2,
		     const char *v2)
{
	char line[128];

	snprintf(line, sizeof(line), "%-8s%8s  %-9s%8s", l1, v1, l2, v2);
	pen_line(p, TA_NORMAL, line);
}

/* "busy [#####.....]  42.0%": the device's %util as a bar. */
static void pen_busy(struct tui_pen *p, const struct tui_frame *f, double util)
{
	char bar[128], pct[16];
	int bw = p->w - 15, n;

	if (p->y < p->end && bw > 0) {
		n = tui_text_put(p->y, p->x, p->w, TA_LABEL, "busy ");
		n += tui_text_put(p->y, p->x + n, 1, TA_DIM, "[");
		tui_fmt_bar(bar, sizeof(bar), bw, util / 100.0, f->ascii);
		n += tui_text_put(p->y, p->x + n, bw, tui_busy_attr(util), bar);
		n += tui_text_put(p->y, p->x + n, 1, TA_DIM, "]");
		snprintf(pct, sizeof(pct), "%6.1f%%", util);
		tui_text_put(p->y, p->x + n, p->w - n, TA_NORMAL, pct);
	}
	p->y++;
}

/* The selected device's numbers (state OK). */
static void pen_device_rows(struct tui_pen *p, const struct tui_frame *f,
			    const struct tui_iodev *d)
{
	char a[TUI_FMT_LEN], b[TUI_FMT_LEN];
	uint64_t p50 = f->verdict && f->verdict->have ? f->verdict->v.p50_ns : 0;

	pen_pair(p, "r/s", tui_io_num(a, sizeof(a), d->row.r_s), "w/s",
		 tui_io_num(b, sizeof(b), d->row.w_s));
	pen_pair(p, "rkB/s", tui_io_num(a, sizeof(a), d->row.rkb_s), "wkB/s",
		 tui_io_num(b, sizeof(b), d->row.wkb_s));
	pen_pair(p, "rareq-sz", tui_io_num(a, sizeof(a), d->row.rareq_sz), "wareq-sz",
		 tui_io_num(b, sizeof(b), d->row.wareq_sz));
	pen_pair(p, "f/s", tui_io_num(a, sizeof(a), d->row.f_s), "f_await",
		 tui_io_num(b, sizeof(b), d->row.f_await));
	snprintf(b, sizeof(b), "%.0f", d->row.in_flight);
	pen_pair(p, "aqu-sz", tui_io_num(a, sizeof(a), d->row.aqu_sz), "in-flight", b);
	pen_pair(p, "r_await", tui_io_num(a, sizeof(a), d->row.r_await), "w_await",
		 tui_io_num(b, sizeof(b), d->row.w_await));
	/* the probe's latency beside the device's: far apart = the wait is above the device */
	pen_pair(p, "await", tui_io_num(a, sizeof(a), d->row.await), "probe p50",
		 tui_io_ms(b, sizeof(b), p50));
	pen_busy(p, f, d->row.util);
	pen_line(p, TA_DIM, "(ms; req-sz kB; f = flush)");
}

/* The rates line and the verdict under it, wrapped to the pen's width. */
static void pen_verdict(struct tui_pen *p, const struct tui_frame *f)
{
	struct sbuf a = SBUF_INIT, b = SBUF_INIT;

	if (tui_io_verdict(f, &a, &b)) {
		p->y = tui_text_wrapped(p->y, p->x, p->w, p->end, TA_NORMAL, sbuf_str(&a));
		p->y = tui_text_wrapped(p->y, p->x, p->w, p->end, tui_verdict_attr(&f->verdict->v),
					sbuf_str(&b));
	} else if (f->verdict) {
		pen_line(p, TA_DIM, "verdict: waiting for an interval");
	}
	sbuf_free(&a);
	sbuf_free(&b);
}

static void tui_draw_iostat_side(const struct tui_frame *f, const struct tui_rect *r)
{
	const struct tui_iostat *io = f->io;
	const struct tui_iodev *d = tui_iostat_selected(io);
	struct tui_pen pen = { r->y + 1, r->y + r->h, r->x + 1, r->w - 1 };
	char title[96], a[TUI_FMT_LEN], line[256];

	if (!d) {
		tui_text_title(r, " iostat ", NULL, TA_DIM, f->ascii);
		tui_text_wrapped(pen.y, pen.x, pen.w, pen.end, TA_WARN, io->stack);
		return;
	}
	snprintf(title, sizeof(title), " iostat %s [%zu/%zu] ", d->name, io->sel + 1, io->ndev);
	tui_text_title(r, title, NULL, TA_DIM, f->ascii);
	snprintf(line, sizeof(line), "%s (%s)%s%s", d->kind, d->top ? "top" : "leaf",
		 *d->detail ? " " : "", d->detail);
	pen_line(&pen, TA_DIM, line);
	if (pen.y < pen.end) {
		int n = tui_text_put(pen.y, pen.x, pen.w, TA_LABEL, "state     ");

		tui_text_put(pen.y, pen.x + n, pen.w - n, tui_io_state_attr(d->state),
			     tui_iostat_state_text(d->state));
	}
	pen.y++;
	if (d->state == TUI_IO_OK)
		pen_device_rows(&pen, f, d);
	else
		pen_line(&pen, TA_NORMAL, d->state == TUI_IO_INIT ? "waiting for a second sample" :
			 d->state == TUI_IO_RESET ? "counters went backwards: skipped" :
			 "no fresh data in /proc/diskstats");
	pen.y++;
	pen_verdict(&pen, f);
	pen.y++;
	if (io->ndev > 1 && pen.y < pen.end) {
		pen_line(&pen, TA_LABEL, "stack (d: next)");
		for (size_t i = 0; i < io->ndev && pen.y < pen.end; i++) {
			const struct tui_iodev *v = &io->dev[i];

			snprintf(line, sizeof(line), "%s %-10s %8s/s %5.1f%%",
				 i == io->sel ? (f->ascii ? ">" : "▸") : " ", v->name,
				 tui_io_num(a, sizeof(a), v->row.r_s + v->row.w_s + v->row.d_s),
				 v->row.util);
			pen_line(&pen, i == io->sel ? TA_SEL : TA_NORMAL, line);
		}
	}
	tui_text_wrapped(pen.y + 1, pen.x, pen.w, pen.end, TA_DIM, io->stack);
}

/* One device's line in the bottom panel: the values that fit in w cells, most needed first. */
static void tui_io_line(char *line, size_t len, const struct tui_iodev *d, int w)
{
	char v[8][TUI_FMT_LEN], t[8][TUI_FMT_LEN + 16];
	const double val[8] = { d->row.util, d->row.r_s, d->row.w_s, d->row.f_s, d->row.aqu_sz,
				 d->row.rkb_s, d->row.wkb_s, d->row.in_flight };
	static const char *const name[8] = { "busy", "r/s", "w/s", "f/s", "aqu-sz", "rkB/s",
					     "wkB/s", "in-flight" };
	static const int prio[8] = { 0, 0, 0, 1, 0, 4, 4, 3 };
	struct tui_fit_item it[8];

	for (int i = 0; i < 8; i++) {
		if (i == 0)
			snprintf(v[i], sizeof(v[i]), "%.1f%%", val[i]);
		else if (i == 7)
			snprintf(v[i], sizeof(v[i]), "%.0f", val[i]);
		else
			tui_io_num(v[i], sizeof(v[i]), val[i]);
		snprintf(t[i], sizeof(t[i]), "%s %.31s", name[i], v[i]);
		it[i] = (struct tui_fit_item){ t[i], prio[i] };
	}
	tui_fmt_fit(line, len, it, 8, w);
}

/* The selected device's second line: awaits, request sizes, the probe's latency beside. */
static void tui_io_detail(char *line, size_t len, const struct tui_frame *f,
			  const struct tui_iodev *d, int w)
{
	char t[8][48], a[TUI_FMT_LEN], b[TUI_FMT_LEN];
	const struct verdict *v = f->verdict && f->verdict->have ? &f->verdict->v : NULL;
	struct tui_fit_item it[8];
	int n = 0;

	snprintf(t[n], sizeof(t[n]), "r_await %s", tui_io_num(a, sizeof(a), d->row.r_await));
	it[n] = (struct tui_fit_item){ t[n], f->write ? 2 : 0 }, n++;
	snprintf(t[n], sizeof(t[n]), "w_await %s", tui_io_num(a, sizeof(a), d->row.w_await));
	it[n] = (struct tui_fit_item){ t[n], f->write ? 0 : 2 }, n++;
	snprintf(t[n], sizeof(t[n]), "f_await %s", tui_io_num(a, sizeof(a), d->row.f_await));
	it[n] = (struct tui_fit_item){ t[n], 1 }, n++;
	snprintf(t[n], sizeof(t[n]), "rareq-sz %s", tui_io_num(a, sizeof(a), d->row.rareq_sz));
	it[n] = (struct tui_fit_item){ t[n], f->write ? 4 : 1 }, n++;
	snprintf(t[n], sizeof(t[n]), "wareq-sz %s", tui_io_num(a, sizeof(a), d->row.wareq_sz));
	it[n] = (struct tui_fit_item){ t[n], f->write ? 1 : 4 }, n++;
	snprintf(t[n], sizeof(t[n]), "probe p50 %s", tui_io_ms(a, sizeof(a), v ? v->p50_ns : 0));
	it[n] = (struct tui_fit_item){ t[n], 0 }, n++;
	snprintf(t[n], sizeof(t[n]), "p99 %s", tui_io_ms(b, sizeof(b), v ? v->p99_ns : 0));
	it[n] = (struct tui_fit_item){ t[n], 3 }, n++;
	tui_fmt_fit(line, len, it, n, w);
}

static void tui_draw_iostat_bottom(const struct tui_frame *f, const struct tui_rect *r)
{
	const struct tui_iostat *io = f->io;
	const struct tui_iodev *sel = tui_iostat_selected(io);
	struct sbuf rates = SBUF_INIT, verdict = SBUF_INIT;
	bool have_v = tui_io_verdict(f, &rates, &verdict);
	char line[512];
	int y = r->y + 1, end = r->y + r->h, x = r->x + 1, w = r->w - 1;
	/* rows kept for the rates line, the whole verdict (however many rows it wraps into:
	 * a compound verdict takes four or five at 80 columns) and the selected device's
	 * second line; the other devices' rows give way first */
	int keep = (have_v ? 1 + tui_fmt_wrap_rows(sbuf_str(&verdict), w) : 0) +
		   (sel && sel->state == TUI_IO_OK ? 1 : 0);

	tui_text_title(r, " iostat (ms, kB) ", io->stack, TA_DIM, f->ascii);
	if (!sel) {
		tui_text_put(y, x, w, TA_WARN, "no block device");
		return;
	}
	for (size_t i = 0; i < io->ndev && y < end; i++) {
		const struct tui_iodev *d = &io->dev[i];
		bool is_sel = i == io->sel;
		int n;

		if (!is_sel && end - y <= keep)
			continue; /* the selected device and the verdict come first */
		n = tui_text_put(y, r->x, r->w, is_sel ? TA_SEL : TA_NORMAL,
				 is_sel ? (f->ascii ? ">" : "▸") : " ");
		snprintf(line, sizeof(line), "%-8s ", d->name);
		n += tui_text_put(y, r->x + n, r->w - n, TA_BOLD, line);
		if (d->state != TUI_IO_OK) {
			tui_text_put(y, r->x + n, r->w - n, tui_io_state_attr(d->state),
				     tui_iostat_state_text(d->state));
		} else {
			tui_io_line(line, sizeof(line), d, r->w - n);
			tui_text_put(y, r->x + n, r->w - n, TA_NORMAL, line);
		}
		y++;
		if (is_sel && d->state == TUI_IO_OK && y < end) {
			tui_io_detail(line, sizeof(line), f, d, r->w - n);
			tui_text_put(y++, r->x + n, r->w - n, TA_NORMAL, line);
			keep--;
		}
	}
	if (have_v && y < end) {
		tui_text_put(y++, x, w, TA_NORMAL, sbuf_str(&rates));
		tui_text_wrapped(y, x, w, end, tui_verdict_attr(&f->verdict->v),
				 sbuf_str(&verdict));
	}
	sbuf_free(&rates);
	sbuf_free(&verdict);
}

void tui_draw_iostat(const struct tui_frame *f, const struct tui_layout *lay)
{
	const struct tui_rect *r = &lay->r[TUI_IOSTAT];

	if (!r->h || !f->io)
		return;
	if (lay->side) {
		for (int y = r->y; y < r->y + r->h; y++)
			tui_text_put(y, lay->sep_x, 1, TA_DIM, tui_text_vline(f->ascii));
		tui_draw_iostat_side(f, r);
	} else {
		tui_draw_iostat_bottom(f, r);
	}
}
