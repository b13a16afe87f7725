#include "config.h"

#include "tui_draw.h"

#include <stdio.h>
#include <string.h>

#include "tui_fmt.h"
#include "tui_text.h"
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

/* The saturation hint lines for the selected device. */
static int tui_io_hint(const struct tui_frame *f, const struct tui_iodev *d,
		       char hint[TUI_HINT_LINES][TUI_HINT_LEN])
{
	struct tui_hint_in in = { 0 };
	struct verdict_probe p = { 0 };
	struct verdict_dev vd = { d->name, &d->row, d->max_sectors_kb, VERDICT_CACHE_UNKNOWN };
	struct verdict_expect e;

	p.size = f->rc->size ? f->rc->size : 1;
	p.write_share = f->write ? 1 : 0;
	p.depth = 1;
	in.probe_tps = f->io->probe_tps;
	in.dev_tps = d->row.r_s + d->row.w_s;
	in.observed_aqu = d->row.aqu_sz;
	if (!verdict_expect(&p, &vd, f->io->probe_tps, &e)) {
		in.expected_tps = e.total;
		in.own_aqu = e.own_aqu;
	}
	return tui_fmt_hint(hint, &in, f->ascii);
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
	char hint[TUI_HINT_LINES][TUI_HINT_LEN];

	pen_pair(p, "r/s", tui_io_num(a, sizeof(a), d->row.r_s), "w/s",
		 tui_io_num(b, sizeof(b), d->row.w_s));
	pen_pair(p, "rkB/s", tui_io_num(a, sizeof(a), d->row.rkb_s), "wkB/s",
		 tui_io_num(b, sizeof(b), d->row.wkb_s));
	pen_pair(p, "areq-sz", tui_io_num(a, sizeof(a), d->row.avgrq_sz / 2), "avgrq-sz",
		 tui_io_num(b, sizeof(b), d->row.avgrq_sz));
	snprintf(b, sizeof(b), "%.0f", d->row.in_flight);
	pen_pair(p, "aqu-sz", tui_io_num(a, sizeof(a), d->row.aqu_sz), "in-flight", b);
	pen_pair(p, "r_await", tui_io_num(a, sizeof(a), d->row.r_await), "w_await",
		 tui_io_num(b, sizeof(b), d->row.w_await));
	pen_busy(p, f, d->row.util);
	pen_line(p, TA_DIM, "(awaits ms; areq-sz kB, avgrq-sz sectors)");
	p->y++;
	for (int i = 0, n = tui_io_hint(f, d, hint); i < n; i++) {
		if (hint[i][0])
			pen_line(p, i == 2 ? TA_WARN : TA_NORMAL, hint[i]);
		else
			p->y++;
	}
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

static void tui_draw_iostat_bottom(const struct tui_frame *f, const struct tui_rect *r)
{
	const struct tui_iostat *io = f->io;
	const struct tui_iodev *sel = tui_iostat_selected(io);
	char line[512], v[8][TUI_FMT_LEN], hint[TUI_HINT_LINES][TUI_HINT_LEN];
	int y = r->y + 1, end = r->y + r->h;

	tui_text_title(r, " iostat ", io->stack, TA_DIM, f->ascii);
	if (!sel) {
		tui_text_put(y, r->x + 1, r->w - 1, TA_WARN, "no block device");
		return;
	}
	for (size_t i = 0; i < io->ndev && y < end - (end - y > 1 ? 1 : 0); i++, y++) {
		const struct tui_iodev *d = &io->dev[i];
		int n;

		n = tui_text_put(y, r->x, r->w, i == io->sel ? TA_SEL : TA_NORMAL,
			    i == io->sel ? (f->ascii ? ">" : "▸") : " ");
		snprintf(line, sizeof(line), "%-8s", d->name);
		n += tui_text_put(y, r->x + n, r->w - n, TA_BOLD, line);
		if (d->state != TUI_IO_OK) {
			tui_text_put(y, r->x + n, r->w - n, tui_io_state_attr(d->state),
				tui_iostat_state_text(d->state));
			continue;
		}
		snprintf(line, sizeof(line),
			 " busy %.1f%%  r/s %s  w/s %s  r_await %s  w_await %s  aqu-sz %s"
			 "  rkB/s %s  wkB/s %s", d->row.util,
			 tui_io_num(v[0], sizeof(v[0]), d->row.r_s),
			 tui_io_num(v[1], sizeof(v[1]), d->row.w_s),
			 tui_io_num(v[5], sizeof(v[5]), d->row.r_await),
			 tui_io_num(v[6], sizeof(v[6]), d->row.w_await),
			 tui_io_num(v[4], sizeof(v[4]), d->row.aqu_sz),
			 tui_io_num(v[2], sizeof(v[2]), d->row.rkb_s),
			 tui_io_num(v[3], sizeof(v[3]), d->row.wkb_s));
		tui_text_put(y, r->x + n, r->w - n, TA_NORMAL, line);
	}
	if (y < end && sel->state == TUI_IO_OK) {
		int n = tui_io_hint(f, sel, hint);

		snprintf(line, sizeof(line), " %s; %s%s%s", hint[0], hint[1], n > 2 ? "; " : "",
			 n > 2 ? hint[2] : "");
		tui_text_put(y, r->x, r->w, TA_DIM, line);
	}
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
