/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target for the small parsers users feed by hand: test names,
 * sizes, durations, counts, mode lists, units and dates. A parse that
 * succeeds must give a value in range that formats back to something the
 * same parser accepts. A study plan either parses into a plan with a
 * name, tests, Q, T and targets, or is refused with one line.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dm-spec.h"
#include "dm-study.h"
#include "dm-units.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *s = malloc (size + 1), why[200], buf[64];
  if (!s)
    return 0;
  memcpy (s, data, size);
  s[size] = '\0';

  dm_spec spec, back;
  if (dm_spec_parse (s, &spec, why, sizeof why) == 0)
    {
      if (spec.block_size < DM_BLOCK_MIN || spec.block_size > DM_BLOCK_MAX
          || spec.queue_depth < 1 || spec.queue_depth > DM_QUEUE_MAX || spec.threads < 1
          || spec.threads > DM_THREADS_MAX)
        abort ();
      dm_spec_name (&spec, buf, sizeof buf);
      if (dm_spec_parse (buf, &back, why, sizeof why) < 0 || !dm_spec_equal (&spec, &back))
        abort ();
      dm_spec_label (&spec, buf, sizeof buf);
      dm_spec_text_label (&spec, buf, sizeof buf);
    }

  uint64_t bytes, again;
  if (dm_size_parse (s, &bytes, why, sizeof why) == 0)
    {
      dm_size_format (bytes, buf, sizeof buf);
      if (dm_size_parse (buf, &again, why, sizeof why) < 0 || again != bytes)
        abort ();
    }

  double seconds;
  if (dm_duration_parse (s, &seconds, why, sizeof why) == 0
      && (!isfinite (seconds) || seconds < 0 || seconds > 86400))
    abort ();

  unsigned u, mask;
  if (dm_uint_parse (s, 1, 9, &u, why, sizeof why) == 0 && (u < 1 || u > 9))
    abort ();
  if (dm_modes_parse (s, &mask, why, sizeof why) == 0 && (!mask || mask & ~7u))
    abort ();
  dm_unit unit;
  dm_unit_parse (s, &unit);
  dm_parse_iso_time (s);

  /* A plan naming a thresholds file would read whatever file it names
   * (a FIFO would never answer): those are left to the unit tests. */
  static dm_study_plan plan;
  char reason[400];
  if (!strstr (s, "hresholds"))
    {
      if (dm_study_plan_parse (s, size, NULL, &plan, reason, sizeof reason) == 0)
        {
          if (!plan.name[0] || !plan.n_tests || !plan.n_qd || !plan.n_threads
              || !plan.n_targets || plan.n_targets > DM_STUDY_TARGETS_MAX)
            abort ();
          for (unsigned i = 0; i < plan.n_targets; i++)
            if (!plan.targets[i].label[0] || !plan.targets[i].path[0])
              abort ();
        }
      else if (!reason[0] || strchr (reason, '\n'))
        abort ();
    }
  dm_study_rule rule;
  if (dm_study_rule_parse (s, &rule, reason, sizeof reason) == 0 && !rule.t.has_green
      && !rule.t.has_red)
    abort ();
  free (s);
  return 0;
}
