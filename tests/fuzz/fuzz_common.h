/*
 * Helpers shared by the libFuzzer harnesses in tests/fuzz (see run.sh).
 * Every invariant violation prints what failed and calls abort(), so that
 * libFuzzer records the input as a crash.
 */
#ifndef IOPROBE_FUZZ_COMMON_H
#define IOPROBE_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 4, 5)));

static void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\n*** invariant violated at %s:%d: %s: ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* CHECK(cond, printf-args...): abort() with a message when cond is false. */
#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond))                                                   \
			fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);     \
	} while (0)

/* A heap copy of data[0..size) with a NUL appended (stops at an embedded NUL when read as a string). */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* True when buf[0..len) holds a NUL. */
static inline bool fuzz_has_nul(const char *buf, size_t len)
{
	return memchr(buf, '\0', len) != NULL;
}

static inline bool fuzz_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/*
 * A heap buffer of exactly len bytes filled with 0x5a (so ASan catches any
 * write past it and an unterminated string shows up).
 */
static inline char *fuzz_msgbuf(size_t len)
{
	char *m = malloc(len ? len : 1);

	if (!m)
		abort();
	memset(m, 0x5a, len ? len : 1);
	return m;
}

/*
 * small (a buffer of smalllen bytes) must hold full truncated to
 * smalllen - 1 bytes, NUL-terminated: what snprintf() gives.
 */
static inline bool fuzz_is_truncation(const char *small, size_t smalllen, const char *full)
{
	size_t want = strlen(full);

	if (!smalllen)
		return true;
	if (want > smalllen - 1)
		want = smalllen - 1;
	return fuzz_has_nul(small, smalllen) && strlen(small) == want &&
	       memcmp(small, full, want) == 0;
}

/*
 * small (smalllen bytes) is what a message-composing function wrote for the
 * message full under err_set()'s rule (msg.h): the whole text when it fits,
 * else a NUL-terminated text that fills the buffer (its middle or start gave
 * way, its end kept).
 */
static inline bool fuzz_is_shortening(const char *small, size_t smalllen, const char *full)
{
	size_t n = strlen(full);

	if (!smalllen)
		return true;
	if (!fuzz_has_nul(small, smalllen))
		return false;
	if (n < smalllen)
		return strcmp(small, full) == 0;
	return strlen(small) < smalllen;
}

/* 64-bit FNV-1a of the input: a cheap way to derive extra parameters from it. */
static inline uint64_t fuzz_hash(const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3ull;
	return h;
}

#endif
