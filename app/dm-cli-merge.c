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

  dm_report *reports = calloc (n, sizeof *reports);
  const dm_report *rp[DM_MERGE_MAX];
  status = 1;
  unsigned loaded = 0;
  if (!reports)
    {
      fprintf (stderr, _ ("diskmeter-cli merge: out of memory\n"));
      return 1;
    }
  for (; loaded < n; loaded++)
    {
      char *text = NULL;
      size_t len;
      int err = dm_file_read_all (paths[loaded], DM_REPORT_FILE_MAX, &text, &len);
      if (err < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli merge: cannot read %s: %s\n"),
                   dm_cli_shown (paths[loaded]),
                   err == -EFBIG ? "larger than any result file" : dm_strerror (err));
          goto out;
        }
      err = dm_report_load_json (&reports[loaded], text, len, why, sizeof why);
      free (text);
      if (err < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli merge: %s: %s\n"), dm_cli_shown (paths[loaded]),
                   dm_cli_shown (why));
          goto out;
        }
      rp[loaded] = &reports[loaded];
    }

  dm_merge m;
  if (dm_merge_build (&m, rp, paths, n, o.allow_duplicates ? DM_MERGE_ALLOW_DUPLICATES : 0, why,
                      sizeof why) < 0)
    {
      fprintf (stderr, _ ("diskmeter-cli merge: %s\n"), dm_cli_shown (why));
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
  dm_merge_clear (&m);
  if (err < 0)
    fprintf (stderr, _ ("diskmeter-cli merge: cannot write %s: %s\n"),
             output ? dm_cli_shown (output) : "the report", dm_cli_shown (why));
  else
    status = 0;

out:
  for (unsigned i = 0; i < loaded; i++)
    dm_report_clear (&reports[i]);
  free (reports);
  return status;
}
