/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window's layout and menu, on a display (tests/gui-run.sh starts
 * Xvfb), read from the window's own screenshot and its widgets as a user
 * and assistive technology see them: no empty band between the grid and
 * the comment at 100 % or 200 %, nor under the Demo profile's one row; the
 * header bar's title grows with the zoom; the menu shows the shortcuts the
 * application has for its entries; Stop Comparing is disabled while nothing
 * is compared; and the profile has one name in the window, the History
 * window and diskmeter-cli's report and history list.
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "dm-history-window.h"
#include "dm-ui-test.h"
#include "dm-window-private.h"

static DmApplication *app;
static GSettings *settings;
static DmWindow *window;
static char *tmp;

/* Layout and drawing happen on frames, and a new window size comes back
 * from the X server: wait until the size has held for a while (at most
 * 5 s, on a loaded machine). */
static void
settle (void)
{
  int w = -1, h = -1, still = 0;

  for (int i = 0; i < 500 && (i < 20 || still < 15); i++)
    {
      dm_ui_test_spin ();
      g_usleep (10 * 1000);
      if (window && gtk_widget_get_width (GTK_WIDGET (window)) == w
          && gtk_widget_get_height (GTK_WIDGET (window)) == h)
        still++;
      else
        still = 0;
      if (window)
        {
          w = gtk_widget_get_width (GTK_WIDGET (window));
          h = gtk_widget_get_height (GTK_WIDGET (window));
        }
    }
}

/* --- the window's picture -------------------------------------------------- */

typedef struct
{
  int     width, height;
  guchar *data;          /* cairo's ARGB32 as GdkTexture downloads it */
  guint32 background;    /* the window's background colour */
} Shot;

static guint32
pixel (const Shot *s,
       int         x,
       int         y)
{
  const guchar *p = s->data + ((gsize) y * s->width + x) * 4;

  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16;
}

/* Light text and dark text alike differ from the background by far more. */
static gboolean
is_background (const Shot *s,
               int         x,
               int         y)
{
  guint32 a = pixel (s, x, y), b = s->background;

  for (int shift = 0; shift < 24; shift += 8)
    if (ABS ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > 6)
      return FALSE;
  return TRUE;
}

static gboolean
take_shot (const char *name,
           Shot       *s)
{
  g_autofree char *path = g_strdup_printf ("%s/%s.png", tmp, name);
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = NULL;

  settle ();
  if (!dm_window_save_screenshot (window, path, &error)
      || !(texture = gdk_texture_new_from_filename (path, &error)))
    {
      g_test_fail_printf ("screenshot %s: %s", path, error->message);
      return FALSE;
    }
  s->width = gdk_texture_get_width (texture);
  s->height = gdk_texture_get_height (texture);
  s->data = g_malloc ((gsize) s->width * s->height * 4);
  gdk_texture_download (texture, s->data, (gsize) s->width * 4);
  /* The bottom left corner is the content's padding. */
  s->background = 0;
  s->background = pixel (s, 2, s->height - 2);
  g_test_message ("%s: %dx%d", path, s->width, s->height);
  return TRUE;
}

/* The tallest run of rows, from y0 on, in which nothing is drawn but the
 * background, across the content (without its side padding). */
static int
longest_blank_band (const Shot *s,
                    int         y0,
                    int        *where)
{
  int best = 0, run = 0, pad = s->width / 50;

  *where = -1;
  for (int y = y0; y < s->height; y++)
    {
      gboolean blank = TRUE;

      for (int x = pad; blank && x < s->width - pad; x++)
        blank = is_background (s, x, y);
      run = blank ? run + 1 : 0;
      if (run > best)
        {
          best = run;
          *where = y - run + 1;
        }
    }
  return best;
}

static int
titlebar_bottom (void)
{
  graphene_rect_t b;

  g_assert_true (gtk_widget_compute_bounds (gtk_window_get_titlebar (GTK_WINDOW (window)),
                                            GTK_WIDGET (window), &b));
  return (int) ceil (b.origin.y + b.size.height);
}

static void
set_view (const char *profile,
          int         zoom)
{
  g_settings_set_string (settings, "profile", profile);
  g_settings_set_int (settings, "zoom", zoom);
  settle ();
}

/* The content's padding (12 px above, 10 below) and the box's spacing
 * (8 px) leave empty bands of up to 12 px at 100 %; an empty child given
 * two spacings (16 px) or a grid taller than its rows is more. */
static void
check_no_band (const char *profile,
               int         zoom)
{
  g_autofree char *name = g_strdup_printf ("%s-%d", profile, zoom);
  int bound = 14 * zoom / 100, where, band;
  Shot s;

  if (!take_shot (name, &s))
    return;
  band = longest_blank_band (&s, titlebar_bottom () + 1, &where);
  g_test_message ("%s: longest empty band %d px at y %d (bound %d)", name, band, where, bound);
  if (band > bound)
    g_test_fail_printf ("%s at %d %%: an empty band of %d px at y %d of %d, more than %d", profile, zoom,
             band, where, s.height, bound);
  g_free (s.data);
}

static void
test_no_empty_band (void)
{
  /* As opened: Demo's one row in a window of the default size. */
  check_no_band ("demo", 100);
  set_view ("default", 100);
  check_no_band ("default", 100);
  set_view ("default", 200);
  check_no_band ("default", 200);
  /* Zoomed, then down to one row, then back. */
  set_view ("demo", 200);
  check_no_band ("demo", 200);
  set_view ("demo", 100);
  check_no_band ("demo", 100);
  set_view ("default", 100);
}

/* The title's letters: the rows of the header bar's middle third (the
 * title is centred, the buttons at the end) where text is drawn. */
static int
title_ink_height (const Shot *s,
                  int         bottom)
{
  int first = -1, last = -1;

  for (int y = 0; y < bottom && y < s->height; y++)
    for (int x = s->width / 3; x < 2 * s->width / 3; x++)
      {
        guint32 p = pixel (s, x, y);
        int luma = ((p & 0xff) + ((p >> 8) & 0xff) + ((p >> 16) & 0xff)) / 3;

        if (luma < 110)
          {
            if (first < 0)
              first = y;
            last = y;
            break;
          }
      }
  return first < 0 ? 0 : last - first + 1;
}

static void
test_header_zoom (void)
{
  int bar100, bar200, ink100, ink200;
  Shot s;

  set_view ("default", 100);
  if (!take_shot ("header-100", &s))
    return;
  bar100 = titlebar_bottom ();
  ink100 = title_ink_height (&s, bar100);
  g_free (s.data);
  set_view ("default", 200);
  if (!take_shot ("header-200", &s))
    return;
  bar200 = titlebar_bottom ();
  ink200 = title_ink_height (&s, bar200);
  g_free (s.data);
  set_view ("default", 100);
  g_test_message ("header bar %d px, title %d px tall at 100 %%; %d px, %d px at 200 %%", bar100,
                  ink100, bar200, ink200);
  g_assert_cmpint (ink100, >, 4);
  if (bar200 * 10 < bar100 * 18 || ink200 * 10 < ink100 * 18)
    g_test_fail_printf ("at 200 %% the header bar is %d px (%d at 100 %%) and its title %d px (%d): "
             "the zoom left them out", bar200, bar100, ink200, ink100);
}

/* --- the menu ---------------------------------------------------------------- */

static GtkWidget *
find_widget (GtkWidget *root,
             gboolean (*match) (GtkWidget *, gconstpointer),
             gconstpointer data)
{
  if (match (root, data))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, match, data);

      if (found)
        return found;
    }
  return NULL;
}

static gboolean
is_menu_button (GtkWidget *w, gconstpointer data)
{
  return GTK_IS_MENU_BUTTON (w);
}

static gboolean
is_label (GtkWidget *w, gconstpointer text)
{
  return GTK_IS_LABEL (w) && !g_strcmp0 (gtk_label_get_label (GTK_LABEL (w)), text);
}

typedef struct
{
  char *label;  /* as written, "Save _Text…" */
  char *action; /* "win.save-text" */
} MenuEntry;

static void
menu_entry_free (gpointer p)
{
  MenuEntry *e = p;

  g_free (e->label);
  g_free (e->action);
  g_free (e);
}

/* The entries of a menu model, sections and submenus included. */
static void
collect_entries (GMenuModel *model,
                 GPtrArray  *out)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr (GMenuLinkIter) links = g_menu_model_iterate_item_links (model, i);
      MenuEntry *e = g_new0 (MenuEntry, 1);
      GMenuModel *link;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &e->label)
          && g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &e->action))
        g_ptr_array_add (out, e);
      else
        menu_entry_free (e);
      while (g_menu_link_iter_get_next (links, NULL, &link))
        {
          collect_entries (link, out);
          g_object_unref (link);
        }
    }
}

/* The popover's button for an entry: the one holding its label. */
static GtkWidget *
entry_button (GtkWidget  *popover,
              const char *label)
{
  GtkWidget *text = find_widget (popover, is_label, label);

  return text ? gtk_widget_get_parent (text) : NULL;
}

static gboolean
is_accelerator_label (GtkWidget *w, gconstpointer data)
{
  return GTK_IS_LABEL (w) && !strcmp (gtk_widget_get_css_name (w), "accelerator");
}

/* The main menu, popped up as a click does; its entries are built then. */
static GtkWidget *menu_button;

static GtkWidget *
open_menu (void)
{
  GtkWidget *button = find_widget (gtk_window_get_titlebar (GTK_WINDOW (window)),
                                   is_menu_button, NULL);
  GtkWidget *popover;

  menu_button = button;
  g_assert_true (GTK_IS_MENU_BUTTON (button));
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  settle ();
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  g_assert_true (gtk_widget_get_mapped (popover));
  return popover;
}

static void
close_menu (GtkWidget *popover)
{
  gtk_popover_popdown (GTK_POPOVER (popover));
  settle ();
}

/* Every entry whose action has a shortcut (the application's, under the
 * app. name the window's win. action is forwarded from) shows it, as the
 * menu shows Ctrl+Q beside Quit. */
static void
test_menu_shortcuts (void)
{
  GtkWidget *popover = open_menu ();
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (menu_entry_free);
  gboolean saw_text = FALSE, saw_shot = FALSE;
  guint n_checked = 0, n_missing = 0;

  collect_entries (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)), entries);
  for (guint i = 0; i < entries->len; i++)
    {
      MenuEntry *e = g_ptr_array_index (entries, i);
      const char *action = e->action;
      GtkWidget *entry = entry_button (popover, e->label);
      const char *dot = strchr (action, '.');
      g_autofree char *app_action = g_strconcat ("app.", dot ? dot + 1 : action, NULL);
      g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                     app_action);
      GtkWidget *shown = entry ? find_widget (entry, is_accelerator_label, NULL) : NULL;
      guint key;
      GdkModifierType mods;
      g_autofree char *want = NULL;

      if (!accels || !accels[0])
        continue;
      g_assert_true (gtk_accelerator_parse (accels[0], &key, &mods));
      want = gtk_accelerator_get_label (key, mods);
      n_checked++;
      saw_text |= !strcmp (action, "win.save-text");
      saw_shot |= !strcmp (action, "win.save-screenshot");
      g_test_message ("%s: %s, the menu shows %s", action, want,
                      shown ? gtk_label_get_text (GTK_LABEL (shown)) : "nothing");
      if (!shown || strcmp (gtk_label_get_text (GTK_LABEL (shown)), want))
        {
          g_printerr ("# the menu entry for %s does not show its shortcut %s\n", action, want);
          n_missing++;
        }
    }
  close_menu (popover);
  g_assert_true (saw_text && saw_shot);
  g_assert_cmpuint (n_checked, >=, 5);
  g_assert_cmpuint (n_missing, ==, 0);
}

/* Stop Comparing as the menu shows it and assistive technology reads it. */
static void
check_stop_comparing (gboolean want_enabled)
{
  GtkWidget *popover = open_menu ();
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (menu_entry_free);
  GtkWidget *entry = NULL;
  g_autofree char *wrong = NULL;

  collect_entries (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)), entries);
  for (guint i = 0; i < entries->len; i++)
    {
      MenuEntry *e = g_ptr_array_index (entries, i);

      if (!strcmp (e->action, "win.compare-off"))
        entry = entry_button (popover, e->label);
    }

  if (!entry)
    {
      g_test_fail_printf ("the menu has no Stop Comparing entry");
      close_menu (popover);
      return;
    }
  g_test_message ("Stop Comparing: %s", gtk_widget_is_sensitive (entry) ? "enabled" : "disabled");
  if (gtk_widget_is_sensitive (entry) != want_enabled)
    g_test_fail_printf ("Stop Comparing looks %s with %s compared", want_enabled ? "disabled" : "enabled",
             want_enabled ? "a folder" : "nothing");
  wrong = gtk_test_accessible_check_state (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_STATE_DISABLED,
                                           !want_enabled);
  if (wrong)
    g_test_fail_printf ("Stop Comparing's accessible disabled state is %s", wrong);
  close_menu (popover);
}

static void
test_stop_comparing (void)
{
  check_stop_comparing (FALSE);
  dm_window_set_compare_target (window, tmp);
  settle ();
  check_stop_comparing (TRUE);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.compare-off", NULL);
  settle ();
  g_assert_null (dm_comparison_get_target (window->comparison));
  check_stop_comparing (FALSE);
}

/* --- the profile's name ---------------------------------------------------- */

/* diskmeter-cli (DM_CLI, set by tests/meson.build) with its data in DATA. */
static char *
cli (const char *data,
     const char *const *args)
{
  const char *path = g_getenv ("DM_CLI");
  g_autoptr (GStrvBuilder) argv = g_strv_builder_new ();
  g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", data, TRUE);
  g_auto (GStrv) full = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = -1;

  if (!path)
    {
      g_test_fail_printf ("DM_CLI is not set (run through meson test)");
      return NULL;
    }
  g_strv_builder_add (argv, path);
  g_strv_builder_addv (argv, (const char **) args);
  full = g_strv_builder_end (argv);
  if (!g_spawn_sync (NULL, full, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    {
      g_test_fail_printf ("diskmeter-cli %s: %s: %s", args[0], error->message, err ? err : "");
      g_free (out);
      return NULL;
    }
  return out;
}

static DmHistoryWindow *
find_history_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* not ours to free */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (DM_IS_HISTORY_WINDOW (w))
        return DM_HISTORY_WINDOW (w);
    }
  return NULL;
}

static gboolean
label_ends_with (GtkWidget *w, gconstpointer suffix)
{
  return GTK_IS_LABEL (w) && g_str_has_suffix (gtk_label_get_text (GTK_LABEL (w)), suffix);
}

static gboolean
label_has (GtkWidget *w, gconstpointer part)
{
  return GTK_IS_LABEL (w) && strstr (gtk_label_get_text (GTK_LABEL (w)), part);
}

/* One demo run by diskmeter-cli: its report, its history list, the
 * window's title and the History window's row all say "Demo". */
static void
test_profile_name (void)
{
  g_autofree char *data = g_build_filename (tmp, "data", NULL);
  g_autofree char *folder = g_build_filename (tmp, "target", NULL);
  g_autofree char *report = NULL;
  g_autofree char *history = NULL;
  g_autofree char *row = NULL;
  const char *run[] = { "--profile", "demo", "--count", "1", "--duration", "0.1", "--warmup", "0",
                        "--interval", "0", "--size", "16MiB", folder, NULL };
  const char *list[] = { "history", NULL };
  const char *title;
  DmHistoryWindow *hw;
  GtkWidget *found;
  char *line;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  report = cli (data, run);
  history = report ? cli (data, list) : NULL;
  line = history ? strstr (history, "\n  1 ") : NULL;
  if (!line)
    {
      g_test_fail_printf ("diskmeter-cli history lists no run: %s", history ? history : "");
      return;
    }
  row = g_strndup (line + 1, strcspn (line + 1, "\n"));
  g_test_message ("report: %s", strstr (report, "Profile:"));
  g_test_message ("history: %s", row);
  g_assert_nonnull (strstr (report, "\nProfile: Demo\n"));
  if (!strstr (row, " Demo "))
    g_test_fail_printf ("diskmeter-cli history names the profile otherwise: %s", row);

  set_view ("demo", 100);
  title = gtk_window_get_title (GTK_WINDOW (window));
  g_test_message ("window: %s", title);
  g_assert_true (g_str_has_suffix (title, " – Demo"));

  /* The History window of the same saved runs. */
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.history", NULL);
  settle ();
  hw = find_history_window ();
  found = hw ? find_widget (GTK_WIDGET (hw), label_has, folder) : NULL;
  if (!found)
    {
      g_test_fail_printf ("the History window %s", hw ? "does not list the run" : "did not open");
      if (hw)
        gtk_window_destroy (GTK_WINDOW (hw));
      return;
    }
  g_test_message ("History window: %s", gtk_label_get_text (GTK_LABEL (found)));
  if (!find_widget (GTK_WIDGET (hw), label_ends_with, " · Demo"))
    g_test_fail_printf ("the History window names the profile otherwise: %s",
             gtk_label_get_text (GTK_LABEL (found)));
  gtk_window_destroy (GTK_WINDOW (hw));
  settle ();
  set_view ("default", 100);
}

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
main (int    argc,
      char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  /* A failed check is reported and the rest still run, so the folder
   * below is always removed. */
  g_test_set_nonfatal_assertions ();
  /* GTK's in-process accessibility backend: the menu's states can be read
   * back without an accessibility bus. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  /* As a user who last chose Demo opens the window. */
  window = dm_ui_test_open_window ("demo", &app, &settings);
  tmp = g_dir_make_tmp ("diskmeter-layout-XXXXXX", NULL);
  if (!tmp)
    g_error ("cannot make a temporary folder");
  g_test_add_func ("/ui/layout/no-empty-band", test_no_empty_band);
  g_test_add_func ("/ui/layout/header-zoom", test_header_zoom);
  g_test_add_func ("/ui/layout/menu-shortcuts", test_menu_shortcuts);
  g_test_add_func ("/ui/layout/stop-comparing", test_stop_comparing);
  g_test_add_func ("/ui/layout/profile-name", test_profile_name);
  rc = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  remove_tree (tmp);
  g_free (tmp);
  return rc;
}
