/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The merge's pool: bytes stored once however often they are given, in
 * chunks that never move. A fleet's hosts mostly share their kernel, CPU,
 * model and thresholds, so each host costs a pointer for them; the same
 * pool, fed each host's identity, finds a run given twice.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct _dm_merge_slot _dm_merge_slot;
typedef struct _dm_merge_chunk _dm_merge_chunk;

typedef struct _dm_merge_pool {
  _dm_merge_chunk *chunks;  /* newest first */
  size_t           used;    /* bytes of the newest chunk in use */
  _dm_merge_slot  *slots;   /* open addressing, a power of two of them */
  size_t           n_slots;
  size_t           n_used;
} _dm_merge_pool;

/* The pool's copy of data[0..len), made now if the pool has none. *tag
 * is set to the tag given by whoever stored it first (tag for a new
 * copy). NULL if out of memory. */
const void *_dm_merge_pool_add (_dm_merge_pool *p, const void *data, size_t len, unsigned tag,
                                unsigned *first_tag);
/* A string's copy ("" for NULL), or NULL if out of memory. */
const char *_dm_merge_pool_string (_dm_merge_pool *p, const char *s);
void        _dm_merge_pool_clear (_dm_merge_pool *p);
