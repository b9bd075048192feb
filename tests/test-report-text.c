/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A user's and the OS's text through every report writer and back: a
 * comment of 600 "é", a stray byte, a Latin-1 folder name, a comment that
 * forges [Read] rows and one that clears the terminal. Every JSON loads
 * again with the text byte-exact (or, for the long comment, cut at a
 * character boundary), and the text report and CSV hold no raw control
 * byte and exactly one line per result. A refusal that names a long path
 * keeps its reason.
 */
#include <errno.h>
#include <string.h>

#include "dm-json.h"
#include "dm-report.h"
#include "dm-test.h"
#include "dm-testfile.h"

static const char *const spec_names[] = { "SEQ1M_Q8T1", "RND4K_Q1T1" };

static void
build_report (dm_report *r)
{
  dm_settings s;
  dm_spec specs[2];

  dm_settings_init (&s);
  for (int i = 0; i < 2; i++)
    DM_CHECK_INT (dm_spec_parse (spec_names[i], &specs[i], NULL, 0), ==, 0);
  DM_CHECK_INT (dm_report_init (r, &s, specs, 2, DM_MODES_ALL), ==, 0);
  r->status = DM_STATUS_COMPLETE;
  snprintf (r->backend, sizeof r->backend, "io_uring");
  snprintf (r->profile, sizeof r->profile, "default");
  r->started = 1700000000;
  r->finished = 1700000300;
  snprintf (r->target.path, sizeof r->target.path, "/mnt/data");
  snprintf (r->target.filesystem, sizeof r->target.filesystem, "ext4");
  snprintf (r->target.device, sizeof r->target.device, "/dev/sdb1");
  snprintf (r->target.model, sizeof r->target.model, "VMware Virtual disk");
  snprintf (r->test_file, sizeof r->test_file, "/mnt/data/diskmeter-Ab12Cd.tmp");
  for (unsigned i = 0; i < r->n_results; i++)
    {
      dm_result *res = &r->results[i];
      res->status = DM_STATUS_COMPLETE;
      res->mb_per_s = 100 + i;
      res->iops = 1000 + i;
      res->latency_us = 50 + i;
      res->n_runs = 1;
      res->runs[0] = (dm_run) { 1u << 20, 1, 1.0, 100 + i, 1000 + i, 50 + i };
    }
}

/* Valid UTF-8, by the strict JSON reader's rules: a string of exactly
 * this text must parse. */
static bool
utf8_ok (const char *text)
{
  dm_buf b;
  dm_json_doc doc;
  char why[200];
  dm_buf_init (&b);
  dm_buf_add (&b, "\"");
  for (const char *p = text; *p; p++)
    if ((unsigned char) *p >= 0x20 && *p != '"' && *p != '\\')
      dm_buf_addn (&b, p, 1);
  dm_buf_add (&b, "\"");
  bool ok = dm_json_parse (b.data, b.len, &doc, why, sizeof why) == 0;
  if (ok)
    dm_json_free (&doc);
  else
    fprintf (stderr, "not UTF-8: %s\n", why);
  dm_buf_free (&b);
  return ok;
}

/* No byte that moves a terminal's cursor or starts an escape: C0 but the
 * line ends (and tabs, in CSV), DEL, and C1 (U+0080..U+009F). */
static bool
no_controls (const char *text, bool tabs)
{
  for (const unsigned char *p = (const unsigned char *) text; *p; p++)
    {
      if (*p == '\n' || *p == '\r' || (tabs && *p == '\t'))
        continue;
      if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
        {
          fprintf (stderr, "raw control byte 0x%02x at %zu\n", *p,
                   (size_t) (p - (const unsigned char *) text));
          return false;
        }
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

/* Lines of the text report that are result rows: "  SEQ1M Q8T1: ..." */
static int
result_lines (const char *text)
{
  return count (text, "\n  SEQ") + count (text, "\n  RND");
}

/* Writes r in every format, checks each, loads the JSON back into back. */
static void
round_trip (const dm_report *r, dm_report *back)
{
  dm_buf b;
  char why[256] = "";
  dm_buf_init (&b);

  dm_report_write_text (r, &b);
  DM_CHECK (utf8_ok (b.data));
  DM_CHECK (no_controls (b.data, false));
  DM_CHECK_INT (result_lines (b.data), ==, r->n_results);
  DM_CHECK_INT (count (b.data, "\n[Read]"), ==, 1);
  dm_buf_clear (&b);

  dm_report_write_csv (r, &b);
  DM_CHECK (utf8_ok (b.data));
  DM_CHECK (no_controls (b.data, true));
  dm_buf_clear (&b);

  dm_report_write_json (r, &b);
  DM_CHECK (utf8_ok (b.data));
  DM_CHECK (no_controls (b.data, false));
  memset (back, 0, sizeof *back);
  int err = dm_report_load_json (back, b.data, b.len, why, sizeof why);
  if (err < 0)
    fprintf (stderr, "the JSON does not load: %s\n", why);
  DM_CHECK_INT (err, ==, 0);
  if (err == 0)
    DM_CHECK_INT (back->n_results, ==, r->n_results);
  dm_buf_free (&b);
}

static void
check_comment (const char *comment, const char *want)
{
  dm_report r, back;
  build_report (&r);
  dm_report_set_comment (&r, comment);
  round_trip (&r, &back);
  DM_CHECK_STR (back.comment, want);
  dm_report_clear (&back);
  dm_report_clear (&r);
}

static void
test_long_comment (void)
{
  char comment[1300] = "", want[520] = "";
  for (int i = 0; i < 600; i++)
    strcat (comment, "\xc3\xa9");
  for (int i = 0; i < 255; i++)
    strcat (want, "\xc3\xa9");
  /* Cut at the last whole "é", then written and read back as it is. */
  check_comment (comment, want);
}

static void
test_stray_byte (void)
{
  check_comment ("\xff", "\xff");
  check_comment ("caf\xe9 au lait", "caf\xe9 au lait");
}

static void
test_forged_rows (void)
{
  static const char forged[] =
    "fast\n[Read]\n  SEQ1M Q8T1: 99999.999 MB/s [ 99999.0 IOPS] <    1.00 us>\n";
  check_comment (forged, forged);
  check_comment ("\x1b[2J\x1b]0;owned\x07", "\x1b[2J\x1b]0;owned\x07");
  check_comment ("\xc2\x9b" "2J", "\xc2\x9b" "2J");
}

static void
test_latin1_folder (void)
{
  dm_report r, back;
  build_report (&r);
  snprintf (r.target.path, sizeof r.target.path, "/srv/caf\xe9");
  snprintf (r.target.mount_point, sizeof r.target.mount_point, "/srv/caf\xe9");
  snprintf (r.test_file, sizeof r.test_file, "/srv/caf\xe9/diskmeter-Ab12Cd.tmp");
  snprintf (r.target.model, sizeof r.target.model, "Disk \x1b[31mred\xff");
  snprintf (r.warning, sizeof r.warning, "/srv/caf\xe9/diskmeter-x.tmp was left by a crash");
  r.target.size_bytes = 100ull << 30;
  r.target.free_bytes = 50ull << 30;
  round_trip (&r, &back);
  DM_CHECK_STR (back.target.path, "/srv/caf\xe9");
  DM_CHECK_STR (back.target.mount_point, "/srv/caf\xe9");
  DM_CHECK_STR (back.test_file, "/srv/caf\xe9/diskmeter-Ab12Cd.tmp");
  DM_CHECK_STR (back.target.model, "Disk \x1b[31mred\xff");
  DM_CHECK_STR (back.warning, "/srv/caf\xe9/diskmeter-x.tmp was left by a crash");

  /* Shown readably: the text report names the folder with the byte
   * escaped, not a raw byte a terminal shows as garbage. */
  dm_buf b;
  dm_buf_init (&b);
  dm_report_write_text (&r, &b);
  DM_CHECK (strstr (b.data, "/srv/caf\\xe9") != NULL);
  dm_buf_free (&b);
  dm_report_clear (&back);
  dm_report_clear (&r);
}

/* A hand-edited KEY_bytes that is not hex is refused with a reason. */
static void
test_bad_bytes (void)
{
  dm_report r, back;
  dm_buf b;
  char why[256] = "";
  build_report (&r);
  dm_report_set_comment (&r, "caf\xe9");
  dm_buf_init (&b);
  dm_report_write_json (&r, &b);
  char *hex = strstr (b.data, "636166e9");
  DM_CHECK (hex != NULL);
  if (hex)
    {
      hex[0] = 'x';
      DM_CHECK_INT (dm_report_load_json (&back, b.data, b.len, why, sizeof why), <, 0);
      DM_CHECK (strstr (why, "comment_bytes") != NULL);
    }
  dm_buf_free (&b);
  dm_report_clear (&r);
}

/* A refusal for a long path keeps its reason: the path is shortened, the
 * sentence is not cut, and no character is cut in two. */
static void
test_long_path_error (void)
{
  dm_report r;
  dm_testfile tf;
  char path[700] = "/nonexistent-diskmeter-test";
  while (strlen (path) < 520)
    strcat (path, "/d\xc3\xa9p\xc3\xb4t");
  build_report (&r);
  DM_CHECK_INT (dm_testfile_open (&tf, &r, path, false), ==, -ENOENT);
  size_t n = strlen (r.error), tail = strlen (" does not exist");
  DM_CHECK (n >= tail && !strcmp (r.error + n - tail, " does not exist"));
  DM_CHECK (!strncmp (r.error, "/nonexistent-diskmeter-test/d", 29));
  DM_CHECK (utf8_ok (r.error));
  dm_report_clear (&r);
}

/* A cancelled run: the test it stopped in shows what it measured, the
 * tests it never reached say "not run", not a 0.000 MB/s disk. */
static void
test_not_run (void)
{
  dm_report r;
  dm_buf b;
  build_report (&r);
  r.status = DM_STATUS_CANCELLED;
  for (unsigned i = 1; i < r.n_results; i++)
    {
      dm_result *res = &r.results[i];
      res->status = DM_STATUS_PENDING;
      res->mb_per_s = res->iops = res->latency_us = 0;
      res->n_runs = 0;
    }
  r.results[0].status = DM_STATUS_CANCELLED;
  dm_buf_init (&b);
  dm_report_write_text (&r, &b);
  DM_CHECK (strstr (b.data, "\n  SEQ    1MiB (Q=  8, T= 1):   100.000 MB/s [  1000.0 IOPS] <"
                            "    50.00 us> (cancelled after 1 of 5 runs)\n"));
  DM_CHECK (strstr (b.data, "\n  RND    4KiB (Q=  1, T= 1):   not run\n"));
  DM_CHECK (!strstr (b.data, " 0.000 MB/s"));
  dm_buf_free (&b);
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/engine/report-text/not-run", test_not_run);
  DM_RUN ("/engine/report-text/long-comment", test_long_comment);
  DM_RUN ("/engine/report-text/stray-byte", test_stray_byte);
  DM_RUN ("/engine/report-text/forged-rows", test_forged_rows);
  DM_RUN ("/engine/report-text/latin1-folder", test_latin1_folder);
  DM_RUN ("/engine/report-text/bad-bytes", test_bad_bytes);
  DM_RUN ("/engine/report-text/long-path-error", test_long_path_error);
  return dm_test_done ();
}
