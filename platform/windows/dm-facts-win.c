/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which machine and which storage adapter a result came from on Windows:
 * the hypervisor (CPUID and the firmware's SMBIOS table), the sockets,
 * cores and NUMA nodes the (virtual) machine presents, and for the
 * target's disk its adapter's miniport driver (pvscsi, LSI_SAS, stornvme),
 * scatter-gather limit and, where the driver's own settings say it, the
 * queue depth. A figure Windows does not give stays 0: unknown.
 */
#include "dm-win-private.h"

#include <ntddscsi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "dm-facts-private.h"

void
_dm_win_trim (char *s)
{
  size_t n = strlen (s), i = 0;

  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
    s[--n] = '\0';
  while (s[i] == ' ' || s[i] == '\t')
    i++;
  memmove (s, s + i, n - i + 1);
}

int
_dm_win_reg_string (const wchar_t *key, const wchar_t *value, char *buf, size_t size)
{
  wchar_t w[256];
  DWORD n = sizeof w;
  LSTATUS st;

  st = RegGetValueW (HKEY_LOCAL_MACHINE, key, value, RRF_RT_REG_SZ, NULL, w, &n);
  if (st != ERROR_SUCCESS)
    return _dm_win_error ((DWORD) st);
  return _dm_wide_to_utf8 (w, buf, size);
}

/* The firmware's maker and product from the SMBIOS table itself, as Linux
 * reads DMI; the registry's copy under HARDWARE\DESCRIPTION\System\BIOS
 * where GetSystemFirmwareTable is refused (it is there from Vista on). */
static void
firmware_strings (char *vendor, size_t vendor_size, char *product, size_t product_size,
                  bool *have_vendor, bool *have_product)
{
  static const wchar_t bios[] = L"HARDWARE\\DESCRIPTION\\System\\BIOS";
  const DWORD rsmb = 'R' << 24 | 'S' << 16 | 'M' << 8 | 'B';
  UINT n = GetSystemFirmwareTable (rsmb, 0, NULL, 0);
  uint8_t *table = n ? malloc (n) : NULL;

  *have_vendor = *have_product = false;
  if (table && GetSystemFirmwareTable (rsmb, 0, table, n) == n
      && _dm_smbios_rsmb_system (table, n, vendor, vendor_size, product, product_size) == 0)
    {
      *have_vendor = vendor[0] != '\0';
      *have_product = product[0] != '\0';
    }
  free (table);
  if (!*have_vendor && !*have_product)
    {
      *have_vendor = _dm_win_reg_string (bios, L"SystemManufacturer", vendor, vendor_size) == 0;
      *have_product = _dm_win_reg_string (bios, L"SystemProductName", product, product_size) == 0;
      _dm_win_trim (vendor);
      _dm_win_trim (product);
    }
}

void
_dm_win_machine_facts (dm_system_info *info)
{
  char vendor[64] = "", product[64] = "", signature[13];
  bool have_vendor, have_product, available = false;
  bool present = dm_cpuid_hypervisor (signature, &available);

  firmware_strings (vendor, sizeof vendor, product, sizeof product, &have_vendor, &have_product);
  snprintf (info->hypervisor, sizeof info->hypervisor, "%s",
            dm_hypervisor_decide (present, available ? signature : NULL,
                                  have_vendor ? vendor : NULL, have_product ? product : NULL));
  snprintf (info->machine, sizeof info->machine, "%s%s%s", vendor,
            vendor[0] && product[0] ? " " : "", product);

  /* Packages are sockets, cores are cores; all processor groups count,
   * since a VM with more than 64 vCPUs has several. */
  DWORD len = 0;
  GetLogicalProcessorInformationEx (RelationAll, NULL, &len);
  char *buf = len ? malloc (len) : NULL;
  if (!buf || !GetLogicalProcessorInformationEx (RelationAll,
                                                 (PSYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX) buf, &len))
    {
      free (buf);
      return;
    }
  unsigned packages = 0, cores = 0, nodes = 0;
  for (DWORD off = 0; off + sizeof (DWORD) * 2 <= len;)
    {
      PSYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX e = (PSYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX) (buf + off);
      packages += e->Relationship == RelationProcessorPackage;
      cores += e->Relationship == RelationProcessorCore;
      nodes += e->Relationship == RelationNumaNode;
      if (!e->Size)
        break;
      off += e->Size;
    }
  free (buf);
  if (packages && cores)
    {
      info->sockets = packages;
      info->cores_per_socket = cores / packages;
      info->threads_per_core = info->logical_cpus / cores ? info->logical_cpus / cores : 1;
    }
  info->numa_nodes = nodes;
}

int
_dm_win_miniport_facts (const char *miniport, dm_target_info *info)
{
  wchar_t key[160];
  wchar_t *w;
  int err = 0;

  snprintf (info->controller, sizeof info->controller, "%s", dm_controller_name (miniport));
  w = _dm_utf8_to_wide (miniport, &err);
  if (w == NULL)
    return err;
  /* DriverParameter is how storport and SCSI port hand a miniport its
   * tuning; pvscsi reads its ring and queue sizes there (VMware KB
   * 2053145), and takes its defaults when the value is not set. */
  swprintf (key, sizeof key / sizeof key[0],
            L"SYSTEM\\CurrentControlSet\\Services\\%ls\\Parameters\\Device", w);
  free (w);
  if (_dm_win_reg_string (key, L"DriverParameter", info->driver_params,
                          sizeof info->driver_params) < 0)
    info->driver_params[0] = '\0';
  _dm_win_trim (info->driver_params);
  /* The depth pvscsi keeps per disk, only when the user set it: the
   * driver's built-in default is not something Windows tells. */
  unsigned depth;
  if (!_stricmp (miniport, "pvscsi")
      && _dm_driver_param_uint (info->driver_params, "MaxQueueDepth", &depth))
    info->queue_depth = depth;
  return 0;
}

void
_dm_win_adapter_facts (HANDLE disk, const char *bus, dm_target_info *info)
{
  STORAGE_PROPERTY_QUERY query = { .PropertyId = StorageAdapterProperty,
                                   .QueryType = PropertyStandardQuery };
  STORAGE_ADAPTER_DESCRIPTOR adapter;
  SCSI_ADDRESS address;
  DWORD got = 0;

  /* Scatter-gather entries per transfer, Linux's max_segments; all ones
   * is "no limit", not a figure. */
  memset (&adapter, 0, sizeof adapter);
  if (_dm_win_ioctl (disk, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query,
                     &adapter, sizeof adapter, &got) == 0
      && got >= offsetof (STORAGE_ADAPTER_DESCRIPTOR, AlignmentMask)
      && adapter.MaximumPhysicalPages != 0 && adapter.MaximumPhysicalPages != ~(DWORD) 0)
    info->max_segments = adapter.MaximumPhysicalPages;

  /* The SCSI port the disk sits on names its miniport (pvscsi, LSI_SAS,
   * stornvme) in the device map storport and SCSI port keep. */
  if (_dm_win_ioctl (disk, IOCTL_SCSI_GET_ADDRESS, NULL, 0, &address, sizeof address, NULL) == 0)
    {
      wchar_t key[80];
      char miniport[32];
      swprintf (key, 80, L"HARDWARE\\DEVICEMAP\\Scsi\\Scsi Port %u", (unsigned) address.PortNumber);
      if (_dm_win_reg_string (key, L"Driver", miniport, sizeof miniport) == 0 && miniport[0] != '\0')
        {
          snprintf (info->driver, sizeof info->driver, "%s", miniport);
          snprintf (info->bus, sizeof info->bus, "%s (%s)", bus, miniport);
          _dm_win_miniport_facts (miniport, info);
        }
    }
}
