/*
 * common: what every layer shares and nothing owns — the element count of
 * an array, the nanoseconds in a second. (Message buffers: msg.h's MSG_MAX and
 * err_set().) Header only.
 */
#ifndef IOPROBE_COMMON_H
#define IOPROBE_COMMON_H

/* Elements in a true array (not a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Nanoseconds in a second, a double: durations (uint64_t ns) to seconds and rates. */
#define NS_PER_S 1e9

#endif
