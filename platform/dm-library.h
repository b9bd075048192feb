/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared libraries loaded on first use rather than linked, so that a
 * library only a rare path needs (sd-bus for udisks2, libxlsxwriter for
 * Excel) is not mapped, relocated and paged in by every start of the
 * window and the CLI. Linux only (dlopen): the Windows build links the
 * few libraries it has statically.
 */
#pragma once

#include <stddef.h>

/* One function to resolve: its name in the library, and where its pointer
 * goes in the caller's table (offsetof). */
typedef struct dm_library_symbol {
  const char *name;
  size_t      offset;
} dm_library_symbol;

/* Loads soname and fills table with every symbol, or none: 0, or
 * DM_E_NOLIBRARY with the loader's reason in why. The library stays
 * loaded for the life of the process. */
int dm_library_load (const char *soname, const dm_library_symbol *symbols, size_t n,
                     void *table, char *why, size_t why_size);
