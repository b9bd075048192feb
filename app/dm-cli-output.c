/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where every diskmeter-cli command sends what it prints: a file (by the
 * platform's rules for --output) or stdout. A script reads the exit status
 * only, so a report that did not reach a full disk or a closed pipe must
 * fail the command, with the failure's own name.
 */
#include <errno.h>
#include <stdio.h>

#include "dm-cli-common.h"
#include "dm-i18n.h"
#include "dm-latency.h"
#include "dm-platform.h"

/* stdio keeps the errno of the write(2) that failed; a failure without one
 * is the stream's own. */
static int
stdout_error (void)
{
  return errno ? -errno : -EIO;
}

int
dm_cli_emit (const dm_buf *buf, const char *file)
{
  if (buf->error)
    return buf->error;
  if (file)
    return dm_write_file_atomic (file, buf);
  errno = 0;
  if (fwrite (buf->data ? buf->data : "", 1, buf->len, stdout) != buf->len
      || fflush (stdout) != 0)
    return stdout_error ();
  return 0;
}

int
dm_cli_finish (int status)
{
  int err = 0;
  errno = 0;
  if (fflush (stdout) != 0 || ferror (stdout))
    err = stdout_error ();
  /* A stdout closed before the start (>&-) is no failure of a command that
   * printed nothing on it. */
  else if (fclose (stdout) != 0 && errno != EBADF)
    err = stdout_error ();
  if (err < 0 && status == 0)
    {
      fprintf (stderr, _ ("diskmeter-cli: cannot write %s: %s\n"), "stdout", dm_strerror (err));
      status = 1;
    }
  return status;
}

/* The saved run's report, as show and history export print it. */
int
dm_cli_write_report (const dm_report *r, dm_format format, bool latency, const char *file)
{
  dm_buf out;
  dm_buf_init (&out);
  if (format == DM_FORMAT_JSON)
    dm_report_write_json (r, &out);
  else if (format == DM_FORMAT_CSV)
    dm_report_write_csv (r, &out);
  else
    {
      dm_report_write_text (r, &out);
      if (latency)
        dm_report_write_latency (r, &out);
    }
  int err = dm_cli_emit (&out, file);
  dm_buf_free (&out);
  return err;
}
