/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The application handles its own command line (G_APPLICATION_HANDLES_
 * COMMAND_LINE), so `diskmeter --run ...` given to an already running
 * Diskmeter scripts that window instead of opening a second one. Options
 * given for a scripted run are not saved: it leaves the user's choices as
 * they were. The options and their checks are dm-app-options.c's; here
 * they become settings, windows and a DmScript (dm-script.c) for them.
 */
#include "dm-application.h"
#include "dm-application-private.h"
#include "dm-i18n-ui.h"

#include <stdlib.h>
#include <string.h>
#ifdef G_OS_UNIX
#include <glib-unix.h>
#endif

#include "dm-app-options.h"
#include "dm-color-scheme.h"
#include "dm-compare.h"
#include "dm-history.h"
#include "dm-measure.h"
#include "dm-preferences.h"
#include "dm-profile.h"
#include "dm-report.h"
#include "dm-script.h"
#include "dm-file-dialog.h"
#include "dm-sustained.h"
#include "dm-sustained-window.h"
#include "dm-cache-probe.h"
#include "dm-cache-probe-window.h"
#include "dm-sweep-window.h"
#include "dm-ui.h"
#include "dm-units.h"
#include "dm-format.h"
#include "dm-window.h"

struct _DmApplication
{
  GtkApplication  parent_instance;

  GSettings      *settings;
  int             exit_status;
  gboolean        running;
};

G_DEFINE_FINAL_TYPE (DmApplication, dm_application, GTK_TYPE_APPLICATION)

GSettings *
_dm_application_settings (DmApplication *self)
{
  return self->settings;
}

/* --- the main window's state ------------------------------------------------ */

static void
set_exit_status (DmApplication *self,
                 int            status)
{
  if (status > self->exit_status)
    self->exit_status = status;
}

/* While a run is going the app holds itself, so that closing the window
 * waits for the engine to clean up. */
static void
set_running (DmApplication *self,
             gboolean       running)
{
  if (running == self->running)
    return;
  self->running = running;
  /* Busy is announced on the session bus; without one there is nobody to
   * tell (and GLib would complain). */
  if (running)
    {
      g_application_hold (G_APPLICATION (self));
      if (g_application_get_dbus_connection (G_APPLICATION (self)))
        g_application_mark_busy (G_APPLICATION (self));
    }
  else
    {
      if (g_application_get_dbus_connection (G_APPLICATION (self)))
        g_application_unmark_busy (G_APPLICATION (self));
      g_application_release (G_APPLICATION (self));
    }
}

static void
on_window_running (DmWindow      *window,
                   GParamSpec    *pspec,
                   DmApplication *self)
{
  gboolean running;

  g_object_get (window, "running", &running, NULL);
  set_running (self, running);
}

/* A script's end, in whichever window: its status is the process's. */
static void
on_script_done (gpointer data,
                int      status)
{
  set_exit_status (DM_APPLICATION (data), status);
}

/* Every main window, however it was made, is watched: its runs keep the
 * application alive. */
static void
dm_application_window_added (GtkApplication *app,
                             GtkWindow      *window)
{
  GTK_APPLICATION_CLASS (dm_application_parent_class)->window_added (app, window);
  if (DM_IS_WINDOW (window))
    g_signal_connect_object (window, "notify::running", G_CALLBACK (on_window_running), app, 0);
}

static void
dm_application_window_removed (GtkApplication *app,
                               GtkWindow      *window)
{
  if (DM_IS_WINDOW (window))
    g_signal_handlers_disconnect_by_data (window, app);
  GTK_APPLICATION_CLASS (dm_application_parent_class)->window_removed (app, window);
}

/* --- actions --------------------------------------------------------------- */

static gpointer
ref_window (gconstpointer window,
            gpointer      unused)
{
  return g_object_ref ((gpointer) window);
}

static void
action_quit (GSimpleAction *action,
             GVariant      *param,
             gpointer       data)
{
  /* A copy with references: closing a window takes it out of the
   * application's own list, which must not change under the loop. */
  GList *windows = g_list_copy_deep (gtk_application_get_windows (GTK_APPLICATION (data)),
                                     ref_window, NULL);

  /* Through close-request, so a running test stops and cleans up first. */
  for (GList *l = windows; l; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
  g_list_free_full (windows, g_object_unref);
}

static void action_open (GSimpleAction *action, GVariant *param, gpointer data);
static DmWindow *main_window (DmApplication *self);

static const GActionEntry app_actions[] = {
  { "open", action_open },
  { "preferences", _dm_application_action_preferences },
  { "about", _dm_application_action_about },
  { "sweep", _dm_application_action_sweep },
  { "sustained", _dm_application_action_sustained },
  { "cache-probe", _dm_application_action_cache_probe },
  { "capture", _dm_application_action_capture },
  { "quit", action_quit },
};

/* A main window that has not settled yet (dm-window.c: the target scan's
 * answer is not drawn) holds its scripts, and the copies and saves sent
 * to it, until it has, so they show what a user would see; an action sent
 * after a held one is held too. Each waits on notify::settled, whose
 * handlers run in the order they were connected: in the order they came. */
static gboolean
is_settled (gpointer window)
{
  gboolean settled = TRUE;

  if (DM_IS_WINDOW (window))
    g_object_get (window, "settled", &settled, NULL);
  return settled;
}

typedef struct
{
  DmApplication *app;
  char          *action;  /* "win.…", or NULL for the script */
  GVariant      *param;
  DmScript      *script;  /* NULL once run */
} Held;

static void
held_free (gpointer  data,
           GClosure *closure)
{
  Held *h = data;

  if (h->script)
    {
      /* The window went before it settled: nothing was saved. */
      g_printerr ("diskmeter: the window was closed before the run was saved\n");
      set_exit_status (h->app, 1);
      dm_script_free (h->script);
    }
  g_free (h->action);
  g_clear_pointer (&h->param, g_variant_unref);
  g_object_unref (h->app);
  g_free (h);
}

static void
on_settled (GtkWidget  *window,
            GParamSpec *pspec,
            gpointer    data)
{
  Held *h = data;

  if (h->action)
    gtk_widget_activate_action_variant (window, h->action, h->param);
  else
    dm_script_run (g_steal_pointer (&h->script), DM_SCRIPTABLE (window), on_script_done, h->app);
  g_signal_handlers_disconnect_by_func (window, on_settled, data);  /* frees h */
}

static void
hold_until_settled (DmApplication *self,
                    gpointer       window,
                    const char    *action,
                    GVariant      *param,
                    DmScript      *script)
{
  Held *h = g_new0 (Held, 1);

  h->app = g_object_ref (self);
  h->action = g_strdup (action);
  h->param = param ? g_variant_ref_sink (param) : NULL;
  h->script = script;
  g_signal_connect_data (window, "notify::settled", G_CALLBACK (on_settled), h, held_free, 0);
}

/* The main window's actions (run-all, save-json-to, ...) live on its class;
 * the same names here forward to it, so menus in other windows, the
 * shortcuts and `gapplication action` reach them. */
static void
forward_to_window (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       data)
{
  DmWindow *window = main_window (data);
  g_autofree char *name = g_strconcat ("win.", g_action_get_name (G_ACTION (action)), NULL);
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (data));

  /* Escape in a Sweep or Sustained window stops that window's run, not
   * the grid's behind it. */
  if (g_str_equal (g_action_get_name (G_ACTION (action)), "stop") && active
      && !DM_IS_WINDOW (active))
    {
      if (!gtk_widget_activate_action (GTK_WIDGET (active), "sweep.stop", NULL))
        gtk_widget_activate_action (GTK_WIDGET (active), "sustained.stop", NULL);
      return;
    }
  if (window && !is_settled (window)
      && (g_str_has_prefix (name, "win.save-") || g_str_has_prefix (name, "win.copy")
          || g_signal_handler_find (window, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, on_settled, NULL)))
    hold_until_settled (data, window, name, param, NULL);
  else if (window)
    gtk_widget_activate_action_variant (GTK_WIDGET (window), name, param);
}

static void
add_window_actions (DmApplication *self)
{
  GtkWidgetClass *klass = g_type_class_ref (DM_TYPE_WINDOW);
  const GVariantType *type;
  const char *name, *property;
  GType owner;

  /* GTK 4.8 fills in every out argument: none may be NULL. */
  for (guint i = 0; gtk_widget_class_query_action (klass, i, &owner, &name, &type, &property); i++)
    {
      g_autoptr (GSimpleAction) action = NULL;

      if (owner != DM_TYPE_WINDOW || !g_str_has_prefix (name, "win."))
        continue;
      action = g_simple_action_new (name + strlen ("win."), type);
      g_signal_connect (action, "activate", G_CALLBACK (forward_to_window), self);
      g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));
    }
  g_type_class_unref (klass);
}

/* Settings whose keys double as stateful actions for the menus and D-Bus. */
static void
add_settings_actions (DmApplication *self)
{
  static const char *const keys[] = {
    "profile", "nvme", "mix", "mix-ratio", "units", "count", "size", "target", "tags",
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autoptr (GAction) action = g_settings_create_action (self->settings, keys[i]);
      g_action_map_add_action (G_ACTION_MAP (self), action);
    }
}

#ifdef G_OS_UNIX
/* SIGINT and SIGTERM close the window like its close button, so the
 * engine stops and removes its test file before the process ends. */
static gboolean
on_terminate_signal (gpointer data)
{
  action_quit (NULL, NULL, data);
  return G_SOURCE_CONTINUE;
}
#endif

/* --- life cycle ------------------------------------------------------------ */

/* The icon theme reads its index files and GTK's own icons, some 9 ms, on
 * the thread that asks first. GtkApplication's start-up has just added our
 * icon folder to it, which marks it for reading again: the window's first
 * icon (a drop-down's arrow) would read it on the main thread before the
 * first frame. GTK allows lookups from any thread once the theme is set
 * up, so a worker reads it while the window is built. */
static void
read_icon_theme (GTask        *task,
                 gpointer      source,
                 gpointer      theme,
                 GCancellable *cancellable)
{
  g_task_return_boolean (task, gtk_icon_theme_has_icon (theme, "open-menu-symbolic"));
}

/* The installed schema, or, for `build-aux/dev run` and a run straight from
 * the build tree, the one compiled into the build folder. Without either
 * GLib would abort with a message about schemas that users cannot act on. */
static GSettings *
dm_application_open_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;
  g_autoptr (GSettingsSchemaSource) build = NULL;

  if (source)
    schema = g_settings_schema_source_lookup (source, DM_APPLICATION_ID, TRUE);
#ifdef DM_BUILD_SCHEMA_DIR
  if (!schema)
    {
      build = g_settings_schema_source_new_from_directory (DM_BUILD_SCHEMA_DIR, source, FALSE,
                                                           NULL);
      if (build)
        schema = g_settings_schema_source_lookup (build, DM_APPLICATION_ID, FALSE);
    }
#endif
  if (!schema)
    {
      g_printerr ("diskmeter: the settings schema %s is not installed; run `meson install`, "
                  "or set GSETTINGS_SCHEMA_DIR to the folder with gschemas.compiled\n",
                  DM_APPLICATION_ID);
      exit (1);
    }
  return g_settings_new_full (schema, NULL, NULL);
}

static void
dm_application_startup (GApplication *app)
{
  DmApplication *self = DM_APPLICATION (app);
  g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();
  g_autoptr (GTask) icons = g_task_new (NULL, NULL, NULL, NULL);
  static const struct { const char *action; const char *accels[4]; } accels[] = {
    { "app.open", { "<Control>o", NULL } },
    { "app.copy", { "<Control>c", NULL } },
    { "app.save-text", { "<Control>s", NULL } },
    { "app.save-screenshot", { "<Control><Shift>s", NULL } },
    { "app.run-all", { "<Control>r", "F5", NULL } },
    { "app.stop", { "Escape", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.zoom-in", { "<Control>plus", "<Control>equal", "<Control>KP_Add", NULL } },
    { "app.zoom-out", { "<Control>minus", "<Control>KP_Subtract", NULL } },
    { "app.zoom-reset", { "<Control>0", "<Control>KP_0", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    { "app.sustained", { "<Control>t", NULL } },
  };

  G_APPLICATION_CLASS (dm_application_parent_class)->startup (app);
  g_task_set_task_data (icons, g_object_ref (gtk_icon_theme_get_for_display (
                                 gdk_display_get_default ())), g_object_unref);
  g_task_run_in_thread (icons, read_icon_theme);
  dm_ui_init ();

  self->settings = dm_application_open_settings ();
  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  add_window_actions (self);
  add_settings_actions (self);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action,
                                           accels[i].accels);

  gtk_css_provider_load_from_resource (css, "/io/github/diskmeter/Diskmeter/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_window_set_default_icon_name (DM_APPLICATION_ID);

  dm_color_scheme_follow (app);
#ifdef G_OS_UNIX
  g_unix_signal_add (SIGINT, on_terminate_signal, app);
  g_unix_signal_add (SIGTERM, on_terminate_signal, app);
#endif
}

/* The main window, not whichever was focused last: a Sweep or History
 * window may be in front when a command line is forwarded. */
static DmWindow *
main_window (DmApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    if (DM_IS_WINDOW (l->data))
      return DM_WINDOW (l->data);
  return NULL;
}

static DmWindow *
ensure_window (DmApplication *self)
{
  DmWindow *window = main_window (self);

  return window ? window : dm_window_new (GTK_APPLICATION (self), self->settings);
}

static void
dm_application_activate (GApplication *app)
{
  gtk_window_present (GTK_WINDOW (ensure_window (DM_APPLICATION (app))));
}

/* The settings the options give (checked already), as if chosen in the
 * window; FALSE for --modes the window does not take, before anything
 * changed. */
static gboolean
apply_options (DmApplication           *self,
               GApplicationCommandLine *cmdline,
               const DmAppOptions      *o,
               gboolean                 scripted)
{
  struct { const char *key; double value; } durations[] = {
    { "measure-time", o->measure_s }, { "interval", o->interval_s }, { "warmup", o->warmup_s },
  };
  guint modes_mask = 0;
  char why[256];

  if (o->modes && !dm_modes_setting_parse (o->modes, &modes_mask, why, sizeof why))
    {
      g_application_command_line_printerr (cmdline, "diskmeter: --modes: %s\n", why);
      return FALSE;
    }
  if (!dm_app_options_any_setting (o))
    return TRUE;

  /* A scripted run (--run, --save-*, --quit-when-done) leaves the user's
   * saved choices alone; options given just to open the window are kept,
   * as if chosen in it. */
  if (scripted && !g_settings_get_has_unapplied (self->settings))
    g_settings_delay (self->settings);

  if (o->target)
    g_settings_set_string (self->settings, "target", o->target);
  if (o->count)
    g_settings_set_int (self->settings, "count", o->count);
  if (o->size)
    {
      char canonical[32];
      dm_size_format (o->size, canonical, sizeof canonical);
      g_settings_set_string (self->settings, "size", canonical);
    }
  if (o->have_unit)
    g_settings_set_string (self->settings, "units", dm_unit_name (o->unit));
  for (guint i = 0; i < G_N_ELEMENTS (durations); i++)
    if (durations[i].value >= 0)
      g_settings_set_double (self->settings, durations[i].key, durations[i].value);
  /* --warmup steady[:...] or seconds: the one given is the warm-up. */
  if (o->warmup_steady || o->warmup_s >= 0)
    g_settings_set_string (self->settings, "warmup-steady",
                           o->warmup_steady ? o->warmup_steady : "");
  if (o->mix_read)
    g_settings_set_int (self->settings, "mix-ratio", o->mix_read);
  if (o->mix)
    g_settings_set_boolean (self->settings, "mix", TRUE);
  if (o->nvme)
    g_settings_set_boolean (self->settings, "nvme", TRUE);
  if (o->modes)
    {
      /* As diskmeter-cli's --modes: a list naming mix runs the Mix column,
       * and --mix adds it to a list that does not. */
      g_autofree char *canonical = NULL;

      if (g_ascii_strcasecmp (o->modes, "all") != 0)
        {
          if (o->mix)
            modes_mask |= DM_MODE_BIT (DM_MODE_MIX);
          if (modes_mask & DM_MODE_BIT (DM_MODE_MIX))
            g_settings_set_boolean (self->settings, "mix", TRUE);
        }
      canonical = dm_modes_setting_format (modes_mask);
      g_settings_set_string (self->settings, "modes", canonical);
    }
  if (o->profile)
    {
      const dm_profile *p = dm_profile_find (o->profile);
      g_settings_set_string (self->settings, "profile", p ? p->name : "custom");
    }
  return TRUE;
}

/* Hands a script (taken) to the window it is for; one that asks for
 * nothing is dropped. */
static void
run_script (DmApplication *self,
            DmScriptable  *window,
            DmScript      *script)
{
  if (dm_script_is_empty (script))
    dm_script_free (script);
  else if (is_settled (window))
    dm_script_run (script, window, on_script_done, self);
  else
    hold_until_settled (self, window, NULL, NULL, script);
}

/* --open of a sustained run: the Sustained window shows it, and a
 * script's files are written once it is drawn. Takes script. */
static int
open_sustained (DmApplication *self,
                const char    *path,
                DmScript      *script,
                GError       **error)
{
  GtkWidget *window = dm_sustained_window_new (GTK_APPLICATION (self), self->settings);

  if (!dm_sustained_window_load (DM_SUSTAINED_WINDOW (window), path, error))
    {
      gtk_window_destroy (GTK_WINDOW (window));
      dm_script_free (script);
      return 1;
    }
  gtk_window_present (GTK_WINDOW (window));
  run_script (self, DM_SCRIPTABLE (window), script);
  return 0;
}

/* --sustained: the Sustained window with --span, --duration, --target and
 * --modes (read or write) as chosen in it; a script (--save-*,
 * --quit-when-done, --run) runs it at once and saves what it was asked
 * for. Takes script. */
static int
run_sustained (DmApplication           *self,
               GApplicationCommandLine *cmdline,
               DmAppOptions            *o)
{
  guint mask = DM_MODES_ALL;
  GtkWidget *window;

  /* --modes as the grid takes it (checked there): one pass reads or
   * writes, so read or write, or all for the window's own choice. */
  if (o->modes
      && (!dm_modes_setting_parse (o->modes, &mask, NULL, 0)
          || (mask != DM_MODES_ALL && mask != DM_MODE_BIT (DM_MODE_READ)
              && mask != DM_MODE_BIT (DM_MODE_WRITE))))
    {
      g_application_command_line_printerr (cmdline, "diskmeter: --modes with --sustained is read "
                                           "or write, not %s\n", o->modes);
      return 2;
    }
  window = dm_sustained_window_new (GTK_APPLICATION (self), self->settings);
  dm_sustained_window_set_plan (DM_SUSTAINED_WINDOW (window), o->span, o->duration, o->target);
  if (mask != DM_MODES_ALL)
    dm_sustained_window_set_mode (DM_SUSTAINED_WINDOW (window),
                                  mask == DM_MODE_BIT (DM_MODE_READ) ? DM_MODE_READ
                                                                     : DM_MODE_WRITE);
  gtk_window_present (GTK_WINDOW (window));
  /* Asked for files, it measures them first. */
  o->script->run = o->script->run || dm_script_has_outputs (o->script);
  run_script (self, DM_SCRIPTABLE (window), g_steal_pointer (&o->script));
  return 0;
}

/* Shows a saved file: a sweep in a Sweep window, any other run in the
 * grid. The script (may be NULL) may save it again (another format, a
 * screenshot). Takes the script; on failure sets error and returns the
 * exit status: 2 for a request that cannot be met, 1 for the file. */
static int
open_file (DmApplication *self,
           const char    *path,
           DmScript      *script,
           GError       **error)
{
  g_autoptr (DmScript) owned = script ? script : dm_script_new ();
  dm_report r;
  char why[256];
  gboolean sweep, sustained;

  /* Read with the history's size limit: opening a disk image must not
   * read gigabytes to find it is not a result. */
  memset (&r, 0, sizeof r);
  if (dm_history_load (path, &r, why, sizeof why) < 0)
    {
      dm_report_clear (&r);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", path, why);
      return 1;
    }
  sweep = strcmp (r.profile, "sweep") == 0;
  sustained = dm_sustained_is (&r, NULL, 0);
  gboolean probe = dm_cache_probe_is (&r);
  dm_report_clear (&r);

  if (probe)
    return _dm_application_open_probe (self, path, owned, error);

  if (sustained)
    return open_sustained (self, path, g_steal_pointer (&owned), error);

  if (sweep)
    {
      GtkWidget *window;

      if (owned->text)
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                               "--save-text: a sweep is saved as JSON, CSV or a screenshot");
          return 2;
        }
      window = dm_sweep_window_new (GTK_APPLICATION (self), self->settings);
      if (!dm_sweep_window_load (DM_SWEEP_WINDOW (window), path, error))
        {
          gtk_window_destroy (GTK_WINDOW (window));
          return 1;
        }
      gtk_window_present (GTK_WINDOW (window));
      run_script (self, DM_SCRIPTABLE (window), g_steal_pointer (&owned));
      return 0;
    }

  DmWindow *window = ensure_window (self);
  if (!dm_window_open_saved (window, path, error))
    return 1;
  gtk_window_present (GTK_WINDOW (window));
  run_script (self, DM_SCRIPTABLE (window), g_steal_pointer (&owned));
  return 0;
}

/* --open given several times: the saved runs side by side, as the History
 * window's Compare shows them. Takes the script; returns the exit status
 * as open_file does. */
static int
compare_files (DmApplication      *self,
               const char * const *paths,
               guint               n,
               DmScript           *script,
               GError            **error)
{
  g_autoptr (DmScript) owned = script ? script : dm_script_new ();
  DmWindow *window;

  /* Every file is read before the window opens, so that a bad one ends the
   * command with its reason instead of leaving an empty window up. */
  for (guint i = 0; i < n; i++)
    {
      dm_report r;
      char why[256];

      memset (&r, 0, sizeof r);
      if (dm_history_load (paths[i], &r, why, sizeof why) < 0)
        {
          dm_report_clear (&r);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", paths[i], why);
          return 1;
        }
      dm_report_clear (&r);
    }
  if (n > DM_COMPARE_MAX)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--open: at most %d saved runs are compared", DM_COMPARE_MAX);
      return 2;
    }
  window = ensure_window (self);
  if (!dm_window_compare_saved (window, paths, n, error))
    return 1;
  gtk_window_present (GTK_WINDOW (window));
  run_script (self, DM_SCRIPTABLE (window), g_steal_pointer (&owned));
  return 0;
}

/* File > Open Saved Run: the same as --open, for a file from anywhere (a
 * server's JSON, a colleague's sweep), not only the history. */
static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         data)
{
  DmApplication *self = data;
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);
  g_autoptr (GError) error = NULL;

  if (path && open_file (self, path, NULL, &error) != 0)
    dm_window_show_error (ensure_window (self), error->message);
  g_object_unref (dialog);
}

static void
action_open (GSimpleAction *action,
             GVariant      *param,
             gpointer       data)
{
  DmApplication *self = data;
  GtkFileChooserNative *chooser;
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Open a Saved Run or Sweep"),
                                         GTK_WINDOW (ensure_window (self)),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (filter, "Diskmeter results (JSON)");
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static int
dm_application_command_line (GApplication            *app,
                             GApplicationCommandLine *cmdline)
{
  DmApplication *self = DM_APPLICATION (app);
  g_auto (DmAppOptions) o = { 0 };
  gboolean scripted;
  DmWindow *window;
  char why[512];

  if (!dm_app_options_parse (cmdline, &o, why, sizeof why))
    {
      g_application_command_line_printerr (cmdline, "diskmeter: %s\n", why);
      return 2;
    }
  if (o.version)
    {
      g_application_command_line_print (cmdline, "diskmeter %s\n", DM_VERSION);
      return 0;
    }
  scripted = !dm_script_is_empty (o.script);
  if (!apply_options (self, cmdline, &o, scripted || o.open))
    return 2;
  if (o.open)
    {
      /* Opening a run sets the selectors to the run's; a scripted look at
       * a file leaves the user's own choices as they were. */
      g_autoptr (GError) error = NULL;
      int status;

      if (scripted)
        g_settings_delay (self->settings);
      if (g_strv_length (o.open) > 1)
        status = compare_files (self, (const char *const *) o.open, g_strv_length (o.open),
                                g_steal_pointer (&o.script), &error);
      else
        status = open_file (self, o.open[0], g_steal_pointer (&o.script), &error);
      if (status != 0)
        g_application_command_line_printerr (cmdline, "diskmeter: %s%s\n",
                                             error->domain == G_OPTION_ERROR ? "" : "--open: ",
                                             error->message);
      return status;
    }
  if (o.sustained)
    return run_sustained (self, cmdline, &o);

  window = ensure_window (self);
  if (o.comment)
    dm_window_set_comment (window, o.comment);
  if (o.compare_with)
    dm_window_set_compare_target (window, o.compare_with);
  gtk_window_present (GTK_WINDOW (window));
  run_script (self, DM_SCRIPTABLE (window), g_steal_pointer (&o.script));
  return 0;
}

/* Before GLib reads the options: the window's older spellings. */
static gboolean
dm_application_local_command_line (GApplication   *app,
                                   char         ***arguments,
                                   int            *exit_status)
{
  dm_app_options_rewrite (*arguments);
  return G_APPLICATION_CLASS (dm_application_parent_class)->local_command_line (app, arguments,
                                                                                exit_status);
}

static void
dm_application_shutdown (GApplication *app)
{
  G_APPLICATION_CLASS (dm_application_parent_class)->shutdown (app);
  dm_color_scheme_unfollow (app);
  dm_measure_exit ();
}

static void
dm_application_finalize (GObject *object)
{
  DmApplication *self = DM_APPLICATION (object);

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (dm_application_parent_class)->finalize (object);
}

static void
dm_application_class_init (DmApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);
  GtkApplicationClass *gtk_app_class = GTK_APPLICATION_CLASS (klass);

  object_class->finalize = dm_application_finalize;
  app_class->startup = dm_application_startup;
  app_class->activate = dm_application_activate;
  app_class->command_line = dm_application_command_line;
  app_class->local_command_line = dm_application_local_command_line;
  app_class->shutdown = dm_application_shutdown;
  gtk_app_class->window_added = dm_application_window_added;
  gtk_app_class->window_removed = dm_application_window_removed;
}

static void
dm_application_init (DmApplication *self)
{
  dm_app_options_add (G_APPLICATION (self));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Measure disk speed the way CrystalDiskMark does."));
}

DmApplication *
dm_application_new (void)
{
  return g_object_new (DM_TYPE_APPLICATION,
                       "application-id", DM_APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE,
                       NULL);
}

int
dm_application_get_exit_status (DmApplication *self)
{
  return self->exit_status;
}
