/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fills the latency detail from a result's histograms, which hold every
 * measured I/O, so the table is as exact as the engine's own report; a
 * result loaded without histograms falls back to its saved percentiles.
 * Beside the table: what the disk's own counters saw over the same runs,
 * and why a flagged figure may not be the disk's. Below, the timeline:
 * throughput over the measured time with the p99 latency beside it.
 * The table is kept as text too, for Copy and Save, in the digits shown.
 */
#include "dm-latency-view.h"
#include "dm-i18n-ui.h"

#include <math.h>

#include "dm-file-dialog.h"
#include "dm-format.h"
#include "dm-latency-chart.h"
#include "dm-latency.h"
#include "dm-tile.h"
#include "dm-timeline-chart.h"

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
  GtkWidget *timeline_title;
  GtkWidget *timeline;

  gboolean   counted;     /* the result holds the disk's counters */
  GtkWidget *note;        /* why it does not, when it does not */
  GString   *text;        /* the heading and the table, tab-separated */
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

static gboolean
save_text (DmLatencyView *self,
           const char    *path,
           GError       **error)
{
  return g_file_set_contents (path, self->text->str, self->text->len, error);
}

static void
action_copy (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), DM_LATENCY_VIEW (widget)->text->str);
}

static void
action_save_to (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  g_autoptr (GError) error = NULL;

  if (!save_text (DM_LATENCY_VIEW (widget), g_variant_get_string (parameter, NULL), &error))
    g_printerr ("diskmeter: %s\n", error->message);
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  DmLatencyView   *self)
{
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);

  if (path)
    gtk_widget_activate_action (GTK_WIDGET (self), "latency.save-to", "s", path);
  g_object_unref (dialog);
}

static void
action_save (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  GtkFileChooserNative *chooser = dm_file_dialog_new_save (GTK_WINDOW (widget), _ ("Save Latency"),
                                                           "diskmeter-latency.txt");

  g_signal_connect (chooser, "response", G_CALLBACK (on_save_response), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
dm_latency_view_finalize (GObject *object)
{
  g_string_free (DM_LATENCY_VIEW (object)->text, TRUE);
  G_OBJECT_CLASS (dm_latency_view_parent_class)->finalize (object);
}

static void
dm_latency_view_class_init (DmLatencyViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = dm_latency_view_finalize;

  g_type_ensure (DM_TYPE_LATENCY_CHART);
  g_type_ensure (DM_TYPE_TIMELINE_CHART);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskmeter/Diskmeter/dm-latency-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, content);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, heading);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, table);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, chart);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, device_table);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, device_notes);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, timeline_title);
  gtk_widget_class_bind_template_child (widget_class, DmLatencyView, timeline);

  gtk_widget_class_install_action (widget_class, "latency.copy", NULL, action_copy);
  gtk_widget_class_install_action (widget_class, "latency.save", NULL, action_save);
  gtk_widget_class_install_action (widget_class, "latency.save-to", "s", action_save_to);
  /* A detail is looked at and put away: Escape closes it, as a dialog. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "latency.copy",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "latency.save",
                                       NULL);
}

static void
dm_latency_view_init (DmLatencyView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->text = g_string_new (NULL);
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

/* Throughput over time under the histogram, when the result has samples;
 * the chart keeps its own copy, as the result may be a live one. */
static void
show_timeline (DmLatencyView   *self,
               const dm_result *res)
{
  g_autofree char *caption = NULL;
  char step[G_ASCII_DTOSTR_BUF_SIZE];

  if (!res->samples || !res->n_samples)
    return;
  caption = g_strdup_printf (_ ("Throughput over time, one sample every %s s"),
                             g_ascii_formatd (step, sizeof step, "%g", res->sample_s));
  gtk_label_set_text (GTK_LABEL (self->timeline_title), caption);
  gtk_widget_set_visible (self->timeline_title, TRUE);
  dm_timeline_chart_set_samples (DM_TIMELINE_CHART (self->timeline), res->samples,
                                 res->n_samples, 0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->timeline), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  caption, -1);
  gtk_widget_set_visible (self->timeline, TRUE);
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
      g_string_append_printf (self->text, "\t%s\t%s\n", _ ("read"), _ ("write"));
    }
  else
    {
      const char *name = res->mode == DM_MODE_WRITE ? _ ("write") : _ ("read");
      const dm_histogram *h = res->mode == DM_MODE_WRITE ? res->hist_write : res->hist_read;
      latency_of (h, &res->latency, &columns[0]);
      n_columns = 1;
      attach_label (self->table, name, 1, 0, TRUE);
      g_string_append_printf (self->text, "\t%s\n", name);
    }
  attach_label (self->table, "", 0, 0, TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      attach_label (self->table, names[i], 0, i + 1, TRUE);
      g_string_append (self->text, names[i]);
      for (guint c = 0; c < n_columns; c++)
        {
          const dm_latency *l = &columns[c];
          double v[] = { l->min, l->p50, l->p90, l->p99, l->p99_9, l->p99_99, l->max, l->mean };
          g_autofree char *text = dm_format_latency_us (v[i]);
          attach_label (self->table, text, c + 1, i + 1, FALSE);
          g_string_append_printf (self->text, "\t%s", text);
        }
      g_string_append_c (self->text, '\n');
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
  g_string_prepend (self->text, "\n");
  g_string_prepend (self->text, heading);
  show_device (self, res);

  dm_latency_chart_set_histograms (DM_LATENCY_CHART (self->chart),
                                   res->mode != DM_MODE_WRITE ? res->hist_read : NULL,
                                   res->mode != DM_MODE_READ ? res->hist_write : NULL);
  show_timeline (self, res);
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
