/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dm_gettext() over libintl's dgettext (glibc's own on Linux), so the
 * engine stays plain C with no GLib and no #ifdef: only here does a build
 * without gettext fall back to the English sentence.
 */
#include "dm-gettext.h"

#include "config.h"

#if DM_ENABLE_NLS
#include <libintl.h>
#endif

const char *
dm_gettext (const char *msgid)
{
#if DM_ENABLE_NLS
  return dgettext (GETTEXT_PACKAGE, msgid);
#else
  return msgid;
#endif
}
