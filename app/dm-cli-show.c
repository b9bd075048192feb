/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli show FILE: a saved run (from the window, another machine
 * or a pipe) printed again as text in CrystalDiskMark's layout, JSON or
 * CSV, with its latency table if asked; a saved sweep as the sweep command
 * prints it (QD x T tables, the knee), a saved capture as capture does. It reads the file as the history
 * and compare do, with their size limit, and never changes it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-capture.h"
#include "dm-headroom.h"
#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-concurrent.h"
#include "dm-i18n.h"
#include "dm-latency.h"
#include "dm-platform.h"
#include "dm-firstwrite.h"
#include "dm-sustained.h"
#include "dm-cache-probe.h"
#include "dm-sweep.h"
#include "dm-units.h"

/* Sends what was written to stdout, or atomically to file; frees it. */
static int
emit (dm_buf *out, const char *file)
{
  int err = dm_cli_emit (out, file);
  dm_buf_free (out);
  return err;
}

/* A sweep in the sweep command's own forms: its tables, its JSON with the
 * "sweep" member kept, one CSV row per combination. */
static int
write_sweep (const dm_report *r, const dm_sweep_plan *plan, dm_format format, bool latency,
             const char *file)
{
  dm_buf out;
  dm_buf_init (&out);
  if (format == DM_FORMAT_JSON)
    dm_sweep_write_json (r, plan, &out);
  else if (format == DM_FORMAT_CSV)
    dm_sweep_write_csv (r, &out);
  else
    {
      dm_sweep_write_text (r, plan, &out);
      if (latency)
        dm_report_write_latency (r, &out);
    }
  return emit (&out, file);
}

/* A concurrent run (--concurrent) as the run printed it: each target and
 * the total, added up again from the targets it keeps. 1 when the file is
 * none; otherwise 0 or -errno, after saying why. */
static int
show_concurrent (const char *path, const char *text, size_t len, dm_format format, bool latency,
                 const char *file)
{
  static dm_report reports[DM_CONCURRENT_MAX];
  const dm_report *list[DM_CONCURRENT_MAX];
  dm_report total;
  unsigned n;
  char why[400];
  int err = dm_concurrent_load (text, len, reports, DM_CONCURRENT_MAX, &n, why, sizeof why);
  if (err == -ENOENT)
    return 1;
  if (err == 0)
    {
      for (unsigned k = 0; k < n; k++)
        list[k] = &reports[k];
      err = dm_concurrent_total (&total, list, n, why, sizeof why);
      if (err < 0)
        for (unsigned k = 0; k < n; k++)
          dm_report_clear (&reports[k]);
    }
  if (err < 0)
    {
      fprintf (stderr, _ ("diskmeter-cli show: %s: %s\n"), dm_cli_shown (path), dm_cli_shown (why));
      return -EINVAL;
    }
  dm_buf out;
  dm_buf_init (&out);
  if (format == DM_FORMAT_JSON)
    dm_concurrent_write_json (list, n, &total, &out);
  else if (format == DM_FORMAT_CSV)
    dm_concurrent_write_csv (list, n, &total, &out);
  else
    {
      dm_concurrent_write_text (list, n, &total, &out);
      if (latency)
        {
          dm_buf_add (&out, "\nTotal: every target's I/Os\n");
          dm_report_write_latency (&total, &out);
        }
    }
  dm_report_clear (&total);
  for (unsigned k = 0; k < n; k++)
    dm_report_clear (&reports[k]);
  err = emit (&out, file);
  if (err < 0)
    fprintf (stderr, _ ("diskmeter-cli show: cannot write %s: %s\n"),
             file ? dm_cli_shown (file) : "the report", dm_strerror (err));
  return err < 0 ? err : 0;
}

/* A capture (diskmeter-cli capture --format json) as the capture printed
 * it. 1 when the file is none; otherwise 0 or -errno, after saying why. */
static int
show_capture (const char *path, const char *text, size_t len, dm_format format, const char *file)
{
  static dm_capture c;
  char why[320];
  dm_capture_init (&c);
  int err = dm_capture_load_json (&c, text, len, why, sizeof why);
  if (err == 1)
    return 1;
  if (err < 0)
    {
      dm_capture_clear (&c);
      fprintf (stderr, _ ("diskmeter-cli show: %s: %s\n"), dm_cli_shown (path), dm_cli_shown (why));
      return err;
    }
  dm_buf out;
  dm_buf_init (&out);
  if (format == DM_FORMAT_JSON)
    dm_capture_write_json (&c, &out);
  else if (format == DM_FORMAT_CSV)
    dm_capture_write_csv (&c, &out);
  else
    dm_capture_write_text (&c, &out);
  dm_capture_clear (&c);
  if ((err = emit (&out, file)) < 0)
    fprintf (stderr, _ ("diskmeter-cli show: cannot write %s: %s\n"),
             file ? dm_cli_shown (file) : "the capture", dm_strerror (err));
  return err < 0 ? err : 0;
}

int
dm_cli_show_main (int argc, char **argv)
{
  static dm_cli_options o;
  const char *path, *output;
  dm_format format;
  bool latency, samples;
  char why[320];
  dm_report r;
  int status;

  if ((status = dm_cli_start (DM_CLI_SHOW, argc, argv, &o)) >= 0)
    return status;
  path = o.args[0];
  output = o.output;
  format = o.format;
  latency = o.latency;
  samples = o.samples;

  char *text = NULL;
  size_t len;
  int err = dm_file_read_all (path, DM_REPORT_FILE_MAX, &text, &len);
  if (err < 0)
    {
      fprintf (stderr, _ ("diskmeter-cli show: cannot read %s: %s\n"), dm_cli_shown (path),
               err == -EFBIG ? "larger than any result file" : dm_strerror (err));
      return 1;
    }
  if ((err = show_capture (path, text, len, format, output)) <= 0)
    {
      free (text);
      return err < 0 ? 1 : 0;
    }
  memset (&r, 0, sizeof r);
  if (dm_report_load_json (&r, text, len, why, sizeof why) < 0)
    {
      free (text);
      dm_report_clear (&r);
      fprintf (stderr, _ ("diskmeter-cli show: %s: %s\n"), dm_cli_shown (path), dm_cli_shown (why));
      return 1;
    }
  dm_sweep_plan plan;
  double bound;
  if (!samples && (err = show_concurrent (path, text, len, format, latency, output)) <= 0)
    {
      free (text);
      dm_report_clear (&r);
      return err < 0 ? 1 : 0;
    }
  if (samples)
    {
      dm_buf out;
      dm_buf_init (&out);
      dm_report_write_samples_csv (&r, &out);
      err = emit (&out, output);
    }
  else if (dm_cache_probe_is (&r))
    {
      /* A cache probe as the cache-probe command prints it. */
      dm_cache_probe_info info;
      dm_buf out;
      dm_cache_probe_info_from_json (text, len, &info);
      dm_buf_init (&out);
      if (format == DM_FORMAT_JSON)
        dm_cache_probe_write_json (&r, &info, &out);
      else if (format == DM_FORMAT_CSV)
        dm_cache_probe_write_csv (&r, &out);
      else
        dm_cache_probe_write_text (&r, &info, &out);
      err = emit (&out, output);
    }
  else if (dm_sustained_is (&r, text, len))
    {
      /* A sustained run as the sustained command prints it. */
      dm_buf out;
      dm_buf_init (&out);
      if (format == DM_FORMAT_JSON)
        dm_sustained_write_json (&r, &out);
      else if (format == DM_FORMAT_CSV)
        dm_report_write_samples_csv (&r, &out);
      else
        dm_sustained_write_text (&r, &out);
      err = emit (&out, output);
    }
  else if (dm_firstwrite_is (&r))
    {
      /* A first-write probe as its command prints it. */
      dm_buf out;
      dm_buf_init (&out);
      if (format == DM_FORMAT_JSON)
        dm_firstwrite_write_json (&r, &out);
      else if (format == DM_FORMAT_CSV)
        dm_firstwrite_write_csv (&r, &out);
      else
        dm_firstwrite_write_text (&r, &out);
      err = emit (&out, output);
    }
  else if (dm_headroom_from_json (&r, text, len, &bound))
    {
      /* A headroom run as --headroom prints it: the ladder and the
       * sentence, not eight plain workload results. */
      dm_buf out;
      dm_buf_init (&out);
      if (format == DM_FORMAT_JSON)
        dm_headroom_write_json (&r, bound, &out);
      else if (format == DM_FORMAT_CSV)
        dm_headroom_write_csv (&r, bound, &out);
      else
        dm_headroom_write_text (&r, bound, true, &out);
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
      fprintf (stderr, _ ("diskmeter-cli show: cannot write %s: %s\n"),
               output ? dm_cli_shown (output) : "the report", dm_strerror (err));
      return 1;
    }
  return 0;
}
