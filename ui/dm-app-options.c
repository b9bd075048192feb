/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's options as GApplication entries built from one list: a row
 * naming a diskmeter-cli command takes that command's row of the CLI's
 * option table (dm-cli-options.c) for its name, help, range and checks, so
 * the two programs cannot drift; the others are the window's own. GLib
 * parses them in the process the user started, and the instance that
 * shows the window checks them here.
 */
#include "dm-app-options.h"
#include "dm-i18n-ui.h"

#include <string.h>

#include "dm-cli-options.h"
#include "dm-platform.h"
#include "dm-profile.h"
#include "dm-warmup-setting.h"

typedef struct
{
  const char *name;
  char        short_name;
  unsigned    command;   /* the CLI's command whose row this is, or 0: the window's own */
  GOptionArg  arg;       /* the window's own: kind, help and value name */
  const char *help;
  const char *arg_name;  /* also a CLI row's, instead of its own */
  const char *more;      /* a CLI row's choice the window takes besides ("custom") */
  const char *note;      /* said after a CLI row's help: what the window takes besides */
  gboolean    headed;    /* a CLI row's help after its group's name ("Sustained: ") */
} AppOption;

/* In the order --help lists them. */
static const AppOption app_options[] = {
  { "target", 't', 0, G_OPTION_ARG_FILENAME, N_("Folder (on the disk) to test"), "DIR" },
  { "profile", 'p', DM_CLI_RUN, .arg_name = "NAME", .more = "custom" },
  { "nvme", 0, DM_CLI_RUN },
  { "mix", 0, DM_CLI_RUN },
  { "mix-read", 0, DM_CLI_RUN, .note = N_("also taken as --mix PERCENT, the older spelling") },
  { "count", 'n', DM_CLI_RUN },
  { "size", 's', DM_CLI_RUN },
  { "duration", 'd', DM_CLI_RUN },
  { "interval", 'i', DM_CLI_RUN },
  { "warmup", 'w', DM_CLI_RUN },
  { "units", 'u', 0, G_OPTION_ARG_STRING, N_("MB/s, GB/s, IOPS or us"), "UNIT" },
  { "modes", 0, DM_CLI_RUN, .arg_name = "LIST|all" },
  { "comment", 'c', DM_CLI_RUN },
  { "compare-with", 0, 0, G_OPTION_ARG_FILENAME,
    N_("Compare the target with this folder, measured in turns"), "DIR" },
  { "open", 'o', 0, G_OPTION_ARG_FILENAME_ARRAY,
    N_("Show a saved run or sweep (JSON) instead of measuring; given two or more times, compare "
       "the saved runs side by side"), "FILE" },
  { "run", 'r', 0, G_OPTION_ARG_NONE, N_("Start all tests once the window is up") },
  { "save-screenshot", 0, 0, G_OPTION_ARG_FILENAME, N_("Save a PNG of the window when done"),
    "FILE" },
  { "screenshot-scale", 0, 0, G_OPTION_ARG_STRING,
    N_("Draw that PNG at this times the window's size (1..4), for a sharp picture in a report"),
    "FACTOR" },
  { "save-pdf", 0, 0, G_OPTION_ARG_FILENAME,
    N_("Save a PDF report when done: the window, each test's latency detail and the open Sweep "
       "and Sustained windows, as sharp text and lines"), "FILE" },
  { "save-json", 0, 0, G_OPTION_ARG_FILENAME, N_("Save the results as JSON when done"), "FILE" },
  { "save-text", 0, 0, G_OPTION_ARG_FILENAME, N_("Save the results as text when done"), "FILE" },
  { "save-csv", 0, 0, G_OPTION_ARG_FILENAME, N_("Save the results as CSV when done"), "FILE" },
  { "quit-when-done", 'q', 0, G_OPTION_ARG_NONE, N_("Quit after the run and the saves") },
  { "sustained", 0, 0, G_OPTION_ARG_NONE,
    N_("Open the Sustained window; with --save-* or --quit-when-done it runs at once (--span, "
       "--duration, --target; --modes read reads instead of writing)") },
  { "span", 0, DM_CLI_SUSTAINED, .headed = TRUE },
  { "version", 0, DM_CLI_RUN },
};

/* The CLI's row of an option the window shares. */
static const dm_opt *
cli_row (const AppOption *a)
{
  size_t n;
  const dm_opt *table = dm_cli_option_table (&n);

  return dm_opt_find (table, n, a->command, a->name, strlen (a->name));
}

static const AppOption *
find_option (const char *name,
             gsize       len,
             char        short_name)
{
  for (guint i = 0; i < G_N_ELEMENTS (app_options); i++)
    if (short_name ? app_options[i].short_name == short_name
                   : strlen (app_options[i].name) == len
                       && !strncmp (app_options[i].name, name, len))
      return &app_options[i];
  return NULL;
}

static GOptionArg
arg_of (const AppOption *a)
{
  const dm_opt *row;

  if (!a->command)
    return a->arg;
  row = cli_row (a);
  return row->kind == DM_OPT_FLAG ? G_OPTION_ARG_NONE
         : row->kind == DM_OPT_PATH ? G_OPTION_ARG_FILENAME
                                    : G_OPTION_ARG_STRING;
}

void
dm_app_options_add (GApplication *app)
{
  /* GLib keeps the texts' pointers: they live as long as the process. */
  GOptionEntry *entries = g_new0 (GOptionEntry, G_N_ELEMENTS (app_options) + 1);

  for (guint i = 0; i < G_N_ELEMENTS (app_options); i++)
    {
      const AppOption *a = &app_options[i];
      const dm_opt *row = a->command ? cli_row (a) : NULL;
      GOptionEntry *e = &entries[i];

      g_assert (!a->command || row);
      e->long_name = a->name;
      e->short_name = a->short_name;
      e->arg = arg_of (a);
      if (!row)
        {
          e->description = _(a->help);
          e->arg_description = a->arg_name;
        }
      else
        {
          char range[64];
          GString *help = g_string_new (NULL);

          if (a->headed)
            g_string_append_printf (help, "%s: ", _(row->group));
          g_string_append (help, _(row->help));

          /* The range or the choices, not the CLI's default: the
           * window's is the last one chosen in it. */
          dm_opt_range_text (row, range, sizeof range);
          if (row->kind == DM_OPT_CHOICE)
            {
              g_autofree char *all = g_strjoin ("|", row->choices, a->more, NULL);
              g_auto (GStrv) words = g_strsplit (all, "|", -1);
              g_autofree char *list = g_strjoinv (", ", words);

              g_strlcpy (range, list, sizeof range);
            }
          if (range[0])
            g_string_append_printf (help, " (%s)", range);
          if (a->note)
            g_string_append_printf (help, "; %s", _(a->note));
          e->description = g_string_free (help, FALSE);
          e->arg_description = row->kind == DM_OPT_FLAG ? NULL
                               : a->arg_name ? a->arg_name : row->arg;
        }
    }
  g_application_add_main_option_entries (app, entries);
}

/* --- older spellings ------------------------------------------------------ */

static void
replace (char      **argv,
         int         i,
         const char *text)
{
  g_free (argv[i]);
  argv[i] = g_strdup (text);
}

void
dm_app_options_rewrite (char **argv)
{
  for (int i = 1; argv && argv[i]; i++)
    {
      const char *arg = argv[i];
      const AppOption *a = NULL;

      if (!strcmp (arg, "--"))
        return;
      if (!strcmp (arg, "--mix") && argv[i + 1] && argv[i + 1][0] != '-')
        {
          /* The window takes no arguments: a word after --mix is its old
           * value, the read share. */
          replace (argv, i, "--mix-read");
          i++;
          continue;
        }
      if (g_str_has_prefix (arg, "--mix="))
        {
          g_autofree char *now = g_strconcat ("--mix-read=", arg + strlen ("--mix="), NULL);
          replace (argv, i, now);
          continue;
        }
      /* A value is passed over: "--comment --mix" is a comment. */
      if (g_str_has_prefix (arg, "--") && !strchr (arg, '='))
        a = find_option (arg + 2, strlen (arg + 2), 0);
      else if (arg[0] == '-' && arg[1] && arg[1] != '-' && !arg[2])
        a = find_option (NULL, 0, arg[1]);
      if (a && arg_of (a) != G_OPTION_ARG_NONE && argv[i + 1])
        i++;
    }
}

/* --- checks ---------------------------------------------------------------- */

static char *
lookup_path (GApplicationCommandLine *cmdline,
             GVariantDict            *dict,
             const char              *name)
{
  g_autofree char *arg = NULL;
  g_autoptr (GFile) file = NULL;

  if (!g_variant_dict_lookup (dict, name, "^ay", &arg))
    return NULL;
  /* Relative to where the user typed it, even when forwarded to an
   * instance that started elsewhere. */
  file = g_application_command_line_create_file_for_arg (cmdline, arg);
  return g_file_get_path (file);
}

/* Every value of a repeatable FILE option, each made absolute as
 * lookup_path makes one; NULL when the option is absent. */
static char **
lookup_paths (GApplicationCommandLine *cmdline,
              GVariantDict            *dict,
              const char              *name)
{
  g_auto (GStrv) args = NULL;
  char **paths;
  guint n;

  if (!g_variant_dict_lookup (dict, name, "^aay", &args))
    return NULL;
  n = g_strv_length (args);
  paths = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GFile) file = g_application_command_line_create_file_for_arg (cmdline, args[i]);

      paths[i] = g_file_get_path (file);
    }
  return paths;
}

static char *
lookup_string (GVariantDict *dict,
               const char   *name)
{
  char *text = NULL;

  g_variant_dict_lookup (dict, name, "s", &text);
  return text;
}

/* A shared option's value, checked by its CLI row: FALSE with why. */
static gboolean
check_shared (GVariantDict *dict,
              const char   *name,
              dm_opt_value *v,
              gboolean     *given,
              char         *why,
              gsize         why_size)
{
  const AppOption *a = find_option (name, strlen (name), 0);

  memset (v, 0, sizeof *v);
  *given = g_variant_dict_lookup (dict, name, "&s", &v->text);
  return !*given || dm_opt_check (cli_row (a), v, why, why_size) == 0;
}

static gboolean
check_script (GApplicationCommandLine *cmdline,
              GVariantDict            *dict,
              DmScript                *script,
              char                    *why,
              gsize                    why_size)
{
  const char *scale = NULL;

  script->run = g_variant_dict_contains (dict, "run");
  script->quit_when_done = g_variant_dict_contains (dict, "quit-when-done");
  script->screenshot = lookup_path (cmdline, dict, "save-screenshot");
  script->json = lookup_path (cmdline, dict, "save-json");
  script->text = lookup_path (cmdline, dict, "save-text");
  script->csv = lookup_path (cmdline, dict, "save-csv");
  script->pdf = lookup_path (cmdline, dict, "save-pdf");
  if (g_variant_dict_lookup (dict, "screenshot-scale", "&s", &scale))
    {
      char *end = NULL;

      script->screenshot_scale = g_ascii_strtod (scale, &end);
      if (end == scale || *end || !(script->screenshot_scale >= 1 && script->screenshot_scale <= 4))
        {
          g_snprintf (why, why_size, "--screenshot-scale must be a number from 1 to 4");
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
dm_app_options_parse (GApplicationCommandLine *cmdline,
                      DmAppOptions            *o,
                      char                    *why,
                      gsize                    why_size)
{
  GVariantDict *dict = g_application_command_line_get_options_dict (cmdline);
  struct { const char *name; double *seconds; } durations[] = {
    { "duration", &o->measure_s }, { "interval", &o->interval_s }, { "warmup", &o->warmup_s },
  };
  char inner[200];
  dm_opt_value v;
  gboolean given;

  memset (o, 0, sizeof *o);
  o->script = dm_script_new ();
  o->measure_s = o->interval_s = o->warmup_s = -1;
  o->version = g_variant_dict_contains (dict, "version");
  if (o->version)
    return TRUE;
  if (!check_script (cmdline, dict, o->script, why, why_size))
    return FALSE;
  o->target = lookup_path (cmdline, dict, "target");
  o->compare_with = lookup_path (cmdline, dict, "compare-with");
  o->open = lookup_paths (cmdline, dict, "open");
  o->sustained = g_variant_dict_contains (dict, "sustained");
  if (o->open && (o->script->run || o->compare_with))
    {
      g_snprintf (why, why_size, "--open shows a saved run; it does not go with --run or "
                  "--compare-with");
      return FALSE;
    }

  o->profile = lookup_string (dict, "profile");
  if (o->profile && g_ascii_strcasecmp (o->profile, "custom") != 0
      && !dm_profile_find (o->profile))
    {
      g_snprintf (why, why_size, "unknown profile '%s' (default, peak, realworld, demo, flash, custom)",
                  o->profile);
      return FALSE;
    }
  o->nvme = g_variant_dict_contains (dict, "nvme");
  o->mix = g_variant_dict_contains (dict, "mix");
  if (!check_shared (dict, "count", &v, &given, why, why_size))
    return FALSE;
  o->count = given ? v.u : 0;
  if (!check_shared (dict, "mix-read", &v, &given, why, why_size))
    return FALSE;
  o->mix_read = given ? v.u : 0;
  o->mix = o->mix || given;
  if (!check_shared (dict, "size", &v, &given, why, why_size))
    return FALSE;
  o->size = given ? v.size : 0;
  o->unit = DM_UNIT_MBPS;
  if (g_variant_dict_lookup (dict, "units", "&s", &v.text))
    {
      if (dm_unit_parse (v.text, &o->unit) != 0)
        {
          g_snprintf (why, why_size, "unknown unit '%s' (MB/s, GB/s, IOPS, us)", v.text);
          return FALSE;
        }
      o->have_unit = TRUE;
    }
  o->modes = lookup_string (dict, "modes");
  for (guint i = 0; i < G_N_ELEMENTS (durations); i++)
    {
      if (!check_shared (dict, durations[i].name, &v, &given, why, why_size))
        return FALSE;
      /* --warmup's word (steady[:MARGIN[:LIMIT]]) is the engine's to
       * read, as diskmeter-cli's --warmup has it read. */
      if (given && v.seconds < 0 && durations[i].seconds == &o->warmup_s)
        {
          if (!dm_warmup_setting_check (v.text, inner, sizeof inner))
            {
              g_snprintf (why, why_size, "--warmup: %s", inner);
              return FALSE;
            }
          o->warmup_steady = g_strdup (v.text);
        }
      else if (given)
        *durations[i].seconds = v.seconds;
    }
  o->duration = lookup_string (dict, "duration");
  o->comment = lookup_string (dict, "comment");
  if (!check_shared (dict, "span", &v, &given, why, why_size))
    return FALSE;
  o->span = lookup_string (dict, "span");
  if (o->span && !o->sustained)
    {
      g_snprintf (why, why_size, "--span goes with --sustained");
      return FALSE;
    }

  if (o->target && !g_file_test (o->target, G_FILE_TEST_IS_DIR))
    {
      dm_target_info info;

      /* A whole disk or partition is read (only) like a folder is tested. */
      if (dm_target_probe (o->target, &info) != 0 || !info.is_block_device)
        {
          g_snprintf (why, why_size, "--target %s is neither a folder nor a disk or partition",
                      o->target);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
dm_app_options_any_setting (const DmAppOptions *o)
{
  return o->profile || o->nvme || o->mix || o->count || o->size || o->have_unit || o->target
         || o->modes || o->measure_s >= 0 || o->interval_s >= 0 || o->warmup_s >= 0
         || o->warmup_steady;
}

void
dm_app_options_clear (DmAppOptions *o)
{
  g_clear_pointer (&o->script, dm_script_free);
  g_clear_pointer (&o->target, g_free);
  g_clear_pointer (&o->compare_with, g_free);
  g_clear_pointer (&o->open, g_strfreev);
  g_clear_pointer (&o->profile, g_free);
  g_clear_pointer (&o->duration, g_free);
  g_clear_pointer (&o->modes, g_free);
  g_clear_pointer (&o->comment, g_free);
  g_clear_pointer (&o->span, g_free);
  g_clear_pointer (&o->warmup_steady, g_free);
}
