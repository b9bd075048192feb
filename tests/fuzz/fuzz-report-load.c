/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target: anything may arrive as a "result file" (history, the
 * compare command, the window's Open). Loading must refuse or succeed
 * without touching memory it does not own, and whatever loads must write
 * back out as text, JSON and CSV, and compare with itself.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dm-compare.h"
#include "dm-report.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  dm_report r;
  char why[256];
  if (dm_report_load_json (&r, (const char *) data, size, why, sizeof why) < 0)
    {
      /* A refusal always says why. */
      if (!why[0])
        abort ();
      return 0;
    }
  dm_buf out;
  dm_buf_init (&out);
  dm_report_write_text (&r, &out);
  dm_report_write_csv (&r, &out);
  dm_buf_clear (&out);
  dm_report_write_json (&r, &out);

  /* What we write, we must read back. */
  dm_report again;
  if (dm_report_load_json (&again, out.data, out.len, why, sizeof why) < 0)
    abort ();
  if (again.n_results != r.n_results)
    abort ();

  const dm_report *pair[2] = { &r, &again };
  const char *names[2] = { "a", "b" };
  dm_compare c;
  if (dm_compare_build (&c, pair, names, 2, DM_UNIT_US) == 0)
    {
      dm_compare_sort (&c, 1);
      dm_buf_clear (&out);
      dm_compare_write_text (&c, &out);
      dm_compare_write_csv (&c, &out);
      dm_compare_write_json (&c, &out);
      dm_compare_clear (&c);
    }
  dm_buf_free (&out);
  dm_report_clear (&again);
  dm_report_clear (&r);
  return 0;
}
