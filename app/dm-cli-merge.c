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
#include "dm-cli-xlsx.h"
#include "dm-merge.h"
#include "dm-platform.h"

static const char usage[] =
  "Usage: diskmeter-cli merge A.json B.json [C.json...] [--format text|json|csv|xlsx]\n"
  "                           [--output FILE]\n"
  "Adds up the results of hosts that ran the same tests with the same settings at\n"
  "the same time (diskmeter-cli --start-at): MB/s and IOPS summed over hosts, each\n"
  "host's own figures, the spread between hosts, and latency percentiles of all\n"
  "I/Os from the hosts' merged histograms. --format xlsx needs --output.\n";

static int
usage_error (const char *why)
{
  fprintf (stderr, "diskmeter-cli merge: %s\n%s", why, usage);
  return 2;
}

int
dm_cli_merge_main (int argc, char **argv)
{
  const char *format = "text", *output = NULL;
  const char *paths[DM_MERGE_MAX];
  unsigned n = 0;
  char why[512];

  for (int i = 1; i < argc; i++)
    {
      if (!strcmp (argv[i], "--help") || !strcmp (argv[i], "-h"))
        {
          fputs (usage, stdout);
          return 0;
        }
      if (!strcmp (argv[i], "--format") || !strcmp (argv[i], "--output"))
        {
          if (i + 1 >= argc)
            {
              snprintf (why, sizeof why, "%s needs a value", argv[i]);
              return usage_error (why);
            }
          if (!strcmp (argv[i], "--output"))
            output = argv[++i];
          else
            format = argv[++i];
          continue;
        }
      if (argv[i][0] == '-' && argv[i][1])
        {
          snprintf (why, sizeof why, "unknown option '%.200s'", argv[i]);
          return usage_error (why);
        }
      if (n == DM_MERGE_MAX)
        {
          snprintf (why, sizeof why, "at most %d files", DM_MERGE_MAX);
          return usage_error (why);
        }
      paths[n++] = argv[i];
    }
  if (n < 2)
    return usage_error ("merge needs two result files or more");
  if (strcmp (format, "text") && strcmp (format, "json") && strcmp (format, "csv")
      && strcmp (format, "xlsx"))
    return usage_error ("--format must be text, json, csv or xlsx");
  if (!strcmp (format, "xlsx") && !dm_cli_xlsx_available)
    {
      fprintf (stderr, "diskmeter-cli merge: this diskmeter-cli was built without Excel "
                       "support (libxlsxwriter); use --format csv\n");
      return 1;
    }
  if (!strcmp (format, "xlsx") && !output)
    return usage_error ("--format xlsx writes a file: give it with --output");
  if (output && !*output)
    return usage_error ("--output needs a file name");

  dm_report *reports = calloc (n, sizeof *reports);
  const dm_report *rp[DM_MERGE_MAX];
  int status = 1;
  unsigned loaded = 0;
  if (!reports)
    {
      fprintf (stderr, "diskmeter-cli merge: out of memory\n");
      return 1;
    }
  for (; loaded < n; loaded++)
    {
      char *text = NULL;
      size_t len;
      int err = dm_file_read_all (paths[loaded], DM_REPORT_FILE_MAX, &text, &len);
      if (err < 0)
        {
          fprintf (stderr, "diskmeter-cli merge: cannot read %s: %s\n", paths[loaded],
                   err == -EFBIG ? "larger than any result file" : dm_strerror (err));
          goto out;
        }
      err = dm_report_load_json (&reports[loaded], text, len, why, sizeof why);
      free (text);
      if (err < 0)
        {
          fprintf (stderr, "diskmeter-cli merge: %s: %s\n", paths[loaded], why);
          goto out;
        }
      rp[loaded] = &reports[loaded];
    }

  dm_merge m;
  if (dm_merge_build (&m, rp, paths, n, why, sizeof why) < 0)
    {
      fprintf (stderr, "diskmeter-cli merge: %s\n", why);
      goto out;
    }
  int err;
  if (!strcmp (format, "xlsx"))
    err = dm_cli_xlsx_write_merge (&m, output, why, sizeof why);
  else
    {
      dm_buf out;
      dm_buf_init (&out);
      if (!strcmp (format, "json"))
        dm_merge_write_json (&m, &out);
      else if (!strcmp (format, "csv"))
        dm_merge_write_csv (&m, &out);
      else
        dm_merge_write_text (&m, &out);
      if (out.error)
        err = out.error;
      else if (output)
        err = dm_write_file_atomic (output, &out);
      else
        err = fwrite (out.data, 1, out.len, stdout) == out.len && fflush (stdout) == 0 ? 0 : -EIO;
      dm_buf_free (&out);
      snprintf (why, sizeof why, "%s", dm_strerror (err));
    }
  dm_merge_clear (&m);
  if (err < 0)
    fprintf (stderr, "diskmeter-cli merge: cannot write %s: %s\n", output ? output : "the report",
             why);
  else
    status = 0;

out:
  for (unsigned i = 0; i < loaded; i++)
    dm_report_clear (&reports[i]);
  free (reports);
  return status;
}
