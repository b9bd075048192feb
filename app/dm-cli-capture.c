/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * diskmeter-cli capture TARGET --for DURATION: what the disk under TARGET
 * is asked to do while the user's own application runs, printed as text,
 * JSON or CSV, and with --profile-file a profile whose workload row does
 * the same to a disk. The engine captures (dm_capture_run); this file
 * shows a progress line, turns Ctrl-C into the capture's end and writes.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dm-capture.h"
#include "dm-cli-commands.h"
#include "dm-cli-common.h"
#include "dm-i18n.h"
#include "dm-platform.h"

typedef struct capture_job {
  const dm_cli_options *o;
  atomic_int cancel;
  bool       tty;
  bool       refused;  /* --profile-file without events: ended at once */
  double     last_print;
} capture_job;

static void
on_interrupt (void *user)
{
  capture_job *j = user;
  atomic_store (&j->cancel, 1);
}

static void
progress (void *user, const dm_capture *c, double done)
{
  capture_job *j = user;
  if (done == 0)
    {
      /* Counters cannot give a profile its shape: say so before the user
       * waits for the whole capture. */
      if (j->o->n_profile_files && c->from != DM_CAPTURE_FROM_EVENTS)
        {
          j->refused = true;
          atomic_store (&j->cancel, 1);
          return;
        }
      if (c->from != DM_CAPTURE_FROM_EVENTS)
        fprintf (stderr, _ ("diskmeter-cli: no request events (%s); the disk's counters give "
                            "means only: no size, seek, outstanding, latency or interarrival "
                            "histograms\n"), dm_cli_shown (c->from_why));
      if (c->note[0] && !j->o->quiet)
        fprintf (stderr, "diskmeter-cli: %s\n", dm_cli_shown (c->note));
      if (!j->o->quiet)
        fprintf (stderr, _ ("diskmeter-cli: capturing %s for %g s from %s; Ctrl-C ends it\n"),
                 dm_cli_shown (c->disk), j->o->settings.measure_s,
                 c->from == DM_CAPTURE_FROM_EVENTS ? _ ("the kernel's request events")
                                                   : _ ("the disk's counters"));
      return;
    }
  if (!j->tty || j->o->quiet || done - j->last_print < 0.5)
    return;
  j->last_print = done;
  /* The rate over the last second (or less, at the start). */
  uint64_t n = 0;
  unsigned ticks = c->n_ticks < 10 ? c->n_ticks : 10;
  for (unsigned k = c->n_ticks - ticks; k < c->n_ticks; k++)
    n += c->ticks[k][0] + c->ticks[k][1];
  /* The carriage return is the terminal's, not the sentence's: a
   * translator sees only the words. */
  fputc ('\r', stderr);
  fprintf (stderr, _ ("Capturing %s %7.1f s of %g s %9.0f IOPS"), dm_cli_shown (c->disk), done,
           j->o->settings.measure_s, ticks ? (double) n * 10 / ticks : 0.0);
  fputs ("\033[K", stderr);
}

int
dm_cli_capture_main (int argc, char **argv)
{
  static dm_cli_options o;
  static dm_capture c;
  static capture_job j;
  char why[400];
  int status;

  if ((status = dm_cli_start (DM_CLI_CAPTURE, argc, argv, &o)) >= 0)
    return status;
  memset (&j, 0, sizeof j);
  j.o = &o;
  j.tty = isatty (STDERR_FILENO);
  atomic_init (&j.cancel, 0);
  dm_interrupt_install (on_interrupt, &j);
  dm_capture_init (&c);
  int err = dm_capture_run (&c, o.target, o.settings.measure_s, &j.cancel, progress, &j, why,
                            sizeof why);
  if (j.tty && !o.quiet)
    fputs ("\r\033[K", stderr);
  if (err < 0)
    {
      fprintf (stderr, "diskmeter-cli: %s\n", dm_cli_shown (why));
      dm_capture_clear (&c);
      return DM_CLI_EXIT_FAILED;
    }
  if (j.refused)
    {
      fprintf (stderr, _ ("diskmeter-cli: --profile-file needs the kernel's request events, and "
                          "%s; the disk's counters tell no size split nor random share\n"),
               dm_cli_shown (c.from_why));
      dm_capture_clear (&c);
      return DM_CLI_EXIT_FAILED;
    }
  if (c.interrupted && !o.quiet)
    fprintf (stderr, _ ("diskmeter-cli: ended by Ctrl-C after %.1f s; this is what it saw\n"),
             c.seconds);

  status = DM_CLI_EXIT_DONE;
  if (o.n_profile_files)
    {
      dm_buf p;
      dm_buf_init (&p);
      if (dm_capture_write_profile (&c, &p, why, sizeof why) < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli: no profile written: %s\n"), dm_cli_shown (why));
          status = DM_CLI_EXIT_FAILED;
        }
      else if ((err = dm_file_replace_contents (o.profile_files[0], p.data, p.len)) < 0)
        {
          fprintf (stderr, _ ("diskmeter-cli: cannot write %s: %s\n"),
                   dm_cli_shown (o.profile_files[0]), dm_strerror (err));
          status = DM_CLI_EXIT_FAILED;
        }
      dm_buf_free (&p);
    }
  dm_buf out;
  dm_buf_init (&out);
  if (o.format == DM_FORMAT_JSON)
    dm_capture_write_json (&c, &out);
  else if (o.format == DM_FORMAT_CSV)
    dm_capture_write_csv (&c, &out);
  else
    dm_capture_write_text (&c, &out);
  if ((err = dm_cli_emit (&out, o.output)) < 0)
    {
      fprintf (stderr, _ ("diskmeter-cli: cannot write %s: %s\n"),
               o.output ? dm_cli_shown (o.output) : "the capture", dm_strerror (err));
      status = DM_CLI_EXIT_FAILED;
    }
  dm_buf_free (&out);
  dm_capture_clear (&c);
  return status;
}
