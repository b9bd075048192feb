/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The machine's and the target's facts: CPUID's vendor signatures and the
 * firmware's strings named as the hypervisor they are, each kind of VM
 * controller found in a canned sysfs tree (tests/data/sysfs-*, shaped as
 * /sys is on a VMware, KVM, Hyper-V guest and on real hardware), and the
 * facts and tags kept in a result: written, loaded back, written again
 * byte for byte.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-report.h"
#include "dm-tags.h"
#include "dm-test.h"

static void
test_signatures (void)
{
  DM_CHECK_STR (dm_hypervisor_from_signature ("VMwareVMware"), "VMware");
  DM_CHECK_STR (dm_hypervisor_from_signature ("KVMKVMKVM\0\0\0"), "KVM");
  DM_CHECK_STR (dm_hypervisor_from_signature ("Microsoft Hv"), "Hyper-V");
  DM_CHECK_STR (dm_hypervisor_from_signature ("XenVMMXenVMM"), "Xen");
  DM_CHECK (dm_hypervisor_from_signature ("GenuineIntel") == NULL);
  DM_CHECK (dm_hypervisor_from_signature (NULL) == NULL);
  /* Hypervisor bit set: the signature tells. */
  DM_CHECK_STR (dm_hypervisor_decide (true, "VMwareVMware", NULL, NULL), "VMware");
  /* QEMU with Hyper-V enlightenments: the firmware still says QEMU. */
  DM_CHECK_STR (dm_hypervisor_decide (true, "Microsoft Hv", "QEMU", "Standard PC (Q35 + ICH9, 2009)"),
                "KVM");
  DM_CHECK_STR (dm_hypervisor_decide (true, "Microsoft Hv", "Microsoft Corporation", "Virtual Machine"),
                "Hyper-V");
  DM_CHECK_STR (dm_hypervisor_decide (true, "NoSuchVendor", NULL, NULL), "unknown");
  /* No CPUID (not x86): the firmware alone. */
  DM_CHECK_STR (dm_hypervisor_decide (false, NULL, "VMware, Inc.", "VMware20,1"), "VMware");
  DM_CHECK_STR (dm_hypervisor_decide (false, NULL, "QEMU", "KVM Virtual Machine"), "KVM");
  DM_CHECK_STR (dm_hypervisor_decide (false, NULL, "Microsoft Corporation", "Virtual Machine"),
                "Hyper-V");
  DM_CHECK_STR (dm_hypervisor_decide (false, NULL, "Microsoft Corporation", "Surface Pro"), "none");
  DM_CHECK_STR (dm_hypervisor_decide (false, "", "Dell Inc.", "PowerEdge R650"), "none");
  DM_CHECK_STR (dm_hypervisor_decide (false, NULL, NULL, NULL), "");
  DM_CHECK_STR (dm_controller_name ("vmw_pvscsi"), "VMware PVSCSI");
  DM_CHECK_STR (dm_controller_name ("mptsas"), "LSI Logic SAS");
  DM_CHECK_STR (dm_controller_name ("LSI_SAS"), "LSI Logic SAS");
  DM_CHECK_STR (dm_controller_name ("stornvme"), "NVMe");
  DM_CHECK_STR (dm_controller_name ("no-such-driver"), "");
}

typedef struct expect {
  const char *tree, *disk;
  const char *hypervisor, *machine;
  unsigned cpus, sockets, cores, threads, nodes;
  const char *driver, *controller, *bus;
  unsigned queue_depth, host_queue, nr_requests, hw_queues, max_segments;
} expect;

/* What each tree holds (tests/data/sysfs-KIND/sys/...), written out by
 * hand: a partition is described by its disk. */
static const expect trees[] = {
  { "vmware-pvscsi", "sda1", "VMware", "VMware, Inc. VMware7,1", 4, 2, 2, 1, 1,
    "vmw_pvscsi", "VMware PVSCSI", "SCSI (vmw_pvscsi)", 64, 254, 128, 1, 128 },
  { "vmware-lsi", "sda", "VMware", "VMware, Inc. VMware Virtual Platform", 4, 1, 4, 1, 1,
    "mptsas", "LSI Logic SAS", "SCSI (mptsas)", 32, 128, 64, 1, 128 },
  { "vmware-lsi", "sdb", "VMware", "VMware, Inc. VMware Virtual Platform", 4, 1, 4, 1, 1,
    "mpt3sas", "LSI SAS3 (Broadcom)", "SCSI (mpt3sas)", 254, 3240, 254, 1, 128 },
  { "vmware-nvme", "nvme0n1p2", "VMware", "VMware, Inc. VMware20,1", 8, 1, 8, 1, 1,
    "nvme", "NVMe", "NVMe", 1023, 0, 1023, 8, 65 },
  { "kvm-virtio_blk", "vda1", "KVM", "QEMU Standard PC (Q35 + ICH9, 2009)", 4, 1, 2, 2, 1,
    "virtio_blk", "virtio-blk", "virtio", 256, 0, 256, 4, 254 },
  { "kvm-virtio_scsi", "sda", "KVM", "QEMU Standard PC (i440FX + PIIX, 1996)", 4, 2, 2, 1, 2,
    "virtio_scsi", "virtio-scsi", "SCSI (virtio_scsi)", 128, 128, 256, 4, 126 },
  { "hyperv-storvsc", "sdb", "Hyper-V", "Microsoft Corporation Virtual Machine", 8, 1, 4, 2, 1,
    "storvsc", "Hyper-V storvsc", "SCSI (storvsc)", 2048, 10240, 2048, 8, 32 },
  { "bare-ahci", "sda3", "none", "Dell Inc. PowerEdge R650", 8, 2, 2, 2, 2,
    "ahci", "AHCI SATA", "SATA", 32, 32, 64, 1, 168 },
};

static void
test_trees (void)
{
  const char *src = getenv ("DM_SOURCE_ROOT");
  for (size_t i = 0; i < sizeof trees / sizeof trees[0]; i++)
    {
      const expect *e = &trees[i];
      char root[1024];
      dm_system_info s;
      dm_target_info t;
      snprintf (root, sizeof root, "%s/tests/data/sysfs-%s", src ? src : "..", e->tree);
      int err = dm_facts_probe_root (root, e->disk, &s, &t);
      if (err == -ENOSYS)
        {
          printf ("# no sysfs on this OS: canned trees skipped\n");
          return;
        }
      printf ("# %s %s\n", e->tree, e->disk);
      DM_CHECK_INT (err, ==, 0);
      DM_CHECK_STR (s.hypervisor, e->hypervisor);
      DM_CHECK_STR (s.machine, e->machine);
      DM_CHECK_INT (s.logical_cpus, ==, e->cpus);
      DM_CHECK_INT (s.sockets, ==, e->sockets);
      DM_CHECK_INT (s.cores_per_socket, ==, e->cores);
      DM_CHECK_INT (s.threads_per_core, ==, e->threads);
      DM_CHECK_INT (s.numa_nodes, ==, e->nodes);
      DM_CHECK_STR (t.driver, e->driver);
      DM_CHECK_STR (t.controller, e->controller);
      DM_CHECK_STR (t.bus, e->bus);
      DM_CHECK_INT (t.queue_depth, ==, e->queue_depth);
      DM_CHECK_INT (t.host_queue, ==, e->host_queue);
      DM_CHECK_INT (t.nr_requests, ==, e->nr_requests);
      DM_CHECK_INT (t.hw_queues, ==, e->hw_queues);
      DM_CHECK_INT (t.max_segments, ==, e->max_segments);
    }
}

static void
test_tag_parse (void)
{
  dm_tag tag;
  char why[200];
  DM_CHECK_INT (dm_tag_parse ("vcpus=48 (HT)", &tag, why, sizeof why), ==, 0);
  DM_CHECK_STR (tag.key, "vcpus");
  DM_CHECK_STR (tag.value, "48 (HT)");
  DM_CHECK_INT (dm_tag_parse ("a.b-c_1=x=y", &tag, why, sizeof why), ==, 0);
  DM_CHECK_STR (tag.value, "x=y");
  DM_CHECK_INT (dm_tag_parse ("empty=", &tag, why, sizeof why), ==, 0);
  static const char *const bad[] = {
    "novalue", "=v", "Upper=1", "sp ace=1", "abcdefghijabcdefghijabcdefghijabc=1", "k=\xff",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      why[0] = '\0';
      DM_CHECK_INT (dm_tag_parse (bad[i], &tag, why, sizeof why), ==, -EINVAL);
      DM_CHECK (why[0] != '\0' && !strchr (why, '\n'));
    }
  char long_value[140] = "k=";
  memset (long_value + 2, 'a', 129);
  long_value[131] = '\0';
  DM_CHECK_INT (dm_tag_parse (long_value, &tag, why, sizeof why), ==, -EINVAL);
  long_value[130] = '\0'; /* 128 bytes: kept */
  DM_CHECK_INT (dm_tag_parse (long_value, &tag, why, sizeof why), ==, 0);
}

static void
fill (dm_report *r)
{
  dm_settings s;
  dm_spec spec;
  dm_tag tag;
  dm_settings_init (&s);
  dm_spec_parse ("RND4K_Q32T1", &spec, NULL, 0);
  DM_CHECK_INT (dm_report_init (r, &s, &spec, 1, DM_MODE_BIT (DM_MODE_READ)), ==, 0);
  snprintf (r->system.os, sizeof r->system.os, "Debian GNU/Linux 12 (bookworm)");
  snprintf (r->system.hypervisor, sizeof r->system.hypervisor, "VMware");
  snprintf (r->system.machine, sizeof r->system.machine, "VMware, Inc. VMware7,1");
  r->system.logical_cpus = 48;
  r->system.sockets = 2;
  r->system.cores_per_socket = 12;
  r->system.threads_per_core = 2;
  r->system.numa_nodes = 2;
  r->system.memory_bytes = 64ull << 30;
  snprintf (r->target.path, sizeof r->target.path, "/mnt/data");
  snprintf (r->target.device, sizeof r->target.device, "/dev/sdb1");
  snprintf (r->target.model, sizeof r->target.model, "VMware Virtual disk");
  snprintf (r->target.driver, sizeof r->target.driver, "vmw_pvscsi");
  snprintf (r->target.controller, sizeof r->target.controller, "VMware PVSCSI");
  snprintf (r->target.filesystem, sizeof r->target.filesystem, "xfs");
  r->target.queue_depth = 254;
  r->target.host_queue = 1024;
  r->target.nr_requests = 254;
  r->target.hw_queues = 1;
  r->target.max_segments = 128;
  dm_tag_parse ("vcpus=48 (HT)", &tag, NULL, 0);
  dm_tags_set (r->tags, &r->n_tags, DM_TAGS_MAX, &tag);
  dm_tag_parse ("site=lab \"2\"", &tag, NULL, 0);
  dm_tags_set (r->tags, &r->n_tags, DM_TAGS_MAX, &tag);
}

static void
test_round_trip (void)
{
  dm_report r, back;
  dm_buf a, b, text;
  char why[200] = "";
  fill (&r);
  dm_buf_init (&a);
  dm_buf_init (&b);
  dm_buf_init (&text);
  dm_report_write_json (&r, &a);
  DM_CHECK (strstr (a.data, "\"hypervisor\": \"VMware\"") != NULL);
  DM_CHECK (strstr (a.data, "\"tags\": {") != NULL);
  DM_CHECK (strstr (a.data, "\"vcpus\": \"48 (HT)\"") != NULL);
  DM_CHECK (strstr (a.data, "\"queue_depth\": \"254\"") != NULL);
  DM_CHECK (strstr (a.data, "\"site\": \"lab \\\"2\\\"\"") != NULL);
  DM_CHECK_INT (dm_report_load_json (&back, a.data, a.len, why, sizeof why), ==, 0);
  DM_CHECK_STR (why, "");
  DM_CHECK_STR (back.system.hypervisor, "VMware");
  DM_CHECK_INT (back.system.cores_per_socket, ==, 12);
  DM_CHECK_STR (back.target.controller, "VMware PVSCSI");
  DM_CHECK_INT (back.target.host_queue, ==, 1024);
  DM_CHECK_STR (dm_tags_get (back.tags, back.n_tags, "vcpus"), "48 (HT)");
  dm_report_write_json (&back, &b);
  DM_CHECK_INT (a.len, ==, b.len);
  DM_CHECK (a.len == b.len && memcmp (a.data, b.data, a.len) == 0);

  /* The text: the facts in lines of their own, the user's tags (and the
   * fact they overrode) on one line. */
  dm_report_write_text (&back, &text);
  DM_CHECK (strstr (text.data, "\nMachine: VMware (VMware, Inc. VMware7,1), 48 vCPUs (2 sockets x 12 "
                               "cores x 2 threads), 2 NUMA nodes, 64.0 GiB\n") != NULL);
  DM_CHECK (strstr (text.data, "\nAdapter: VMware PVSCSI [vmw_pvscsi], queue depth 254 (host 1024), 1 "
                               "hardware queue of 254 requests, 128 segments\n") != NULL);
  DM_CHECK (strstr (text.data, "\n   Tags: vcpus=48 (HT), site=lab \"2\"\nComment: ") != NULL);
  dm_buf_free (&a);
  dm_buf_free (&b);
  dm_buf_free (&text);
  dm_report_clear (&r);
  dm_report_clear (&back);
}

static void
test_bad_tags_in_file (void)
{
  dm_report r, back;
  dm_buf a;
  char why[200];
  fill (&r);
  dm_buf_init (&a);
  dm_report_write_json (&r, &a);
  static const char *const bad[][2] = {
    { "\"site\": \"lab", "\"Si te\": \"lab" },
    { "\"site\": \"lab \\\"2\\\"\"", "\"site\": 7" },
    { "\"tags\": {", "\"tags\": [], \"x\": {" },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      char *p = strstr (a.data, bad[i][0]);
      DM_CHECK (p != NULL);
      if (!p)
        continue;
      size_t head = (size_t) (p - a.data), old = strlen (bad[i][0]), new = strlen (bad[i][1]);
      char *edited = malloc (a.len + new + 1);
      memcpy (edited, a.data, head);
      memcpy (edited + head, bad[i][1], new);
      memcpy (edited + head + new, p + old, a.len - head - old + 1);
      why[0] = '\0';
      DM_CHECK_INT (dm_report_load_json (&back, edited, strlen (edited), why, sizeof why), ==, -EINVAL);
      printf ("# refused: %s\n", why);
      DM_CHECK (why[0] != '\0');
      free (edited);
    }
  dm_buf_free (&a);
  dm_report_clear (&r);
}

int
main (void)
{
  DM_RUN ("/platform/facts/signatures", test_signatures);
  DM_RUN ("/platform/facts/sysfs-trees", test_trees);
  DM_RUN ("/engine/tags/parse", test_tag_parse);
  DM_RUN ("/engine/facts/round-trip", test_round_trip);
  DM_RUN ("/engine/tags/bad-in-file", test_bad_tags_in_file);
  return dm_test_done ();
}
