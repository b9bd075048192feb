/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Sweep window's choice of what a sweep varies (QD x threads, block
 * sizes as ATTO does, or the offered rate as vdbench's curve) and the
 * fields only one kind has. The window reads its common controls into a
 * plan; these turn that plan into the kind's, with the engine's own
 * parsers and report builders, the ones diskmeter-cli sweep runs.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-job.h"
#include "dm-sweep.h"

G_BEGIN_DECLS

/* Template children of the window, bound into it. */
typedef struct
{
  GtkDropDown *kind_dropdown;   /* QD x threads, Block sizes, Latency curve */
  GtkWidget   *blocks_label;
  GtkWidget   *blocks_entry;
  GtkWidget   *both_check;      /* a block sweep's reads and writes */
  GtkWidget   *block_label;     /* the one block size: not a block sweep's */
  GtkWidget   *block_dropdown;
  /* A QD x threads sweep's lists while another kind needs one load. */
  char        *qd_lists;
  char        *threads_lists;
  dm_sweep_kind shown;
  /* While a block sweep or a curve runs: its plan's report, the results
   * finished so far in it, for the chart to fill in as the maps do. */
  dm_report    live;
  dm_result   *live_results;
  unsigned     n_planned;
} DmSweepKinds;

dm_sweep_kind dm_sweep_kinds_get   (const DmSweepKinds *k);
/* After the kind changed: shows its fields, and gives a kind of one load
 * (Q4T1, as diskmeter-cli's default for a block sweep) the lists' first
 * value, the QD sweep's lists coming back with it. */
void          dm_sweep_kinds_show  (DmSweepKinds *k,
                                    GtkEditable  *qd_entry,
                                    GtkEditable  *threads_entry,
                                    GtkDropDown  *pattern_dropdown);
/* The p99 bound field as --latency-bound takes it (2ms, 500us, or
 * microseconds alone; empty is none, 0): FALSE with a one-line reason. */
gboolean      dm_sweep_kinds_bound (const char *text,
                                    double     *us,
                                    char       *why,
                                    size_t      why_size);
/* Makes p, read by the window from the common controls, the kind's plan
 * and its report: FALSE with a one-line reason. device: the target is a
 * disk, whose block sweep only reads. */
gboolean      dm_sweep_kinds_plan  (const DmSweepKinds *k,
                                    dm_sweep_plan      *p,
                                    const dm_settings  *s,
                                    gboolean            device,
                                    unsigned            logical_cpus,
                                    dm_report          *r,
                                    char               *note,
                                    size_t              note_size,
                                    char               *why,
                                    size_t              why_size);
/* Shows a loaded sweep's kind and fields. */
void          dm_sweep_kinds_load  (DmSweepKinds        *k,
                                    const dm_sweep_plan *p);
/* A script's choice: kind "qd", "blocks" or "rates" (as the JSON names
 * it), blocks a list as --blocks takes it and bound as --latency-bound
 * does, into bound_entry (NULL keeps a field). */
gboolean      dm_sweep_kinds_set   (DmSweepKinds *k,
                                    const char   *kind,
                                    const char   *blocks,
                                    const char   *bound,
                                    GtkWidget    *bound_entry);
/* "6 combinations", "8 block sizes and modes", "7 points of the rate curve". */
char         *dm_sweep_kinds_count (dm_sweep_kind kind,
                                    unsigned      n);
/* The status line while res (result index) is measured. */
char         *dm_sweep_kinds_measuring (dm_sweep_kind    kind,
                                        const dm_result *res,
                                        int              index);
/* Before the job takes r: the shape of the chart while it runs. */
void          dm_sweep_kinds_begin (DmSweepKinds    *k,
                                    const dm_report *r);
/* The results job has finished, in order, as a report for the chart
 * (valid until the next call); NULL without them. */
const dm_report *dm_sweep_kinds_live (DmSweepKinds *k,
                                      DmJob        *job);
void          dm_sweep_kinds_clear (DmSweepKinds *k);

G_END_DECLS
