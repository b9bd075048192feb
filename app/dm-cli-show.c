/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli show FILE: a saved run (from the window, another machine
 * or a pipe) printed again as text in CrystalDiskMark's layout, JSON or
 * CSV, with its latency table if asked; a saved sweep as the sweep command
 * prints it (QD x T tables, the knee). It reads the file as the history
 * and compare do, with their size limit, and never changes it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-cli-commands.h"
#include "dm-latency.h"
#include "dm-platform.h"
#include "dm-sustained.h"
#include "dm-sweep.h"
#include "dm-units.h"

static const char usage[] =
  "Usage: diskmeter-cli show FILE [--format text|json|csv] [--latency] [--samples]\n"
  "                          [--output FILE]\n"
  "Prints a saved run (a JSON report) again, as text, JSON or CSV; a sweep\n"
  "as diskmeter-cli sweep prints it. --samples: with CSV, one row per sample\n"
  "of the timeline.\n";

static int
usage_error (const char *why)
{
  fprintf (stderr, "diskmeter-cli show: %s\n%s", why, usage);
  return 2;
}

/* Sends what was written to stdout, or atomically to file; frees it. */
static int
emit (dm_buf *out, const char *file)
{
  int err;
  if (out->error)
    err = out->error;
  else if (file)
    err = dm_write_file_atomic (file, out);
  else
    err = fwrite (out->data, 1, out->len, stdout) == out->len && fflush (stdout) == 0 ? 0 : -EIO;
  dm_buf_free (out);
  return err;
}

int
dm_cli_write_report (const dm_report *r, const char *format, bool latency, const char *file)
{
  dm_buf out;
  dm_buf_init (&out);
  if (!strcmp (format, "json"))
    dm_report_write_json (r, &out);
  else if (!strcmp (format, "csv"))
    dm_report_write_csv (r, &out);
  else
    {
      dm_report_write_text (r, &out);
      if (latency)
        dm_report_write_latency (r, &out);
    }
  return emit (&out, file);
}

/* A sweep in the sweep command's own forms: its tables, its JSON with the
 * "sweep" member kept, one CSV row per combination. */
static int
write_sweep (const dm_report *r, const dm_sweep_plan *plan, const char *format, bool latency,
             const char *file)
{
  dm_buf out;
  dm_buf_init (&out);
  if (!strcmp (format, "json"))
    dm_sweep_write_json (r, plan, &out);
  else if (!strcmp (format, "csv"))
    dm_sweep_write_csv (r, &out);
  else
    {
      dm_sweep_write_text (r, plan, &out);
      if (latency)
        dm_report_write_latency (r, &out);
    }
  return emit (&out, file);
}

int
dm_cli_show_main (int argc, char **argv)
{
  const char *path = NULL, *format = "text", *output = NULL;
  bool latency = false, samples = false;
  char why[320];
  dm_report r;

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
      if (!strcmp (argv[i], "--latency"))
        {
          latency = true;
          continue;
        }
      if (!strcmp (argv[i], "--samples"))
        {
          samples = true;
          continue;
        }
      if (argv[i][0] == '-' && argv[i][1])
        {
          snprintf (why, sizeof why, "unknown option '%.200s'", argv[i]);
          return usage_error (why);
        }
      if (path)
        return usage_error ("one file at a time (diskmeter-cli compare shows several)");
      path = argv[i];
    }
  if (!path)
    return usage_error ("which file?");
  if (strcmp (format, "text") && strcmp (format, "json") && strcmp (format, "csv"))
    return usage_error ("--format must be text, json or csv");
  if (latency && strcmp (format, "text"))
    return usage_error ("--latency goes with the text format (JSON and CSV carry it already)");
  if (output && !*output)
    return usage_error ("--output needs a file name");
  if (samples && strcmp (format, "csv"))
    return usage_error ("--samples goes with --format csv (JSON carries the samples)");

  char *text = NULL;
  size_t len;
  int err = dm_file_read_all (path, DM_REPORT_FILE_MAX, &text, &len);
  if (err < 0)
    {
      fprintf (stderr, "diskmeter-cli show: cannot read %s: %s\n", path,
               err == -EFBIG ? "larger than any result file" : dm_strerror (err));
      return 1;
    }
  memset (&r, 0, sizeof r);
  if (dm_report_load_json (&r, text, len, why, sizeof why) < 0)
    {
      free (text);
      dm_report_clear (&r);
      fprintf (stderr, "diskmeter-cli show: %s: %s\n", path, why);
      return 1;
    }
  dm_sweep_plan plan;
  if (samples)
    {
      dm_buf out;
      dm_buf_init (&out);
      dm_report_write_samples_csv (&r, &out);
      err = emit (&out, output);
    }
  else if (dm_sustained_is (&r, text, len))
    {
      /* A sustained run as the sustained command prints it. */
      dm_buf out;
      dm_buf_init (&out);
      if (!strcmp (format, "json"))
        dm_sustained_write_json (&r, &out);
      else if (!strcmp (format, "csv"))
        dm_report_write_samples_csv (&r, &out);
      else
        dm_sustained_write_text (&r, &out);
      err = emit (&out, output);
    }
  else if (dm_sweep_plan_from_json (&r, text, len, &plan) == 0)
    err = write_sweep (&r, &plan, format, latency, output);
  else
    err = dm_cli_write_report (&r, format, latency, output);
  free (text);
  dm_report_clear (&r);
  if (err < 0)
    {
      fprintf (stderr, "diskmeter-cli show: cannot write %s: %s\n", output ? output : "the report",
               dm_strerror (err));
      return 1;
    }
  return 0;
}
