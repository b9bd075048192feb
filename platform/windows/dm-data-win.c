/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The user's own files on Windows: saved runs under %LOCALAPPDATA%\Diskmeter
 * and result files read back for comparisons. Paths arrive as UTF-8 and
 * go to the wide-character API, so non-ASCII folder names work.
 */
#include "dm-win-private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int
dm_file_read_all (const char *path, size_t max, char **data, size_t *len)
{
  int err = 0;
  wchar_t *w = _dm_win_path (path, &err);
  HANDLE h;
  LARGE_INTEGER size;
  char *buf = NULL;
  size_t got = 0;

  if (!w)
    return err;
  h = CreateFileW (w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                   OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
  free (w);
  if (h == INVALID_HANDLE_VALUE)
    return _dm_win_error (GetLastError ());
  if (!GetFileSizeEx (h, &size))
    err = _dm_win_error (GetLastError ());
  else if ((uint64_t) size.QuadPart > max)
    err = -EFBIG;
  else if (!(buf = malloc ((size_t) size.QuadPart + 1)))
    err = -ENOMEM;
  while (!err && got < (size_t) size.QuadPart)
    {
      DWORD n = 0, want = (DWORD) ((size_t) size.QuadPart - got > (1u << 30)
                                       ? (1u << 30) : (size_t) size.QuadPart - got);
      if (!ReadFile (h, buf + got, want, &n, NULL))
        err = _dm_win_error (GetLastError ());
      else if (n == 0)
        break;
      got += n;
    }
  CloseHandle (h);
  if (err)
    {
      free (buf);
      return err;
    }
  buf[got] = '\0';
  *data = buf;
  *len = got;
  return 0;
}

int
dm_ensure_dir (const char *path)
{
  int err = 0;
  wchar_t *w = _dm_win_path (path, &err);
  if (!w)
    return err;
  /* Each parent in turn, skipping the \\?\ prefix and the drive. */
  size_t start = wcsncmp (w, L"\\\\?\\", 4) == 0 ? 4 : 0;
  if (w[start] && w[start + 1] == L':')
    start += 3;
  for (size_t i = start; !err && w[i]; i++)
    if (w[i] == L'\\' || w[i] == L'/')
      {
        wchar_t c = w[i];
        w[i] = L'\0';
        if (!CreateDirectoryW (w, NULL) && GetLastError () != ERROR_ALREADY_EXISTS)
          err = _dm_win_error (GetLastError ());
        w[i] = c;
      }
  if (!err && !CreateDirectoryW (w, NULL) && GetLastError () != ERROR_ALREADY_EXISTS)
    err = _dm_win_error (GetLastError ());
  if (!err)
    {
      DWORD attr = GetFileAttributesW (w);
      if (attr == INVALID_FILE_ATTRIBUTES)
        err = _dm_win_error (GetLastError ());
      else if (!(attr & FILE_ATTRIBUTE_DIRECTORY))
        err = -ENOTDIR;
    }
  free (w);
  return err;
}

char
dm_dir_separator (void)
{
  return '\\';
}

int
dm_data_dir (char *buf, size_t size)
{
  wchar_t base[MAX_PATH];
  DWORD n = GetEnvironmentVariableW (L"LOCALAPPDATA", base, MAX_PATH);
  if (n == 0 || n >= MAX_PATH)
    return -ENOENT;
  char utf8[MAX_PATH * 3];
  int err = _dm_wide_to_utf8 (base, utf8, sizeof utf8);
  if (err < 0)
    return err;
  if (snprintf (buf, size, "%s\\Diskmeter", utf8) >= (int) size)
    return -ENAMETOOLONG;
  return dm_ensure_dir (buf);
}

int
dm_file_write_new (const char *path, const void *data, size_t len)
{
  int err = 0;
  wchar_t *w = _dm_win_path (path, &err);
  const char *p = data;
  if (!w)
    return err;
  /* CREATE_NEW fails if anything by that name exists: never overwrites. */
  HANDLE h = CreateFileW (w, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
  if (h == INVALID_HANDLE_VALUE)
    {
      err = _dm_win_error (GetLastError ());
      free (w);
      return err;
    }
  while (!err && len)
    {
      DWORD n = 0, want = len > (1u << 30) ? (1u << 30) : (DWORD) len;
      if (!WriteFile (h, p, want, &n, NULL))
        err = _dm_win_error (GetLastError ());
      p += n;
      len -= n;
    }
  if (!err && !FlushFileBuffers (h))
    err = _dm_win_error (GetLastError ());
  CloseHandle (h);
  if (err)
    DeleteFileW (w);
  free (w);
  return err;
}

int
dm_file_remove (const char *path)
{
  int err = 0;
  wchar_t *w = _dm_win_path (path, &err);
  if (!w)
    return err;
  DWORD attr = GetFileAttributesW (w);
  if (attr == INVALID_FILE_ATTRIBUTES)
    err = _dm_win_error (GetLastError ());
  else if (attr & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT))
    err = -EPERM;
  else if (!DeleteFileW (w))
    err = _dm_win_error (GetLastError ());
  free (w);
  return err;
}

int
dm_list_files (const char *dir, void (*fn) (const char *name, void *user), void *user)
{
  int err = 0;
  wchar_t *w = _dm_win_path (dir, &err);
  if (!w)
    return err;
  size_t n = wcslen (w);
  wchar_t *pattern = malloc ((n + 3) * sizeof *pattern);
  if (!pattern)
    {
      free (w);
      return -ENOMEM;
    }
  swprintf (pattern, n + 3, L"%ls\\*", w);
  free (w);
  WIN32_FIND_DATAW fd;
  HANDLE h = FindFirstFileW (pattern, &fd);
  free (pattern);
  if (h == INVALID_HANDLE_VALUE)
    {
      DWORD e = GetLastError ();
      return e == ERROR_FILE_NOT_FOUND ? 0 : _dm_win_error (e);
    }
  do
    {
      char name[MAX_PATH * 3];
      if (fd.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT))
        continue;
      if (_dm_wide_to_utf8 (fd.cFileName, name, sizeof name) == 0)
        fn (name, user);
    }
  while (FindNextFileW (h, &fd));
  FindClose (h);
  return 0;
}
