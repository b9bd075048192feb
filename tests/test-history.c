/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The run history in the user's data folder (the test environment points
 * it into the build tree): saving never overwrites, the list is newest
 * first with the right headline figures, a comment can be renamed, a
 * broken file is listed with its reason and left byte for byte as it was,
 * and delete refuses anything outside the history.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-history.h"
#include "dm-runner.h"
#include "dm-test-backend.h"
#include "dm-test.h"
#include "dm-test-workloads.h"

static void
make_report (dm_report *r, int64_t started, const char *comment)
{
  dm_settings s;
  dm_spec specs[2];
  dm_settings_init (&s);
  s.count = 1;
  s.test_size = 16ull << 20;
  s.measure_s = 0.1;
  s.warmup_s = 0;
  s.interval_s = 0;
  dm_spec_parse ("SEQ1M_Q8T1", &specs[0], NULL, 0);
  dm_spec_parse ("RND4K_Q32T1", &specs[1], NULL, 0);
  dm_report_init (r, &s, specs, 2, DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE));
  dm_test_backend_reset (NULL, 0);
  dm_runner *runner = dm_runner_new (r, ".");
  dm_runner_set_backend (runner, &dm_test_backend);
  DM_CHECK_INT (dm_runner_run (runner), ==, 0);
  dm_runner_free (runner);
  r->started = started;
  snprintf (r->comment, sizeof r->comment, "%s", comment);
}

static void
empty_history (void)
{
  dm_history_entry *e;
  unsigned n;
  if (dm_history_list (&e, &n) < 0)
    return;
  for (unsigned i = 0; i < n; i++)
    dm_file_remove (e[i].path);
  dm_history_free (e);
}

static void
test_save_list_comment_delete (void)
{
  dm_report older, newer;
  char p1[1200], p2[1200], p3[1200], why[200];
  dm_history_entry *e;
  unsigned n;

  empty_history ();
  make_report (&older, 1700000000, "before");
  make_report (&newer, 1700003600, "after");
  DM_CHECK_INT (dm_history_save (&older, p1, sizeof p1), ==, 0);
  DM_CHECK_INT (dm_history_save (&newer, p2, sizeof p2), ==, 0);
  /* Same run saved again: a new name, the first file untouched. */
  DM_CHECK_INT (dm_history_save (&older, p3, sizeof p3), ==, 0);
  DM_CHECK (strcmp (p1, p3) != 0);
  DM_CHECK (strstr (p3, "-2.json") != NULL);

  DM_CHECK_INT (dm_history_list (&e, &n), ==, 0);
  DM_CHECK_INT (n, ==, 3);
  if (n == 3)
    {
      DM_CHECK_STR (e[0].comment, "after");
      DM_CHECK (e[0].ok && e[1].ok && e[2].ok);
      DM_CHECK (e[0].started > e[1].started);
      const dm_result *seq = dm_report_find (&newer, &newer.results[0].spec, DM_MODE_READ);
      /* JSON keeps three decimals of MB/s. */
      DM_CHECK (e[0].seq_read_mb_s > seq->mb_per_s - 0.001
                && e[0].seq_read_mb_s < seq->mb_per_s + 0.001);
      DM_CHECK (e[0].rnd_write_iops > 0);

      DM_CHECK_INT (dm_history_set_comment (e[1].path, "before the firmware update", why,
                                            sizeof why), ==, 0);
      dm_report back;
      DM_CHECK_INT (dm_history_load (e[1].path, &back, why, sizeof why), ==, 0);
      DM_CHECK_STR (back.comment, "before the firmware update");
      DM_CHECK_INT (back.n_results, ==, 4);
      dm_report_clear (&back);

      DM_CHECK_INT (dm_history_delete (e[2].path), ==, 0);
    }
  dm_history_free (e);
  DM_CHECK_INT (dm_history_list (&e, &n), ==, 0);
  DM_CHECK_INT (n, ==, 2);
  dm_history_free (e);
  dm_report_clear (&older);
  dm_report_clear (&newer);
}

static void
test_broken_file_left_alone (void)
{
  char dir[1100], path[1200], why[200];
  static const char broken[] = "{\"tool\": {\"name\": \"Diskmeter\"}, \"results\": [{\"te";
  DM_CHECK_INT (dm_history_dir (dir, sizeof dir), ==, 0);
  snprintf (path, sizeof path, "%s/broken.json", dir);
  dm_file_remove (path);
  DM_CHECK_INT (dm_file_write_new (path, broken, strlen (broken)), ==, 0);

  dm_history_entry *e;
  unsigned n, found = 0;
  DM_CHECK_INT (dm_history_list (&e, &n), ==, 0);
  for (unsigned i = 0; i < n; i++)
    if (!strcmp (e[i].name, "broken.json"))
      {
        found++;
        DM_CHECK (!e[i].ok);
        DM_CHECK (strstr (e[i].error, "truncated") != NULL);
        /* Renaming the comment of a file that does not load changes nothing. */
        DM_CHECK (dm_history_set_comment (e[i].path, "x", why, sizeof why) < 0);
      }
  DM_CHECK_INT (found, ==, 1);
  dm_history_free (e);

  char *text;
  size_t len;
  DM_CHECK_INT (dm_file_read_all (path, 1 << 20, &text, &len), ==, 0);
  DM_CHECK_INT (len, ==, strlen (broken));
  DM_CHECK (memcmp (text, broken, len) == 0);
  free (text);
  DM_CHECK_INT (dm_history_delete (path), ==, 0);
}

static void
test_delete_stays_inside (void)
{
  char dir[1100], outside[1200];
  DM_CHECK_INT (dm_history_dir (dir, sizeof dir), ==, 0);
  snprintf (outside, sizeof outside, "%s/../../important.json", dir);
  DM_CHECK_INT (dm_history_delete (outside), ==, -EPERM);
  DM_CHECK_INT (dm_history_delete ("important.json"), ==, -EPERM);
  snprintf (outside, sizeof outside, "%s/notes.txt", dir);
  DM_CHECK_INT (dm_history_delete (outside), ==, -EPERM);
}

/* A run of workload rows is saved, listed as Workloads with its rows'
 * names and no SEQ/RND headline (its rows stand in such tests but are
 * none), and read back to the same text it had. */
static void
test_workloads (void)
{
  dm_report r, back;
  char path[1200], why[200];
  dm_history_entry *e;
  unsigned n;

  empty_history ();
  dm_tw_make (&r, 4, 1, 1700007200);
  DM_CHECK_INT (dm_history_save (&r, path, sizeof path), ==, 0);
  DM_CHECK_INT (dm_history_list (&e, &n), ==, 0);
  DM_CHECK_INT (n, ==, 1);
  if (n == 1)
    {
      DM_CHECK (e[0].ok);
      DM_CHECK_INT (e[0].n_workloads, ==, 2);
      DM_CHECK_STR (e[0].workloads, "Mixed 8K 70/30, Log writes");
      DM_CHECK_STR (e[0].profile_hash, r.profile_hash);
      DM_CHECK_STR (dm_history_profile_title (&e[0]), "Workloads");
      DM_CHECK (e[0].seq_read_mb_s == 0 && e[0].seq_write_mb_s == 0);
      DM_CHECK (e[0].rnd_read_iops == 0 && e[0].rnd_write_iops == 0);
      DM_CHECK_INT (dm_history_load (e[0].path, &back, why, sizeof why), ==, 0);
      dm_buf a, b;
      dm_buf_init (&a);
      dm_buf_init (&b);
      dm_report_write_text (&r, &a);
      dm_report_write_text (&back, &b);
      DM_CHECK (a.data && b.data && !strcmp (a.data, b.data));
      dm_buf_free (&a);
      dm_buf_free (&b);
      dm_report_clear (&back);
      dm_history_free (e);
    }
  /* A plain run's title is its profile's, as before. */
  dm_history_entry plain = { .profile = "custom" };
  DM_CHECK_STR (dm_history_profile_title (&plain), "Custom");
  empty_history ();
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/engine/history/save-list-comment-delete", test_save_list_comment_delete);
  DM_RUN ("/engine/history/broken-file-left-alone", test_broken_file_left_alone);
  DM_RUN ("/engine/history/delete-stays-inside", test_delete_stays_inside);
  DM_RUN ("/engine/history/workloads", test_workloads);
  empty_history ();
  return dm_test_done ();
}
