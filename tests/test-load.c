/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Saved results read back: a report written by the engine loads into the
 * same figures, and every kind of bad file (not JSON, cut short at any
 * byte, not Diskmeter's, from a newer format, values of the wrong type or
 * out of range) is refused with a reason instead of half-loaded.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-json.h"
#include "dm-runner.h"
#include "dm-test-backend.h"
#include "dm-test.h"

static dm_report written;
static dm_buf json;

static void
make_report (void)
{
  dm_settings s;
  dm_spec specs[2];
  dm_settings_init (&s);
  s.count = 2;
  s.test_size = 16ull << 20;
  s.measure_s = 0.1;
  s.warmup_s = 0;
  s.interval_s = 0;
  dm_spec_parse ("SEQ1M_Q8T1", &specs[0], NULL, 0);
  dm_spec_parse ("RND4K_Q32T2", &specs[1], NULL, 0);
  dm_report_init (&written, &s, specs, 2, DM_MODES_ALL);
  snprintf (written.comment, sizeof written.comment, "E: vs F: \"pvscsi\", caf\xc3\xa9\n2nd line");
  dm_test_backend_reset (NULL, 0);
  dm_runner *r = dm_runner_new (&written, ".");
  dm_runner_set_backend (r, &dm_test_backend);
  DM_CHECK_INT (dm_runner_run (r), ==, 0);
  dm_runner_free (r);
  dm_buf_init (&json);
  dm_report_write_json (&written, &json);
}

static bool
close_to (double a, double b)
{
  return fabs (a - b) <= 0.0005 + 1e-6 * fabs (b);
}

static void
test_round_trip (void)
{
  dm_report r;
  char why[200] = "";
  DM_CHECK_INT (dm_report_load_json (&r, json.data, json.len, why, sizeof why), ==, 0);
  DM_CHECK_STR (why, "");
  DM_CHECK_INT (r.n_results, ==, written.n_results);
  DM_CHECK_STR (r.comment, written.comment);
  /* The folder really measured, the target's links followed. */
  DM_CHECK (written.target.real_path[0] == '/' || written.target.real_path[1] == ':');
  DM_CHECK_STR (r.target.real_path, written.target.real_path);
  DM_CHECK_STR (r.backend, "test");
  DM_CHECK_STR (dm_status_name (r.status), "complete");
  DM_CHECK_INT (r.started, ==, written.started);
  DM_CHECK_INT (r.measured_bytes, ==, written.measured_bytes);
  DM_CHECK_INT (r.settings.count, ==, 2);
  for (unsigned i = 0; i < r.n_results && i < written.n_results; i++)
    {
      const dm_result *a = &r.results[i], *b = &written.results[i];
      DM_CHECK (dm_spec_equal (&a->spec, &b->spec) && a->mode == b->mode);
      DM_CHECK (close_to (a->mb_per_s, b->mb_per_s) && close_to (a->iops, b->iops));
      DM_CHECK (close_to (a->latency.p99, b->latency.p99));
      DM_CHECK (close_to (a->stdev_mb_per_s, b->stdev_mb_per_s));
      DM_CHECK_INT (a->n_runs, ==, b->n_runs);
      DM_CHECK_INT (a->runs[1].bytes, ==, b->runs[1].bytes);
      DM_CHECK_INT (a->read_percent, ==, b->read_percent);
      /* The histogram comes back bucket for bucket. */
      DM_CHECK_INT (a->hist_read->count, ==, b->hist_read->count);
      DM_CHECK_INT (a->hist_write->count, ==, b->hist_write->count);
      DM_CHECK (memcmp (a->hist_read->buckets, b->hist_read->buckets,
                        sizeof a->hist_read->buckets) == 0);
      DM_CHECK (dm_histogram_quantile (a->hist_write, 0.99)
                == dm_histogram_quantile (b->hist_write, 0.99));
    }
  dm_report_clear (&r);
}

static void
test_truncated_anywhere (void)
{
  /* Every prefix of a real file is refused; none crashes or loads. */
  dm_report r;
  char why[200];
  unsigned loaded = 0, said_truncated = 0;
  size_t end = json.len;
  while (end && (json.data[end - 1] == '\n' || json.data[end - 1] == ' '))
    end--;
  /* Every byte near the ends, and about 3000 cuts in between, keep this
   * quick while still cutting inside every kind of token. */
  size_t step = end > 6000 ? end / 3000 : 1, tried = 0;
  for (size_t n = 0; n < end; n += (n < 500 || end - n < 500) ? 1 : step)
    {
      tried++;
      if (dm_report_load_json (&r, json.data, n, why, sizeof why) == 0)
        {
          loaded++;
          dm_report_clear (&r);
        }
      else if (strstr (why, "truncated"))
        said_truncated++;
    }
  DM_CHECK_INT (loaded, ==, 0);
  printf ("# %zu prefixes refused, %u of them as truncated\n", tried, said_truncated);
  DM_CHECK (said_truncated > tried * 9 / 10);
}

static void
expect_refusal (const char *text, const char *reason)
{
  dm_report r;
  char why[200] = "";
  int err = dm_report_load_json (&r, text, strlen (text), why, sizeof why);
  DM_CHECK_INT (err, ==, -EINVAL);
  if (!strstr (why, reason))
    fprintf (stderr, "  refusal \"%s\" lacks \"%s\"\n", why, reason);
  DM_CHECK (strstr (why, reason) != NULL);
  if (err == 0)
    dm_report_clear (&r);
}

/* The real file with one substring replaced. */
static char *
edited (const char *from, const char *to)
{
  const char *at = strstr (json.data, from);
  DM_CHECK (at != NULL);
  if (!at)
    return strdup ("");
  size_t head = (size_t) (at - json.data);
  char *out = malloc (json.len + strlen (to) + 1);
  memcpy (out, json.data, head);
  strcpy (out + head, to);
  strcat (out, at + strlen (from));
  return out;
}

static void
test_bad_files (void)
{
  char *t;
  expect_refusal ("", "truncated");
  expect_refusal ("PNG\x89 binary", "not valid JSON");
  expect_refusal ("[1, 2, 3]", "not a Diskmeter result file");
  expect_refusal ("{\"tool\": {\"name\": \"fio\"}}", "not a Diskmeter result file");
  expect_refusal ("{\"tool\": {\"name\": \"Diskmeter\"}, \"format_version\": 99}", "newer format");
  expect_refusal ("{\"a\": 1} trailing", "not valid JSON");
  expect_refusal ("{\"a\": \"\\ud800\"}", "not valid JSON");
  expect_refusal ("{\"a\": 01}", "not valid JSON");
  expect_refusal ("{\"a\": \"\xff\"}", "not valid JSON");

  t = edited ("\"format_version\": 1", "\"format_version\": 2");
  expect_refusal (t, "newer format");
  free (t);
  t = edited ("\"test\": \"SEQ1M_Q8T1\"", "\"test\": \"SEQ3K_Q8T1\"");
  expect_refusal (t, "block size");
  free (t);
  t = edited ("\"mode\": \"read\"", "\"mode\": \"erase\"");
  expect_refusal (t, "not read, write or mix");
  free (t);
  t = edited ("\"mb_per_s\": ", "\"mb_per_s\": -");
  expect_refusal (t, "mb_per_s");
  free (t);
  t = edited ("\"mb_per_s\": ", "\"mb_per_s\": \"fast\", \"x\": ");
  expect_refusal (t, "mb_per_s");
  free (t);
  t = edited ("\"status\": \"complete\"", "\"status\": \"great\"");
  expect_refusal (t, "unknown status");
  free (t);
  t = edited ("\"results\": [", "\"results\": 7, \"x\": [");
  expect_refusal (t, "no results list");
  free (t);

  /* Nesting deeper than any result file is refused, not recursed into. */
  char deep[400];
  memset (deep, '[', 300);
  deep[300] = '\0';
  expect_refusal (deep, "nested");
}

/* The fields a result repeats from its test name and mode must agree with
 * them: a file that says otherwise was edited or is not ours, and its
 * figures cannot be trusted to be those of the test it names. */
static void
test_contradictions (void)
{
  static const struct {
    const char *from, *to, *field;
  } cases[] = {
    { "\"block_size\": 1048576", "\"block_size\": 1.8e23", "block_size" },
    { "\"block_size\": 1048576", "\"block_size\": 4096", "block_size" },
    { "\"block_size\": 1048576", "\"block_size\": \"1M\"", "block_size" },
    { "\"queue_depth\": 8", "\"queue_depth\": 0", "queue_depth" },
    { "\"queue_depth\": 8", "\"queue_depth\": 32", "queue_depth" },
    { "\"threads\": 1", "\"threads\": 100000", "threads" },
    { "\"threads\": 1", "\"threads\": -1", "threads" },
    { "\"pattern\": \"SEQ\"", "\"pattern\": \"RND\"", "pattern" },
    { "\"pattern\": \"SEQ\"", "\"pattern\": \"zigzag\"", "pattern" },
    { "\"read_percent\": 100", "\"read_percent\": 50", "read_percent" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      char *t = edited (cases[i].from, cases[i].to);
      expect_refusal (t, cases[i].field);
      /* The result is named too, so the user finds the line. */
      expect_refusal (t, "SEQ1M_Q8T1");
      free (t);
    }

  /* A file without these fields (they are only repeated) still loads. */
  dm_report r;
  char why[200] = "";
  char *t = edited ("\"block_size\": 1048576,", "");
  int err = dm_report_load_json (&r, t, strlen (t), why, sizeof why);
  DM_CHECK_INT (err, ==, 0);
  if (err == 0)
    {
      DM_CHECK_INT (r.results[0].spec.block_size, ==, 1u << 20);
      dm_report_clear (&r);
    }
  free (t);

  /* Nor does one without the read share: a read reads all, a write
   * none, a Mix the run's share. Written out again, the file loads again
   * (it was refused on reload, its share written as 0). */
  static const char *const shares[] = { "\"read_percent\": 100,", "\"read_percent\": 0,",
                                        "\"read_percent\": 70," };
  static const dm_mode modes[] = { DM_MODE_READ, DM_MODE_WRITE, DM_MODE_MIX };
  for (unsigned k = 0; k < 3; k++)
    {
      t = edited (shares[k], "");
      err = dm_report_load_json (&r, t, strlen (t), why, sizeof why);
      DM_CHECK_INT (err, ==, 0);
      free (t);
      if (err)
        continue;
      dm_report again;
      dm_buf out;
      dm_buf_init (&out);
      dm_report_write_json (&r, &out);
      err = dm_report_load_json (&again, out.data, out.len, why, sizeof why);
      DM_CHECK_INT (err, ==, 0);
      for (unsigned i = 0; i < r.n_results; i++)
        if (r.results[i].mode == modes[k])
          {
            DM_CHECK_INT (r.results[i].read_percent, ==, written.results[i].read_percent);
            break;
          }
      if (err == 0)
        dm_report_clear (&again);
      dm_buf_free (&out);
      dm_report_clear (&r);
    }
}

static void
test_bom_and_unicode (void)
{
  dm_buf b;
  dm_report r;
  char why[200];
  dm_buf_init (&b);
  dm_buf_add (&b, "\xef\xbb\xbf");
  dm_buf_addn (&b, json.data, json.len);
  DM_CHECK_INT (dm_report_load_json (&r, b.data, b.len, why, sizeof why), ==, 0);
  DM_CHECK_STR (r.comment, written.comment);
  dm_report_clear (&r);
  dm_buf_free (&b);

  dm_json_doc doc;
  const char *text = "{\"s\": \"\\u00e9\\ud83d\\ude00\\n\", \"n\": -1.5e3, \"t\": true}";
  DM_CHECK_INT (dm_json_parse (text, strlen (text), &doc, why, sizeof why), ==, 0);
  DM_CHECK_STR (dm_json_get_string (doc.root, "s", ""), "\xc3\xa9\xf0\x9f\x98\x80\n");
  DM_CHECK (dm_json_get_number (doc.root, "n", 0) == -1500);
  DM_CHECK (dm_json_get_bool (doc.root, "t", false));
  dm_json_free (&doc);
}

int
main (void)
{
  make_report ();
  DM_RUN ("/engine/load/round-trip", test_round_trip);
  DM_RUN ("/engine/load/truncated-anywhere", test_truncated_anywhere);
  DM_RUN ("/engine/load/bad-files", test_bad_files);
  DM_RUN ("/engine/load/contradictions", test_contradictions);
  DM_RUN ("/engine/load/bom-and-unicode", test_bom_and_unicode);
  dm_buf_free (&json);
  dm_report_clear (&written);
  return dm_test_done ();
}
