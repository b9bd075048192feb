/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli compare: two or more saved JSON results side by side, each
 * later one against the first, in one unit, as text, CSV or JSON. A file
 * that is not a readable Diskmeter result stops the command with its name
 * and the reason; so does one that ran another profile than the first
 * (workload rows of other shapes, or workloads against CrystalDiskMark's
 * tests), whose rows would not be the same things, unless --allow-profiles.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-i18n.h"
#include "dm-cli-xlsx.h"
#include "dm-compare.h"
#include "dm-units.h"

int
dm_cli_compare_main (int argc, char **argv)
{
  static dm_cli_options o;
  const char *const *files = o.args, *output;
  dm_report reports[DM_COMPARE_MAX];
  const dm_report *ptrs[DM_COMPARE_MAX];
  unsigned n, loaded = 0;
  int status;

  if ((status = dm_cli_start (DM_CLI_COMPARE, argc, argv, &o)) >= 0)
    return status;
  status = 0;
  n = o.n_args;
  output = o.output;

  for (; loaded < n; loaded++)
    {
      char *text = NULL, why[320];
      size_t len;
      int err = dm_file_read_all (files[loaded], DM_REPORT_FILE_MAX, &text, &len);
      if (err < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli compare: cannot read %s: %s\n"),
                   dm_cli_shown (files[loaded]),
                   err == -EFBIG ? "larger than any result file" : dm_strerror (err));
          status = 1;
          break;
        }
      err = dm_report_load_json (&reports[loaded], text, len, why, sizeof why);
      free (text);
      if (err < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli compare: %s: %s\n"), dm_cli_shown (files[loaded]),
                   dm_cli_shown (why));
          status = 1;
          break;
        }
      ptrs[loaded] = &reports[loaded];
      if (loaded && !o.allow_profiles
          && !dm_report_same_profile (&reports[0], &reports[loaded], why, sizeof why))
        {
          /* A usage error: the files are fine, asking to compare them is not. */
          fprintf (stderr, _ ("diskmeter-cli compare: %s against %s: %s; --allow-profiles "
                              "compares them anyway\n"),
                   dm_cli_shown (files[loaded]), dm_cli_shown (files[0]), dm_cli_shown (why));
          status = DM_CLI_EXIT_USAGE;
          loaded++;
          break;
        }
    }

  if (!status && o.format == DM_FORMAT_XLSX)
    {
      /* A workbook of the runs themselves, a row per run, each labelled by
       * its comment or else its file. */
      const char *labels[DM_COMPARE_MAX];
      char why[320];
      for (unsigned i = 0; i < n; i++)
        labels[i] = reports[i].comment[0] ? reports[i].comment : files[i];
      if (dm_cli_xlsx_write_runs (ptrs, labels, n, o.thresholds, o.n_thresholds, output, why,
                                  sizeof why) < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli compare: cannot write %s: %s\n"),
                   dm_cli_shown (output), dm_cli_shown (why));
          status = 1;
        }
    }
  else if (!status)
    {
      dm_compare c;
      dm_buf out;
      dm_buf_init (&out);
      if (dm_compare_build (&c, ptrs, files, n, o.unit) < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli compare: out of memory\n"));
          status = 1;
        }
      else
        {
          /* Limits given here win; otherwise those saved with the first run. */
          if (o.n_thresholds)
            dm_compare_set_thresholds (&c, o.thresholds, o.n_thresholds);
          else
            dm_compare_set_thresholds (&c, ptrs[0]->thresholds, ptrs[0]->n_thresholds);
          dm_compare_sort (&c, o.sort);
          if (o.format == DM_FORMAT_CSV)
            dm_compare_write_csv (&c, &out);
          else if (o.format == DM_FORMAT_JSON)
            dm_compare_write_json (&c, &out);
          else
            dm_compare_write_text (&c, &out);
          int err = dm_cli_emit (&out, output);
          if (err < 0)
            {
              fprintf (stderr, _ ("diskmeter-cli compare: cannot write %s: %s\n"),
                       output ? dm_cli_shown (output) : "the comparison", dm_strerror (err));
              status = 1;
            }
          dm_compare_clear (&c);
        }
      dm_buf_free (&out);
    }
  for (unsigned i = 0; i < loaded; i++)
    dm_report_clear (&reports[i]);
  return status;
}
