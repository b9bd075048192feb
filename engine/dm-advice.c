/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one table of advice: for each controller driver the facts can name,
 * which of its queues a fact of the machine gives, what to change to make
 * it deeper and where that is documented. A result whose queue did not
 * reach the disk gets the entry whose queue admits the fewest of the I/Os
 * it asked, when that is fewer than asked; otherwise nothing, since then
 * the queue the table knows is not what held the I/O back.
 *
 * Left out, because the facts tell no queue of them: Windows' LSI_SAS and
 * stornvme (only pvscsi's DriverParameter says a depth there), and
 * virtio_blk, whose tuning Diskmeter cannot name from documentation.
 */
#include "dm-advice.h"

#include <stdio.h>
#include <string.h>

/* Which fact says how many I/Os a queue admits. */
typedef enum {
  ADMIT_LUN_DEPTH,   /* dm_target_info.queue_depth: a SCSI LUN's queue_depth (Linux),
                      * pvscsi's DriverParameter MaxQueueDepth (Windows) */
  ADMIT_HOST_QUEUE,  /* dm_target_info.host_queue: the SCSI host's can_queue */
  ADMIT_NR_REQUESTS, /* nr_requests per blk-mq hardware queue, times the queues */
  ADMIT_PARAM_UNSET, /* no depth read (pvscsi's DriverParameter has no MaxQueueDepth):
                      * the driver's documented default is in force */
} admit_fact;

typedef struct {
  const char *driver;  /* dm_target_info.driver, compared exactly */
  admit_fact  fact;
  const char *per;     /* "per disk": the queue's scope, after the figure */
  const char *from;    /* the fact, named as the OS names it */
  const char *setting; /* {disk} is the counted device, {asked} Q x T */
  const char *source;
  unsigned    documented; /* ADMIT_PARAM_UNSET: the default its source gives */
} advice_rule;

#define PVSCSI_KB "VMware KB 2053145, \"Large-scale workloads with intensive I/O patterns " \
                  "might require queue depths significantly greater than Paravirtual SCSI " \
                  "default values\""
#define HBA_ARTICLE "VMware's article \"Changing the queue depth for QLogic, Emulex, and " \
                    "Brocade HBAs\""
#define ESXI_HBA "; on the ESXi host, the physical HBA's queue depth too (esxcli system " \
                 "module parameters set -m <HBA driver> -p <its queue depth parameter>)"
#define LINUX_PVSCSI "vmw_pvscsi.cmd_per_lun=254 vmw_pvscsi.ring_pages=32 on the kernel " \
                     "command line, or \"options vmw_pvscsi cmd_per_lun=254 ring_pages=32\" " \
                     "in /etc/modprobe.d/, then reboot"
#define SCSI_LUN "echo {asked} > /sys/block/{disk}/device/queue_depth (the driver caps " \
                 "it at what it allows; it lasts until reboot)"
#define SCSI_LUN_SOURCE "Linux kernel drivers/scsi/scsi_sysfs.c (the device's queue_depth " \
                        "attribute)"

static const advice_rule rules[] = {
  { "vmw_pvscsi", ADMIT_LUN_DEPTH, "per disk", "its queue_depth", LINUX_PVSCSI ESXI_HBA,
    PVSCSI_KB "; Linux kernel drivers/scsi/vmw_pvscsi.c (module parameters cmd_per_lun, "
              "ring_pages); " HBA_ARTICLE },
  { "vmw_pvscsi", ADMIT_HOST_QUEUE, "per adapter", "its can_queue", LINUX_PVSCSI ESXI_HBA,
    PVSCSI_KB "; Linux kernel drivers/scsi/vmw_pvscsi.c (module parameter ring_pages); "
    HBA_ARTICLE },
  { "pvscsi", ADMIT_LUN_DEPTH, "per disk", "DriverParameter MaxQueueDepth",
    "HKLM\\SYSTEM\\CurrentControlSet\\services\\pvscsi\\Parameters\\Device, REG_SZ "
    "DriverParameter = \"RequestRingPages=32,MaxQueueDepth=254\", then reboot" ESXI_HBA,
    PVSCSI_KB "; " HBA_ARTICLE },
  /* The KB gives PVSCSI's default as 64 per disk. */
  { "pvscsi", ADMIT_PARAM_UNSET, "per disk", "its default: DriverParameter sets no MaxQueueDepth",
    "HKLM\\SYSTEM\\CurrentControlSet\\services\\pvscsi\\Parameters\\Device, REG_SZ "
    "DriverParameter = \"RequestRingPages=32,MaxQueueDepth=254\", then reboot" ESXI_HBA,
    PVSCSI_KB "; " HBA_ARTICLE, 64 },
  { "mptsas", ADMIT_LUN_DEPTH, "per disk", "its queue_depth", SCSI_LUN ESXI_HBA,
    SCSI_LUN_SOURCE "; " HBA_ARTICLE },
  { "mptspi", ADMIT_LUN_DEPTH, "per disk", "its queue_depth", SCSI_LUN ESXI_HBA,
    SCSI_LUN_SOURCE "; " HBA_ARTICLE },
  { "mpt2sas", ADMIT_LUN_DEPTH, "per disk", "its queue_depth", SCSI_LUN,
    SCSI_LUN_SOURCE },
  { "mpt3sas", ADMIT_LUN_DEPTH, "per disk", "its queue_depth", SCSI_LUN,
    SCSI_LUN_SOURCE },
  { "mpt2sas", ADMIT_HOST_QUEUE, "per adapter", "its can_queue",
    "mpt3sas.max_queue_depth={asked} on the kernel command line (the controller's "
    "firmware caps it), then reboot",
    "Linux kernel drivers/scsi/mpt3sas/mpt3sas_base.c (module parameter max_queue_depth)" },
  { "mpt3sas", ADMIT_HOST_QUEUE, "per adapter", "its can_queue",
    "mpt3sas.max_queue_depth={asked} on the kernel command line (the controller's "
    "firmware caps it), then reboot",
    "Linux kernel drivers/scsi/mpt3sas/mpt3sas_base.c (module parameter max_queue_depth)" },
  { "nvme", ADMIT_NR_REQUESTS, "per hardware queue", "queue/nr_requests",
    "nvme.io_queue_depth=N on the kernel command line, or \"options nvme "
    "io_queue_depth=N\" in /etc/modprobe.d/ (below 4096; the controller caps it at its "
    "own maximum), then reboot",
    "Linux kernel drivers/nvme/host/pci.c (module parameter io_queue_depth)" },
  { "loop", ADMIT_NR_REQUESTS, "per hardware queue", "queue/nr_requests",
    "echo {asked} > /sys/block/{disk}/queue/nr_requests, up to the loop module's "
    "hw_queue_depth (loop.hw_queue_depth=N raises it)",
    "Linux kernel Documentation/ABI/stable/sysfs-block (queue/nr_requests); "
    "drivers/block/loop.c (module parameter hw_queue_depth)" },
};

/* What the rule's queue admits, and its part per queue where there are
 * several (blk-mq); 0 where the facts do not say. */
static unsigned
admits (const advice_rule *rule, const dm_target_info *t, const dm_device_seen *seen,
        unsigned *per_queue, unsigned *queues)
{
  *per_queue = 0;
  *queues = 1;
  switch (rule->fact)
    {
    case ADMIT_LUN_DEPTH:
      return t->queue_depth;
    case ADMIT_HOST_QUEUE:
      return t->host_queue;
    case ADMIT_NR_REQUESTS:
      /* The target's facts, else the device watch's (a report from a
       * device the probe could not describe). */
      *per_queue = t->nr_requests ? t->nr_requests : seen->queue_limit;
      *queues = t->hw_queues ? t->hw_queues : 1;
      return *per_queue * *queues;
    case ADMIT_PARAM_UNSET:
      /* Only where the facts could have read a depth and found none. */
      return t->queue_depth ? 0 : rule->documented;
    }
  return 0;
}

/* Copies a setting with {disk} and {asked} put in. */
static void
expand (const char *tmpl, const char *disk, unsigned asked, char *out, size_t size)
{
  size_t n = 0;
  out[0] = '\0';
  for (const char *p = tmpl; *p && n + 1 < size;)
    {
      int w = 0;
      if (!strncmp (p, "{disk}", 6))
        w = snprintf (out + n, size - n, "%s", disk), p += 6;
      else if (!strncmp (p, "{asked}", 7))
        w = snprintf (out + n, size - n, "%u", asked), p += 7;
      else
        out[n] = *p++, out[n + 1] = '\0', w = 1;
      n += (size_t) w < size - n ? (size_t) w : size - n - 1;
    }
}

bool
dm_advice_for (const dm_target_info *target, const dm_device_seen *seen,
               const dm_device_ask *ask, dm_advice *advice)
{
  const advice_rule *best = NULL;
  unsigned best_admits = 0, best_per = 0, best_queues = 1;
  unsigned asked = ask->queue_depth * (ask->threads ? ask->threads : 1);

  memset (advice, 0, sizeof *advice);
  /* Flagged, or held back by the device's own queue, which the flags do
   * not count against the host (dm_device_seen_flags). */
  bool limited = seen->counted && seen->queue_limit && seen->queue_limit < asked;
  if (!(seen->flags & (DM_FLAG_HOST_BOUND | DM_FLAG_QUEUE_NOT_HELD)) && !limited)
    return false;
  if (!target->driver[0])
    return false;
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
    {
      const advice_rule *rule = &rules[i];
      unsigned per, queues, n;
      if (strcmp (rule->driver, target->driver))
        continue;
      n = admits (rule, target, seen, &per, &queues);
      if (!n || n >= asked)
        continue;
      if (!best || n < best_admits)
        best = rule, best_admits = n, best_per = per, best_queues = queues;
    }
  if (!best)
    return false;

  const char *disk = seen->name[0] && !strchr (seen->name, '+') ? seen->name : "DISK";
  if (best_queues > 1)
    snprintf (advice->sentence, sizeof advice->sentence,
              "Q%uT%u asks for %u I/Os; %s admits %u %s, %u in its %u queues, here (%s)",
              ask->queue_depth, ask->threads, asked, target->driver, best_per, best->per,
              best_admits, best_queues, best->from);
  else
    snprintf (advice->sentence, sizeof advice->sentence,
              "Q%uT%u asks for %u I/Os; %s admits %u %s here (%s)", ask->queue_depth,
              ask->threads, asked, target->driver, best_admits, best->per, best->from);
  expand (best->setting, disk, asked, advice->setting, sizeof advice->setting);
  snprintf (advice->source, sizeof advice->source, "%s", best->source);
  return true;
}
