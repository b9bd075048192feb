/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The merge's pool of bytes stored once (dm-merge-private.h): a hash set
 * of copies kept in chunks of 64 KiB, so a copy never moves and the rows
 * that point at it stay valid while the pool grows.
 */
#include "dm-merge-private.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_SIZE (64u << 10)

struct _dm_merge_chunk {
  _dm_merge_chunk *next;
  size_t           size;   /* bytes of data[] */
  max_align_t      data[]; /* aligned for any copy, thresholds too */
};

struct _dm_merge_slot {
  uint64_t    hash;
  const void *data;  /* NULL: empty */
  size_t      len;
  unsigned    tag;
};

static uint64_t
hash_of (const void *data, size_t len)
{
  /* FNV-1a: the keys are short and not chosen by an attacker who gains
   * anything from collisions beyond a slower merge. */
  const unsigned char *b = data;
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < len; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

static void *
store (_dm_merge_pool *p, const void *data, size_t len)
{
  size_t need = (len + sizeof (max_align_t) - 1) / sizeof (max_align_t) * sizeof (max_align_t);
  if (!p->chunks || p->used + need > p->chunks->size)
    {
      size_t size = need > CHUNK_SIZE ? need : CHUNK_SIZE;
      _dm_merge_chunk *c = malloc (sizeof *c + size);
      if (!c)
        return NULL;
      c->next = p->chunks;
      c->size = size;
      p->chunks = c;
      p->used = 0;
    }
  void *copy = (char *) p->chunks->data + p->used;
  p->used += need;
  if (len)
    memcpy (copy, data, len);
  return copy;
}

static int
grow (_dm_merge_pool *p)
{
  size_t n = p->n_slots ? p->n_slots * 2 : 1024;
  _dm_merge_slot *slots = calloc (n, sizeof *slots);
  if (!slots)
    return -1;
  for (size_t i = 0; i < p->n_slots; i++)
    if (p->slots[i].data)
      {
        size_t k = p->slots[i].hash & (n - 1);
        while (slots[k].data)
          k = (k + 1) & (n - 1);
        slots[k] = p->slots[i];
      }
  free (p->slots);
  p->slots = slots;
  p->n_slots = n;
  return 0;
}

const void *
_dm_merge_pool_add (_dm_merge_pool *p, const void *data, size_t len, unsigned tag,
                    unsigned *first_tag)
{
  if ((p->n_used + 1) * 2 > p->n_slots && grow (p) < 0)
    return NULL;
  uint64_t h = hash_of (data, len);
  size_t k = h & (p->n_slots - 1);
  for (; p->slots[k].data; k = (k + 1) & (p->n_slots - 1))
    {
      const _dm_merge_slot *s = &p->slots[k];
      if (s->hash == h && s->len == len && !memcmp (s->data, data, len))
        {
          *first_tag = s->tag;
          return s->data;
        }
    }
  const void *copy = store (p, data, len);
  if (!copy)
    return NULL;
  p->slots[k] = (_dm_merge_slot) { h, copy, len, tag };
  p->n_used++;
  *first_tag = tag;
  return copy;
}

const char *
_dm_merge_pool_string (_dm_merge_pool *p, const char *s)
{
  unsigned tag;
  s = s ? s : "";
  return _dm_merge_pool_add (p, s, strlen (s) + 1, 0, &tag);
}

void
_dm_merge_pool_clear (_dm_merge_pool *p)
{
  while (p->chunks)
    {
      _dm_merge_chunk *next = p->chunks->next;
      free (p->chunks);
      p->chunks = next;
    }
  free (p->slots);
  memset (p, 0, sizeof *p);
}
