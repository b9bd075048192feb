/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sustained test: one pattern written (or read) once through a test
 * file as large as the span, for as long as the duration allows, to see
 * speed over time. A plan becomes an ordinary one-result dm_report that
 * dm_runner fills in one pass; the analysis names the cliff (where an SLC
 * or DRAM write cache runs out) from the result's timeline, saved ones too.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "dm-buf.h"
#include "dm-report.h"

/* What "free" leaves free: the larger of these. */
#define DM_SUSTAINED_MARGIN_MIN     (1ull << 30)
#define DM_SUSTAINED_MARGIN_PERCENT 5

typedef struct dm_sustained_plan {
  dm_mode    mode;          /* DM_MODE_WRITE or DM_MODE_READ */
  dm_pattern pattern;
  uint32_t   block_size;
  unsigned   queue_depth;
  unsigned   threads;
  uint64_t   span;          /* bytes; 0 = free */
  double     duration_s;
  double     sample_s;
} dm_sustained_plan;

/* SEQ 1MiB Q8T1 write over the free space, 60 s, 0.5 s samples. */
void dm_sustained_plan_init (dm_sustained_plan *p);

/* The margin a filesystem of size_bytes keeps free, and the span "free"
 * gives with free_bytes free (whole MiB, at most DM_TEST_SIZE_MAX; 0 when
 * nothing is left past the margin). */
uint64_t dm_sustained_margin (uint64_t size_bytes);
uint64_t dm_sustained_free_span (uint64_t free_bytes, uint64_t size_bytes);

/* A read pass fills its span first: by default it reads this much at
 * most, so a read over a large disk or filesystem ends in minutes. */
#define DM_SUSTAINED_READ_SPAN_DEFAULT (4ull << 30)

/* How the user gave the span: a size, "free" (all free space but the
 * margin; on a disk its whole size), or not at all (as "free", but a read
 * reads DM_SUSTAINED_READ_SPAN_DEFAULT at most). */
typedef enum {
  DM_SUSTAINED_SPAN_SIZE,
  DM_SUSTAINED_SPAN_FREE,
  DM_SUSTAINED_SPAN_DEFAULT,
} dm_sustained_span_kind;

/* The span a plan of mode runs over on the target t (as dm_target_probe
 * gives it); size is the span given with DM_SUSTAINED_SPAN_SIZE. A disk is
 * only read, from its start, at most DM_TEST_SIZE_MAX. A size given is
 * checked against the free space later, when the test file is made, as
 * every run's is. 0; -EPERM when a disk would be written; -ENOSPC when
 * less than DM_TEST_SIZE_MIN is left past the margin. *span is set in
 * every case, so a caller can say what it would have been. */
int dm_sustained_resolve_span (const dm_target_info *t, dm_mode mode,
                               dm_sustained_span_kind kind, uint64_t size, uint64_t *span);

/* Sets up a one-result report for the plan with span bytes (already
 * resolved); the profile is "sustained". 0, or -EINVAL with a reason. */
int dm_sustained_report_init (dm_report *r, const dm_sustained_plan *p, uint64_t span,
                              const dm_settings *base, char *why, size_t why_size);

typedef struct dm_sustained_cliff {
  bool     found;
  uint64_t cache_bytes;     /* moved before the rate fell for good */
  double   at_s;            /* when, from the start of the run */
  double   opening_mb_per_s;
  double   before_mb_per_s; /* median of the samples before the cliff (no cliff: the opening rate) */
  double   after_mb_per_s;  /* median of those after it (no cliff: of the last quarter) */
} dm_sustained_cliff;

/* The cliff in a timeline: the opening rate is the best median of three
 * neighbouring samples in the first 2 s; the cliff is the first sample below half of it from
 * which on the rate stays there (nine tenths of the time, and on average;
 * each sample weighs as long as it lasted, so a short last one counts little).
 * The bytes before it are solved across the two samples around it from the
 * rates before and after, so they need not fall on a sample's edge. */
void dm_sustained_find_cliff (const dm_sample *samples, unsigned n, dm_sustained_cliff *out);
/* The same on the samples as a saved file keeps them (t to 6 digits, the
 * rate to 3 decimals), so that the live window, a loaded file and the
 * report's own summary name the very same cliff. */
void dm_sustained_find_cliff_as_saved (const dm_sample *samples, unsigned n,
                                       dm_sustained_cliff *out);

/* Whether a report is a sustained run: a saved file's "sustained" member
 * (text) or a report made by dm_sustained_report_init. */
bool dm_sustained_is (const dm_report *r, const char *text, size_t len);

/* The report's JSON with a "sustained" member: mode, span_bytes,
 * duration_s, cache_bytes (null without a cliff), cliff_s,
 * opening_mb_per_s, before_mb_per_s, after_mb_per_s. */
void dm_sustained_write_json (const dm_report *r, dm_buf *out);
/* A short summary and a plain-text chart of MB/s over time. */
void dm_sustained_write_text (const dm_report *r, dm_buf *out);
