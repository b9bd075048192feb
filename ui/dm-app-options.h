/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's command line: its options, their --help (and so its man
 * page), and the checks of what was typed, with no effect on anything.
 * The options it shares with diskmeter-cli (--profile, --count, --size,
 * --mix-read, --span ...) are the rows of the CLI's option table, names,
 * ranges, help and checks alike; the rest are the window's own.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-script.h"
#include "dm-units.h"

G_BEGIN_DECLS

/* What the command line asked for, checked. */
typedef struct
{
  DmScript *script;        /* --run, --save-*, --quit-when-done (never NULL) */
  gboolean  version;
  char     *target;        /* absolute paths, or NULL */
  char     *compare_with;
  char    **open;          /* one saved run to show, or several to compare */
  char     *profile;       /* a profile's name or custom, or NULL */
  gboolean  nvme;
  gboolean  mix;           /* --mix, or --mix-read: show the Mix column */
  guint     mix_read;      /* --mix-read PERCENT; 0 when not given */
  guint     count;         /* 0 when not given */
  guint64   size;          /* bytes; 0 when not given */
  char     *duration;      /* as typed (the Sustained window takes it so) */
  double    measure_s;     /* --duration; < 0 when not given */
  double    interval_s;
  double    warmup_s;      /* < 0 when not given, or given as steady */
  char     *warmup_steady; /* --warmup steady[:MARGIN[:LIMIT]], as typed and checked; or NULL */
  gboolean  have_unit;
  dm_unit   unit;
  char     *modes;         /* as typed: the modes setting's form checks it */
  char     *comment;
  gboolean  sustained;
  char     *span;          /* checked, as typed */
} DmAppOptions;

/* The options, for --help and for GLib to parse (in the process the user
 * started, also when a running Diskmeter gets them). */
void     dm_app_options_add     (GApplication            *app);
/* Before GLib parses argv (changed in place): the window's older
 * spellings in the CLI's ("--mix 70" is "--mix-read 70"). */
void     dm_app_options_rewrite (char                   **argv);
/* Reads and checks what was given. FALSE with a one-line reason in why
 * (without "diskmeter: "), for exit status 2. */
gboolean dm_app_options_parse   (GApplicationCommandLine  *cmdline,
                                 DmAppOptions             *options,
                                 char                     *why,
                                 gsize                     why_size);
/* TRUE when a setting of the window is given (--profile, --count, ...). */
gboolean dm_app_options_any_setting (const DmAppOptions   *options);
void     dm_app_options_clear   (DmAppOptions             *options);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DmAppOptions, dm_app_options_clear)

G_END_DECLS
