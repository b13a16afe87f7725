#include "config.h"

#include "tui_panes.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "tui_fmt.h"

/* The rows the verdict's text wraps into in the iostat panel (at least 3). */
static int panes_verdict_rows(const struct tui_verdict *v)
{
	struct sbuf rates = SBUF_INIT, verdict = SBUF_INIT;
	int w = (COLS >= TUI_SIDE_MIN_COLS ? TUI_SIDE_W : COLS) - 1, rows = 3;

	if (v && !tui_verdict_text(v, &rates, &verdict)) {
		int n = tui_fmt_wrap_rows(sbuf_str(&verdict), w);

		rows = n > rows ? n : rows;
	}
	sbuf_free(&rates);
	sbuf_free(&verdict);
	return rows;
}

bool tui_panes_stale(const struct tui_panes *p, const struct tui_verdict *v)
{
	return panes_verdict_rows(v) != p->verdict_rows;
}

void tui_panes_layout(struct tui_panes *p, const struct tui_iostat *io,
		      const struct tui_verdict *v)
{
	struct tui_layout_req req = { COLS, LINES, 0, 0 };
	struct tui_cell *c;
	double *h;
	size_t need;

	/* title, the devices, the selected one's second line, rates, then the whole verdict:
	 * at least 3 rows (a simple one at 80 columns), more for a compound one */
	p->verdict_rows = panes_verdict_rows(v);
	req.iostat_want = io->no_blockdev ? 2 : 3 + (int)io->ndev + p->verdict_rows;
	/* the title, the selected device's two lines, rates and the whole verdict: the other
	 * devices' rows and the other panels' comfort give way first */
	req.iostat_need = io->no_blockdev ? 0 : 4 + p->verdict_rows;
	tui_layout_compute(&req, &p->lay);
	need = tui_draw_graph_cells(&p->lay);
	if (need <= p->ncells)
		return;
	c = realloc(p->cells, need * sizeof(*c));
	h = realloc(p->heat, need * sizeof(*h));

	if (h) { /* touched now: the heatmap's scratch is there from the start */
		memset(h, 0, need * sizeof(*h));
		p->heat = h;
	}
	if (c)
		p->cells = c;
	if (c && h)
		p->ncells = need;
}

void tui_panes_draw(struct tui_panes *p, struct tui_frame *f)
{
	f->cols = p->cols;
	f->cells = p->cells;
	f->heat = p->heat;
	f->ncells = p->ncells;
	tui_draw(f, &p->lay);
}

void tui_panes_free(struct tui_panes *p)
{
	free(p->cells);
	free(p->heat);
	p->cells = NULL;
	p->heat = NULL;
	p->ncells = 0;
}
