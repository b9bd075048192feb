/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli history: the saved runs, newest first, numbered so the
 * other verbs can name one: show, comment, export, delete. A saved file
 * that no longer loads is listed with its reason and never changed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-i18n.h"
#include "dm-cli-xlsx.h"
#include "dm-history.h"
#include "dm-profile.h"
#include "dm-text.h"
#include "dm-units.h"

/* A headline figure, or "-" for a run in which no such test finished
 * (cancelled before it): 0.0 would read as a disk that moved nothing. */
static const char *
figure (double v, const char *fmt, char buf[32])
{
  if (v <= 0)
    return "-";
  snprintf (buf, 32, fmt, v);
  return buf;
}

/* The profile column as wide as the longest of the names it shows. */
static int
profile_width (void)
{
  unsigned n;
  const dm_profile *p = dm_profile_list (&n);
  int width = (int) strlen (dm_profile_title_of ("custom"));
  if (width < (int) strlen ("Workloads"))
    width = (int) strlen ("Workloads");

  for (unsigned i = 0; i < n; i++)
    if ((int) strlen (p[i].title) > width)
      width = (int) strlen (p[i].title);
  return width;
}

static int
list (const dm_history_entry *e, unsigned n)
{
  char dir[1100];
  int pw = profile_width ();
  dm_buf out;
  dm_buf_init (&out);
  if (dm_history_dir (dir, sizeof dir) == 0)
    dm_buf_printf (&out, "Saved runs in %s\n", dm_cli_shown (dir));
  dm_buf_printf (&out, "%3s  %-19s  %-9s  %-20s  %-24s  %-*s %10s %10s %10s %10s  %s\n", "N",
                 "DATE", "STATUS", "TARGET", "DEVICE", pw, "PROFILE", "SEQ R MB/s", "SEQ W MB/s",
                 "RND R IOPS", "RND W IOPS", "COMMENT");
  for (unsigned i = 0; i < n; i++)
    {
      char date[32], device[300], seq_r[32], seq_w[32], rnd_r[32], rnd_w[32];
      if (!e[i].ok)
        {
          dm_buf_printf (&out, "%3u  %s: cannot be loaded: %s\n", i + 1,
                         dm_cli_shown (e[i].name), dm_cli_shown (e[i].error));
          continue;
        }
      dm_format_local_time (e[i].started, date, sizeof date);
      snprintf (device, sizeof device, "%s%s%s", e[i].model, e[i].model[0] ? " " : "",
                e[i].device);
      /* The columns' widths as the terminal counts them, a longer name
       * cut in the middle: "/var/tmp/…/small". */
      dm_buf_printf (&out, "%3u  %-19s  %-9s  ", i + 1, date, dm_status_name (e[i].status));
      dm_cli_add_cell (&out, dm_cli_shown (e[i].target), 20);
      dm_buf_add (&out, "  ");
      dm_cli_add_cell (&out, dm_cli_shown (device), 24);
      /* The profile as the window and the text report name it. */
      dm_buf_printf (&out, "  %-*s ", pw, dm_cli_shown (dm_history_profile_title (&e[i])));
      if (e[i].n_workloads)
        {
          /* Workload rows have none of the four headline tests: where
           * their figures would be, the rows' names. */
          dm_cli_add_cell (&out, e[i].workloads, 43);
          dm_buf_printf (&out, "  %s\n", dm_cli_shown (e[i].comment));
        }
      else
        dm_buf_printf (&out, "%10s %10s %10s %10s  %s\n",
                       figure (e[i].seq_read_mb_s, "%.1f", seq_r),
                       figure (e[i].seq_write_mb_s, "%.1f", seq_w),
                       figure (e[i].rnd_read_iops, "%.0f", rnd_r),
                       figure (e[i].rnd_write_iops, "%.0f", rnd_w), dm_cli_shown (e[i].comment));
      /* The user's tags under their run, a line of their own so the
       * columns stay as they were and a script counting runs by their
       * number still counts runs. Shown safely already. */
      if (e[i].tags[0])
        dm_buf_printf (&out, "     Tags: %s\n", e[i].tags);
    }
  if (!n)
    dm_buf_printf (&out, "(none yet)\n");
  int err = dm_cli_emit (&out, NULL);
  dm_buf_free (&out);
  if (err < 0)
    fprintf (stderr, _ ("diskmeter-cli history: cannot write %s: %s\n"), "the list",
             dm_strerror (err));
  return err < 0;
}

static const dm_history_entry *
pick (const dm_history_entry *e, unsigned n, const char *arg)
{
  unsigned k;
  if (!arg || dm_uint_parse (arg, 1, n ? n : 1, &k, NULL, 0) < 0 || k > n)
    return NULL;
  return &e[k - 1];
}

/* export N[,M...] FILE --format xlsx: the runs side by side in one
 * workbook, as compare writes it, a row per run labelled by its comment. */
static int
export_xlsx (const dm_history_entry *entries, unsigned n, const char *list, const char *file)
{
  enum { MAX = 64 };
  dm_report runs[MAX];
  const dm_report *ptrs[MAX];
  const char *labels[MAX];
  char copy[512], why[320];
  unsigned k = 0;
  int status = 0;

  snprintf (copy, sizeof copy, "%s", list);
  for (char *tok = copy, *next; tok && !status; tok = next)
    {
      next = strchr (tok, ',');
      if (next)
        *next++ = '\0';
      const dm_history_entry *e = pick (entries, n, tok);
      if (!e || k == MAX)
        {
          snprintf (why, sizeof why, "'%s' is not a run number (1 to %u)", tok, n);
          status = dm_cli_usage_error (DM_CLI_HISTORY, e ? "at most 64 runs in a workbook" : why);
        }
      else if (dm_history_load (e->path, &runs[k], why, sizeof why) < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli history: %s: %s\n"), e->name, why);
          status = 1;
        }
      else
        {
          ptrs[k] = &runs[k];
          labels[k] = runs[k].comment[0] ? runs[k].comment : e->name;
          k++;
        }
    }
  if (!status && !k)
    status = dm_cli_usage_error (DM_CLI_HISTORY, "which runs?");
  if (!status && dm_cli_xlsx_write_runs (ptrs, labels, k, NULL, 0, file, why, sizeof why) < 0)
    {
      fprintf (stderr, _ ("diskmeter-cli history: cannot write %s: %s\n"), dm_cli_shown (file),
               dm_cli_shown (why));
      status = 1;
    }
  for (unsigned i = 0; i < k; i++)
    dm_report_clear (&runs[i]);
  return status;
}

int
dm_cli_history_main (int argc, char **argv)
{
  static dm_cli_options o;
  const char *verb, *const *args = o.args + 1;
  dm_format format;
  dm_history_entry *entries = NULL;
  unsigned n = 0;
  char why[320];
  int status, err;

  if ((status = dm_cli_start (DM_CLI_HISTORY, argc, argv, &o)) >= 0)
    return status;
  status = 0;
  verb = o.verb;
  format = o.format;

  err = dm_history_list (&entries, &n);
  if (err < 0)
    {
      fprintf (stderr, _ ("diskmeter-cli history: cannot read the history: %s\n"), dm_strerror (err));
      return 1;
    }
  if (!strcmp (verb, "list"))
    {
      status = list (entries, n);
      dm_history_free (entries);
      return status;
    }

  if (format == DM_FORMAT_XLSX)
    {
      status = export_xlsx (entries, n, args[0], args[1]);
      dm_history_free (entries);
      return status;
    }

  const dm_history_entry *e = pick (entries, n, args[0]);
  if (!e)
    {
      dm_history_free (entries);
      snprintf (why, sizeof why, "'%s' is not a run number (1 to %u)", args[0], n);
      return dm_cli_usage_error (DM_CLI_HISTORY, why);
    }

  if (!strcmp (verb, "delete"))
    {
      err = dm_history_delete (e->path);
      if (err < 0)
        fprintf (stderr, _ ("diskmeter-cli history: cannot delete %s: %s\n"),
                 dm_cli_shown (e->name),
                 dm_strerror (err));
      else
        {
          dm_buf out;
          dm_buf_init (&out);
          dm_buf_printf (&out, "deleted %s\n", dm_cli_shown (e->name));
          /* The run is gone either way; a script learns it was not told. */
          if ((err = dm_cli_emit (&out, NULL)) < 0)
            fprintf (stderr, _ ("diskmeter-cli history: cannot write %s: %s\n"),
                     "the confirmation", dm_strerror (err));
          dm_buf_free (&out);
        }
      status = err < 0;
    }
  else if (!strcmp (verb, "comment"))
    {
      err = dm_history_set_comment (e->path, args[1], why, sizeof why);
      if (err < 0)
        fprintf (stderr, _ ("diskmeter-cli history: %s: %s\n"), dm_cli_shown (e->name),
                 dm_cli_shown (why));
      status = err < 0;
    }
  else
    {
      dm_report r;
      err = dm_history_load (e->path, &r, why, sizeof why);
      if (err < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli history: %s: %s\n"), dm_cli_shown (e->name),
                   dm_cli_shown (why));
          status = 1;
        }
      else
        {
          err = dm_cli_write_report (&r, format, false, !strcmp (verb, "export") ? args[1] : NULL);
          if (err < 0)
            fprintf (stderr, _ ("diskmeter-cli history: cannot write %s: %s\n"),
                     args[1] ? dm_cli_shown (args[1]) : "the report", dm_strerror (err));
          status = err < 0;
          dm_report_clear (&r);
        }
    }
  dm_history_free (entries);
  return status;
}
