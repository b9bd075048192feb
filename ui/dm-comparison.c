/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window's comparison: the runs it holds (the second target's, or
 * saved ones), the dm_compare built from them in the grid's unit and limits,
 * and the view that shows it. The window only says when a run starts, ticks
 * and finishes, and binds its grid to the "shown" property.
 */
#include "dm-comparison.h"
#include "dm-i18n-ui.h"

#include <string.h>

#include "dm-compare-view.h"

struct _DmComparison
{
  GObject          parent_instance;

  GtkWidget       *view;          /* a DmCompareView, shown with the comparison */
  dm_compare       compare;
  gboolean         shown;         /* the property: the view (and exports) show it */
  dm_unit          unit;
  dm_threshold     rules[DM_THRESHOLDS_MAX];
  unsigned         n_rules;

  /* a second target run interleaved with the first */
  char            *target;        /* NULL: plain runs */
  const dm_report *grid;          /* the first target's: the window's grid */
  dm_report        b;             /* the second target's finished figures */
  dm_target_info   b_target;      /* the second target, probed before its run */
  dm_report        live_a, live_b; /* shallow views of a running job's figures */
  guint            live_complete; /* completed results when the view was built */

  /* saved runs from the history */
  dm_report       *saved;
  char           **saved_names;
  guint            n_saved;
};

G_DEFINE_FINAL_TYPE (DmComparison, dm_comparison, G_TYPE_OBJECT)

enum { PROP_0, PROP_SHOWN, N_PROPS };
static GParamSpec *properties[N_PROPS];

/* Shows the comparison (or the grid again with FALSE). */
static void
show (DmComparison *self,
      gboolean      shown)
{
  gtk_widget_set_visible (self->view, shown);
  dm_compare_view_set_comparison (DM_COMPARE_VIEW (self->view), shown ? &self->compare : NULL);
  if (self->shown != shown)
    {
      self->shown = shown;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWN]);
    }
}

/* The same runs again, in the current unit and limits. */
static gboolean
build (DmComparison            *self,
       const dm_report *const  *runs,
       const char *const       *names,
       unsigned                 n)
{
  dm_compare_clear (&self->compare);
  if (dm_compare_build (&self->compare, runs, names, n, self->unit) < 0)
    {
      show (self, FALSE);
      return FALSE;
    }
  dm_compare_set_thresholds (&self->compare, self->rules, self->n_rules);
  show (self, TRUE);
  return TRUE;
}

static void
compare_two (DmComparison    *self,
             const dm_report *a,
             const dm_report *b)
{
  const dm_report *runs[2] = { a, b };
  const char *names[2] = { a->target.path[0] ? a->target.path : "A",
                           b->target.path[0] ? b->target.path : "B" };

  build (self, runs, names, 2);
}

GtkWidget *
dm_comparison_get_view (DmComparison *self)
{
  return self->view;
}

gboolean
dm_comparison_get_shown (DmComparison *self)
{
  return self->shown;
}

const dm_compare *
dm_comparison_get_compare (DmComparison *self)
{
  return self->shown && self->compare.n_runs >= 2 ? &self->compare : NULL;
}

void
dm_comparison_hide (DmComparison *self)
{
  if (self->shown)
    show (self, FALSE);
}

void
dm_comparison_set_target (DmComparison *self,
                          const char   *path)
{
  g_free (self->target);
  self->target = path && path[0] ? g_strdup (path) : NULL;
}

const char *
dm_comparison_get_target (DmComparison *self)
{
  return self->target;
}

/* The comparison in the unit the grid now shows: the same runs, rebuilt. */
void
dm_comparison_set_unit (DmComparison *self,
                        dm_unit       unit)
{
  const dm_report *runs[DM_COMPARE_MAX];
  const char *names[DM_COMPARE_MAX];
  unsigned n = self->compare.n_runs;

  self->unit = unit;
  if (!self->shown || n < 2 || self->compare.unit == unit)
    return;
  memcpy (runs, self->compare.runs, n * sizeof runs[0]);
  memcpy (names, self->compare.names, n * sizeof names[0]);
  build (self, runs, names, n);
}

void
dm_comparison_set_thresholds (DmComparison       *self,
                              const dm_threshold *rules,
                              unsigned            n_rules)
{
  self->n_rules = MIN (n_rules, DM_THRESHOLDS_MAX);
  memcpy (self->rules, rules, self->n_rules * sizeof rules[0]);
  if (self->shown)
    {
      dm_compare_set_thresholds (&self->compare, self->rules, self->n_rules);
      dm_compare_view_refresh (DM_COMPARE_VIEW (self->view));
    }
}

/* A run of every row with a second target measures both, interleaved on
 * the job's one worker. */
gboolean
dm_comparison_prepare (DmComparison       *self,
                       DmJob              *job,
                       const dm_report    *grid,
                       const dm_settings  *s,
                       const DmGridLayout *layout,
                       guint               modes,
                       GError            **error)
{
  dm_report b;

  g_return_val_if_fail (self->target, FALSE);
  memset (&b, 0, sizeof b);
  if (dm_report_init (&b, s, layout->rows, layout->n_rows, modes) != 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _ ("Out of memory while setting up the comparison."));
      return FALSE;
    }
  g_strlcpy (b.profile, grid->profile, sizeof b.profile);
  b.nvme = grid->nvme;
  g_strlcpy (b.comment, grid->comment, sizeof b.comment);
  memcpy (b.thresholds, grid->thresholds, sizeof b.thresholds);
  b.n_thresholds = grid->n_thresholds;
  if (!dm_job_add_second (job, &b, self->target))
    {
      dm_report_clear (&b);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _ ("Could not set up the second target of the comparison."));
      return FALSE;
    }
  dm_report_clear (&self->b);
  /* The live legend names B's own filesystem and device, not A's: probed
   * here, as the window probes its target before a run, since the
   * runner's own probe belongs to its thread until the run ends. */
  memset (&self->b_target, 0, sizeof self->b_target);
  if (dm_target_probe (self->target, &self->b_target) != 0)
    memset (&self->b_target, 0, sizeof self->b_target);
  g_strlcpy (self->b_target.path, self->target, sizeof self->b_target.path);
  self->grid = grid;
  self->live_complete = G_MAXUINT;
  dm_comparison_live (self, job);
  return TRUE;
}

/* Both targets' figures as they come: the comparison is rebuilt whenever
 * another test completes on either side. */
void
dm_comparison_live (DmComparison *self,
                    DmJob        *job)
{
  const dm_result *b_results;
  guint n_b, complete = 0;

  b_results = dm_job_peek_results_b (job, &n_b);
  if (!b_results || !self->grid)
    return;
  for (guint i = 0; i < self->grid->n_results; i++)
    complete += dm_job_peek_result (job, i)->status == DM_STATUS_COMPLETE;
  for (guint i = 0; i < n_b; i++)
    complete += b_results[i].status == DM_STATUS_COMPLETE;
  if (complete == self->live_complete)
    return;
  self->live_complete = complete;

  /* Only the results are read from these: shallow copies do. */
  self->live_a = *self->grid;
  self->live_a.results = (dm_result *) dm_job_peek_result (job, 0);
  self->live_b = *self->grid;
  self->live_b.results = (dm_result *) b_results;
  self->live_b.n_results = n_b;
  self->live_b.target = self->b_target;
  compare_two (self, &self->live_a, &self->live_b);
}

const dm_report *
dm_comparison_finish (DmComparison    *self,
                      DmJob           *job,
                      const dm_report *grid)
{
  dm_report b;

  if (!dm_job_steal_report_b (job, &b))
    return NULL;
  dm_compare_clear (&self->compare);
  dm_report_clear (&self->b);
  self->b = b;
  self->grid = grid;
  compare_two (self, grid, &self->b);
  return &self->b;
}

gboolean
dm_comparison_show_saved (DmComparison  *self,
                          dm_report     *reports,
                          char         **names,
                          guint          n,
                          GError       **error)
{
  g_autofree const dm_report **runs = g_new0 (const dm_report *, n);

  show (self, FALSE);
  dm_compare_clear (&self->compare);
  for (guint i = 0; i < self->n_saved; i++)
    dm_report_clear (&self->saved[i]);
  g_free (self->saved);
  g_strfreev (self->saved_names);
  self->saved = reports;
  self->saved_names = names;
  self->n_saved = n;
  for (guint i = 0; i < n; i++)
    runs[i] = &self->saved[i];
  /* Runs of different profiles have rows that are not the same things
   * (workloads of other shapes, or workloads against CrystalDiskMark's
   * tests): refused, as diskmeter-cli compare refuses them, with why. */
  for (guint i = 1; i < n; i++)
    {
      char why[256];

      if (!dm_report_same_profile (runs[0], runs[i], why, sizeof why))
        {
          g_autofree char *valid = g_utf8_make_valid (why, -1);

          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       /* TRANSLATORS: "%s cannot be compared with %s: the reports ran
                        * different profiles (hash … and …)." */
                       _ ("%s cannot be compared with %s: %s."), self->saved_names[i],
                       self->saved_names[0], valid);
          return FALSE;
        }
    }
  if (!build (self, runs, (const char *const *) self->saved_names, n))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _ ("Out of memory while comparing the saved runs."));
      return FALSE;
    }
  return TRUE;
}

static void
dm_comparison_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  DmComparison *self = DM_COMPARISON (object);

  switch (prop_id)
    {
    case PROP_SHOWN:
      g_value_set_boolean (value, self->shown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dm_comparison_dispose (GObject *object)
{
  DmComparison *self = DM_COMPARISON (object);

  /* The view borrows self->compare: it lets go first. */
  if (self->view)
    dm_compare_view_set_comparison (DM_COMPARE_VIEW (self->view), NULL);
  g_clear_object (&self->view);
  G_OBJECT_CLASS (dm_comparison_parent_class)->dispose (object);
}

static void
dm_comparison_finalize (GObject *object)
{
  DmComparison *self = DM_COMPARISON (object);

  dm_compare_clear (&self->compare);
  dm_report_clear (&self->b);
  for (guint i = 0; i < self->n_saved; i++)
    dm_report_clear (&self->saved[i]);
  g_free (self->saved);
  g_strfreev (self->saved_names);
  g_free (self->target);
  G_OBJECT_CLASS (dm_comparison_parent_class)->finalize (object);
}

static void
dm_comparison_class_init (DmComparisonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dm_comparison_dispose;
  object_class->finalize = dm_comparison_finalize;
  object_class->get_property = dm_comparison_get_property;
  properties[PROP_SHOWN] =
    g_param_spec_boolean ("shown", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dm_comparison_init (DmComparison *self)
{
  self->view = g_object_ref_sink (dm_compare_view_new ());
  gtk_widget_set_visible (self->view, FALSE);
}

DmComparison *
dm_comparison_new (void)
{
  return g_object_new (DM_TYPE_COMPARISON, NULL);
}
