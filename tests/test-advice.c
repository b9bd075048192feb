/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The advice table on synthetic facts: a host-bound Q32T16 on vmw_pvscsi
 * with 64 per disk names both figures and the module parameters, NVMe
 * names its queues, an unknown driver or an unflagged result gets none,
 * and the advice goes through JSON and back into the text report.
 */
#include <string.h>

#include "dm-advice.h"
#include "dm-report.h"
#include "dm-study.h"
#include "dm-test.h"

static dm_device_seen
flagged (unsigned flags)
{
  dm_device_seen seen = { .counted = true, .flags = flags };
  snprintf (seen.name, sizeof seen.name, "sdb");
  return seen;
}

static dm_target_info
facts (const char *driver, unsigned queue_depth, unsigned host_queue, unsigned nr_requests,
       unsigned hw_queues)
{
  dm_target_info t;
  memset (&t, 0, sizeof t);
  snprintf (t.driver, sizeof t.driver, "%s", driver);
  t.queue_depth = queue_depth;
  t.host_queue = host_queue;
  t.nr_requests = nr_requests;
  t.hw_queues = hw_queues;
  return t;
}

static void
test_pvscsi (void)
{
  dm_target_info t = facts ("vmw_pvscsi", 64, 254, 64, 1);
  dm_device_seen seen = flagged (DM_FLAG_HOST_BOUND);
  dm_device_ask ask = { .block_size = 4096, .queue_depth = 32, .threads = 16, .read_percent = 100 };
  dm_advice a;

  DM_CHECK (dm_advice_for (&t, &seen, &ask, &a));
  DM_CHECK_STR (a.sentence, "Q32T16 asks for 512 I/Os; vmw_pvscsi admits 64 per disk here "
                            "(its queue_depth)");
  DM_CHECK (strstr (a.setting, "vmw_pvscsi.cmd_per_lun=254 vmw_pvscsi.ring_pages=32") != NULL);
  DM_CHECK (strstr (a.setting, "esxcli system module parameters set") != NULL);
  DM_CHECK (strstr (a.source, "VMware KB 2053145") != NULL);

  /* The adapter's queue is the smaller one: it is what limits. */
  t = facts ("vmw_pvscsi", 254, 128, 254, 1);
  DM_CHECK (dm_advice_for (&t, &seen, &ask, &a));
  DM_CHECK_STR (a.sentence, "Q32T16 asks for 512 I/Os; vmw_pvscsi admits 128 per adapter here "
                            "(its can_queue)");

  /* Both queues admit what was asked: not what held it back. */
  ask.queue_depth = 4;
  ask.threads = 16;
  t = facts ("vmw_pvscsi", 254, 1024, 254, 1);
  DM_CHECK (!dm_advice_for (&t, &seen, &ask, &a));
  DM_CHECK_STR (a.sentence, "");

  /* Windows: the depth DriverParameter set, or the KB's default of 64
   * where it sets none. */
  ask.queue_depth = 32;
  t = facts ("pvscsi", 96, 0, 0, 0);
  snprintf (t.driver_params, sizeof t.driver_params, "RequestRingPages=16,MaxQueueDepth=96");
  DM_CHECK (dm_advice_for (&t, &seen, &ask, &a));
  DM_CHECK_STR (a.sentence, "Q32T16 asks for 512 I/Os; pvscsi admits 96 per disk here "
                            "(DriverParameter MaxQueueDepth)");
  DM_CHECK (strstr (a.setting, "HKLM\\SYSTEM\\CurrentControlSet\\services\\pvscsi\\Parameters"
                               "\\Device, REG_SZ DriverParameter = \"RequestRingPages=32,"
                               "MaxQueueDepth=254\"") != NULL);
  t = facts ("pvscsi", 0, 0, 0, 0);
  DM_CHECK (dm_advice_for (&t, &seen, &ask, &a));
  DM_CHECK_STR (a.sentence, "Q32T16 asks for 512 I/Os; pvscsi admits 64 per disk here "
                            "(its default: DriverParameter sets no MaxQueueDepth)");
  ask.queue_depth = 4;
  DM_CHECK (!dm_advice_for (&t, &seen, &ask, &a));
}

static void
test_other_drivers (void)
{
  dm_device_seen seen = flagged (DM_FLAG_HOST_BOUND);
  dm_device_ask ask = { .block_size = 4096, .queue_depth = 32, .threads = 16 };
  dm_target_info t = facts ("nvme", 127, 0, 127, 2);
  dm_advice a;

  DM_CHECK (dm_advice_for (&t, &seen, &ask, &a));
  DM_CHECK_STR (a.sentence, "Q32T16 asks for 512 I/Os; nvme admits 127 per hardware queue, "
                            "254 in its 2 queues, here (queue/nr_requests)");
  DM_CHECK (strstr (a.setting, "nvme.io_queue_depth=N") != NULL);
  DM_CHECK (strstr (a.source, "drivers/nvme/host/pci.c") != NULL);

  /* A SCSI disk behind LSI Logic: the asked figure and the disk counted. */
  t = facts ("mptsas", 32, 128, 128, 1);
  seen = flagged (DM_FLAG_QUEUE_NOT_HELD);
  ask.threads = 2;
  DM_CHECK (dm_advice_for (&t, &seen, &ask, &a));
  DM_CHECK_STR (a.sentence, "Q32T2 asks for 64 I/Os; mptsas admits 32 per disk here "
                            "(its queue_depth)");
  DM_CHECK (strstr (a.setting, "echo 64 > /sys/block/sdb/device/queue_depth") != NULL);

  /* A driver the table does not know, and one the facts could not name. */
  t = facts ("virtio_blk", 32, 0, 32, 1);
  DM_CHECK (!dm_advice_for (&t, &seen, &ask, &a));
  t = facts ("", 8, 8, 8, 1);
  DM_CHECK (!dm_advice_for (&t, &seen, &ask, &a));
  /* A known driver whose queues the facts do not tell. */
  t = facts ("mpt3sas", 0, 0, 0, 0);
  DM_CHECK (!dm_advice_for (&t, &seen, &ask, &a));
}

static void
test_not_flagged (void)
{
  dm_target_info t = facts ("vmw_pvscsi", 64, 254, 64, 1);
  dm_device_ask ask = { .block_size = 4096, .queue_depth = 32, .threads = 16 };
  dm_advice a;

  dm_device_seen seen = flagged (0);
  DM_CHECK (!dm_advice_for (&t, &seen, &ask, &a));
  /* Not flagged, but the device's own queue took 64 of the 512: the
   * flags do not count that against the host, the advice does. */
  seen.queue_limit = 64;
  DM_CHECK (dm_advice_for (&t, &seen, &ask, &a));
  DM_CHECK_STR (a.sentence, "Q32T16 asks for 512 I/Os; vmw_pvscsi admits 64 per disk here "
                            "(its queue_depth)");
  seen.queue_limit = 512;
  DM_CHECK (!dm_advice_for (&t, &seen, &ask, &a));
  seen.queue_limit = 0;
  seen = flagged (DM_FLAG_CACHE_SUSPECTED);
  DM_CHECK (!dm_advice_for (&t, &seen, &ask, &a));
  DM_CHECK_STR (a.sentence, "");
}

/* Written, read back, shown: the same sentence in JSON, text and the
 * loaded report; a file without advice loads with none. */
static void
test_round_trip (void)
{
  dm_report r, back;
  dm_settings s;
  dm_spec spec;
  dm_buf json = { 0 }, text = { 0 }, text_back = { 0 };
  char why[256] = "";

  dm_settings_init (&s);
  DM_CHECK_INT (dm_spec_parse ("RND4K_Q32T16", &spec, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_report_init (&r, &s, &spec, 1, DM_MODES_ALL), ==, 0);
  r.status = DM_STATUS_COMPLETE;
  snprintf (r.backend, sizeof r.backend, "io_uring");
  r.target = facts ("vmw_pvscsi", 64, 254, 64, 1);
  for (unsigned i = 0; i < r.n_results; i++)
    r.results[i].status = DM_STATUS_COMPLETE;
  dm_result *res = &r.results[0];
  dm_device_ask ask = dm_result_device_ask (res);
  res->device = flagged (DM_FLAG_HOST_BOUND);
  res->device.seconds = 1;
  DM_CHECK (dm_advice_for (&r.target, &res->device, &ask, &res->advice));

  dm_report_write_json (&r, &json);
  DM_CHECK (strstr (json.data, "\"advice\": {\n        \"sentence\": \"Q32T16 asks for 512 I/Os; "
                               "vmw_pvscsi admits 64 per disk here (its queue_depth)\"") != NULL);
  DM_CHECK_INT (dm_report_load_json (&back, json.data, json.len, why, sizeof why), ==, 0);
  DM_CHECK_STR (why, "");
  DM_CHECK_STR (back.results[0].advice.sentence, res->advice.sentence);
  DM_CHECK_STR (back.results[0].advice.setting, res->advice.setting);
  DM_CHECK_STR (back.results[0].advice.source, res->advice.source);
  DM_CHECK_STR (back.results[1].advice.sentence, "");
  dm_report_write_text (&r, &text);
  dm_report_write_text (&back, &text_back);
  DM_CHECK_STR (text_back.data, text.data);
  DM_CHECK (strstr (text.data, " Advice: what the machine's facts say limits the queue:\n"
                               "  RND4K_Q32T16 Read: Q32T16 asks for 512 I/Os; vmw_pvscsi admits "
                               "64 per disk here (its queue_depth)\n   change: vmw_pvscsi.cmd_per_lun"
                               "=254") != NULL);
  dm_report_clear (&back);

  /* An old file: no advice member. */
  char *at = strstr (json.data, "\"advice\"");
  DM_CHECK (at != NULL);
  memcpy (at, "\"advicX\"", 8);
  DM_CHECK_INT (dm_report_load_json (&back, json.data, json.len, why, sizeof why), ==, 0);
  DM_CHECK_STR (back.results[0].advice.sentence, "");
  dm_report_clear (&back);
  /* A malformed one is refused with its reason. */
  char *bad = strstr (json.data, "\"advicX\": {");
  dm_buf broken = { 0 };
  dm_buf_printf (&broken, "%.*s\"advice\": 7, \"old\": %s", (int) (bad - json.data), json.data,
                 bad + strlen ("\"advicX\": "));
  DM_CHECK_INT (dm_report_load_json (&back, broken.data, broken.len, why, sizeof why), !=, 0);
  dm_buf_free (&broken);
  DM_CHECK (strstr (why, "'advice' is not an object") != NULL);

  dm_buf_free (&json);
  dm_buf_free (&text);
  dm_buf_free (&text_back);
  dm_report_clear (&r);
}

/* The study's sheet carries a scenario's advice in each of its forms. */
static void
test_study_sheet (void)
{
  static dm_report r[2];
  static dm_study_sheet sheet;
  dm_settings s;
  dm_spec spec;
  dm_tag tag;
  char why[200];

  dm_settings_init (&s);
  DM_CHECK_INT (dm_spec_parse ("RND4K_Q32T16", &spec, NULL, 0), ==, 0);
  for (unsigned i = 0; i < 2; i++)
    {
      DM_CHECK_INT (dm_report_init (&r[i], &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
      r[i].status = r[i].results[0].status = DM_STATUS_COMPLETE;
      r[i].results[0].iops = 1000 * (i + 1);
      r[i].started = 100 + i;
      dm_tag_make (&tag, DM_STUDY_TAG_NAME, "s", NULL, 0);
      dm_tags_set (r[i].tags, &r[i].n_tags, DM_TAGS_ALL_MAX, &tag);
      dm_tag_make (&tag, DM_STUDY_TAG_TARGET, i ? "plain" : "pv", NULL, 0);
      dm_tags_set (r[i].tags, &r[i].n_tags, DM_TAGS_ALL_MAX, &tag);
    }
  r[0].target = facts ("vmw_pvscsi", 64, 254, 64, 1);
  dm_result *res = &r[0].results[0];
  dm_device_ask ask = dm_result_device_ask (res);
  res->device = flagged (DM_FLAG_HOST_BOUND);
  DM_CHECK (dm_advice_for (&r[0].target, &res->device, &ask, &res->advice));

  const dm_report *rs[2] = { &r[0], &r[1] };
  DM_CHECK_INT (dm_study_sheet_build ("s", rs, NULL, 2, NULL, 0, &sheet, why, sizeof why), ==, 0);
  DM_CHECK_INT (sheet.n_rows, ==, 2);
  DM_CHECK_STR (sheet.rows[0].advice, res->advice.sentence);
  DM_CHECK_STR (sheet.rows[0].advice_setting, res->advice.setting);
  DM_CHECK_STR (sheet.rows[1].advice, "");

  dm_buf text = { 0 }, csv = { 0 }, json = { 0 };
  dm_study_sheet_write_text (&sheet, &text);
  dm_study_sheet_write_csv (&sheet, &csv);
  dm_study_sheet_write_json (&sheet, &json);
  DM_CHECK (strstr (text.data, "       Advice: Q32T16 asks for 512 I/Os; vmw_pvscsi admits 64 per "
                               "disk here (its queue_depth)\n         change: vmw_pvscsi."
                               "cmd_per_lun=254") != NULL);
  DM_CHECK (strstr (csv.data, ",all_green,advice,advice_setting\n") != NULL);
  DM_CHECK (strstr (csv.data, ",no,Q32T16 asks for 512 I/Os; vmw_pvscsi admits 64 per disk here "
                              "(its queue_depth),") != NULL);
  DM_CHECK (strstr (json.data, "\"advice\": \"Q32T16 asks for 512 I/Os; vmw_pvscsi admits 64") != NULL);
  /* The row without advice has none in JSON: one advice member in all. */
  DM_CHECK (strstr (strstr (json.data, "\"advice\"") + 1, "\"advice\":") == NULL);
  dm_buf_free (&text);
  dm_buf_free (&csv);
  dm_buf_free (&json);
  dm_study_sheet_free (&sheet);
  dm_report_clear (&r[0]);
  dm_report_clear (&r[1]);
}

int
main (void)
{
  DM_RUN ("/engine/advice/pvscsi", test_pvscsi);
  DM_RUN ("/engine/advice/other-drivers", test_other_drivers);
  DM_RUN ("/engine/advice/not-flagged", test_not_flagged);
  DM_RUN ("/engine/advice/round-trip", test_round_trip);
  DM_RUN ("/engine/advice/study-sheet", test_study_sheet);
  return dm_test_done ();
}
