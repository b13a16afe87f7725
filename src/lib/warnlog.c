#include "config.h"

#include "warnlog.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void warnlog_init(struct warnlog *w)
{
	memset(w, 0, sizeof(*w));
}

void warnlog_add(struct warnlog *w, const char *text)
{
	char cut[WARNLOG_TEXT_LEN];

	snprintf(cut, sizeof(cut), "%s", text);
	for (size_t i = 0; i < w->n; i++) {
		if (!strcmp(w->e[i].text, cut)) {
			w->e[i].times++;
			return;
		}
	}
	if (w->n == WARNLOG_TEXTS) {
		w->others++;
		return;
	}
	memcpy(w->e[w->n].text, cut, sizeof(cut));
	w->e[w->n].times = 1;
	w->n++;
}

char *warnlog_group(uint64_t n, char *buf, size_t len)
{
	char digits[24], out[32];
	int nd = snprintf(digits, sizeof(digits), "%" PRIu64, n);
	size_t o = 0;

	for (int i = 0; i < nd; i++) {
		if (i && (nd - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	snprintf(buf, len, "%s", out);
	return buf;
}

size_t warnlog_lines(const struct warnlog *w)
{
	return w->n + (w->others ? 1 : 0);
}

void warnlog_line(const struct warnlog *w, size_t i, bool ascii, char *buf, size_t len)
{
	char num[32];

	if (i >= w->n) {
		snprintf(buf, len, "%s more warning%s", warnlog_group(w->others, num, sizeof(num)),
			 w->others == 1 ? "" : "s");
		return;
	}
	if (w->e[i].times == 1) {
		snprintf(buf, len, "%s", w->e[i].text);
		return;
	}
	snprintf(buf, len, "%s (%s%s)", w->e[i].text, ascii ? "x" : "\u00d7",
		 warnlog_group(w->e[i].times, num, sizeof(num)));
}
