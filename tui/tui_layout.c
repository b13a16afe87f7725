#include "config.h"

#include "tui_layout.h"
#include "common.h"

#include <string.h>

/* The stacked panels, in priority order. */
static const enum tui_panel tui_stack[] = { TUI_GRAPH, TUI_STATS, TUI_RECENT, TUI_IOSTAT };
#define TUI_STACK ARRAY_SIZE(tui_stack)

void tui_layout_compute(const struct tui_layout_req *req, struct tui_layout *out)
{
	int min[TUI_STACK] = { TUI_GRAPH_MIN, TUI_STATS_MIN, TUI_RECENT_MIN,
			       req->iostat_need > TUI_IOSTAT_MIN ? req->iostat_need : TUI_IOSTAT_MIN };
	int comfort[TUI_STACK] = { TUI_GRAPH_COMFORT, TUI_STATS_COMFORT, TUI_RECENT_COMFORT,
				   req->iostat_want };
	int h[TUI_STACK] = { 0 };
	int cols = req->cols, rows = req->rows, head, left, main_w, y;
	size_t shown = 0;
	bool grew;

	memset(out, 0, sizeof(*out));
	out->cols = cols;
	out->rows = rows;
	out->sep_x = -1;
	if (cols < TUI_MIN_COLS || rows < TUI_MIN_ROWS) {
		out->too_small = true;
		return;
	}
	head = rows >= 16 ? 2 : 1;
	out->r[TUI_HEADER] = (struct tui_rect){ 0, 0, head, cols };
	out->r[TUI_FOOTER] = (struct tui_rect){ rows - 1, 0, 1, cols };
	left = rows - head - 1;
	main_w = cols;
	out->side = req->iostat_want > 0 && cols >= TUI_SIDE_MIN_COLS;
	if (out->side) {
		main_w = cols - TUI_SIDE_W - 1;
		out->sep_x = main_w;
		out->r[TUI_IOSTAT] = (struct tui_rect){ head, main_w + 1, left, TUI_SIDE_W };
	}
	if (comfort[3] < min[3])
		comfort[3] = min[3];

	/* minimums, in priority order; the first that does not fit hides the rest */
	for (size_t i = 0; i < TUI_STACK; i++) {
		if (tui_stack[i] == TUI_IOSTAT && (out->side || req->iostat_want <= 0))
			break;
		if (tui_stack[i] == TUI_IOSTAT && left < min[i] && left >= TUI_IOSTAT_MIN)
			min[i] = left; /* what a whole verdict needs does not fit: what there is */
		if (left < min[i]) {
			if (i == 0) { /* the graph always shows, squeezed */
				h[0] = left;
				left = 0;
				shown = 1;
			}
			break;
		}
		h[i] = min[i];
		left -= min[i];
		shown = i + 1;
	}
	/* round-robin up to the comfortable heights */
	do {
		grew = false;
		for (size_t i = 0; i < shown && left > 0; i++) {
			if (h[i] < comfort[i]) {
				h[i]++;
				left--;
				grew = true;
			}
		}
	} while (grew && left > 0);
	/* the rest: the graph up to its maximum, then the recent requests (or whoever shows) */
	if (shown > 0 && h[0] < TUI_GRAPH_MAX) {
		int g = TUI_GRAPH_MAX - h[0] < left ? TUI_GRAPH_MAX - h[0] : left;

		h[0] += g;
		left -= g;
	}
	if (left > 0 && shown > 0)
		h[shown > 2 ? 2 : shown - 1] += left;

	y = head;
	for (size_t i = 0; i < TUI_STACK; i++) {
		if (!h[i])
			continue;
		out->r[tui_stack[i]] = (struct tui_rect){ y, 0, h[i], main_w };
		y += h[i];
	}
}

int tui_layout_columns(const struct tui_colspec *cols, int n, int avail, bool *shown)
{
	int used = 0;

	for (int i = 0; i < n; i++)
		shown[i] = false;
	for (;;) {
		int best = -1;

		for (int i = 0; i < n; i++) {
			if (shown[i] || cols[i].width > avail - used)
				continue;
			if (best < 0 || cols[i].prio < cols[best].prio)
				best = i;
		}
		if (best < 0)
			return used;
		shown[best] = true;
		used += cols[best].width;
	}
}

struct tui_rect tui_layout_center(int cols, int rows, int w, int h)
{
	struct tui_rect r;

	if (w > cols)
		w = cols;
	if (h > rows)
		h = rows;
	if (w < 0)
		w = 0;
	if (h < 0)
		h = 0;
	r.w = w;
	r.h = h;
	r.x = (cols - w) / 2;
	r.y = (rows - h) / 2;
	return r;
}
