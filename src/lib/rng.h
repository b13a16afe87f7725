/*
 * rng: xorshift128+ seeded through splitmix64. Deterministic for a given
 * seed (ioping's -e). Pure.
 */
#ifndef IOPROBE_RNG_H
#define IOPROBE_RNG_H

#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t s[2];
};

/* Seed the generator; every seed (0 included) gives a valid, distinct state. */
void rng_seed(struct rng *r, uint64_t seed);

/* Next 64 random bits. */
uint64_t rng_next(struct rng *r);

/* Uniform value in [0, n) without modulo bias; n = 0 gives 0. */
uint64_t rng_below(struct rng *r, uint64_t n);

/* Fill len bytes of buf with random data (write payloads: defeat compression/dedup). */
void rng_fill(struct rng *r, void *buf, size_t len);

#endif
