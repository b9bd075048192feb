/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target for the writers: any bytes of any length as a run's
 * comment, target path, test file, device names, model, OS and error
 * texts. Whatever they hold, the JSON must load back with every one of
 * them byte-exact (the comment as the report keeps it, cut at a character
 * boundary), and the text report and CSV must be valid UTF-8 with no raw
 * control byte and exactly one line per result. A sentence naming the
 * path must keep its reason.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-report.h"
#include "dm-text.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* The next piece of the input up to a NUL (C strings hold none), or "". */
static const char *
piece (const char **p, const char *end)
{
  const char *s = *p;
  if (s >= end)
    return "";
  const char *z = memchr (s, '\0', (size_t) (end - s));
  *p = z ? z + 1 : end;
  return s;
}

static bool
clean (const char *text, bool tabs)
{
  if (!dm_utf8_valid (text))
    return false;
  for (const unsigned char *p = (const unsigned char *) text; *p; p++)
    {
      if (*p == '\n' || (tabs && (*p == '\r' || *p == '\t')))
        continue;
      if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
        return false;
    }
  return true;
}

static int
count (const char *text, const char *what)
{
  int n = 0;
  for (const char *p = text; (p = strstr (p, what)); p++)
    n++;
  return n;
}

#define SAME(a, b) \
  do { if (strcmp ((a), (b)) != 0) abort (); } while (0)

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* One terminated copy, so the last piece ends too. */
  char *in = malloc (size + 1);
  if (!in)
    return 0;
  memcpy (in, data, size);
  in[size] = '\0';
  const char *p = in, *end = in + size;

  /* Two results, a failed one and one that completed: the fewer, the
   * more inputs a second (each writes its histograms out and back). */
  dm_settings s;
  dm_spec spec;
  dm_report r;
  dm_settings_init (&s);
  if (dm_spec_parse ("RND4K_Q1T1", &spec, NULL, 0) < 0
      || dm_report_init (&r, &s, &spec, 1,
                         DM_MODE_BIT (DM_MODE_READ) | DM_MODE_BIT (DM_MODE_WRITE)) < 0
      || r.n_results != 2)
    abort ();
  r.status = DM_STATUS_FAILED;
  snprintf (r.backend, sizeof r.backend, "io_uring");
  snprintf (r.profile, sizeof r.profile, "default");
  dm_report_set_comment (&r, piece (&p, end));
  const char *path = piece (&p, end);
  dm_text_copy (r.target.path, sizeof r.target.path, path);
  dm_text_copy (r.target.mount_point, sizeof r.target.mount_point, piece (&p, end));
  dm_text_copy (r.test_file, sizeof r.test_file, piece (&p, end));
  dm_text_copy (r.target.model, sizeof r.target.model, piece (&p, end));
  dm_text_copy (r.target.device, sizeof r.target.device, piece (&p, end));
  dm_text_copy (r.target.driver, sizeof r.target.driver, piece (&p, end));
  dm_text_copy (r.target.filesystem, sizeof r.target.filesystem, piece (&p, end));
  dm_text_copy (r.system.os, sizeof r.system.os, piece (&p, end));
  dm_text_copy (r.warning, sizeof r.warning, piece (&p, end));
  dm_text_copy (r.device_note, sizeof r.device_note, piece (&p, end));
  r.target.size_bytes = 100ull << 30;
  r.target.free_bytes = 50ull << 30;
  for (unsigned i = 0; i < r.n_results; i++)
    {
      r.results[i].status = i == 0 ? DM_STATUS_FAILED : DM_STATUS_COMPLETE;
      r.results[i].mb_per_s = 100 + i;
      r.results[i].n_runs = 1;
      r.results[i].runs[0] = (dm_run) { 1u << 20, 1, 1.0, 100 + i, 256, 50 };
    }
  dm_text_copy (r.results[0].error, sizeof r.results[0].error, piece (&p, end));
  dm_text_copy (r.results[1].device.name, sizeof r.results[1].device.name, piece (&p, end));
  r.results[1].device.counted = true;

  /* A refusal naming the path keeps its reason, whatever the path. */
  static const char reason[] = ": No space left on device";
  dm_text_say (r.error, sizeof r.error, path, "cannot create a test file in %s%s", path, reason);
  size_t n = strlen (r.error);
  if (n < sizeof reason - 1 || strcmp (r.error + n - (sizeof reason - 1), reason) != 0)
    abort ();
  if (dm_utf8_valid (path) && !dm_utf8_valid (r.error))
    abort ();

  dm_buf b;
  dm_buf_init (&b);
  dm_report_write_text (&r, &b);
  if (b.error || !clean (b.data, false))
    abort ();
  if (count (b.data, "\n  SEQ") + count (b.data, "\n  RND") != (int) r.n_results
      || count (b.data, "\n[Read]") != 1 || count (b.data, "\nComment: ") != 1)
    abort ();
  dm_buf_clear (&b);
  dm_report_write_csv (&r, &b);
  if (b.error || !clean (b.data, true))
    abort ();
  dm_buf_clear (&b);
  dm_report_write_json (&r, &b);
  if (b.error || !clean (b.data, false))
    abort ();

  dm_report back;
  char why[256];
  if (dm_report_load_json (&back, b.data, b.len, why, sizeof why) < 0)
    abort ();
  if (back.n_results != r.n_results)
    abort ();
  SAME (back.comment, r.comment);
  SAME (back.target.path, r.target.path);
  SAME (back.target.mount_point, r.target.mount_point);
  SAME (back.test_file, r.test_file);
  SAME (back.target.model, r.target.model);
  SAME (back.target.device, r.target.device);
  SAME (back.target.driver, r.target.driver);
  SAME (back.target.filesystem, r.target.filesystem);
  SAME (back.system.os, r.system.os);
  SAME (back.warning, r.warning);
  SAME (back.device_note, r.device_note);
  SAME (back.error, r.error);
  SAME (back.results[0].error, r.results[0].error);
  SAME (back.results[1].device.name, r.results[1].device.name);

  dm_report_clear (&back);
  dm_buf_free (&b);
  dm_report_clear (&r);
  free (in);
  return 0;
}
