/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tags beyond one report: the window's list of them (comma or newline
 * separated, refused with --tag's reason), which of a report's tags are
 * the user's word and not a fact's own value, what a comparison calls a
 * difference of tags (a fact a run does not know is none; the vCPUs only
 * when a user gave them, as the settings' line has them already), and the
 * CSV's tag columns, there only with tags.
 */
#include <errno.h>

#include "dm-compare.h"
#include "dm-report.h"
#include "dm-tags.h"
#include "dm-test.h"

static void
test_parse_list (void)
{
  dm_tag tags[DM_TAGS_MAX];
  unsigned n = 99;
  char why[200];

  DM_CHECK_INT (dm_tags_parse_list ("site=lab 2, controller=pvscsi\n\n host=a ,host=b\r\n", tags,
                                    &n, DM_TAGS_MAX, why, sizeof why), ==, 0);
  DM_CHECK_INT (n, ==, 3);
  DM_CHECK_STR (tags[0].key, "site");
  DM_CHECK_STR (tags[0].value, "lab 2");
  DM_CHECK_STR (tags[1].value, "pvscsi");
  /* The last of a key wins, in the first one's place, as with --tag. */
  DM_CHECK_STR (tags[2].key, "host");
  DM_CHECK_STR (tags[2].value, "b");
  DM_CHECK_INT (dm_tags_parse_list ("", tags, &n, DM_TAGS_MAX, why, sizeof why), ==, 0);
  DM_CHECK_INT (n, ==, 0);
  DM_CHECK_INT (dm_tags_parse_list (" , ,,\n", tags, &n, DM_TAGS_MAX, why, sizeof why), ==, 0);
  DM_CHECK_INT (n, ==, 0);
  DM_CHECK_INT (dm_tags_parse_list ("site=lab, Bad Key=1", tags, &n, DM_TAGS_MAX, why,
                                    sizeof why), ==, -EINVAL);
  DM_CHECK_STR (why, "tag key 'Bad Key' is not 1 to 32 of a-z 0-9 _ . -");
  DM_CHECK_INT (dm_tags_parse_list ("site", tags, &n, DM_TAGS_MAX, why, sizeof why), ==, -EINVAL);
  DM_CHECK_STR (why, "'site' is not KEY=VALUE");

  char many[40 * 8] = "";
  for (int i = 0; i < 33; i++)
    snprintf (many + strlen (many), sizeof many - strlen (many), "k%d=v,", i);
  DM_CHECK_INT (dm_tags_parse_list (many, tags, &n, DM_TAGS_MAX, why, sizeof why), ==, -E2BIG);
  DM_CHECK_STR (why, "at most 32 tags");
}

/* A report of one finished test on a machine of cpus vCPUs whose disk's
 * controller is controller ("" unknown), with the user's tags. */
static void
make (dm_report *r, unsigned cpus, const char *hypervisor, const char *controller,
      const char *tags)
{
  dm_settings s;
  dm_spec spec;
  dm_tag t[DM_TAGS_MAX];
  unsigned n;

  dm_settings_init (&s);
  dm_spec_parse ("RND4K_Q1T1", &spec, NULL, 0);
  memset (r, 0, sizeof *r);
  DM_CHECK_INT (dm_report_init (r, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
  r->results[0].status = DM_STATUS_COMPLETE;
  r->results[0].mb_per_s = 100;
  r->results[0].n_runs = 1;
  r->status = DM_STATUS_COMPLETE;
  r->system.logical_cpus = cpus;
  snprintf (r->system.hypervisor, sizeof r->system.hypervisor, "%s", hypervisor);
  snprintf (r->target.controller, sizeof r->target.controller, "%s", controller);
  DM_CHECK_INT (dm_tags_parse_list (tags, t, &n, DM_TAGS_MAX, NULL, 0), ==, 0);
  dm_report_set_tags (r, t, n);
}

static void
test_user_tags (void)
{
  dm_report r;
  dm_tag t[DM_TAGS_ALL_MAX];

  make (&r, 4, "KVM", "virtio-blk", "controller=pvscsi, site=lab");
  unsigned n = dm_report_user_tags (&r, t);
  DM_CHECK_INT (n, ==, 2);
  DM_CHECK_STR (t[0].key, "controller");
  DM_CHECK_STR (t[0].value, "pvscsi");
  DM_CHECK_STR (t[1].key, "site");
  dm_report_clear (&r);
  /* A loaded report keeps every tag its file had, the facts' own values
   * among them: those are not the user's word. */
  make (&r, 4, "KVM", "virtio-blk", "vcpus=4, hypervisor=KVM, site=lab");
  n = dm_report_user_tags (&r, t);
  DM_CHECK_INT (n, ==, 1);
  DM_CHECK_STR (t[0].key, "site");
  dm_report_clear (&r);
}

static void
differences (const char *a_tags, const char *b_tags, unsigned b_cpus, const char *b_hypervisor,
             const char *want)
{
  dm_report a, b;
  dm_compare c;
  dm_buf out;

  make (&a, 4, "KVM", "virtio-blk", a_tags);
  make (&b, b_cpus, b_hypervisor, "nvme", b_tags);
  const dm_report *runs[] = { &a, &b };
  const char *names[] = { "A", "B" };
  DM_CHECK_INT (dm_compare_build (&c, runs, names, 2, DM_UNIT_MBPS), ==, 0);
  dm_buf_init (&out);
  unsigned n = dm_compare_write_tag_differences (&c, false, &out);
  DM_CHECK_STR (out.data ? out.data : "", want);
  DM_CHECK_INT (n > 0, ==, want[0] != '\0');
  dm_buf_free (&out);
  dm_compare_clear (&c);
  dm_report_clear (&a);
  dm_report_clear (&b);
}

static void
test_compare (void)
{
  /* The controller the user named against the other run's fact; the
   * 4 vs 8 vCPUs are the settings line's; B knows no hypervisor. */
  differences ("controller=pvscsi, site=lab, only=a", "site=lab", 8, "",
               "Different tags: controller pvscsi vs nvme; only a vs -");
  /* The same tags, the same facts but the controller's. */
  differences ("site=lab", "site=lab", 4, "KVM", "Different tags: controller virtio-blk vs nvme");
  differences ("site=lab, controller=x", "site=lab, controller=x", 4, "KVM", "");
  /* vCPUs a user gave are a tag of theirs. */
  differences ("vcpus=48 (HT), controller=nvme", "controller=nvme", 8, "KVM",
               "Different tags: vcpus 48 (HT) vs 8");
}

static void
test_csv (void)
{
  dm_report r;
  dm_buf out;

  make (&r, 4, "KVM", "virtio-blk", "");
  dm_buf_init (&out);
  dm_report_write_csv (&r, &out);
  /* The header a CSV without tags has: no tag column after the fixed ones. */
  DM_CHECK (out.data && strstr (out.data, ",device_busy_percent,flags,device_read_await_us,device_write_await_us,"
                            "guest_read_us,guest_write_us\r\n") != NULL);
  DM_CHECK (out.data && !strstr (out.data, "tag_"));
  dm_buf_free (&out);
  dm_report_clear (&r);

  /* A value with a comma: not from the window's list, from --tag. The
   * columns in the report's order: a fact's key first. */
  dm_tag comma;
  make (&r, 4, "KVM", "virtio-blk", "site=lab \"2\"");
  DM_CHECK_INT (dm_tag_parse ("controller=a,b", &comma, NULL, 0), ==, 0);
  DM_CHECK_INT (dm_tags_set (r.tags, &r.n_tags, DM_TAGS_MAX, &comma), ==, 0);
  dm_buf_init (&out);
  dm_report_write_csv (&r, &out);
  DM_CHECK (out.data && strstr (out.data, ",device_busy_percent,flags,device_read_await_us,device_write_await_us,"
                            "guest_read_us,guest_write_us,tag_controller,tag_site\r\n"));
  DM_CHECK (out.data && strstr (out.data, ",\"a,b\",\"lab \"\"2\"\"\"\r\n"));
  dm_buf_free (&out);
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/engine/tags/parse-list", test_parse_list);
  DM_RUN ("/engine/tags/user-tags", test_user_tags);
  DM_RUN ("/engine/tags/compare", test_compare);
  DM_RUN ("/engine/tags/csv", test_csv);
  return dm_test_done ();
}
