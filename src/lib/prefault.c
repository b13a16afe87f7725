#include "config.h"

#include "prefault.h"

#include <unistd.h>

void prefault(void *p, size_t len)
{
	volatile unsigned char *c = p; /* volatile: the writes to zeroed memory stay */
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (!p || !len)
		return;
	for (size_t i = 0; i < len; i += page)
		c[i] = 0;
	c[len - 1] = 0;
}
