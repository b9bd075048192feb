/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A test definition as CrystalDiskMark names it: SEQ1M_Q8T1 is sequential
 * 1 MiB blocks, 8 I/Os in flight per thread, one thread. Parsing, the
 * canonical name, and the labels the grid and the text report show.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { DM_SEQ, DM_RND } dm_pattern;

typedef enum {
  DM_MODE_READ,
  DM_MODE_WRITE,
  DM_MODE_MIX,
  DM_N_MODES
} dm_mode;

#define DM_MODE_BIT(m) (1u << (m))
#define DM_MODES_ALL   (DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE) | DM_MODE_BIT (DM_MODE_MIX))

#define DM_BLOCK_MIN   (4u * 1024)
#define DM_BLOCK_MAX   (8u * 1024 * 1024)
#define DM_QUEUE_MAX   512
#define DM_THREADS_MAX 64

typedef struct dm_spec {
  dm_pattern pattern;
  uint32_t   block_size;  /* bytes, power of two, DM_BLOCK_MIN..DM_BLOCK_MAX */
  uint16_t   queue_depth; /* per thread, 1..DM_QUEUE_MAX */
  uint16_t   threads;     /* 1..DM_THREADS_MAX */
} dm_spec;

/* "SEQ1M_Q8T1", "rnd4k_q32t16", "SEQ128K_Q32T1". 0 or -EINVAL; on error a
 * one-line reason is written to why (may be NULL). */
int dm_spec_parse (const char *text, dm_spec *out, char *why, size_t why_size);

/* "SEQ1M_Q8T1" */
void dm_spec_name (const dm_spec *spec, char *buf, size_t size);
/* "SEQ1M / Q8T1": the grid's row button */
void dm_spec_label (const dm_spec *spec, char *buf, size_t size);
/* "SEQ    1MiB (Q=  8, T= 1)": the saved-text layout */
void dm_spec_text_label (const dm_spec *spec, char *buf, size_t size);
/* "1M", "128K": the short size CrystalDiskMark uses in names */
void dm_block_short (uint32_t block_size, char *buf, size_t size);

bool dm_spec_equal (const dm_spec *a, const dm_spec *b);

/* "read", "write", "mix"; and back (-EINVAL for anything else). */
const char *dm_mode_name (dm_mode mode);
const char *dm_mode_title (dm_mode mode); /* "Read", "Write", "Mix" */
int dm_mode_parse (const char *text, dm_mode *out);
/* "read,write,mix" into a DM_MODE_BIT mask. */
int dm_modes_parse (const char *text, unsigned *mask, char *why, size_t why_size);
