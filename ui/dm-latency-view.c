/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fills the latency detail from a result's histograms, which hold every
 * measured I/O, so the table is as exact as the engine's own report; a
 * result loaded without histograms falls back to its saved percentiles.
 * Beside the table: what the disk's own counters saw over the same runs,
 * and why a flagged figure may not be the disk's. Below, the timeline:
 * throughput over the measured time with the p99 latency beside it.
 */
#include "dm-latency-view.h"
#include "dm-i18n-ui.h"

#include <math.h>

#include "dm-draw.h"
#include "dm-latency-chart.h"
#include "dm-latency.h"
#include "dm-tile.h"

struct _DmLatencyView
{
  GtkWindow  parent_instance;

  /* template children */
  GtkWidget *content;
  GtkWidget *heading;
  GtkWidget *table;
  GtkWidget *chart;
  GtkWidget *device_table;
  GtkWidget *device_notes;

  gboolean   counted;     /* the result holds the disk's counters */
  GtkWidget *note;        /* why it does not, when it does not */
};

G_DEFINE_FINAL_TYPE (DmLatencyView, dm_latency_view, GTK_TYPE_WINDOW)

char *
dm_latency_view_format_us (double us)
{
  if (!(us > 0) || !isfinite (us))
    return g_strdup ("–");
  if (us >= 1e6)
    return g_strdup_printf ("%.3g s", us / 1e6);
  if (us >= 1e3)
    return g_strdup_printf ("%.3g ms", us / 1e3);
  return g_strdup_printf ("%.3g µs", us);
}

static void
dm_latency_view_class_init (DmLatencyViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  g_type_ensure (DM_TYPE_LATENCY_CHART);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-latency-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, content);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, heading);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, table);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, chart);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, device_table);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, device_notes);
}

static void
dm_latency_view_init (DmLatencyView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

static void
attach_label (GtkWidget  *grid,
              const char *text,
              int         column,
              int         row,
              gboolean    heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0 : 1);
  gtk_widget_add_css_class (label, heading ? "heading" : "numeric");
  gtk_grid_attach (GTK_GRID (grid), label, column, row, 1, 1);
}

/* The table from the histogram when it holds samples (exact), else from
 * the percentiles saved with the result. */
static void
latency_of (const dm_histogram *h,
            const dm_latency   *saved,
            dm_latency         *out)
{
  if (h && h->count > 0)
    dm_latency_from_histogram (out, h);
  else
    *out = *saved;
}

/* A figure with one decimal in any locale, as the grid prints its digits. */
static char *
format_one (const char *format,
            double      value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buf, sizeof buf, format, value));
}

static GtkWidget *
add_note (DmLatencyView *self,
          const char    *text,
          const char    *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  if (css_class)
    gtk_widget_add_css_class (label, css_class);
  gtk_box_append (GTK_BOX (self->device_notes), label);
  gtk_widget_set_visible (self->device_notes, TRUE);
  return label;
}

/* The disk's requests, bytes, request size, queue and busy time in a
 * second table, its rows level with the latency table's, and a line per
 * flag; or why there are no counters. */
static void
show_device (DmLatencyView   *self,
             const dm_result *res)
{
  const dm_device_seen *d = &res->device;
  g_autofree char *flags = NULL;
  struct { const char *name; char *value; } rows[] = {
    { "reads", g_strdup_printf ("%'" G_GUINT64_FORMAT, d->reads) },
    { "writes", g_strdup_printf ("%'" G_GUINT64_FORMAT, d->writes) },
    { "MB read", format_one ("%.1f", d->read_bytes / 1e6) },
    { "MB written", format_one ("%.1f", d->write_bytes / 1e6) },
    { "KiB per request", format_one ("%.1f", dm_device_seen_avg_request (d) / 1024) },
    { "queue", format_one ("%.2f", d->avg_queue) },
    { "busy %", format_one ("%.0f", d->busy_percent) },
  };

  self->counted = d->counted;
  if (d->counted)
    {
      attach_label (self->device_table, _ ("disk"), 0, 0, TRUE);
      attach_label (self->device_table, d->name, 1, 0, TRUE);
      for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
        {
          attach_label (self->device_table, rows[i].name, 0, i + 1, TRUE);
          attach_label (self->device_table, rows[i].value, 1, i + 1, FALSE);
        }
      gtk_widget_set_visible (self->device_table, TRUE);
      flags = dm_tile_describe_flags (res, "\n");
      if (flags)
        {
          g_auto (GStrv) lines = g_strsplit (flags, "\n", -1);

          for (guint i = 0; lines[i]; i++)
            add_note (self, lines[i], "dm-device-flag");
        }
    }
  else
    self->note = add_note (self, _ ("No disk counters in this result."), "dim-label");
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    g_free (rows[i].value);
}

void
dm_latency_view_set_device_note (DmLatencyView *self,
                                 const char    *note)
{
  g_autofree char *text = NULL;

  g_return_if_fail (DM_IS_LATENCY_VIEW (self));

  if (self->counted || !note || !note[0])
    return;
  text = g_strdup_printf (_ ("No disk counters (%s)."), note);
  gtk_label_set_text (GTK_LABEL (self->note), text);
}

/* ---- the timeline ------------------------------------------------------ */

/* The view's own copy of the samples: the result may be a live one. */
typedef struct timeline
{
  dm_sample *samples;
  guint      n;
} timeline;

static void
timeline_free (gpointer data)
{
  timeline *tl = data;

  g_free (tl->samples);
  g_free (tl);
}

#define TL_LEFT   64
#define TL_RIGHT  64
#define TL_TOP    24
#define TL_BOTTOM 26
#define TL_SCALE  0.85

static const GdkRGBA rate_colour = { 0.21, 0.52, 0.89, 1 };    /* MB/s: blue */
static const GdkRGBA latency_colour = { 0.90, 0.38, 0.00, 1 }; /* p99: orange */

/* A round number at least v, for an axis's top: quarters of it read well. */
static double
nice_top (double v)
{
  static const double steps[] = { 1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8 };
  double p = pow (10, floor (log10 (v > 0 ? v : 1)));

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] * p >= v)
      return steps[i] * p;
  return 10 * p;
}

/* One value per sample as steps: each holds from the end of the sample
 * before to its own end. */
static void
draw_steps (cairo_t         *cr,
            const timeline  *tl,
            gboolean         latency,
            double           x0,
            double           y0,
            double           pw,
            double           ph,
            double           t_end,
            double           top)
{
  for (guint k = 0; k < tl->n; k++)
    {
      double v = latency ? tl->samples[k].all.latency_us_p99 : tl->samples[k].all.mb_per_s;
      double a = x0 + pw * (k ? tl->samples[k - 1].t : 0) / t_end;
      double b = x0 + pw * tl->samples[k].t / t_end;
      double y = y0 + ph - ph * MIN (v, top) / top;

      if (k == 0)
        cairo_move_to (cr, a, y);
      else
        cairo_line_to (cr, a, y);
      cairo_line_to (cr, b, y);
    }
  cairo_stroke (cr);
}

static void
draw_timeline (GtkDrawingArea *area,
               cairo_t        *cr,
               int             width,
               int             height,
               gpointer        data)
{
  GtkWidget *widget = GTK_WIDGET (area);
  const timeline *tl = data;
  double t_end = tl->samples[tl->n - 1].t, rate_max = 0, lat_max = 0;
  double pw = width - TL_LEFT - TL_RIGHT, ph = height - TL_TOP - TL_BOTTOM;
  GdkRGBA fg;
  char label[64];

  if (pw < 20 || ph < 20 || !(t_end > 0))
    return;
  for (guint k = 0; k < tl->n; k++)
    {
      rate_max = MAX (rate_max, tl->samples[k].all.mb_per_s);
      lat_max = MAX (lat_max, tl->samples[k].all.latency_us_p99);
    }
  double rate_top = nice_top (rate_max * 1.05), lat_top = nice_top (lat_max * 1.05);

  dm_draw_get_foreground (widget, &fg);
  cairo_set_line_width (cr, 1);
  /* Grid and the two scales: MB/s on the left, p99 latency on the right. */
  for (guint q = 0; q <= 4; q++)
    {
      double y = TL_TOP + ph - ph * q / 4.0;
      g_autofree char *lat = dm_latency_view_format_us (lat_top * q / 4.0);

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, q == 0 ? 0.7 : 0.15);
      cairo_move_to (cr, TL_LEFT, y + 0.5);
      cairo_line_to (cr, TL_LEFT + pw, y + 0.5);
      cairo_stroke (cr);
      g_ascii_formatd (label, sizeof label, "%.0f", rate_top * q / 4.0);
      gdk_cairo_set_source_rgba (cr, &rate_colour);
      dm_draw_text (widget, cr, label, TL_LEFT - 6, y, 1, 0.5, FALSE, TL_SCALE);
      gdk_cairo_set_source_rgba (cr, &latency_colour);
      dm_draw_text (widget, cr, q ? lat : "0", TL_LEFT + pw + 6, y, 0, 0.5, FALSE, TL_SCALE);
    }
  gdk_cairo_set_source_rgba (cr, &fg);
  dm_draw_text (widget, cr, "0 s", TL_LEFT, TL_TOP + ph + 4, 0, 0, FALSE, TL_SCALE);
  g_ascii_formatd (label, sizeof label, "%.1f s", t_end);
  dm_draw_text (widget, cr, label, TL_LEFT + pw, TL_TOP + ph + 4, 1, 0, FALSE, TL_SCALE);
  dm_draw_text (widget, cr, "time", TL_LEFT + pw / 2, TL_TOP + ph + 4, 0.5, 0, FALSE, TL_SCALE);
  gdk_cairo_set_source_rgba (cr, &rate_colour);
  dm_draw_text (widget, cr, "MB/s", TL_LEFT, 2, 0, 0, TRUE, TL_SCALE);
  gdk_cairo_set_source_rgba (cr, &latency_colour);
  dm_draw_text (widget, cr, "p99 latency", TL_LEFT + pw, 2, 1, 0, TRUE, TL_SCALE);

  cairo_set_line_width (cr, 1.5);
  gdk_cairo_set_source_rgba (cr, &latency_colour);
  draw_steps (cr, tl, TRUE, TL_LEFT, TL_TOP, pw, ph, t_end, lat_top);
  cairo_set_line_width (cr, 2);
  gdk_cairo_set_source_rgba (cr, &rate_colour);
  draw_steps (cr, tl, FALSE, TL_LEFT, TL_TOP, pw, ph, t_end, rate_top);
}

/* Throughput over time under the histogram, when the result has samples. */
static void
add_timeline (DmLatencyView   *self,
              const dm_result *res)
{
  timeline *tl;
  GtkWidget *area, *title;
  g_autofree char *caption = NULL;
  char step[G_ASCII_DTOSTR_BUF_SIZE];

  if (!res->samples || !res->n_samples)
    return;
  tl = g_new0 (timeline, 1);
  tl->samples = g_memdup2 (res->samples, (gsize) res->n_samples * sizeof *res->samples);
  tl->n = res->n_samples;

  caption = g_strdup_printf (_ ("Throughput over time, one sample every %s s"),
                             g_ascii_formatd (step, sizeof step, "%g", res->sample_s));
  title = gtk_label_new (caption);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (self->content), title);

  area = gtk_drawing_area_new ();
  gtk_widget_set_name (area, "timeline");
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), 180);
  gtk_widget_set_hexpand (area, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_timeline, tl, timeline_free);
  gtk_accessible_update_property (GTK_ACCESSIBLE (area), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  caption, -1);
  gtk_box_append (GTK_BOX (self->content), area);
}

GtkWidget *
dm_latency_view_new (GtkWindow       *parent,
                     const char      *title,
                     const dm_result *res)
{
  DmLatencyView *self = g_object_new (DM_TYPE_LATENCY_VIEW, "transient-for", parent, NULL);
  gboolean mix = res->mode == DM_MODE_MIX;
  static const char *const names[] = { "min", "p50", "p90", "p99", "p99.9", "p99.99", "max",
                                       "mean" };
  dm_latency columns[2];
  guint n_columns;
  g_autofree char *window_title = g_strdup_printf (_ ("Latency — %s"), title);
  g_autofree char *heading = NULL;
  uint64_t ios = 0;

  gtk_window_set_title (GTK_WINDOW (self), window_title);
  if (mix)
    {
      latency_of (res->hist_read, &res->latency_read, &columns[0]);
      latency_of (res->hist_write, &res->latency_write, &columns[1]);
      n_columns = 2;
      attach_label (self->table, _ ("read"), 1, 0, TRUE);
      attach_label (self->table, _ ("write"), 2, 0, TRUE);
    }
  else
    {
      const dm_histogram *h = res->mode == DM_MODE_WRITE ? res->hist_write : res->hist_read;
      latency_of (h, &res->latency, &columns[0]);
      n_columns = 1;
      attach_label (self->table, res->mode == DM_MODE_WRITE ? _ ("write") : _ ("read"), 1, 0, TRUE);
    }
  attach_label (self->table, "", 0, 0, TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      attach_label (self->table, names[i], 0, i + 1, TRUE);
      for (guint c = 0; c < n_columns; c++)
        {
          const dm_latency *l = &columns[c];
          double v[] = { l->min, l->p50, l->p90, l->p99, l->p99_9, l->p99_99, l->max, l->mean };
          g_autofree char *text = dm_latency_view_format_us (v[i]);
          attach_label (self->table, text, c + 1, i + 1, FALSE);
        }
    }

  if (res->hist_read)
    ios += res->hist_read->count;
  if (res->hist_write)
    ios += res->hist_write->count;
  if (ios > 0)
    heading = g_strdup_printf ("%s: %'" G_GUINT64_FORMAT " I/Os measured", title, ios);
  else
    heading = g_strdup_printf (_ ("%s: no latency histogram in this result"), title);
  gtk_label_set_text (GTK_LABEL (self->heading), heading);
  show_device (self, res);

  dm_latency_chart_set_histograms (DM_LATENCY_CHART (self->chart),
                                   res->mode != DM_MODE_WRITE ? res->hist_read : NULL,
                                   res->mode != DM_MODE_READ ? res->hist_write : NULL);
  add_timeline (self, res);
  return GTK_WIDGET (self);
}

static void
on_click_released (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   gpointer         data)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  GCallback activate = g_object_get_data (G_OBJECT (gesture), "dm-activate");

  ((void (*) (GtkWidget *, gpointer)) activate) (widget, data);
}

static gboolean
on_enter (GtkWidget *widget,
          GVariant  *args,
          gpointer   data)
{
  GCallback activate = g_object_get_data (G_OBJECT (widget), "dm-activate");

  ((void (*) (GtkWidget *, gpointer)) activate) (widget, data);
  return TRUE;
}

void
dm_latency_view_connect_activate (GtkWidget *widget,
                                  GCallback  activate,
                                  gpointer   data)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_shortcut_controller_new ();
  GtkShortcutTrigger *trigger;

  /* The primary button only: a secondary click may one day open a menu. */
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_object_set_data (G_OBJECT (click), "dm-activate", activate);
  g_signal_connect (click, "released", G_CALLBACK (on_click_released), data);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));

  g_object_set_data (G_OBJECT (widget), "dm-activate", activate);
  trigger = gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_Return, 0),
                                         gtk_alternative_trigger_new (
                                           gtk_keyval_trigger_new (GDK_KEY_KP_Enter, 0),
                                           gtk_keyval_trigger_new (GDK_KEY_space, 0)));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (trigger,
                                                          gtk_callback_action_new (on_enter, data,
                                                                                   NULL)));
  gtk_widget_add_controller (widget, keys);
}
