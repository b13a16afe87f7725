#include "config.h"

#include "tui_text.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "tui_fmt.h"
#include "common.h"

static attr_t tui_attrs[TA_NATTR];

void tui_text_setup(bool color)
{
	if (color) {
		init_pair(1, COLOR_GREEN, -1);
		init_pair(2, COLOR_YELLOW, -1);
		init_pair(3, COLOR_RED, -1);
		init_pair(4, COLOR_MAGENTA, -1);
		init_pair(5, COLOR_BLUE, -1);
		init_pair(6, COLOR_CYAN, -1);
		tui_attrs[TA_NORMAL] = A_NORMAL;
		tui_attrs[TA_DATA] = COLOR_PAIR(1);
		tui_attrs[TA_SLOW] = COLOR_PAIR(2) | A_BOLD;
		tui_attrs[TA_ERROR] = COLOR_PAIR(3) | A_BOLD;
		tui_attrs[TA_CLIP] = COLOR_PAIR(4) | A_BOLD;
		tui_attrs[TA_PAUSED] = COLOR_PAIR(5);
		tui_attrs[TA_TITLE] = COLOR_PAIR(6) | A_BOLD;
		tui_attrs[TA_HEAD] = A_REVERSE;
		tui_attrs[TA_LABEL] = COLOR_PAIR(6);
		tui_attrs[TA_OK] = COLOR_PAIR(1) | A_BOLD;
		tui_attrs[TA_WARN] = COLOR_PAIR(2) | A_BOLD;
		tui_attrs[TA_BAD] = COLOR_PAIR(3) | A_BOLD | A_REVERSE;
		tui_attrs[TA_KEY] = COLOR_PAIR(6) | A_BOLD;
		tui_attrs[TA_DIM] = A_DIM;
		tui_attrs[TA_SEL] = A_REVERSE;
		tui_attrs[TA_BOLD] = A_BOLD;
		/* the heatmap: blue, cyan, green, yellow, red (few to many) */
		tui_attrs[TA_HEAT1] = COLOR_PAIR(5) | A_DIM;
		tui_attrs[TA_HEAT2] = COLOR_PAIR(6);
		tui_attrs[TA_HEAT3] = COLOR_PAIR(1);
		tui_attrs[TA_HEAT4] = COLOR_PAIR(2) | A_BOLD;
		tui_attrs[TA_HEAT5] = COLOR_PAIR(3) | A_BOLD;
		tui_attrs[TA_P99] = COLOR_PAIR(4) | A_BOLD;
		/* the sweep grid's curves: a colour each (their glyphs differ too) */
		tui_attrs[TA_CURVE1] = COLOR_PAIR(1) | A_BOLD;
		tui_attrs[TA_CURVE2] = COLOR_PAIR(6) | A_BOLD;
		tui_attrs[TA_CURVE3] = COLOR_PAIR(4) | A_BOLD;
		tui_attrs[TA_CURVE4] = COLOR_PAIR(2) | A_BOLD;
		tui_attrs[TA_CURVE5] = COLOR_PAIR(5) | A_BOLD;
		tui_attrs[TA_CURVE6] = COLOR_PAIR(3) | A_BOLD;
	} else {
		/* monochrome: meaning through bold, reverse, underline and the glyphs */
		tui_attrs[TA_NORMAL] = A_NORMAL;
		tui_attrs[TA_DATA] = A_NORMAL;
		tui_attrs[TA_SLOW] = A_BOLD;
		tui_attrs[TA_ERROR] = A_BOLD | A_REVERSE;
		tui_attrs[TA_CLIP] = A_BOLD | A_UNDERLINE;
		tui_attrs[TA_PAUSED] = A_DIM;
		tui_attrs[TA_TITLE] = A_BOLD;
		tui_attrs[TA_HEAD] = A_REVERSE;
		tui_attrs[TA_LABEL] = A_NORMAL;
		tui_attrs[TA_OK] = A_BOLD;
		tui_attrs[TA_WARN] = A_BOLD | A_UNDERLINE;
		tui_attrs[TA_BAD] = A_BOLD | A_REVERSE;
		tui_attrs[TA_KEY] = A_BOLD;
		tui_attrs[TA_DIM] = A_DIM;
		tui_attrs[TA_SEL] = A_REVERSE;
		tui_attrs[TA_BOLD] = A_BOLD;
		tui_attrs[TA_HEAT1] = A_NORMAL; /* the heatmap's characters carry its levels */
		tui_attrs[TA_HEAT2] = A_NORMAL;
		tui_attrs[TA_HEAT3] = A_NORMAL;
		tui_attrs[TA_HEAT4] = A_BOLD;
		tui_attrs[TA_HEAT5] = A_BOLD;
		tui_attrs[TA_P99] = A_BOLD | A_UNDERLINE;
		for (int c = TA_CURVE1; c <= TA_CURVE6; c++)
			tui_attrs[c] = A_NORMAL; /* the curves' glyphs tell them apart */
	}
}

/* Whether wc can be inside a number as the screens print them: a digit, a point, a comma. */
static bool tui_text_in_number(wchar_t wc)
{
	return (wc >= L'0' && wc <= L'9') || wc == L'.' || wc == L',';
}

int tui_text_put(int y, int x, int w, enum tui_attr a, const char *s)
{
	wchar_t wbuf[512];
	mbstate_t st;
	int cells = 0, n = 0;
	bool cut = false;

	if (w <= 0 || !s)
		return 0;
	memset(&st, 0, sizeof(st));
	while (*s && n < (int)ARRAY_SIZE(wbuf) - 1) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s, strlen(s), &st);
		int cw;

		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			memset(&st, 0, sizeof(st));
			wc = L'?';
			k = 1;
		}
		cw = wcwidth(wc);
		if (cw < 0) {
			wc = L'?';
			cw = 1;
		}
		if (cells + cw > w) {
			cut = tui_text_in_number(wc);
			break;
		}
		wbuf[n++] = wc;
		cells += cw;
		s += k;
	}
	/* never a number cut short ("17959 requests of 400" for 40000): the whole number goes */
	while (cut && n > 0 && tui_text_in_number(wbuf[n - 1])) {
		n--;
		cells--; /* digits, points and commas are one cell each */
	}
	wbuf[n] = L'\0';
	attrset(tui_attrs[a]);
	mvaddnwstr(y, x, wbuf, n);
	attrset(A_NORMAL);
	return cells;
}

int tui_text_width(const char *s)
{
	mbstate_t st;
	int cells = 0;

	memset(&st, 0, sizeof(st));
	while (s && *s) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s, strlen(s), &st);
		int cw;

		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			memset(&st, 0, sizeof(st));
			k = 1;
			cw = 1;
		} else {
			cw = wcwidth(wc);
			if (cw < 0)
				cw = 1;
		}
		cells += cw;
		s += k;
	}
	return cells;
}

void tui_text_put_right(int y, int x, int w, enum tui_attr a, const char *s)
{
	int n = tui_text_width(s);

	if (n > w)
		n = w;
	tui_text_put(y, x + w - n, n, a, s);
}

void tui_text_fill(int y, int x, int n, enum tui_attr a, const char *ch)
{
	char buf[4096];
	size_t len = strlen(ch), pos = 0;

	for (int i = 0; i < n && pos + len < sizeof(buf); i++) {
		memcpy(buf + pos, ch, len);
		pos += len;
	}
	buf[pos] = '\0';
	tui_text_put(y, x, n, a, buf);
}

int tui_text_wrapped(int y, int x, int w, int end, enum tui_attr a, const char *s)
{
	char line[512];

	while (*s && y < end) {
		size_t n = tui_fmt_wrap(s, w);

		if (!n)
			break;
		snprintf(line, sizeof(line), "%.*s", (int)n, s);
		tui_text_put(y++, x, w, a, line);
		s += n;
		while (*s == ' ')
			s++;
	}
	return y;
}

const char *tui_text_hline(bool ascii)
{
	return ascii ? "-" : "─";
}

const char *tui_text_vline(bool ascii)
{
	return ascii ? "|" : "│";
}

void tui_text_title(const struct tui_rect *r, const char *text, const char *right,
		    enum tui_attr right_attr, bool ascii)
{
	int x = r->x, w = r->w, tw = tui_text_width(text), rw = right ? tui_text_width(right) : 0;

	tui_text_fill(r->y, x, w, TA_DIM, tui_text_hline(ascii));
	if (rw && tw + rw + 6 > w) {
		if (right_attr != TA_BAD)
			rw = 0;
		else if (rw + 4 > w)
			rw = w - 4;
	}
	if (tw > w - 4 - (rw ? rw + 2 : 0))
		tw = w - 4 - (rw ? rw + 2 : 0);
	if (tw > 0)
		tui_text_put(r->y, x + 2, tw, TA_TITLE, text);
	if (rw > 0)
		tui_text_put(r->y, x + w - 2 - rw, rw, right_attr, right);
}
