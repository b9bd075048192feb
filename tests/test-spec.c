/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Test names as CrystalDiskMark users write them: the names every profile
 * uses parse to the right pattern, block size, queue depth and threads,
 * anything outside the limits is refused with a reason, and the names and
 * labels the grid and the saved text show come back out unchanged.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dm-spec.h"
#include "dm-test.h"

static void
check_parse (const char *text, dm_pattern pattern, uint32_t block, unsigned q, unsigned t)
{
  dm_spec s;
  char why[256] = "";
  int err = dm_spec_parse (text, &s, why, sizeof why);
  if (err != 0)
    {
      fprintf (stderr, "'%s' refused: %s\n", text, why);
      dm_test_case_failed = 1;
      return;
    }
  DM_CHECK_INT (s.pattern, ==, pattern);
  DM_CHECK_INT (s.block_size, ==, block);
  DM_CHECK_INT (s.queue_depth, ==, q);
  DM_CHECK_INT (s.threads, ==, t);
}

static void
test_parse (void)
{
  check_parse ("SEQ1M_Q8T1", DM_SEQ, 1 << 20, 8, 1);
  check_parse ("SEQ1M_Q1T1", DM_SEQ, 1 << 20, 1, 1);
  check_parse ("SEQ128K_Q32T1", DM_SEQ, 128 << 10, 32, 1);
  check_parse ("RND4K_Q32T1", DM_RND, 4 << 10, 32, 1);
  check_parse ("RND4K_Q32T16", DM_RND, 4 << 10, 32, 16);
  check_parse ("RND4K_Q1T1", DM_RND, 4 << 10, 1, 1);
  /* The largest test there is. */
  check_parse ("SEQ8M_Q512T64", DM_SEQ, 8 << 20, 512, 64);
  /* Typed by hand: any case, with or without the "iB". */
  check_parse ("seq1m_q8t1", DM_SEQ, 1 << 20, 8, 1);
  check_parse ("rnd4k_q32t16", DM_RND, 4 << 10, 32, 16);
  check_parse ("Seq128k_Q32t1", DM_SEQ, 128 << 10, 32, 1);
  check_parse ("SEQ1MiB_Q8T1", DM_SEQ, 1 << 20, 8, 1);
  check_parse ("RND4KiB_Q1T1", DM_RND, 4 << 10, 1, 1);
  check_parse ("SEQ1024K_Q8T1", DM_SEQ, 1 << 20, 8, 1);
}

static void
check_refused (const char *text)
{
  dm_spec s = { DM_SEQ, 12345, 77, 7 }, before = s;
  char why[256] = "";
  int err = dm_spec_parse (text, &s, why, sizeof why);
  if (err != -EINVAL)
    {
      fprintf (stderr, "'%s' gave %d, not -EINVAL\n", text, err);
      dm_test_case_failed = 1;
      return;
    }
  /* A reason the user can act on, on one line; the spec is left alone. */
  DM_CHECK (why[0] != '\0');
  DM_CHECK (strchr (why, '\n') == NULL);
  DM_CHECK (dm_spec_equal (&s, &before));
}

static void
test_refuse (void)
{
  check_refused ("SEQ3K_Q1T1");      /* not a power of two, below 4KiB */
  check_refused ("SEQ2K_Q1T1");      /* below 4KiB */
  check_refused ("SEQ16M_Q1T1");     /* above 8MiB */
  check_refused ("SEQ12K_Q1T1");     /* not a power of two */
  check_refused ("RND4K_Q0T1");
  check_refused ("RND4K_Q513T1");
  check_refused ("RND4K_Q1T0");
  check_refused ("RND4K_Q1T65");
  check_refused ("hello");
  check_refused ("");
  check_refused ("SEQ");
  check_refused ("SEQ1M");
  check_refused ("SEQ1M_Q8");
  check_refused ("SEQ1M_Q8T");
  check_refused ("SEQ1M_Q8T1x");     /* trailing junk */
  check_refused ("SEQ1M_Q8T1 ");
  check_refused ("SEQ1M_Q8T1,");
  check_refused (" SEQ1M_Q8T1");
  check_refused ("SEQ1G_Q1T1");
  check_refused ("SEQ1_Q1T1");       /* no unit */
  check_refused ("SEQ-1M_Q1T1");
  check_refused ("RND4K_Q-1T1");
  check_refused ("RND4K_Q+1T1");
  /* Huge numbers must be refused, not wrap around into a valid test. */
  check_refused ("SEQ99999999999M_Q1T1");
  check_refused ("RND4K_Q4294967297T1");
  check_refused ("RND4K_Q65537T1");  /* 1 in a 16-bit field */
  check_refused ("RND4K_Q1T65537");
  check_refused ("SEQ4100M_Q1T1");   /* 4 MiB modulo 2^32 */
  check_refused ("SEQ4194308K_Q1T1"); /* 4 KiB modulo 2^32 */
  check_refused ("SEQ17592186044420K_Q1T1");

  dm_spec s;
  DM_CHECK_INT (dm_spec_parse (NULL, &s, NULL, 0), ==, -EINVAL);
  /* why is optional. */
  DM_CHECK_INT (dm_spec_parse ("SEQ3K_Q1T1", &s, NULL, 0), ==, -EINVAL);
}

static void
check_labels (const char *text, const char *name, const char *label, const char *text_label)
{
  dm_spec s, back;
  char buf[64];
  DM_CHECK_INT (dm_spec_parse (text, &s, NULL, 0), ==, 0);
  dm_spec_name (&s, buf, sizeof buf);
  DM_CHECK_STR (buf, name);
  dm_spec_label (&s, buf, sizeof buf);
  DM_CHECK_STR (buf, label);
  dm_spec_text_label (&s, buf, sizeof buf);
  DM_CHECK_STR (buf, text_label);
  /* The canonical name reads back as the same test. */
  dm_spec_name (&s, buf, sizeof buf);
  DM_CHECK_INT (dm_spec_parse (buf, &back, NULL, 0), ==, 0);
  DM_CHECK (dm_spec_equal (&s, &back));
}

static void
test_labels (void)
{
  check_labels ("SEQ1M_Q8T1", "SEQ1M_Q8T1", "SEQ1M / Q8T1", "SEQ    1MiB (Q=  8, T= 1)");
  check_labels ("seq1m_q1t1", "SEQ1M_Q1T1", "SEQ1M / Q1T1", "SEQ    1MiB (Q=  1, T= 1)");
  check_labels ("SEQ128K_Q32T1", "SEQ128K_Q32T1", "SEQ128K / Q32T1", "SEQ  128KiB (Q= 32, T= 1)");
  check_labels ("RND4K_Q32T16", "RND4K_Q32T16", "RND4K / Q32T16", "RND    4KiB (Q= 32, T=16)");
  check_labels ("RND4K_Q1T1", "RND4K_Q1T1", "RND4K / Q1T1", "RND    4KiB (Q=  1, T= 1)");
  check_labels ("SEQ1024K_Q8T1", "SEQ1M_Q8T1", "SEQ1M / Q8T1", "SEQ    1MiB (Q=  8, T= 1)");
  check_labels ("SEQ8M_Q512T64", "SEQ8M_Q512T64", "SEQ8M / Q512T64", "SEQ    8MiB (Q=512, T=64)");
  check_labels ("RND512K_Q4T2", "RND512K_Q4T2", "RND512K / Q4T2", "RND  512KiB (Q=  4, T= 2)");
}

/* Every valid test's name parses back to it, so a saved report's names can
 * always be run again. */
static void
test_round_trip (void)
{
  static const unsigned qs[] = { 1, 2, 8, 32, 64, 511, 512 };
  static const unsigned ts[] = { 1, 2, 16, 63, 64 };
  unsigned bad = 0;
  for (int p = 0; p < 2; p++)
    for (uint32_t b = DM_BLOCK_MIN; b <= DM_BLOCK_MAX; b *= 2)
      for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++)
        for (size_t j = 0; j < sizeof ts / sizeof ts[0]; j++)
          {
            dm_spec s = { p ? DM_RND : DM_SEQ, b, (uint16_t) qs[i], (uint16_t) ts[j] }, back;
            char name[32];
            dm_spec_name (&s, name, sizeof name);
            if (dm_spec_parse (name, &back, NULL, 0) != 0 || !dm_spec_equal (&s, &back))
              {
                if (!bad++)
                  fprintf (stderr, "'%s' does not read back\n", name);
              }
          }
  DM_CHECK_INT (bad, ==, 0);
}

static void
test_modes (void)
{
  unsigned mask = 0;
  char why[256] = "";
  dm_mode m;

  DM_CHECK_INT (dm_modes_parse ("read,write,mix", &mask, why, sizeof why), ==, 0);
  DM_CHECK_INT (mask, ==, DM_MODES_ALL);
  DM_CHECK_INT (dm_modes_parse ("read", &mask, why, sizeof why), ==, 0);
  DM_CHECK_INT (mask, ==, DM_MODE_BIT (DM_MODE_READ));
  DM_CHECK_INT (dm_modes_parse ("Write,MIX", &mask, why, sizeof why), ==, 0);
  DM_CHECK_INT (mask, ==, DM_MODE_BIT (DM_MODE_WRITE) | DM_MODE_BIT (DM_MODE_MIX));
  DM_CHECK_INT (dm_modes_parse ("mix,read", &mask, why, sizeof why), ==, 0);
  DM_CHECK_INT (mask, ==, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_MIX));

  static const char *const bad[] = { "", "reed", "read,,write", ",read", "read;write",
                                     "read write", "readwrite", "verylongmodename" };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      mask = 12345;
      why[0] = '\0';
      if (dm_modes_parse (bad[i], &mask, why, sizeof why) != -EINVAL)
        {
          fprintf (stderr, "modes '%s' accepted\n", bad[i]);
          dm_test_case_failed = 1;
        }
      DM_CHECK (why[0] != '\0');
      DM_CHECK_INT (mask, ==, 12345);
    }
  DM_CHECK_INT (dm_modes_parse (NULL, &mask, NULL, 0), ==, -EINVAL);

  for (int i = 0; i < DM_N_MODES; i++)
    {
      DM_CHECK_INT (dm_mode_parse (dm_mode_name ((dm_mode) i), &m), ==, 0);
      DM_CHECK_INT (m, ==, i);
    }
  DM_CHECK_STR (dm_mode_name (DM_MODE_READ), "read");
  DM_CHECK_STR (dm_mode_title (DM_MODE_WRITE), "Write");
  DM_CHECK_STR (dm_mode_title (DM_MODE_MIX), "Mix");
  DM_CHECK_INT (dm_mode_parse ("both", &m), ==, -EINVAL);
}

int
main (void)
{
  DM_RUN ("/engine/spec/parse", test_parse);
  DM_RUN ("/engine/spec/refuse", test_refuse);
  DM_RUN ("/engine/spec/labels", test_labels);
  DM_RUN ("/engine/spec/round-trip", test_round_trip);
  DM_RUN ("/engine/spec/modes", test_modes);
  return dm_test_done ();
}
