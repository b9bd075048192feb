/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which hypervisor and which storage controller a result came from, from
 * what every OS can read alike: CPUID's hypervisor leaf, the firmware's
 * maker and product, the controller's driver. The mappings are pure
 * functions, so tests check them without a VM of each kind.
 */
#include "dm-platform.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define DM_HAVE_CPUID 1
#endif

const char *
dm_hypervisor_from_signature (const char *signature)
{
  /* The vendor signatures hypervisors put in EBX, ECX, EDX of leaf
   * 0x40000000; KVM pads its nine characters with NULs. */
  static const struct { const char *sig, *name; } known[] = {
    { "VMwareVMware", "VMware" },   { "KVMKVMKVM", "KVM" },
    { "Microsoft Hv", "Hyper-V" },  { "XenVMMXenVMM", "Xen" },
    { "TCGTCGTCGTCG", "QEMU" },     { "VBoxVBoxVBox", "VirtualBox" },
    { " lrpepyh vr", "Parallels" }, { "bhyve bhyve ", "bhyve" },
    { "ACRNACRNACRN", "ACRN" },     { "QNXQVMBSQG", "QNX" },
  };
  if (!signature)
    return NULL;
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (!strncmp (signature, known[i].sig, 12))
      return known[i].name;
  return NULL;
}

static bool
has (const char *s, const char *part)
{
  return s && strstr (s, part);
}

/* The firmware's word, NULL where it names no hypervisor. */
static const char *
from_firmware (const char *vendor, const char *product)
{
  if (has (vendor, "VMware") || has (product, "VMware"))
    return "VMware";
  if (has (vendor, "QEMU") || has (product, "KVM") || has (product, "QEMU"))
    return "KVM";
  if (has (vendor, "Microsoft Corporation") && has (product, "Virtual Machine"))
    return "Hyper-V";
  if (has (vendor, "Xen") || has (product, "HVM domU"))
    return "Xen";
  if (has (product, "VirtualBox") || has (vendor, "innotek"))
    return "VirtualBox";
  return NULL;
}

const char *
dm_hypervisor_decide (bool cpuid_present, const char *signature,
                      const char *sys_vendor, const char *product)
{
  const char *fw = from_firmware (sys_vendor, product);
  const char *cpu = cpuid_present ? dm_hypervisor_from_signature (signature) : NULL;
  /* QEMU/KVM with Hyper-V enlightenments shows "Microsoft Hv" first; the
   * firmware still says QEMU. */
  if (fw && !strcmp (fw, "KVM"))
    return fw;
  if (cpu)
    return cpu;
  if (fw)
    return fw;
  if (cpuid_present)
    return "unknown";
  /* No hypervisor bit on x86 is real hardware; elsewhere only firmware
   * that answered and named none tells. */
  if (signature || sys_vendor || product)
    return "none";
  return "";
}

bool
dm_cpuid_hypervisor (char signature[13], bool *available)
{
  signature[0] = '\0';
#ifdef DM_HAVE_CPUID
  unsigned a, b, c, d;
  *available = true;
  if (!__get_cpuid (1, &a, &b, &c, &d) || !(c & (1u << 31)))
    return false;
  __cpuid (0x40000000, a, b, c, d);
  memcpy (signature, &b, 4);
  memcpy (signature + 4, &c, 4);
  memcpy (signature + 8, &d, 4);
  signature[12] = '\0';
  return true;
#else
  *available = false;
  return false;
#endif
}

const char *
dm_controller_name (const char *driver)
{
  /* Linux module names and Windows service names of the controllers VMs
   * offer, and the common real ones. */
  static const struct { const char *driver, *name; } known[] = {
    { "vmw_pvscsi", "VMware PVSCSI" },   { "pvscsi", "VMware PVSCSI" },
    { "mptsas", "LSI Logic SAS" },       { "LSI_SAS", "LSI Logic SAS" },
    { "mptspi", "LSI Logic Parallel" },  { "LSI_SCSI", "LSI Logic Parallel" },
    { "mpt3sas", "LSI SAS3 (Broadcom)" }, { "LSI_SAS3", "LSI SAS3 (Broadcom)" },
    { "mpt2sas", "LSI SAS2" },           { "LSI_SAS2", "LSI SAS2" },
    { "megaraid_sas", "MegaRAID SAS" },  { "megasas", "MegaRAID SAS" },
    { "nvme", "NVMe" },                  { "stornvme", "NVMe" },
    { "virtio_blk", "virtio-blk" },      { "viostor", "virtio-blk" },
    { "virtio_scsi", "virtio-scsi" },    { "vioscsi", "virtio-scsi" },
    { "ahci", "AHCI SATA" },             { "storahci", "AHCI SATA" },
    { "ata_piix", "IDE (PIIX)" },        { "intelide", "IDE" },
    { "storvsc", "Hyper-V storvsc" },    { "hv_storvsc", "Hyper-V storvsc" },
    { "xen-blkfront", "Xen blkfront" },  { "xenvbd", "Xen blkfront" },
    { "BusLogic", "BusLogic" },
    { "usb-storage", "USB mass storage" }, { "uas", "USB attached SCSI" },
    { "sdhci", "SD host" },              { "loop", "loop" },
    { "device-mapper", "device-mapper" },
  };
  if (!driver)
    return "";
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (!strcmp (driver, known[i].driver))
      return known[i].name;
  return "";
}
