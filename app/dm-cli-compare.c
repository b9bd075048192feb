/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli compare: two or more saved JSON results side by side, each
 * later one against the first, in one unit, as text, CSV or JSON. A file
 * that is not a readable Diskmeter result stops the command with its name
 * and the reason.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-cli-commands.h"
#include "dm-cli-xlsx.h"
#include "dm-compare.h"
#include "dm-units.h"

static const char usage[] =
  "Usage: diskmeter-cli compare [OPTIONS] A.json B.json [C.json...]\n"
  "Compares saved results with the first one, test by test.\n"
  "  --unit MB/s|GB/s|IOPS|us   figure to compare (default MB/s)\n"
  "  --sort COLUMN              sort rows by run A, B, C... (highest first)\n"
  "  --threshold RULE           colour cells, e.g. \"read IOPS green>90000 red<50000\"\n"
  "  --format text|csv|json|xlsx  (default text; xlsx needs --output)\n"
  "  --output FILE              write to FILE (atomically) instead of stdout\n";

static int
usage_error (const char *fmt, const char *arg)
{
  fprintf (stderr, "diskmeter-cli compare: ");
  fprintf (stderr, fmt, arg);
  fprintf (stderr, "\nUsage: diskmeter-cli compare [OPTIONS] A.json B.json [C.json...]\n");
  return 2;
}

int
dm_cli_compare_main (int argc, char **argv)
{
  const char *files[DM_COMPARE_MAX], *output = NULL, *format = "text", *sort_name = "";
  dm_report reports[DM_COMPARE_MAX];
  const dm_report *ptrs[DM_COMPARE_MAX];
  unsigned n = 0, loaded = 0;
  dm_unit unit = DM_UNIT_MBPS;
  int sort = -1, status = 0;
  dm_threshold rules[16];
  unsigned n_rules = 0;

  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!strcmp (a, "--help") || !strcmp (a, "-h"))
        {
          fputs (usage, stdout);
          return 0;
        }
      if (!strcmp (a, "--threshold"))
        {
          char why[200];
          if (!v)
            return usage_error ("%s needs a value", a);
          i++;
          if (n_rules == 16)
            return usage_error ("%s", "--threshold: at most 16 rules");
          if (dm_threshold_parse (v, &rules[n_rules], why, sizeof why) < 0)
            return usage_error ("--threshold: %s", why);
          n_rules++;
          continue;
        }
      if (!strcmp (a, "--unit") || !strcmp (a, "--sort") || !strcmp (a, "--format")
          || !strcmp (a, "--output"))
        {
          if (!v)
            return usage_error ("%s needs a value", a);
          i++;
          if (!strcmp (a, "--unit") && dm_unit_parse (v, &unit) < 0)
            return usage_error ("--unit: '%s' is not MB/s, GB/s, IOPS or us", v);
          if (!strcmp (a, "--sort"))
            {
              if (strlen (v) != 1 || (v[0] | 0x20) < 'a' || (v[0] | 0x20) > 'z')
                return usage_error ("--sort: '%s' is not a run letter (A, B, C...)", v);
              sort = (v[0] | 0x20) - 'a';
              sort_name = v;
            }
          if (!strcmp (a, "--format"))
            {
              if (strcmp (v, "text") && strcmp (v, "csv") && strcmp (v, "json")
                  && strcmp (v, "xlsx"))
                return usage_error ("--format: '%s' is not text, csv, json or xlsx", v);
              format = v;
            }
          if (!strcmp (a, "--output"))
            output = v;
          continue;
        }
      if (a[0] == '-' && a[1])
        return usage_error ("unknown option '%s'", a);
      if (n == DM_COMPARE_MAX)
        return usage_error ("at most 64 files, got more at '%s'", a);
      files[n++] = a;
    }
  if (n < 2)
    return usage_error ("%s", "needs at least two result files");
  if (sort >= (int) n)
    return usage_error ("--sort: there is no run %s", sort_name);
  if (!strcmp (format, "xlsx") && !output)
    return usage_error ("%s", "--format xlsx writes a file: give it with --output");

  for (; loaded < n; loaded++)
    {
      char *text = NULL, why[320];
      size_t len;
      int err = dm_file_read_all (files[loaded], DM_REPORT_FILE_MAX, &text, &len);
      if (err < 0)
        {
          fprintf (stderr, "diskmeter-cli compare: cannot read %s: %s\n", files[loaded],
                   err == -EFBIG ? "larger than any result file" : dm_strerror (err));
          status = 1;
          break;
        }
      err = dm_report_load_json (&reports[loaded], text, len, why, sizeof why);
      free (text);
      if (err < 0)
        {
          fprintf (stderr, "diskmeter-cli compare: %s: %s\n", files[loaded], why);
          status = 1;
          break;
        }
      ptrs[loaded] = &reports[loaded];
    }

  if (!status && !strcmp (format, "xlsx"))
    {
      /* A workbook of the runs themselves, a row per run, each labelled by
       * its comment or else its file. */
      const char *labels[DM_COMPARE_MAX];
      char why[320];
      for (unsigned i = 0; i < n; i++)
        labels[i] = reports[i].comment[0] ? reports[i].comment : files[i];
      if (dm_cli_xlsx_write_runs (ptrs, labels, n, rules, n_rules, output, why, sizeof why) < 0)
        {
          fprintf (stderr, "diskmeter-cli compare: cannot write %s: %s\n", output, why);
          status = 1;
        }
    }
  else if (!status)
    {
      dm_compare c;
      dm_buf out;
      dm_buf_init (&out);
      if (dm_compare_build (&c, ptrs, files, n, unit) < 0)
        {
          fprintf (stderr, "diskmeter-cli compare: out of memory\n");
          status = 1;
        }
      else
        {
          /* Limits given here win; otherwise those saved with the first run. */
          if (n_rules)
            dm_compare_set_thresholds (&c, rules, n_rules);
          else
            dm_compare_set_thresholds (&c, ptrs[0]->thresholds, ptrs[0]->n_thresholds);
          dm_compare_sort (&c, sort);
          if (!strcmp (format, "csv"))
            dm_compare_write_csv (&c, &out);
          else if (!strcmp (format, "json"))
            dm_compare_write_json (&c, &out);
          else
            dm_compare_write_text (&c, &out);
          int err = output ? dm_write_file_atomic (output, &out)
                           : (fwrite (out.data, 1, out.len, stdout) == out.len ? 0 : -EIO);
          if (err < 0)
            {
              fprintf (stderr, "diskmeter-cli compare: cannot write %s: %s\n",
                       output ? output : "the comparison", dm_strerror (err));
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
