/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything a user can set for a run, with CrystalDiskMark's defaults and
 * limits, and the check that turns a bad value into a one-line reason.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DM_COUNT_MIN      1
#define DM_COUNT_MAX      9
#define DM_TEST_SIZE_MIN  (16ull << 20)
#define DM_TEST_SIZE_MAX  (64ull << 30)
#define DM_MIX_READ_MIN   10
#define DM_MIX_READ_MAX   90
/* The test file is a whole number of MiB, so every SEQ block fits. */
#define DM_BLOCK_MAX_ALIGN (1ull << 20)
/* Whole-file writes before the first test (SNIA's SSD performance test
 * and HCIBench precondition so): a fresh SSD or a thin disk shows its
 * steady state only once every block has been written. */
#define DM_PRECONDITION_MAX 16
/* A steady warm-up: the last STEADY_WINDOW_S of STEADY_SAMPLE_S samples
 * must all lie within the margin of their mean, as fio's steadystate
 * "iops:10%" asks of its window, or the limit ends it. */
#define DM_STEADY_SAMPLE_S       0.5
#define DM_STEADY_WINDOW_S       5.0
#define DM_STEADY_MARGIN_DEFAULT 10.0
#define DM_STEADY_LIMIT_DEFAULT  60.0

typedef enum { DM_DATA_RANDOM, DM_DATA_ZEROS } dm_data;

typedef struct dm_settings {
  unsigned count;            /* measured runs per test, best one is the figure */
  uint64_t test_size;        /* bytes of the test file */
  double   measure_s;        /* length of one measured run */
  double   interval_s;       /* pause between tests, lets SSD caches settle */
  double   warmup_s;         /* unscored "Preparing" run before each test */
  /* Instead of warmup_s: warm up until the last DM_STEADY_WINDOW_S of
   * throughput samples vary less than steady_margin percent of their
   * mean, or for steady_limit_s at most. */
  bool     warmup_steady;
  double   steady_margin;    /* percent, 0.1..100 */
  double   steady_limit_s;   /* DM_STEADY_WINDOW_S..3600 */
  unsigned precondition;     /* whole-file sequential writes before the first test, 0..16 */
  dm_data  data;             /* what the file and write buffers hold */
  unsigned mix_read_percent; /* read share of the Mix column */
  bool     buffered;         /* no O_DIRECT: every result is marked cached */
  bool     write_through;    /* FILE_FLAG_WRITE_THROUGH / O_DSYNC */
  char     backend[16];      /* "" = best that works here */
  char     destroy_device[256]; /* block device the user allowed us to overwrite */
} dm_settings;

void dm_settings_init (dm_settings *s);
/* 0, or -EINVAL with a one-line reason in why. */
int dm_settings_check (const dm_settings *s, char *why, size_t why_size);
const char *dm_data_name (dm_data data); /* "random", "zeros" */
int dm_data_parse (const char *text, dm_data *out);
/* "steady", "steady:MARGIN" or "steady:MARGIN:LIMIT" (MARGIN in percent,
 * "10" or "10%"; LIMIT a duration, "60", "90s", "2m") into s: 0, or
 * -EINVAL with a one-line reason. */
int dm_steady_parse (const char *text, dm_settings *s, char *why, size_t why_size);
/* The warm-up as --warmup takes it: "5" or "steady:10:60". */
void dm_warmup_format (const dm_settings *s, char *buf, size_t size);
