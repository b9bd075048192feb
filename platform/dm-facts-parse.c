/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The machine's and the controller's facts out of what the OS hands over
 * raw: a miniport's DriverParameter string, the firmware's SMBIOS table.
 * Both come from outside Diskmeter, so every length is checked and a
 * malformed input reads as "not said", never as a figure.
 */
#include "dm-facts-private.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool
blank (char c)
{
  return c == ' ' || c == '\t';
}

bool
_dm_driver_param_uint (const char *params, const char *key, unsigned *value)
{
  size_t key_len = key ? strlen (key) : 0;
  if (!params || !key_len)
    return false;
  for (const char *p = params; *p;)
    {
      while (blank (*p) || *p == ',' || *p == ';')
        p++;
      const char *name = p;
      while (*p && *p != '=' && *p != ',' && *p != ';')
        p++;
      const char *name_end = p;
      while (name_end > name && blank (name_end[-1]))
        name_end--;
      bool match = (size_t) (name_end - name) == key_len;
      for (size_t i = 0; match && i < key_len; i++)
        match = tolower ((unsigned char) name[i]) == tolower ((unsigned char) key[i]);
      if (*p != '=')
        continue; /* a word without a value: not this key's figure */
      p++;
      while (blank (*p))
        p++;
      uint64_t v = 0;
      bool digits = false, ok = true;
      for (; *p >= '0' && *p <= '9'; p++)
        {
          digits = true;
          v = v * 10 + (unsigned) (*p - '0');
          if (v > UINT32_MAX)
            ok = false;
        }
      while (blank (*p))
        p++;
      if (*p && *p != ',' && *p != ';')
        {
          ok = false; /* "254x", "0x40": not a plain number */
          while (*p && *p != ',' && *p != ';')
            p++;
        }
      if (match)
        {
          if (!digits || !ok)
            return false;
          *value = (unsigned) v;
          return true;
        }
    }
  return false;
}

/* String number n (1-based) of the structure whose strings start at s and
 * end before end; "" for 0 or one past the last. */
static void
smbios_string (const uint8_t *s, const uint8_t *end, unsigned n, char *out, size_t size)
{
  out[0] = '\0';
  for (unsigned i = 1; n && s < end && *s; i++)
    {
      const uint8_t *z = memchr (s, 0, (size_t) (end - s));
      if (!z)
        return;
      if (i == n)
        {
          size_t len = (size_t) (z - s);
          while (len && blank ((char) s[len - 1]))
            len--;
          while (len && blank ((char) *s))
            s++, len--;
          snprintf (out, size, "%.*s", (int) len, (const char *) s);
          return;
        }
      s = z + 1;
    }
}

int
_dm_smbios_system (const uint8_t *table, size_t len, char *vendor, size_t vendor_size,
                   char *product, size_t product_size)
{
  const uint8_t *p = table, *end = table + len;
  vendor[0] = product[0] = '\0';
  while (end - p >= 4)
    {
      unsigned type = p[0], length = p[1];
      if (length < 4 || (size_t) (end - p) < length)
        return -EINVAL;
      /* The strings follow the formatted area and end with two NULs (a
       * structure without strings has just the two). */
      const uint8_t *s = p + length, *q = s;
      while (end - q >= 2 && !(q[0] == 0 && q[1] == 0))
        q++;
      if (end - q < 2)
        return -EINVAL;
      if (type == 1 && length >= 6)
        {
          smbios_string (s, q + 1, p[4], vendor, vendor_size);
          smbios_string (s, q + 1, p[5], product, product_size);
          return vendor[0] || product[0] ? 0 : -ENOENT;
        }
      if (type == 127)
        return -ENOENT;
      p = q + 2;
    }
  /* A few bytes left: a header cut short. */
  return p < end ? -EINVAL : -ENOENT;
}

int
_dm_smbios_rsmb_system (const uint8_t *rsmb, size_t len, char *vendor, size_t vendor_size,
                        char *product, size_t product_size)
{
  vendor[0] = product[0] = '\0';
  if (len < 8)
    return -EINVAL;
  size_t table_len = (size_t) rsmb[4] | (size_t) rsmb[5] << 8 | (size_t) rsmb[6] << 16
                     | (size_t) rsmb[7] << 24;
  if (table_len > len - 8)
    return -EINVAL;
  return _dm_smbios_system (rsmb + 8, table_len, vendor, vendor_size, product, product_size);
}
