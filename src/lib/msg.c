#include "config.h"

#include "msg.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG_ELLIPSIS "..."

int err_vset(char *msg, size_t msglen, int err, const char *fmt, va_list ap)
{
	char *text = NULL;
	int n;

	if (!msglen)
		return err;
	n = vasprintf(&text, fmt, ap);
	if (n < 0) {
		snprintf(msg, msglen, "%s", "out of memory while composing a message");
		return err;
	}
	if ((size_t)n < msglen) {
		memcpy(msg, text, (size_t)n + 1);
	} else if (msglen <= sizeof(MSG_ELLIPSIS) + 2) {
		snprintf(msg, msglen, "%s", text + (size_t)n - (msglen - 1));
	} else {
		/* keep the head and the tail: the reason is at the end */
		size_t room = msglen - 1 - (sizeof(MSG_ELLIPSIS) - 1);
		size_t head = room / 4, tail = room - head;

		memcpy(msg, text, head);
		memcpy(msg + head, MSG_ELLIPSIS, sizeof(MSG_ELLIPSIS) - 1);
		memcpy(msg + head + sizeof(MSG_ELLIPSIS) - 1, text + (size_t)n - tail, tail);
		msg[msglen - 1] = '\0';
	}
	free(text);
	return err;
}

int err_set(char *msg, size_t msglen, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(msg, msglen, err, fmt, ap);
	va_end(ap);
	return err;
}

/* errno_from_name's table: every errno below ERRNO_NAME_MAX with a name, by name. */
static struct errno_entry {
	const char *name;
	int err;
} errno_tab[ERRNO_NAME_MAX];
static size_t errno_ntab;
static pthread_once_t errno_once = PTHREAD_ONCE_INIT;

static int errno_entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct errno_entry *)a)->name, ((const struct errno_entry *)b)->name);
}

static void errno_tab_build(void)
{
	for (int k = 1; k < ERRNO_NAME_MAX; k++) {
		const char *name = strerrorname_np(k);

		if (name)
			errno_tab[errno_ntab++] = (struct errno_entry){ name, k };
	}
	qsort(errno_tab, errno_ntab, sizeof(errno_tab[0]), errno_entry_cmp);
}

int errno_from_name(const char *name)
{
	struct errno_entry key = { name, 0 }, *hit;
	char buf[32];
	int k = 0;

	if (name[0] != 'E')
		return 0;
	if (name[1] >= '1' && name[1] <= '9' && !name[1 + strspn(name + 1, "0123456789")]) {
		for (const char *d = name + 1; *d && k < ERRNO_NAME_MAX; d++)
			k = k * 10 + (*d - '0'); /* "E<n>": a number without a name (E2BIG is one) */
		return k < ERRNO_NAME_MAX && !strcmp(errno_name(-k, buf, sizeof(buf)), name) ? k : 0;
	}
	pthread_once(&errno_once, errno_tab_build);
	hit = bsearch(&key, errno_tab, errno_ntab, sizeof(errno_tab[0]), errno_entry_cmp);
	return hit ? hit->err : 0;
}

const char *errno_name(int neg_errno, char *buf, size_t len)
{
	const char *name = strerrorname_np(-neg_errno);

	if (name)
		return name;
	snprintf(buf, len, "E%d", -neg_errno);
	return buf;
}
