/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What Windows hands over raw, read on every OS: pvscsi's DriverParameter
 * string (VMware KB 2053145's own examples) and SMBIOS tables laid out by
 * hand after DSP0134 (a BIOS structure, the System Information structure
 * with its strings, the end marker), wrapped as GetSystemFirmwareTable
 * ('RSMB') returns them. Truncated and malformed inputs read as unknown.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "dm-facts-private.h"
#include "dm-platform.h"
#include "dm-test.h"

static unsigned
param (const char *params, const char *key)
{
  unsigned v = 0;
  return _dm_driver_param_uint (params, key, &v) ? v : 0;
}

static void
test_driver_parameter (void)
{
  unsigned v = 7;
  /* As VMware documents it, and as users type it. */
  DM_CHECK_INT (param ("RequestRingPages=32,MaxQueueDepth=254", "MaxQueueDepth"), ==, 254);
  DM_CHECK_INT (param ("RequestRingPages=32,MaxQueueDepth=254", "RequestRingPages"), ==, 32);
  DM_CHECK_INT (param ("MaxQueueDepth=128", "MaxQueueDepth"), ==, 128);
  DM_CHECK_INT (param ("requestringpages=16; maxqueuedepth = 64 ", "MaxQueueDepth"), ==, 64);
  DM_CHECK_INT (param (" RequestRingPages = 8 , MaxQueueDepth=32", "RequestRingPages"), ==, 8);
  /* A key whose name only starts or ends like the one asked is another. */
  DM_CHECK (!_dm_driver_param_uint ("XMaxQueueDepth=9", "MaxQueueDepth", &v));
  DM_CHECK (!_dm_driver_param_uint ("MaxQueueDepthX=9", "MaxQueueDepth", &v));
  /* Not said: no figure, and the output untouched. */
  DM_CHECK (!_dm_driver_param_uint ("RequestRingPages=32", "MaxQueueDepth", &v));
  DM_CHECK (!_dm_driver_param_uint ("", "MaxQueueDepth", &v));
  DM_CHECK (!_dm_driver_param_uint (NULL, "MaxQueueDepth", &v));
  DM_CHECK (!_dm_driver_param_uint ("MaxQueueDepth", "MaxQueueDepth", &v));
  DM_CHECK (!_dm_driver_param_uint ("MaxQueueDepth=", "MaxQueueDepth", &v));
  DM_CHECK (!_dm_driver_param_uint ("MaxQueueDepth=254x", "MaxQueueDepth", &v));
  DM_CHECK (!_dm_driver_param_uint ("MaxQueueDepth=0x40", "MaxQueueDepth", &v));
  DM_CHECK (!_dm_driver_param_uint ("MaxQueueDepth=-1", "MaxQueueDepth", &v));
  DM_CHECK (!_dm_driver_param_uint ("MaxQueueDepth=4294967296", "MaxQueueDepth", &v));
  DM_CHECK_INT (v, ==, 7);
  /* A malformed neighbour does not hide a good entry. */
  DM_CHECK_INT (param ("Junk,RequestRingPages=abc,MaxQueueDepth=254", "MaxQueueDepth"), ==, 254);
  DM_CHECK_INT (param ("MaxQueueDepth=4294967295", "MaxQueueDepth"), ==, 4294967295u);
}

/* A BIOS structure (type 0, 24 bytes: vendor 1, version 2, date 3), then
 * System Information (type 1, 27 bytes: manufacturer 1, product 2,
 * version 3, serial 4), then End of Table (type 127), as VMware's
 * firmware fills them. */
static const uint8_t vmware_table[] = {
  0, 24, 0x00, 0x00, 1, 2, 0x00, 0xE8, 3, 0x7F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  'P', 'h', 'o', 'e', 'n', 'i', 'x', 0, '6', '.', '0', '0', 0, '1', '1', '/', '1', '2', 0, 0,
  1, 27, 0x01, 0x00, 1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 6, 0, 0,
  'V', 'M', 'w', 'a', 'r', 'e', ',', ' ', 'I', 'n', 'c', '.', 0,
  'V', 'M', 'w', 'a', 'r', 'e', '7', ',', '1', 0, 'N', 'o', 'n', 'e', 0, 'V', 'M', 'w', '-', '5', '6', 0, 0,
  127, 4, 0x02, 0x00, 0, 0,
};

static void
test_smbios (void)
{
  char vendor[64], product[64];
  DM_CHECK_INT (_dm_smbios_system (vmware_table, sizeof vmware_table, vendor, sizeof vendor,
                                   product, sizeof product), ==, 0);
  DM_CHECK_STR (vendor, "VMware, Inc.");
  DM_CHECK_STR (product, "VMware7,1");
  DM_CHECK_STR (dm_hypervisor_decide (false, NULL, vendor, product), "VMware");

  /* The same through GetSystemFirmwareTable's header: SMBIOS 2.7. */
  uint8_t rsmb[8 + sizeof vmware_table] = { 0, 2, 7, 0 };
  rsmb[4] = (uint8_t) sizeof vmware_table;
  memcpy (rsmb + 8, vmware_table, sizeof vmware_table);
  DM_CHECK_INT (_dm_smbios_rsmb_system (rsmb, sizeof rsmb, vendor, sizeof vendor, product,
                                        sizeof product), ==, 0);
  DM_CHECK_STR (vendor, "VMware, Inc.");
  DM_CHECK_STR (product, "VMware7,1");
  /* A header claiming more than the buffer holds. */
  rsmb[5] = 1;
  DM_CHECK_INT (_dm_smbios_rsmb_system (rsmb, sizeof rsmb, vendor, sizeof vendor, product,
                                        sizeof product), ==, -EINVAL);
  DM_CHECK_INT (_dm_smbios_rsmb_system (rsmb, 7, vendor, sizeof vendor, product, sizeof product),
                ==, -EINVAL);

  /* Hyper-V pads its strings; product string 0 means "none given". */
  static const uint8_t hyperv[] = {
    1, 8, 0x00, 0x00, 1, 2, 0, 0,
    'M', 'i', 'c', 'r', 'o', 's', 'o', 'f', 't', ' ', 'C', 'o', 'r', 'p', 'o', 'r', 'a', 't', 'i',
    'o', 'n', ' ', ' ', 0, ' ', 'V', 'i', 'r', 't', 'u', 'a', 'l', ' ', 'M', 'a', 'c', 'h', 'i',
    'n', 'e', 0, 0,
  };
  DM_CHECK_INT (_dm_smbios_system (hyperv, sizeof hyperv, vendor, sizeof vendor, product,
                                   sizeof product), ==, 0);
  DM_CHECK_STR (vendor, "Microsoft Corporation");
  DM_CHECK_STR (product, "Virtual Machine");
  DM_CHECK_STR (dm_hypervisor_decide (true, "Microsoft Hv", vendor, product), "Hyper-V");
  static const uint8_t no_product[] = { 1, 8, 0, 0, 1, 0, 0, 0, 'Q', 'E', 'M', 'U', 0, 0 };
  DM_CHECK_INT (_dm_smbios_system (no_product, sizeof no_product, vendor, sizeof vendor, product,
                                   sizeof product), ==, 0);
  DM_CHECK_STR (vendor, "QEMU");
  DM_CHECK_STR (product, "");
  /* An index past the strings there are names nothing. */
  static const uint8_t past[] = { 1, 8, 0, 0, 3, 4, 0, 0, 'a', 0, 'b', 0, 0 };
  DM_CHECK_INT (_dm_smbios_system (past, sizeof past, vendor, sizeof vendor, product,
                                   sizeof product), ==, -ENOENT);

  /* No System Information before the end marker, or none at all. */
  DM_CHECK_INT (_dm_smbios_system (vmware_table, 44, vendor, sizeof vendor, product,
                                   sizeof product), ==, -ENOENT);
  static const uint8_t end_only[] = { 127, 4, 0, 0, 0, 0, 1, 8, 0, 0, 1, 0, 0, 0, 'X', 0, 0 };
  DM_CHECK_INT (_dm_smbios_system (end_only, sizeof end_only, vendor, sizeof vendor, product,
                                   sizeof product), ==, -ENOENT);
  /* Every cut inside the System Information structure is refused, none
   * reads past the end (ASan and valgrind would say). */
  for (size_t cut = 45; cut < 44 + 27 + 13 + 10 + 5 + 7 + 1; cut++)
    DM_CHECK_INT (_dm_smbios_system (vmware_table, cut, vendor, sizeof vendor, product,
                                     sizeof product), ==, -EINVAL);
  static const uint8_t short_length[] = { 1, 2, 0, 0, 0, 0 };
  DM_CHECK_INT (_dm_smbios_system (short_length, sizeof short_length, vendor, sizeof vendor,
                                   product, sizeof product), ==, -EINVAL);
}

int
main (void)
{
  DM_RUN ("/platform/facts/driver-parameter", test_driver_parameter);
  DM_RUN ("/platform/facts/smbios", test_smbios);
  return dm_test_done ();
}
