/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Facts about the Windows machine and its drives for the report and the
 * target chooser: the real Windows build (RtlGetVersion, since GetVersionEx
 * lies to unmanifested programs), the CPU, and for each drive its
 * filesystem, space, sector size, bus type and product name, which is what
 * tells an LSI Logic disk from a paravirtual or NVMe one in a VM.
 */
#include "dm-win-private.h"

#include <winnetwk.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

typedef NTSTATUS (WINAPI *rtl_get_version_fn) (PRTL_OSVERSIONINFOW);
typedef const char *(CDECL *wine_get_version_fn) (void);
typedef void (CDECL *wine_get_host_version_fn) (const char **sysname, const char **release);

static int
reg_dword (const wchar_t *key, const wchar_t *value, DWORD *out)
{
  DWORD n = sizeof *out;
  LSTATUS st = RegGetValueW (HKEY_LOCAL_MACHINE, key, value, RRF_RT_REG_DWORD, NULL, out, &n);

  return st == ERROR_SUCCESS ? 0 : _dm_win_error ((DWORD) st);
}

int
dm_system_info_get (dm_system_info *info)
{
  static const wchar_t cv[] = L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";
  RTL_OSVERSIONINFOW v = { .dwOSVersionInfoSize = sizeof v };
  HMODULE ntdll = GetModuleHandleW (L"ntdll.dll");
  rtl_get_version_fn rtl_get_version = NULL;
  wine_get_version_fn wine_get_version = NULL;
  wine_get_host_version_fn wine_get_host_version = NULL;
  MEMORYSTATUSEX mem = { .dwLength = sizeof mem };
  char product[96] = "Windows", display[32] = "";
  DWORD ubr = 0;

  memset (info, 0, sizeof *info);
  if (ntdll != NULL)
    {
      /* Casts through FARPROC are how GetProcAddress is meant to be used. */
      rtl_get_version = (rtl_get_version_fn) (void (*) (void)) GetProcAddress (ntdll, "RtlGetVersion");
      wine_get_version = (wine_get_version_fn) (void (*) (void)) GetProcAddress (ntdll, "wine_get_version");
      wine_get_host_version = (wine_get_host_version_fn) (void (*) (void)) GetProcAddress (ntdll, "wine_get_host_version");
    }
  if (rtl_get_version != NULL)
    rtl_get_version (&v);

  _dm_win_reg_string (cv, L"ProductName", product, sizeof product);
  _dm_win_reg_string (cv, L"DisplayVersion", display, sizeof display);
  reg_dword (cv, L"UBR", &ubr);
  /* Windows 11 still calls itself Windows 10 in ProductName; the build
   * number is the truth (22000 was the first Windows 11). */
  if (v.dwBuildNumber >= 22000 && strncmp (product, "Windows 10", 10) == 0)
    product[9] = '1';
  snprintf (info->os, sizeof info->os, "%s%s%s [%lu.%lu Build %lu]",
            product, display[0] ? " " : "", display,
            (unsigned long) v.dwMajorVersion, (unsigned long) v.dwMinorVersion,
            (unsigned long) v.dwBuildNumber);

  /* Results measured under Wine are not Windows results; say so. */
  if (wine_get_version != NULL)
    {
      const char *sysname = "", *release = "";
      if (wine_get_host_version != NULL)
        wine_get_host_version (&sysname, &release);
      snprintf (info->kernel, sizeof info->kernel, "Wine %s on %s %s x86_64",
                wine_get_version (), sysname, release);
    }
  else
    snprintf (info->kernel, sizeof info->kernel, "Windows NT %lu.%lu.%lu.%lu x86_64",
              (unsigned long) v.dwMajorVersion, (unsigned long) v.dwMinorVersion,
              (unsigned long) v.dwBuildNumber, (unsigned long) ubr);

  if (_dm_win_reg_string (L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0",
                  L"ProcessorNameString", info->cpu_model, sizeof info->cpu_model) < 0)
    snprintf (info->cpu_model, sizeof info->cpu_model, "unknown");
  _dm_win_trim (info->cpu_model);

  /* All processor groups: a VM with more than 64 vCPUs has several. */
  info->logical_cpus = GetActiveProcessorCount (ALL_PROCESSOR_GROUPS);
  if (info->logical_cpus == 0)
    {
      SYSTEM_INFO si;
      GetSystemInfo (&si);
      info->logical_cpus = si.dwNumberOfProcessors;
    }
  if (GlobalMemoryStatusEx (&mem))
    info->memory_bytes = mem.ullTotalPhys;
  _dm_win_machine_facts (info);
  return 0;
}

int
dm_facts_probe_root (const char *root, const char *disk, dm_system_info *sys,
                     dm_target_info *target)
{
  /* Windows has no sysfs to fake; its facts come from the registry and
   * GetLogicalProcessorInformationEx, asked in dm_system_info_get. */
  (void) root, (void) disk, (void) sys, (void) target;
  return -ENOSYS;
}

static const char *
bus_name (unsigned bus)
{
  /* STORAGE_BUS_TYPE; numbers, since older SDK headers lack the newer names. */
  static const char *const names[] = {
    "Unknown", "SCSI", "ATAPI", "ATA", "1394", "SSA", "Fibre Channel", "USB",
    "RAID", "iSCSI", "SAS", "SATA", "SD", "MMC", "Virtual", "File-backed virtual",
    "Storage Spaces", "NVMe", "SCM", "UFS",
  };
  return bus < sizeof names / sizeof names[0] ? names[bus] : "Unknown";
}

static void
copy_descriptor_string (const char *base, DWORD size, DWORD offset, char *out, size_t out_size)
{
  size_t n = 0;

  out[0] = '\0';
  if (offset == 0 || offset >= size)
    return;
  while (offset + n < size && base[offset + n] != '\0' && n + 1 < out_size)
    n++;
  memcpy (out, base + offset, n);
  out[n] = '\0';
  _dm_win_trim (out);
}

/* Bus type, vendor and product of the disk under a volume, the disk's
 * number and its adapter's facts (dm-facts-win.c).
 * Opening with no access rights needs no administrator. */
static void
query_storage (const wchar_t *volume, dm_target_info *info)
{
  STORAGE_PROPERTY_QUERY query = { 0 };
  STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR align;
  VOLUME_DISK_EXTENTS extents;
  char desc_buf[1024], vendor[64], product[96], bus[24];
  STORAGE_DEVICE_DESCRIPTOR *desc = (STORAGE_DEVICE_DESCRIPTOR *) desc_buf;
  HANDLE h, disk = INVALID_HANDLE_VALUE;
  DWORD got = 0;

  h = CreateFileW (volume, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return;

  if (_dm_win_ioctl (h, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, NULL, 0,
                     &extents, sizeof extents, NULL) == 0
      && extents.NumberOfDiskExtents >= 1)
    {
      wchar_t name[64];
      snprintf (info->device, sizeof info->device, "\\\\.\\PhysicalDrive%lu",
                (unsigned long) extents.Extents[0].DiskNumber);
      swprintf (name, 64, L"\\\\.\\PhysicalDrive%lu", (unsigned long) extents.Extents[0].DiskNumber);
      disk = CreateFileW (name, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
    }
  if (disk == INVALID_HANDLE_VALUE)
    disk = h;

  query.PropertyId = StorageDeviceProperty;
  query.QueryType = PropertyStandardQuery;
  memset (desc_buf, 0, sizeof desc_buf);
  if (_dm_win_ioctl (disk, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query,
                     desc_buf, sizeof desc_buf, &got) == 0
      && got >= offsetof (STORAGE_DEVICE_DESCRIPTOR, RawDeviceProperties))
    {
      copy_descriptor_string (desc_buf, got, desc->VendorIdOffset, vendor, sizeof vendor);
      copy_descriptor_string (desc_buf, got, desc->ProductIdOffset, product, sizeof product);
      /* NVMe and ATA disks put the whole name in the product. */
      if (vendor[0] != '\0' && strncmp (product, vendor, strlen (vendor)) != 0)
        snprintf (info->model, sizeof info->model, "%s %s", vendor, product);
      else
        snprintf (info->model, sizeof info->model, "%s", product);
      snprintf (bus, sizeof bus, "%s", bus_name ((unsigned) desc->BusType));
      snprintf (info->driver, sizeof info->driver, "%s", bus);
      snprintf (info->bus, sizeof info->bus, "%s", bus);
      /* A USB disk that calls itself fixed is still one a user unplugs. */
      if (!info->is_block_device && (desc->RemovableMedia || desc->BusType == 7 /* USB */))
        info->kind = DM_TARGET_REMOVABLE;
      _dm_win_adapter_facts (disk, bus, info);
    }

  query.PropertyId = StorageAccessAlignmentProperty;
  if (_dm_win_ioctl (disk, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query,
                     &align, sizeof align, &got) == 0
      && got >= offsetof (STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR, BytesPerPhysicalSector)
      && align.BytesPerLogicalSector >= 512)
    info->sector_size = align.BytesPerLogicalSector;

  if (disk != h)
    CloseHandle (disk);
  CloseHandle (h);
}

/* The same facts through a handle to the folder itself, for volumes whose
 * root GetVolumeInformationW does not take (mount points under Wine). */
static bool
volume_info_by_handle (const wchar_t *dir, DWORD *flags, wchar_t *fs, DWORD fs_size)
{
  HANDLE h = CreateFileW (dir, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE
                          | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                          FILE_FLAG_BACKUP_SEMANTICS, NULL);
  BOOL ok;

  if (h == INVALID_HANDLE_VALUE)
    return false;
  ok = GetVolumeInformationByHandleW (h, NULL, 0, NULL, NULL, flags, fs, fs_size);
  CloseHandle (h);
  return ok;
}

static int
probe_device (const wchar_t *wpath, dm_target_info *info)
{
  GET_LENGTH_INFORMATION length;
  DISK_GEOMETRY_EX geometry;
  HANDLE h;

  h = CreateFileW (wpath, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return _dm_win_error (GetLastError ());
  info->is_block_device = true;
  info->kind = DM_TARGET_DEVICE;
  snprintf (info->device, sizeof info->device, "%s", info->path);
  if (_dm_win_ioctl (h, IOCTL_DISK_GET_LENGTH_INFO, NULL, 0, &length, sizeof length, NULL) == 0)
    info->size_bytes = (uint64_t) length.Length.QuadPart;
  if (_dm_win_ioctl (h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, NULL, 0,
                     &geometry, sizeof geometry, NULL) == 0)
    info->sector_size = geometry.Geometry.BytesPerSector;
  if (_dm_win_ioctl (h, IOCTL_DISK_IS_WRITABLE, NULL, 0, NULL, 0, NULL) == -EROFS)
    info->read_only = true;
  CloseHandle (h);
  query_storage (wpath, info);
  if (info->sector_size < 512)
    info->sector_size = 512;
  return 0;
}

/* Whether a test file can be created in a folder: the only answer that
 * holds for ACLs, read-only media and shares alike is to create one. The
 * name is new (CREATE_NEW) and the file goes when its handle closes, even
 * if the process dies. */
static bool
can_create_file (const wchar_t *dir)
{
  size_t n = wcslen (dir);
  wchar_t *name = malloc ((n + 64) * sizeof *name);
  HANDLE h;

  if (name == NULL)
    return false;
  swprintf (name, n + 64, L"%ls%lsdiskmeter-probe-%lu-%lu.tmp", dir,
            n > 0 && (dir[n - 1] == L'\\' || dir[n - 1] == L'/') ? L"" : L"\\",
            (unsigned long) GetCurrentProcessId (), (unsigned long) GetTickCount ());
  h = CreateFileW (name, GENERIC_WRITE, 0, NULL, CREATE_NEW,
                   FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, NULL);
  free (name);
  if (h == INVALID_HANDLE_VALUE)
    return false;
  CloseHandle (h);
  return true;
}

/* The share behind a mapped drive letter, as a UNC path (\\server\share). */
static void
network_name (const wchar_t *root, dm_target_info *info)
{
  wchar_t unc[MAX_PATH + 1];
  DWORD len = MAX_PATH + 1;

  if (root[0] == L'\\' && root[1] == L'\\')
    {
      /* A UNC path given as the target: its root is the share. */
      _dm_wide_to_utf8 (root, info->model, sizeof info->model);
      size_t n = strlen (info->model);
      if (n > 2 && info->model[n - 1] == '\\')
        info->model[n - 1] = '\0';
    }
  else if (iswalpha (root[0]) && root[1] == L':')
    {
      /* mpr.dll is loaded only here, so that diskmeter-cli.exe imports
       * nothing beyond the core system DLLs. */
      typedef DWORD (WINAPI *get_connection_fn) (LPCWSTR, LPWSTR, LPDWORD);
      wchar_t drive[3] = { root[0], L':', L'\0' };
      HMODULE mpr = LoadLibraryExW (L"mpr.dll", NULL, LOAD_LIBRARY_SEARCH_SYSTEM32);
      /* Windows 7 and 2008 R2 without KB2533623 lack that flag. */
      if (mpr == NULL)
        mpr = LoadLibraryW (L"mpr.dll");
      get_connection_fn get_connection = mpr == NULL ? NULL
        : (get_connection_fn) (void (*) (void)) GetProcAddress (mpr, "WNetGetConnectionW");
      if (get_connection != NULL && get_connection (drive, unc, &len) == NO_ERROR)
        _dm_wide_to_utf8 (unc, info->model, sizeof info->model);
      if (mpr != NULL)
        FreeLibrary (mpr);
    }
  snprintf (info->device, sizeof info->device, "%s", info->model);
}

/* A Win32 path as users write it: without the \\?\ prefix the final path
 * functions add ("\\?\UNC\server\share" becomes "\\server\share"). */
static void
user_path (const wchar_t *w, char *buf, size_t size)
{
  if (wcsncmp (w, L"\\\\?\\UNC\\", 8) == 0)
    {
      if (size > 2 && _dm_wide_to_utf8 (w + 8, buf + 2, size - 2) == 0)
        buf[0] = buf[1] = '\\';
      else
        buf[0] = '\0';
      return;
    }
  if (wcsncmp (w, L"\\\\?\\", 4) == 0)
    w += 4;
  if (_dm_wide_to_utf8 (w, buf, size) < 0)
    buf[0] = '\0';
}

/* The folder as it really is, with junctions and symbolic links followed:
 * what a test file created through wpath lands in. "" if unknown. */
static void
final_path (const wchar_t *wpath, char *buf, size_t size)
{
  wchar_t real[1024];
  HANDLE h = CreateFileW (wpath, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE
                          | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                          FILE_FLAG_BACKUP_SEMANTICS, NULL);
  DWORD n = 0;

  buf[0] = '\0';
  if (h == INVALID_HANDLE_VALUE)
    return;
  n = GetFinalPathNameByHandleW (h, real, sizeof real / sizeof real[0],
                                 FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
  CloseHandle (h);
  if (n > 0 && n < sizeof real / sizeof real[0])
    user_path (real, buf, size);
}

bool
dm_path_in_system_folder (const char *real_path, char *folder, size_t size)
{
  /* Windows has one such folder, wherever it was installed. */
  wchar_t windir[MAX_PATH + 1];
  UINT n = GetSystemWindowsDirectoryW (windir, MAX_PATH + 1);
  int err = 0;
  bool inside = false;

  if (n == 0 || n > MAX_PATH)
    return false;
  while (n > 0 && windir[n - 1] == L'\\')
    windir[--n] = L'\0';
  wchar_t *w = _dm_utf8_to_wide (real_path, &err);
  if (w == NULL)
    return false;
  inside = _wcsnicmp (w, windir, n) == 0 && (w[n] == L'\0' || w[n] == L'\\');
  free (w);
  if (inside)
    user_path (windir, folder, size);
  return inside;
}

int
dm_target_probe (const char *path, dm_target_info *info)
{
  wchar_t *wpath, root[MAX_PATH + 1], volume[MAX_PATH + 1], fs[MAX_PATH + 1];
  wchar_t label[MAX_PATH + 1] = L"";
  UINT type;
  ULARGE_INTEGER avail, total, nfree;
  DWORD attr, flags = 0, spc, bps, nfc, tc;
  int ret = 0;

  memset (info, 0, sizeof *info);
  snprintf (info->path, sizeof info->path, "%s", path);
  wpath = _dm_win_path (path, &ret);
  if (wpath == NULL)
    return ret;

  if (wcsncmp (wpath, L"\\\\.\\", 4) == 0)
    {
      ret = probe_device (wpath, info);
      goto out;
    }

  attr = GetFileAttributesW (wpath);
  if (attr == INVALID_FILE_ATTRIBUTES)
    {
      ret = _dm_win_error (GetLastError ());
      goto out;
    }
  if ((attr & FILE_ATTRIBUTE_DIRECTORY) == 0)
    {
      ret = -ENOTDIR;
      goto out;
    }

  if (!GetVolumePathNameW (wpath, root, MAX_PATH))
    {
      ret = _dm_win_error (GetLastError ());
      goto out;
    }
  /* The volume functions want the root with its backslash; Wine leaves it
   * off for a Linux mount point inside a drive. */
  if (root[0] != L'\0' && root[wcslen (root) - 1] != L'\\')
    wcscat (root, L"\\");
  _dm_wide_to_utf8 (root, info->mount_point, sizeof info->mount_point);

  if (GetVolumeInformationW (root, label, MAX_PATH + 1, NULL, NULL, &flags, fs, MAX_PATH + 1)
      || volume_info_by_handle (wpath, &flags, fs, MAX_PATH + 1))
    {
      _dm_wide_to_utf8 (fs, info->filesystem, sizeof info->filesystem);
      _dm_wide_to_utf8 (label, info->label, sizeof info->label);
      info->read_only = (flags & FILE_READ_ONLY_VOLUME) != 0;
    }
  if (GetDiskFreeSpaceExW (wpath, &avail, &total, &nfree))
    {
      info->size_bytes = total.QuadPart;
      info->free_bytes = avail.QuadPart;
    }
  if (GetDiskFreeSpaceW (root, &spc, &bps, &nfc, &tc))
    info->sector_size = bps;

  type = GetDriveTypeW (root);
  info->kind = type == DRIVE_REMOVABLE ? DM_TARGET_REMOVABLE : DM_TARGET_LOCAL;
  if (type == DRIVE_REMOTE)
    {
      info->kind = DM_TARGET_NETWORK;
      snprintf (info->driver, sizeof info->driver, "Network");
      snprintf (info->bus, sizeof info->bus, "network");
      network_name (root, info);
    }
  else if (type == DRIVE_RAMDISK)
    snprintf (info->bus, sizeof info->bus, "memory");
  else if (GetVolumeNameForVolumeMountPointW (root, volume, MAX_PATH + 1))
    {
      /* "\\?\Volume{...}\" names the volume's root folder; without the
       * last backslash it names the volume device the IOCTLs go to. */
      size_t n = wcslen (volume);
      if (n > 0 && volume[n - 1] == L'\\')
        volume[n - 1] = L'\0';
      query_storage (volume, info);
    }
  else if (iswalpha (root[0]) && root[1] == L':')
    {
      wchar_t dev[8] = L"\\\\.\\X:";
      dev[4] = root[0];
      query_storage (dev, info);
    }
  if (info->sector_size < 512 || (info->sector_size & (info->sector_size - 1)) != 0)
    info->sector_size = 512;
  info->writable = !info->read_only && can_create_file (wpath);
  final_path (wpath, info->real_path, sizeof info->real_path);

out:
  free (wpath);
  return ret;
}

/* Whether this process runs elevated (as administrator): only then can it
 * open a physical disk for reading. */
static bool
elevated (void)
{
  TOKEN_ELEVATION e = { 0 };
  DWORD got = 0;
  HANDLE token;
  BOOL ok;

  if (!OpenProcessToken (GetCurrentProcess (), TOKEN_QUERY, &token))
    return false;
  ok = GetTokenInformation (token, TokenElevation, &e, sizeof e, &got);
  CloseHandle (token);
  return ok && e.TokenIsElevated;
}

enum { MAX_DRIVES = 26, MAX_DISKS = 64 };

int
dm_target_list_full (dm_target_info **out, unsigned *n, unsigned flags)
{
  wchar_t drives[27 * 4 + 1];
  dm_target_info *list;
  unsigned count = 0;
  DWORD len;

  *out = NULL;
  *n = 0;
  len = GetLogicalDriveStringsW (sizeof drives / sizeof drives[0], drives);
  if (len == 0 || len > sizeof drives / sizeof drives[0])
    return _dm_win_error (GetLastError ());
  list = calloc (MAX_DRIVES + MAX_DISKS, sizeof *list);
  if (list == NULL)
    return -ENOMEM;

  for (wchar_t *d = drives; *d != L'\0' && count < MAX_DRIVES; d += wcslen (d) + 1)
    {
      char utf8[8];
      UINT type = GetDriveTypeW (d);

      /* Drives a benchmark makes sense on; an empty card reader or DVD
       * drive fails GetVolumeInformationW in the probe and is left out. */
      if (type != DRIVE_FIXED && type != DRIVE_REMOVABLE
          && type != DRIVE_REMOTE && (type != DRIVE_RAMDISK || !(flags & DM_TARGET_LIST_MEMORY)))
        continue;
      if (!GetVolumeInformationW (d, NULL, 0, NULL, NULL, NULL, NULL, 0))
        continue;
      /* Shown as the user types it: "E:". */
      snprintf (utf8, sizeof utf8, "%c:", (char) d[0]);
      if (dm_target_probe (utf8, &list[count]) == 0)
        count++;
    }

  /* Whole disks, read-only: only an administrator can open them, so they
   * are not offered to anyone else. Disk numbers can have gaps. */
  if ((flags & DM_TARGET_LIST_DEVICES) && elevated ())
    for (unsigned i = 0; i < MAX_DISKS; i++)
      {
        char name[32];
        snprintf (name, sizeof name, "\\\\.\\PhysicalDrive%u", i);
        if (dm_target_probe (name, &list[count]) == 0 && list[count].size_bytes > 0)
          count++;
      }
  *out = list;
  *n = count;
  return 0;
}

int
dm_target_list (dm_target_info **out, unsigned *n)
{
  /* As before the window knew whole disks: the drives, RAM disks too. */
  return dm_target_list_full (out, n, DM_TARGET_LIST_MEMORY);
}

void
dm_target_list_free (dm_target_info *list)
{
  free (list);
}
