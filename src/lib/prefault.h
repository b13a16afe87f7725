/*
 * prefault: touch every page of a fresh allocation, so that a fixed-size
 * structure is resident (and counted in RSS) from the start instead of page
 * by page as it fills. A view's per-target model and windows are fixed in size
 * but fill over their first minute; touched up front, memory is flat from the
 * first second (issue 25 item 8).
 */
#ifndef IOPROBE_PREFAULT_H
#define IOPROBE_PREFAULT_H

#include <stddef.h>

/* Write one zero byte per page of p[0..len) (p is zeroed memory: calloc, mmap). */
void prefault(void *p, size_t len);

#endif
