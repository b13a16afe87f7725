#include "config.h"

#include "rng.h"

#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	r->s[0] = splitmix64(&seed);
	r->s[1] = splitmix64(&seed);
	if (!r->s[0] && !r->s[1])
		r->s[1] = 1;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t s1 = r->s[0];
	const uint64_t s0 = r->s[1];

	r->s[0] = s0;
	s1 ^= s1 << 23;
	r->s[1] = s1 ^ s0 ^ (s1 >> 17) ^ (s0 >> 26);
	return r->s[1] + s0;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	uint64_t x, limit;

	if (n == 0)
		return 0;
	/* reject the top partial range so every value is equally likely */
	limit = UINT64_MAX - UINT64_MAX % n;
	do
		x = rng_next(r);
	while (x >= limit);
	return x % n;
}

void rng_fill(struct rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len >= 8) {
		uint64_t x = rng_next(r);

		memcpy(p, &x, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		uint64_t x = rng_next(r);

		memcpy(p, &x, len);
	}
}
