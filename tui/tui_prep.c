#include "config.h"

#include "tui_prep.h"

#include <curses.h>
#include <stdbool.h>
#include <stdio.h>

#include "clock.h"
#include "esc.h"
#include "prober.h"
#include "sbuf.h"
#include "tui_fmt.h"
#include "tui_keys.h"
#include "tui_layout.h"
#include "tui_term.h"
#include "tui_text.h"

#define TUI_PREP_FRAME_NS 100000000ull /* at most 10 frames a second */

/* The snapshot the fill reports, and what the screen needs to draw it. */
struct tui_prep {
	char path[512];
	bool ascii;
	volatile sig_atomic_t *stop;
	uint64_t start, last_draw;   /* monotonic ns */
	uint64_t done, total;        /* bytes; total 0 = not known yet */
};

static struct tui_prep tui_prep;

static void tui_prep_draw(const struct tui_prep *p)
{
	char line[600], bar[256];
	struct tui_rect r = { 0, 0, 1, COLS };
	struct tui_rect box = tui_layout_center(COLS, LINES, COLS - 4 < 72 ? COLS - 4 : 72, 5);
	int bw = box.w - 8;

	erase();
	tui_text_fill(0, 0, COLS, TA_HEAD, " ");
	snprintf(line, sizeof(line), " ioprobe %s", p->path);
	tui_text_put(r.y, r.x, r.w, TA_HEAD, line);
	tui_text_put(box.y, box.x, box.w, TA_TITLE, "preparing the working set");
	if (p->total && bw > 0) {
		tui_fmt_bar(bar, sizeof(bar), bw, (double)p->done / (double)p->total, p->ascii);
		tui_text_put(box.y + 1, box.x, 1, TA_DIM, "[");
		tui_text_put(box.y + 1, box.x + 1, bw, TA_DATA, bar);
		snprintf(line, sizeof(line), "] %3.0f%%",
			 100.0 * (double)p->done / (double)p->total);
		tui_text_put(box.y + 1, box.x + 1 + bw, box.w - bw - 1, TA_DIM, line);
		tui_fmt_prep(line, sizeof(line), p->done, p->total, clock_now() - p->start);
		tui_text_put(box.y + 2, box.x, box.w, TA_NORMAL, line);
		if (p->done >= p->total) /* the file system writes it back now (fsync) */
			tui_text_put(box.y + 3, box.x, box.w, TA_DIM, "syncing it to the device");
	} else {
		tui_text_put(box.y + 1, box.x, box.w, TA_DIM, "opening the target");
	}
	tui_text_put(box.y + 4, box.x, box.w, TA_DIM, "q quits");
	refresh();
}

/* Keys while preparing: q and Ctrl-C stop, a resize redraws. */
static void tui_prep_keys(struct tui_prep *p)
{
	int ch;

	while ((ch = getch()) != ERR) {
		if (tui_key_action(ch) == TUI_ACT_QUIT && p->stop) {
			*p->stop = 1;
			prober_notify_stop(); /* every probe's reader wakes */
		}
		if (ch == KEY_RESIZE)
			p->last_draw = 0;
	}
}

static void tui_prep_progress(void *arg, uint64_t done, uint64_t total)
{
	struct tui_prep *p = arg;
	uint64_t now = clock_now();

	p->done = done;
	p->total = total;
	tui_prep_keys(p);
	if (p->last_draw && now - p->last_draw < TUI_PREP_FRAME_NS && done < total)
		return;
	p->last_draw = now;
	tui_prep_draw(p);
}

int tui_prep_open(const struct view_cfg *cfg, volatile sig_atomic_t *stop,
		  void (**fn)(void *arg, uint64_t done, uint64_t total), void **arg)
{
	struct tui_term_opts to = { cfg->ascii, cfg->no_color };
	char msg[256];
	int ret;

	struct sbuf sb = SBUF_INIT;

	tui_prep.ascii = tui_term_want_ascii(&to);
	ret = tui_term_open(&to, stop, msg, sizeof(msg));
	if (ret)
		return ret;
	tui_text_setup(tui_term_color());
	esc_puts(&sb, cfg->path ? cfg->path : ""); /* no terminal controls from a file name */
	snprintf(tui_prep.path, sizeof(tui_prep.path), "%s", sbuf_str(&sb));
	sbuf_free(&sb);
	tui_prep.stop = stop;
	tui_prep.start = clock_now();
	tui_prep.last_draw = 0;
	tui_prep.done = tui_prep.total = 0;
	tui_prep_draw(&tui_prep);
	*fn = tui_prep_progress;
	*arg = &tui_prep;
	return 0;
}
