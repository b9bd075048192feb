/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A workload: a test shaped like an application rather than named after
 * CrystalDiskMark. Block-size split, read and random shares, an access
 * distribution, an offered rate, sync writes, reducible data and thread
 * affinity, all set through one key=value vocabulary that the --workload
 * option and profile files share, written back in one canonical form that
 * reports store and read again. The samplers the workers draw from are
 * built here, before a run, so the hot path only indexes tables.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dm-rng.h"
#include "dm-spec.h"

#define DM_WORKLOAD_NAME_MAX 64
#define DM_WORKLOAD_SIZES    8   /* sizes in a block-size split */
#define DM_WORKLOAD_ZONES    4   /* hot zones */
#define DM_WORKLOAD_CPUS     64  /* CPUs in an affinity list */
#define DM_WORKLOAD_TEXT_MAX 512 /* the canonical form's longest */

typedef enum {
  DM_DIST_UNIFORM,
  DM_DIST_ZIPF,    /* theta: rank k is drawn with weight 1/k^theta */
  DM_DIST_PARETO,  /* h: a share h of the blocks gets 1-h of the I/O */
  DM_DIST_HOT,     /* zones: file % / I/O %, from the file's start */
} dm_dist;

typedef enum { DM_RATE_NONE, DM_RATE_IOPS, DM_RATE_MBPS } dm_rate_unit;
typedef enum { DM_SYNC_NONE, DM_SYNC_DSYNC, DM_SYNC_FLUSH } dm_sync;
typedef enum { DM_WDATA_RANDOM, DM_WDATA_ZEROS, DM_WDATA_REDUCIBLE } dm_wdata;
typedef enum { DM_AFFINITY_NONE, DM_AFFINITY_SPREAD, DM_AFFINITY_LIST } dm_affinity;

typedef struct dm_workload {
  char         name[DM_WORKLOAD_NAME_MAX];
  uint32_t     sizes[DM_WORKLOAD_SIZES];   /* bytes, powers of two, ascending */
  uint16_t     weights[DM_WORKLOAD_SIZES]; /* relative, any sum */
  unsigned     n_sizes;
  unsigned     read_percent;   /* 0..100 */
  unsigned     random_percent; /* 0..100: the rest continue from the last I/O's end */
  dm_dist      dist;
  double       dist_param;     /* zipf theta, pareto h */
  uint8_t      zone_file[DM_WORKLOAD_ZONES]; /* hot: % of the file */
  uint8_t      zone_io[DM_WORKLOAD_ZONES];   /* hot: % of the I/O there */
  unsigned     n_zones;
  dm_rate_unit rate_unit;
  double       rate;           /* IOPS or MB/s, over all threads */
  dm_sync      sync;
  unsigned     flush_every;    /* DM_SYNC_FLUSH: writes per flush */
  dm_wdata     data;
  unsigned     compress_percent; /* reducible: zlib saves about this share */
  unsigned     dedupe_percent;   /* reducible: 4 KiB blocks that repeat another */
  dm_affinity  affinity;
  uint16_t     cpus[DM_WORKLOAD_CPUS];
  unsigned     n_cpus;
  uint16_t     queue_depth;
  uint16_t     threads;
} dm_workload;

/* An empty workload: 4K, all reads, all random, uniform, Q1T1. */
void dm_workload_init (dm_workload *w);
/* Sets one key ("block", "read", "random", "distribution", "rate", "sync",
 * "data", "compress", "dedupe", "affinity", "qd", "threads", "name").
 * 0, or -EINVAL with a one-line reason. */
int  dm_workload_set (dm_workload *w, const char *key, const char *value, char *why,
                      size_t why_size);
/* "name=OLTP;block=8K;read=70;..." into w (from dm_workload_init). */
int  dm_workload_parse (const char *text, dm_workload *w, char *why, size_t why_size);
/* Refuses a workload that cannot run (no size, a hot-zone sum past 100). */
int  dm_workload_check (const dm_workload *w, char *why, size_t why_size);
/* The canonical form, every key in one order: parses back to w. */
void dm_workload_format (const dm_workload *w, char *buf, size_t size);
/* The spec a workload row stands in: its largest size, RND when half or
 * more of its I/O is random, its queue and threads. */
void dm_workload_spec (const dm_workload *w, dm_spec *spec);
uint32_t dm_workload_max_block (const dm_workload *w);
uint32_t dm_workload_min_block (const dm_workload *w);
bool dm_workload_equal (const dm_workload *a, const dm_workload *b);
/* "8K/50,64K/50 70% read 100% random zipf:1.2 Q8T4 ...": the mode line. */
void dm_workload_describe (const dm_workload *w, char *buf, size_t size);

/* FNV-1a, 64 bits, as 16 hex digits: the hash a report keeps of its
 * profile, over the canonical forms of its rows, one a line. */
void dm_workload_hash_text (const char *text, size_t len, char out[17]);

/* The samplers a worker draws from, built before the run: Walker's alias
 * table for the sizes, and the distribution's constants (rejection-
 * inversion for zipf, Hörmann and Derflinger 1996; closed form for
 * pareto; cumulative zones for hot spots). Nothing here allocates. */
typedef struct dm_workload_sampler {
  uint32_t size_value[DM_WORKLOAD_SIZES];
  uint32_t size_alias[DM_WORKLOAD_SIZES];
  uint64_t size_cut[DM_WORKLOAD_SIZES];  /* of 2^32: keep this column below it */
  unsigned n_sizes;
  uint64_t n_units;    /* offsets: multiples of unit */
  uint32_t unit;
  dm_dist  dist;
  uint64_t permute_mul;  /* scatters zipf/pareto ranks over the file: coprime to n_units */
  uint64_t permute_add;
  double   z_exp, z_hx1, z_hxn, z_s;   /* zipf */
  double   p_pow;                      /* pareto */
  uint64_t zone_start[DM_WORKLOAD_ZONES + 1]; /* hot: units */
  uint64_t zone_len[DM_WORKLOAD_ZONES + 1];
  uint32_t zone_cum[DM_WORKLOAD_ZONES + 1];   /* cumulative I/O share of 2^32 */
  unsigned n_zones;
} dm_workload_sampler;

/* For a file of file_size bytes. -EINVAL when it cannot hold the sizes. */
int dm_workload_sampler_init (dm_workload_sampler *s, const dm_workload *w, uint64_t file_size);

static inline uint32_t
dm_workload_draw_size (const dm_workload_sampler *s, dm_rng *rng)
{
  uint64_t x = dm_rng_next (rng);
  unsigned col = (unsigned) (((x >> 32) * s->n_sizes) >> 32);
  return (x & 0xffffffffu) < s->size_cut[col] ? s->size_value[col] : s->size_value[s->size_alias[col]];
}

/* A unit index, 0..n_units-1, from the distribution (dm-workload.c). */
uint64_t dm_workload_draw_unit (const dm_workload_sampler *s, dm_rng *rng);
