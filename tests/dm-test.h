/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A few macros for Diskmeter's C tests, in the spirit of GTest: each case
 * prints its path and "ok" or the failed check with file and line, and the
 * program exits non-zero if any check failed (77 to skip). Plain C, so the
 * same tests run on Linux and, cross-built, under Wine.
 */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int dm_test_failures;
static int dm_test_case_failed;

#define DM_CHECK(cond)                                                                \
  do                                                                                  \
    {                                                                                 \
      if (!(cond))                                                                    \
        {                                                                             \
          fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
          dm_test_case_failed = 1;                                                    \
        }                                                                             \
    }                                                                                 \
  while (0)

#define DM_CHECK_INT(a, op, b)                                                        \
  do                                                                                  \
    {                                                                                 \
      long long dm_a_ = (long long) (a), dm_b_ = (long long) (b);                     \
      if (!(dm_a_ op dm_b_))                                                          \
        {                                                                             \
          fprintf (stderr, "%s:%d: check failed: %s %s %s (%lld vs %lld)\n", __FILE__,  \
                   __LINE__, #a, #op, #b, dm_a_, dm_b_);                              \
          dm_test_case_failed = 1;                                                    \
        }                                                                             \
    }                                                                                 \
  while (0)

#define DM_CHECK_STR(a, b)                                                            \
  do                                                                                  \
    {                                                                                 \
      const char *dm_a_ = (a), *dm_b_ = (b);                                          \
      if (!dm_a_ || !dm_b_ || strcmp (dm_a_, dm_b_) != 0)                             \
        {                                                                             \
          fprintf (stderr, "%s:%d: check failed: %s == %s\n  got:  \"%s\"\n  want: \"%s\"\n", \
                   __FILE__, __LINE__, #a, #b, dm_a_ ? dm_a_ : "(null)",              \
                   dm_b_ ? dm_b_ : "(null)");                                         \
          dm_test_case_failed = 1;                                                    \
        }                                                                             \
    }                                                                                 \
  while (0)

#define DM_RUN(path, fn)                                                              \
  do                                                                                  \
    {                                                                                 \
      dm_test_case_failed = 0;                                                        \
      fn ();                                                                          \
      printf ("%s %s\n", dm_test_case_failed ? "FAIL" : "ok  ", path);                \
      fflush (stdout);                                                                \
      dm_test_failures += dm_test_case_failed;                                        \
    }                                                                                 \
  while (0)

static inline int
dm_test_done (void)
{
  return dm_test_failures ? 1 : 0;
}
