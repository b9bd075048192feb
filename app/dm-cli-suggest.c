/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The nearest known word to a mistyped one, for the usage errors of
 * diskmeter-cli: "no command 'swep'; did you mean sweep?" and "unknown
 * option '--sise'; did you mean --size?". The words are few and short, so
 * a plain table of distances is all it takes.
 */
#include "dm-cli-suggest.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "dm-i18n.h"
#include "dm-units.h"

/* Longer words are not commands or options; they are not compared. */
#define WORD_MAX 40

size_t
dm_cli_edit_distance (const char *a, size_t la, const char *b, size_t lb)
{
  size_t d[WORD_MAX + 1][WORD_MAX + 1];

  if (la > WORD_MAX || lb > WORD_MAX)
    return (size_t) -1;
  for (size_t i = 0; i <= la; i++)
    d[i][0] = i;
  for (size_t j = 0; j <= lb; j++)
    d[0][j] = j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++)
      {
        int same = tolower ((unsigned char) a[i - 1]) == tolower ((unsigned char) b[j - 1]);
        size_t best = d[i - 1][j - 1] + !same;
        if (d[i - 1][j] + 1 < best)
          best = d[i - 1][j] + 1;
        if (d[i][j - 1] + 1 < best)
          best = d[i][j - 1] + 1;
        /* "sewep": two letters swapped is one slip, not two. */
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
            && d[i - 2][j - 2] + 1 < best)
          best = d[i - 2][j - 2] + 1;
        d[i][j] = best;
      }
  return d[la][lb];
}

int
dm_cli_is_near (const char *word, size_t len, const char *name)
{
  size_t n = strlen (name), d = dm_cli_edit_distance (word, len, name, n);
  return d <= 2 && 2 * d < n;
}

const char *
dm_cli_nearest (const char *word, size_t len, const char *const *names, size_t n)
{
  const char *best = NULL;
  size_t best_d = (size_t) -1;

  for (size_t i = 0; i < n; i++)
    {
      size_t d = dm_cli_edit_distance (word, len, names[i], strlen (names[i]));
      if (d < best_d && dm_cli_is_near (word, len, names[i]))
        {
          best = names[i];
          best_d = d;
        }
    }
  return best;
}

int
dm_cli_unknown_option (const dm_opt_parser *p, const char *name, size_t len, char *why,
                       size_t why_size)
{
  const char *best = NULL;
  size_t best_d = (size_t) -1;

  for (size_t k = 0; k < p->n_table; k++)
    {
      const char *o = p->table[k].name;
      size_t d = dm_cli_edit_distance (name, len, o, strlen (o));
      if ((p->table[k].commands & p->command) && d < best_d && dm_cli_is_near (name, len, o))
        {
          best = o;
          best_d = d;
        }
    }
  if (best)
    return dm_why (why, why_size, _ ("unknown option '--%.*s'; did you mean --%s?"),
                   (int) (len < 200 ? len : 200), name, best);
  return dm_why (why, why_size, _ ("unknown option '--%.*s'"), (int) (len < 200 ? len : 200), name);
}
