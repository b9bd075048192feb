/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's situation: one process runs the engine again and again.
 * 200 short runs back to back with the machine's real backend must leave
 * no descriptor, thread or memory behind, and nothing in the folder: the
 * runs go to a folder of the test's own, where any name is one too many.
 * Linux only: it reads /proc/self for the counts.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dm-runner.h"
#include "dm-test.h"

#define RUNS 200
/* Runs after which the allocator has settled; what memory grows by from
 * there to the last run is what the runs leave behind. */
#define SETTLED 50
/* Growth of the anonymous memory (the heap and the threads' arenas, not
 * the libraries' pages) allowed over those 150 runs, in KiB: four pages,
 * room for an arena that takes a page more. Measured here: 0 KiB, while
 * a runner struct (1.4 KiB) left behind each run grows it by 204 KiB; a
 * leak of 110 bytes a run is over the bound. */
#define HEAP_SLACK_KIB 16
#define MAX(a, b) ((a) > (b) ? (a) : (b))

static long
open_fds (void)
{
  long n = 0;
  DIR *d = opendir ("/proc/self/fd");
  if (!d)
    return -1;
  while (readdir (d))
    n++;
  closedir (d);
  return n;
}

static long
status_field (const char *name)
{
  char line[256];
  long v = -1;
  FILE *f = fopen ("/proc/self/status", "r");
  if (!f)
    return -1;
  while (fgets (line, sizeof line, f))
    if (!strncmp (line, name, strlen (name)))
      v = atol (line + strlen (name) + 1);
  fclose (f);
  return v;
}

/* How many names a run left in dir, the test's own folder, with the first
 * in first. The test file never has a name a listing finds (a descriptor
 * left open shows in the fd count instead), so any name at all is a file
 * that outlived its run. They are removed, so that a run that leaves its
 * test file does not pile up 200 of them. */
static int
left_in (const char *dir, char *first, size_t first_size)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  int n = 0;
  if (!d)
    return -1;
  while ((e = readdir (d)))
    {
      char path[4200];
      if (!strcmp (e->d_name, ".") || !strcmp (e->d_name, ".."))
        continue;
      if (!n++)
        snprintf (first, first_size, "%s", e->d_name);
      snprintf (path, sizeof path, "%s/%s", dir, e->d_name);
      unlink (path);
    }
  closedir (d);
  return n;
}

static void
stop_midway (void *user, const dm_progress *p)
{
  if (p->phase == DM_PHASE_MEASURE && p->result_index == 1)
    dm_runner_cancel (user);
}

static int
one_run (const char *target, unsigned k, char *why, size_t why_size)
{
  static const char *const names[] = { "SEQ1M_Q8T1", "RND4K_Q32T4" };
  dm_settings s;
  dm_spec specs[2];
  dm_report r;
  dm_settings_init (&s);
  s.count = 1;
  s.test_size = 16ull << 20;
  s.measure_s = 0.1;
  /* A little warm-up, so that on a busy machine the workers are running
   * before the 0.1 s window opens. */
  s.warmup_s = 0.1;
  s.interval_s = 0;
  for (int i = 0; i < 2; i++)
    dm_spec_parse (names[i], &specs[i], NULL, 0);
  dm_report_init (&r, &s, specs, 2, DM_MODE_BIT (k % 2 ? DM_MODE_WRITE : DM_MODE_READ));
  dm_runner *runner = dm_runner_new (&r, target);
  /* Every fourth run is stopped in its second test, as a user pressing
   * Stop does. */
  if (k % 4 == 3)
    dm_runner_set_progress (runner, stop_midway, runner);
  int err = dm_runner_run (runner);
  if (err == -ECANCELED && k % 4 == 3)
    err = 0;
  snprintf (why, why_size, "%s", r.error);
  dm_runner_free (runner);
  dm_report_clear (&r);
  return err;
}

static void
test_soak (void)
{
  /* RAM-backed /dev/shm keeps 200 fills quick where tmpfs takes O_DIRECT
   * (Linux 6.6 and later); elsewhere the build folder serves. */
  char shm[] = "/dev/shm/diskmeter-soak-XXXXXX", here[] = "./diskmeter-soak-XXXXXX";
  const char *target = mkdtemp (shm);
  char why[320], first[256] = "";
  int failures = 0, left = 0, n;

  if (!target || one_run (target, 0, why, sizeof why) < 0)
    {
      if (target)
        rmdir (target);
      target = mkdtemp (here);
    }
  DM_CHECK (target != NULL);
  if (!target)
    return;
  /* A second warm-up run: the C library and the backend set up their
   * one-time state (thread stack caches, locale tables) on first use. */
  one_run (target, 1, why, sizeof why);
  long fds0 = open_fds (), threads0 = status_field ("Threads");
  long rss0 = status_field ("VmRSS"), heap0 = 0, heap_max = 0;
  for (unsigned k = 0; k < RUNS; k++)
    {
      if (one_run (target, k, why, sizeof why) < 0)
        {
          if (!failures++)
            fprintf (stderr, "run %u failed: %s\n", k, why);
        }
      if ((n = left_in (target, first, sizeof first)) != 0 && !left++)
        fprintf (stderr, "run %u left %d names in %s, %s the first\n", k, n, target, first);
      /* The first runs set the allocator up: the arenas of the worker
       * threads are made and grown to their working size. From then on
       * memory in use must stay where it is. */
      if (k + 1 == SETTLED)
        heap0 = status_field ("RssAnon");
      else if (k + 1 > SETTLED)
        heap_max = MAX (heap_max, status_field ("RssAnon"));
    }
  long fds1 = open_fds (), threads1 = status_field ("Threads");
  long rss1 = status_field ("VmRSS"), heap1 = status_field ("RssAnon");
  printf ("# %d runs in %s: fds %ld -> %ld, threads %ld -> %ld, RSS %ld -> %ld KiB; "
          "anonymous memory %ld KiB after run %d, %ld KiB after run %d (at most %ld KiB)\n",
          RUNS, target, fds0, fds1, threads0, threads1, rss0, rss1, heap0, SETTLED, heap1, RUNS,
          heap_max);
  DM_CHECK_INT (failures, ==, 0);
  DM_CHECK_INT (fds1, ==, fds0);
  DM_CHECK_INT (threads1, ==, threads0);
  DM_CHECK (heap0 > 0);
  DM_CHECK_INT (heap1 - heap0, <=, HEAP_SLACK_KIB);
  DM_CHECK_INT (left, ==, 0);
  rmdir (target);
}

int
main (void)
{
  DM_RUN ("/engine/soak/200-runs", test_soak);
  return dm_test_done ();
}
