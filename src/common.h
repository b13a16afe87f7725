/*
 * common: the few macros every layer shares — the element count of an
 * array and the size of a message buffer (an "ioprobe: ..." reason filled
 * below main and printed by cli.c). Header only.
 */
#ifndef IOPROBE_COMMON_H
#define IOPROBE_COMMON_H

/* Elements in a true array (not a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Room for any message: a reason plus a path of up to PATH_MAX bytes, escaped. */
#define MSG_MAX 8192

#endif
