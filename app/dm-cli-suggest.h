/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Did you mean": the nearest of a few known words to one the user
 * mistyped, by edit distance, so a usage error names what was meant
 * instead of only what was wrong.
 */
#pragma once

#include <stddef.h>

#include "dm-cli-opt-table.h"

/* The edit distance between a[0..la) and b[0..lb): insertions, deletions,
 * substitutions and swaps of two neighbours each count one, any case. */
size_t dm_cli_edit_distance (const char *a, size_t la, const char *b, size_t lb);

/* Whether word[0..len) is near enough to name to be a slip of the
 * fingers for it: at most two edits, and fewer than half of name's
 * letters. */
int dm_cli_is_near (const char *word, size_t len, const char *name);

/* The nearest of names[0..n) to word[0..len) that is near it, or NULL. */
const char *dm_cli_nearest (const char *word, size_t len, const char *const *names, size_t n);

/* The reason for --name[0..len), which no row of the parser's table has:
 * "unknown option '--sise'", with "; did you mean --size?" when an option
 * of the parsed command is near. Returns -EINVAL. */
int dm_cli_unknown_option (const dm_opt_parser *p, const char *name, size_t len, char *why,
                           size_t why_size);
