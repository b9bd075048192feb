/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the OS folders share to read the machine's and the controller's
 * facts out of raw text and tables: pure functions of their input, so the
 * unit tests check them on every OS against canned bytes (tests/test-facts-parse.c).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The number a storage miniport's DriverParameter string gives key in,
 * as pvscsi's "RequestRingPages=32,MaxQueueDepth=254" (VMware KB 2053145):
 * entries split by ',' or ';', keys compared without case, blanks around
 * them ignored. False where the key is absent, has no value, or its value
 * is not a whole decimal number of at most 32 bits: never a guess. */
bool _dm_driver_param_uint (const char *params, const char *key, unsigned *value);

/* The System Information structure (type 1) of an SMBIOS structure table
 * (DSP0134: the bytes of /sys/firmware/dmi/tables/DMI, or those after the
 * 8-byte header of Windows' GetSystemFirmwareTable ('RSMB')): its
 * Manufacturer and Product Name strings, blanks trimmed. 0, -ENOENT where
 * the table has no type 1 or it names neither, -EINVAL for a table that
 * ends inside a structure. */
int _dm_smbios_system (const uint8_t *table, size_t len, char *vendor, size_t vendor_size,
                       char *product, size_t product_size);

/* The same from the whole buffer GetSystemFirmwareTable ('RSMB') fills:
 * a RawSMBIOSData header (calling method, major, minor, DMI revision, a
 * 32-bit little-endian table length) then the table. -EINVAL where the
 * header's length does not fit the buffer. */
int _dm_smbios_rsmb_system (const uint8_t *rsmb, size_t len, char *vendor, size_t vendor_size,
                            char *product, size_t product_size);
