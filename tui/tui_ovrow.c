#include "config.h"

#include "tui_ovrow.h"

#include <stdio.h>
#include <string.h>

#include "common.h"
#include "esc.h"
#include "sbuf.h"

static const struct tui_iodev *ovrow_top_dev(const struct tui_iostat *io)
{
	for (size_t i = 0; io && !io->no_blockdev && i < io->ndev; i++)
		if (io->dev[i].top)
			return &io->dev[i];
	return NULL;
}

/* The row's sparkline: each of the last TUI_OV_SPARK_MAX seconds' highest latency. */
static void ovrow_spark(struct tui_ov_row *row, const struct tui_ov_input *in,
			struct tui_col *cols)
{
	uint64_t sec = in->now / TUI_OV_SEC_NS;

	tui_model_columns(in->m, TUI_WIN_1MIN, in->now, cols, TUI_OV_SPARK_MAX);
	for (int j = 0; j < TUI_OV_SPARK_MAX; j++) {
		uint64_t back = (uint64_t)(TUI_OV_SPARK_MAX - 1 - j);

		if (back > sec || (sec - back) * TUI_OV_SEC_NS < in->startup)
			continue; /* before the run, or its start-up */
		if (cols[j].n)
			row->spark[j] = cols[j].max;
		if (cols[j].err)
			row->spark_fail |= 1ull << j;
	}
}

void tui_ov_row_fill(struct tui_ov_row *row, const struct tui_ov_input *in,
		     enum tui_ov_window w, struct tui_ov_hist *hist, struct tui_col *cols)
{
	const struct tui_row *last = tui_model_row(in->m, 0);
	const struct tui_iodev *d = ovrow_top_dev(in->io);
	struct sbuf sb = SBUF_INIT;

	memset(row, 0, sizeof(*row));
	esc_puts(&sb, in->target);
	snprintf(row->target, sizeof(row->target), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	if (in->name)
		snprintf(row->name, sizeof(row->name), "%s", in->name); /* [A-Za-z0-9_.:+-] */
	row->asked = in->interval ? NS_PER_S / (double)in->interval : 0;
	if (last && last->wall)
		row->achieved = (double)last->requests * NS_PER_S / (double)last->wall;
	row->last = in->last;
	tui_ov_win_get(in->win, w, in->now, hist);
	row->count = hist->count;
	row->p50 = tui_ov_hist_pct(hist, 50);
	row->p99 = tui_ov_hist_pct(hist, 99);
	row->max = hist->count ? hist->max : 0;
	row->failed = in->m->total.failed;
	row->skipped = in->m->total.skipped;
	ovrow_spark(row, in, cols);
	if (d) {
		snprintf(row->dev, sizeof(row->dev), "%s", d->name);
		row->have_io = d->state == TUI_IO_OK;
		row->busy = d->row.util;
		row->await = d->row.await;
	}
	/* the verdict of its own screen's iostat panel, judged on the same intervals */
	if (in->verdict && in->verdict->have) {
		row->have_verdict = true;
		row->v = in->verdict->v;
	}
	row->state = in->state;
}

size_t tui_ov_move(const size_t *order, size_t nshow, size_t sel, long d)
{
	long pos = 0;

	if (!nshow)
		return sel;
	for (size_t k = 0; k < nshow; k++)
		if (order[k] == sel)
			pos = (long)k;
	pos += d;
	pos = pos < 0 ? 0 : (size_t)pos >= nshow ? (long)nshow - 1 : pos;
	return order[pos];
}
