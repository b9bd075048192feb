/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * xoshiro256** (Blackman and Vigna): a few cycles per 64-bit number, good
 * enough statistics for offsets and data, and a state per thread so the
 * hot path shares nothing.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct dm_rng {
  uint64_t s[4];
} dm_rng;

static inline uint64_t
dm_rng_rotl (uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static inline uint64_t
dm_rng_next (dm_rng *r)
{
  uint64_t *s = r->s;
  uint64_t result = dm_rng_rotl (s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = dm_rng_rotl (s[3], 45);
  return result;
}

/* Seeds through splitmix64, so neighbouring seeds give unrelated streams. */
static inline void
dm_rng_seed (dm_rng *r, uint64_t seed)
{
  for (int i = 0; i < 4; i++)
    {
      uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      r->s[i] = z ^ (z >> 31);
    }
}

/* Uniform in [0, n) without division (Lemire's multiply-shift). */
static inline uint64_t
dm_rng_below (dm_rng *r, uint64_t n)
{
  return (uint64_t) (((unsigned __int128) dm_rng_next (r) * n) >> 64);
}

/* Fills len bytes (a multiple of 8) with random data. */
static inline void
dm_rng_fill (dm_rng *r, void *buf, size_t len)
{
  uint64_t *p = buf;
  for (size_t i = 0; i < len / 8; i++)
    p[i] = dm_rng_next (r);
}
