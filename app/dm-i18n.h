/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Translations of diskmeter-cli, the gettext domain "diskmeter". _() marks
 * and translates a sentence, N_() only marks one that is translated where
 * it is printed (the option table's help texts). Without libintl in the
 * build (a bare MinGW cross build) the sentences stay English.
 */
#pragma once

#include "config.h"

#if DM_ENABLE_NLS
#include <libintl.h>
#define _(s) dgettext (GETTEXT_PACKAGE, s)
#define dm_ngettext(one, many, n) dngettext (GETTEXT_PACKAGE, one, many, n)
#else
#define _(s) (s)
#define dm_ngettext(one, many, n) ((n) == 1 ? (one) : (many))
#endif
#define N_(s) (s)

/* Sets the locale's messages and character set from the environment
 * (LANG, LC_ALL, LANGUAGE) and binds the domain to its folder:
 * $DISKMETER_LOCALEDIR, else the installed one (on Windows share\locale
 * beside the program). Numbers and dates keep the C locale, so every
 * report, export and line a script reads stays as it was. */
void dm_i18n_init (void);
