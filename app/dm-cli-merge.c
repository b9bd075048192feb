/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli merge A.json B.json ...: one report of a fleet run, the
 * hosts' results added up by the engine's merge (dm-merge.h), as text,
 * JSON, CSV or an Excel workbook. Files that cannot be merged are refused
 * with the file named, and nothing is written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-i18n.h"
#include "dm-cli-xlsx.h"
#include "dm-merge.h"
#include "dm-platform.h"

int
dm_cli_merge_main (int argc, char **argv)
{
  static dm_cli_options o;
  const char *output;
  const char *const *paths = o.args;
  unsigned n;
  char why[512];
  int status;

  if ((status = dm_cli_start (DM_CLI_MERGE, argc, argv, &o)) >= 0)
    return status;
  n = o.n_args;
  output = o.output;
  if (o.format == DM_FORMAT_XLSX && !dm_cli_xlsx_available)
    {
      fprintf (stderr, _ ("diskmeter-cli merge: this diskmeter-cli was built without Excel "
                       "support (libxlsxwriter); use --format csv\n"));
      return 1;
    }

  /* One report at a time: read, added to the merge and dropped, so a
   * fleet of thousands of hosts needs memory for its tests, not for every
   * host's report. After a file the merge refuses, the rest are still
   * read, because a file that cannot be read at all is named first, as
   * it always was. */
  static dm_report report;
  dm_merge m;
  char refused[sizeof why] = "";
  status = 1;
  if (dm_merge_begin (&m, (o.allow_duplicates ? DM_MERGE_ALLOW_DUPLICATES : 0)
                          | (o.allow_profiles ? DM_MERGE_ALLOW_PROFILES : 0)) < 0)
    {
      fprintf (stderr, _ ("diskmeter-cli merge: out of memory\n"));
      return 1;
    }
  for (unsigned h = 0; h < n; h++)
    {
      char *text = NULL;
      size_t len;
      int err = dm_file_read_all (paths[h], DM_REPORT_FILE_MAX, &text, &len);
      if (err < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli merge: cannot read %s: %s\n"), dm_cli_shown (paths[h]),
                   err == -EFBIG ? "larger than any result file" : dm_strerror (err));
          goto out;
        }
      err = dm_report_load_json (&report, text, len, why, sizeof why);
      free (text);
      if (err < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli merge: %s: %s\n"), dm_cli_shown (paths[h]),
                   dm_cli_shown (why));
          goto out;
        }
      if (!refused[0] && dm_merge_add (&m, &report, paths[h], refused, sizeof refused) < 0
          && !refused[0])
        snprintf (refused, sizeof refused, "%s: cannot be merged", paths[h]);
      dm_report_clear (&report);
    }
  if (refused[0] || dm_merge_end (&m, refused, sizeof refused) < 0)
    {
      fprintf (stderr, _ ("diskmeter-cli merge: %s\n"), dm_cli_shown (refused));
      goto out;
    }
  int err;
  if (o.format == DM_FORMAT_XLSX)
    err = dm_cli_xlsx_write_merge (&m, output, why, sizeof why);
  else
    {
      dm_buf out;
      dm_buf_init (&out);
      if (o.format == DM_FORMAT_JSON)
        dm_merge_write_json (&m, &out);
      else if (o.format == DM_FORMAT_CSV)
        dm_merge_write_csv (&m, &out);
      else
        dm_merge_write_text (&m, &out);
      err = dm_cli_emit (&out, output);
      dm_buf_free (&out);
      snprintf (why, sizeof why, "%s", dm_strerror (err));
    }
  if (err < 0)
    fprintf (stderr, _ ("diskmeter-cli merge: cannot write %s: %s\n"),
             output ? dm_cli_shown (output) : "the report", dm_cli_shown (why));
  else
    status = 0;

out:
  dm_merge_clear (&m);
  return status;
}
