/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Registers the compiled-in resources exactly once: the generated register
 * function must not run twice on the same static resource.
 */
#include "dm-ui.h"

#include "dm-resources.h"

void
dm_ui_init (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      dm_register_resource ();
      g_once_init_leave (&once, 1);
    }
}
