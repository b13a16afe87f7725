#include "config.h"

#include "msg.h"

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

const char *errno_name(int neg_errno, char *buf, size_t len)
{
	const char *name = strerrorname_np(-neg_errno);

	if (name)
		return name;
	snprintf(buf, len, "E%d", -neg_errno);
	return buf;
}
