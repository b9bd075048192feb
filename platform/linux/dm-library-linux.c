/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dm-library.h with dlopen: the library by its soname (the version the
 * Debian package depends on by hand, since dh_shlibdeps cannot see a
 * dlopen), every symbol resolved before any is handed out, so a caller
 * never holds half a table.
 */
#include "dm-library.h"
#include "dm-platform.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int
dm_library_load (const char *soname, const dm_library_symbol *symbols, size_t n, void *table,
                 char *why, size_t why_size)
{
  void *lib = dlopen (soname, RTLD_NOW | RTLD_LOCAL);

  if (!lib)
    {
      snprintf (why, why_size, "%s", dlerror ());
      return DM_E_NOLIBRARY;
    }
  for (size_t i = 0; i < n; i++)
    if (!dlsym (lib, symbols[i].name))
      {
        snprintf (why, why_size, "%s lacks %s", soname, symbols[i].name);
        dlclose (lib);
        return DM_E_NOLIBRARY;
      }
  for (size_t i = 0; i < n; i++)
    {
      void *f = dlsym (lib, symbols[i].name);

      memcpy ((char *) table + symbols[i].offset, &f, sizeof f);
    }
  return 0;  /* kept loaded: its functions are in the caller's table now */
}
