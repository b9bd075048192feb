/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which machine a result came from on Linux: the hypervisor (CPUID and the
 * firmware's DMI strings) and the sockets, cores, threads and NUMA nodes
 * the (virtual) machine presents in sysfs. Every path is read below a root
 * folder, so tests can point it at canned trees (tests/data/sysfs-*).
 */
#include "dm-linux-private.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
copy (char *dst, size_t size, const char *src)
{
  snprintf (dst, size, "%s", src ? src : "");
}

/* Sockets, cores and threads as the (virtual) machine presents them,
 * from each online CPU's topology: distinct physical_package_id values are
 * sockets, distinct (package, core_id) pairs cores. */
static void
topology_at (const char *root, dm_system_info *info)
{
  enum { MAX_CPUS = 4096 };
  /* Each caller its own: targets run at once prepare in their own threads. */
  unsigned *pkg = calloc (2 * MAX_CPUS, sizeof *pkg), *core = pkg ? pkg + MAX_CPUS : NULL;
  char path[PATH_MAX + 300], v[32];
  unsigned n = 0, sockets = 0, cores = 0;

  if (!pkg)
    return;
  snprintf (path, sizeof path, "%s/sys/devices/system/cpu", root);
  DIR *d = opendir (path);
  for (struct dirent *e; d && (e = readdir (d)) && n < MAX_CPUS;)
    {
      unsigned id;
      char extra;
      if (sscanf (e->d_name, "cpu%u%c", &id, &extra) != 1)
        continue;
      snprintf (path, sizeof path, "%s/sys/devices/system/cpu/%s/topology/physical_package_id",
                root, e->d_name);
      if (_dm_read_line (path, v, sizeof v) < 0)
        continue; /* offline: no topology */
      pkg[n] = (unsigned) strtoul (v, NULL, 10);
      snprintf (path, sizeof path, "%s/sys/devices/system/cpu/%s/topology/core_id", root,
                e->d_name);
      core[n] = _dm_read_line (path, v, sizeof v) == 0 ? (unsigned) strtoul (v, NULL, 10) : id;
      n++;
    }
  if (d)
    closedir (d);
  for (unsigned i = 0; i < n; i++)
    {
      bool new_pkg = true, new_core = true;
      for (unsigned k = 0; k < i; k++)
        {
          if (pkg[k] == pkg[i])
            new_pkg = false;
          if (pkg[k] == pkg[i] && core[k] == core[i])
            new_core = false;
        }
      sockets += new_pkg;
      cores += new_core;
    }
  free (pkg);
  if (!n)
    return;
  info->sockets = sockets;
  info->cores_per_socket = cores / sockets;
  info->threads_per_core = n / cores;

  snprintf (path, sizeof path, "%s/sys/devices/system/node", root);
  d = opendir (path);
  for (struct dirent *e; d && (e = readdir (d));)
    {
      unsigned id;
      char extra;
      if (sscanf (e->d_name, "node%u%c", &id, &extra) == 1)
        info->numa_nodes++;
    }
  if (d)
    closedir (d);
}

/* The hypervisor and the firmware's maker and product, below root. With
 * cpuid false (tests of canned trees) only the firmware tells. */
static void
machine_at (const char *root, bool cpuid, dm_system_info *info)
{
  char path[PATH_MAX + 64], vendor[64] = "", product[64] = "", xen[16] = "";
  char signature[13] = "";
  bool available = false, present = false;
  bool have_vendor, have_product;

  snprintf (path, sizeof path, "%s/sys/class/dmi/id/sys_vendor", root);
  have_vendor = _dm_read_line (path, vendor, sizeof vendor) == 0;
  snprintf (path, sizeof path, "%s/sys/class/dmi/id/product_name", root);
  have_product = _dm_read_line (path, product, sizeof product) == 0;
  /* Xen PV guests have no DMI; the kernel names the hypervisor itself. */
  snprintf (path, sizeof path, "%s/sys/hypervisor/type", root);
  if (_dm_read_line (path, xen, sizeof xen) == 0 && !strcmp (xen, "xen") && !have_vendor)
    {
      copy (vendor, sizeof vendor, "Xen");
      have_vendor = true;
    }
  if (cpuid)
    present = dm_cpuid_hypervisor (signature, &available);
  copy (info->hypervisor, sizeof info->hypervisor,
        dm_hypervisor_decide (present, available ? signature : NULL,
                              have_vendor ? vendor : NULL, have_product ? product : NULL));
  snprintf (info->machine, sizeof info->machine, "%s%s%s", vendor,
            vendor[0] && product[0] ? " " : "", product);
}

void
_dm_machine_facts_at (const char *root, bool cpuid, dm_system_info *info)
{
  machine_at (root, cpuid, info);
  topology_at (root, info);
}
