/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a sweep varies, for the Sweep window. Nothing here measures or
 * parses on its own: the block list and the bound are read by the engine's
 * dm_sweep_blocks_parse and dm_sweep_bound_parse, a rate curve's load is
 * dm_sweep_curve_workload_of's row, and the report is built by the same
 * dm_sweep_*_report_init diskmeter-cli sweep calls, so the window and the
 * command line refuse, plan and save a sweep alike.
 */
#include "dm-sweep-kinds.h"
#include "dm-i18n-ui.h"

#include <string.h>

#include "dm-units.h"

dm_sweep_kind
dm_sweep_kinds_get (const DmSweepKinds *k)
{
  guint i = gtk_drop_down_get_selected (k->kind_dropdown);

  return i == 1 ? DM_SWEEP_BLOCKS : i == 2 ? DM_SWEEP_RATES : DM_SWEEP_QD;
}

/* The list's first value, "4" of "4,8,16". */
static char *
first_of (const char *list)
{
  return g_strndup (list, strcspn (list, ", "));
}

void
dm_sweep_kinds_show (DmSweepKinds *k,
                     GtkEditable  *qd_entry,
                     GtkEditable  *threads_entry,
                     GtkDropDown  *pattern_dropdown)
{
  dm_sweep_kind kind = dm_sweep_kinds_get (k);
  gboolean blocks = kind == DM_SWEEP_BLOCKS;

  gtk_widget_set_visible (k->blocks_label, blocks);
  gtk_widget_set_visible (k->blocks_entry, blocks);
  gtk_widget_set_visible (k->both_check, blocks);
  gtk_widget_set_visible (k->block_label, !blocks);
  gtk_widget_set_visible (k->block_dropdown, !blocks);
  if (kind == k->shown)
    return;
  if (k->shown == DM_SWEEP_QD)
    {
      /* One load for the other kinds; the QD sweep's lists are kept for
       * when it is chosen again. A block sweep starts at ATTO's Q4T1 and
       * sequential transfers, as diskmeter-cli's --blocks does. */
      g_free (k->qd_lists);
      g_free (k->threads_lists);
      k->qd_lists = g_strdup (gtk_editable_get_text (qd_entry));
      k->threads_lists = g_strdup (gtk_editable_get_text (threads_entry));
      if (blocks)
        {
          gtk_editable_set_text (qd_entry, "4");
          gtk_editable_set_text (threads_entry, "1");
          gtk_drop_down_set_selected (pattern_dropdown, 0);
        }
      else
        {
          g_autofree char *qd = first_of (k->qd_lists);
          g_autofree char *t = first_of (k->threads_lists);

          gtk_editable_set_text (qd_entry, qd);
          gtk_editable_set_text (threads_entry, t);
        }
    }
  else if (kind == DM_SWEEP_QD && k->qd_lists)
    {
      gtk_editable_set_text (qd_entry, k->qd_lists);
      gtk_editable_set_text (threads_entry, k->threads_lists);
    }
  k->shown = kind;
}

/* The engine's reason names the CLI's option; the window names its field. */
static void
field_reason (const char *field,
              const char *option,
              char       *why,
              size_t      why_size)
{
  g_autofree char *inner = g_strdup (g_str_has_prefix (why, option) ? why + strlen (option) : why);

  g_snprintf (why, why_size, "%s: %s", field, inner);
}

gboolean
dm_sweep_kinds_bound (const char *text,
                      double     *us,
                      char       *why,
                      size_t      why_size)
{
  *us = 0;
  if (!text[0] || dm_sweep_bound_parse (text, us, why, why_size) == 0)
    return TRUE;
  field_reason (_ ("p99 bound"), "--latency-bound: ", why, why_size);
  return FALSE;
}

gboolean
dm_sweep_kinds_plan (const DmSweepKinds *k,
                     dm_sweep_plan      *p,
                     const dm_settings  *s,
                     gboolean            device,
                     unsigned            logical_cpus,
                     dm_report          *r,
                     char               *note,
                     size_t              note_size,
                     char               *why,
                     size_t              why_size)
{
  p->kind = dm_sweep_kinds_get (k);
  if (p->kind == DM_SWEEP_QD)
    return dm_sweep_report_init (r, p, s, logical_cpus, note, note_size, why, why_size) == 0;
  if (p->n_queue_depths != 1 || p->n_threads != 1)
    {
      g_snprintf (why, why_size, "%s",
                  p->kind == DM_SWEEP_BLOCKS
                    ? _ ("a block sweep measures at one load: give one queue depth and one "
                         "thread count")
                    : _ ("a rate curve measures one load: give one queue depth and one thread "
                         "count"));
      return FALSE;
    }
  if (p->kind == DM_SWEEP_BLOCKS)
    {
      if (dm_sweep_blocks_parse (gtk_editable_get_text (GTK_EDITABLE (k->blocks_entry)),
                                 p->blocks, &p->n_blocks, why, why_size) < 0)
        {
          field_reason (_ ("Block sizes"), "--blocks: ", why, why_size);
          return FALSE;
        }
      /* Reads and writes, as ATTO does; a disk is only read. */
      p->modes = gtk_check_button_get_active (GTK_CHECK_BUTTON (k->both_check)) && !device
                   ? DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE)
                   : DM_MODE_BIT (p->mode);
      return dm_sweep_blocks_report_init (r, p, s, why, why_size) == 0;
    }
  {
    dm_spec test = { p->pattern, p->block_size, (uint16_t) p->queue_depths[0],
                     (uint16_t) p->threads[0] };

    if (dm_sweep_curve_workload_of (&test, p->mode, s->mix_read_percent, &p->workload, why,
                                    why_size) < 0)
      return FALSE;
  }
  return dm_sweep_curve_report_init (r, p, s, why, why_size) == 0;
}

void
dm_sweep_kinds_load (DmSweepKinds        *k,
                     const dm_sweep_plan *p)
{
  gtk_drop_down_set_selected (k->kind_dropdown, p->kind == DM_SWEEP_BLOCKS ? 1
                                                : p->kind == DM_SWEEP_RATES ? 2 : 0);
  if (p->kind == DM_SWEEP_BLOCKS && p->n_blocks)
    {
      g_autoptr (GString) list = g_string_new (NULL);

      for (unsigned i = 0; i < p->n_blocks; i++)
        {
          char b[16];

          dm_block_short (p->blocks[i], b, sizeof b);
          g_string_append_printf (list, "%s%s", i ? "," : "", b);
        }
      gtk_editable_set_text (GTK_EDITABLE (k->blocks_entry), list->str);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (k->both_check),
                                   p->modes == (DM_MODE_BIT (DM_MODE_READ)
                                                | DM_MODE_BIT (DM_MODE_WRITE)));
    }
}

gboolean
dm_sweep_kinds_set (DmSweepKinds *k,
                    const char   *kind,
                    const char   *blocks,
                    const char   *bound,
                    GtkWidget    *bound_entry)
{
  static const char *const names[] = { "qd", "blocks", "rates" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (kind, names[i]) == 0)
      {
        gtk_drop_down_set_selected (k->kind_dropdown, i);
        if (blocks)
          gtk_editable_set_text (GTK_EDITABLE (k->blocks_entry), blocks);
        if (bound)
          gtk_editable_set_text (GTK_EDITABLE (bound_entry), bound);
        return TRUE;
      }
  return FALSE;
}

char *
dm_sweep_kinds_count (dm_sweep_kind kind,
                      unsigned      n)
{
  if (kind == DM_SWEEP_BLOCKS)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u block size and mode", "%u block sizes and modes",
                                         n), n);
  if (kind == DM_SWEEP_RATES)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u point of the rate curve",
                                         "%u points of the rate curve", n), n);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u combination", "%u combinations", n), n);
}

char *
dm_sweep_kinds_measuring (dm_sweep_kind    kind,
                          const dm_result *res,
                          int              index)
{
  char b[16];

  if (kind == DM_SWEEP_BLOCKS)
    {
      dm_block_short (res->spec.block_size, b, sizeof b);
      return g_strdup_printf (_ ("Measuring %s %s…"), b, dm_mode_title (res->mode));
    }
  if (kind == DM_SWEEP_RATES)
    {
      if (index <= 0 || res->workload.rate_unit == DM_RATE_NONE)
        return g_strdup (_ ("Measuring the load's maximum rate…"));
      return g_strdup_printf (_ ("Measuring %u %% of the maximum, %.0f IOPS offered…"),
                              dm_sweep_curve_percent[MIN (index, DM_SWEEP_CURVE_POINTS) - 1],
                              res->workload.rate);
    }
  return g_strdup_printf (_ ("Measuring QD %u × %u threads…"), res->spec.queue_depth,
                          res->spec.threads);
}

void
dm_sweep_kinds_begin (DmSweepKinds    *k,
                      const dm_report *r)
{
  g_clear_pointer (&k->live_results, g_free);
  /* The header only: its memory stays the job's report's. */
  k->live = *r;
  k->live.results = NULL;
  k->live.histograms = NULL;
  k->live.n_results = 0;
  k->n_planned = r->n_results;
  k->live_results = g_new0 (dm_result, MAX (r->n_results, 1));
}

const dm_report *
dm_sweep_kinds_live (DmSweepKinds *k,
                     DmJob        *job)
{
  unsigned n = 0;

  if (!job || !k->live_results)
    return NULL;
  /* Finished ones only: a result being measured holds its last sample's
   * figures, and one not reached holds none, which the chart would draw
   * as zero. Their histograms are not the chart's to read. */
  for (unsigned i = 0; i < k->n_planned; i++)
    {
      const dm_result *res = dm_job_peek_result (job, i);

      if (res && res->status == DM_STATUS_COMPLETE)
        {
          k->live_results[n] = *res;
          k->live_results[n].hist_read = k->live_results[n].hist_write = NULL;
          k->live_results[n].samples = NULL;
          k->live_results[n++].n_samples = 0;
        }
    }
  k->live.results = k->live_results;
  k->live.n_results = n;
  return n ? &k->live : NULL;
}

void
dm_sweep_kinds_clear (DmSweepKinds *k)
{
  g_clear_pointer (&k->live_results, g_free);
  g_clear_pointer (&k->qd_lists, g_free);
  g_clear_pointer (&k->threads_lists, g_free);
}
