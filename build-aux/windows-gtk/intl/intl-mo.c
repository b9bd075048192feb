/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The gettext API for the Windows build, reading GNU .mo catalogues: the
 * libintl-8.dll that the zip ships in place of the catalogue-less stand-in
 * (intl.c), with the same exports, so GLib and GTK, linked against the
 * stand-in, load it unchanged. The language is chosen as GNU gettext does on
 * Windows: LANGUAGE, LC_ALL, LC_MESSAGES or LANG when set, else the Windows
 * display language.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include "libintl.h"

#define EXPORT __declspec(dllexport)

/* One .mo file read whole into memory. Returned translations point into
 * it, so it is never freed (as in GNU libintl). */
typedef struct Catalogue Catalogue;
struct Catalogue
{
  Catalogue *next;
  char *domain;
  const uint8_t *data;     /* NULL: looked for and not found */
  size_t size;
  int swapped;             /* written on a machine of the other byte order */
  uint32_t count, originals, translations;
  int nplurals;
  enum { PLURAL_NOT_ONE, PLURAL_ZERO, PLURAL_MORE_THAN_ONE } plural;
};

typedef struct Binding Binding;
struct Binding
{
  Binding *next;
  char *domain, *dirname, *codeset;
};

/* GTK looks messages up from several threads; the lists only grow. */
static SRWLOCK lock = SRWLOCK_INIT;
static Binding *bindings;
static Catalogue *catalogues;
static char default_domain[] = "messages";
static char *current_domain = default_domain;
static char empty[] = "";

/* The languages to try, best first: "de_DE", "de"; none for C/POSIX. */
#define MAX_LANGUAGES 16
static char *languages[MAX_LANGUAGES];
static int n_languages = -1;      /* -1: not chosen yet */

static void
add_language (const char *name, size_t len)
{
  char buf[64];
  char *cut;

  if (len == 0 || len >= sizeof buf)
    return;
  memcpy (buf, name, len);
  buf[len] = '\0';
  /* "de_DE.UTF-8@euro" -> "de_DE", then "de" */
  if ((cut = strpbrk (buf, ".@")))
    *cut = '\0';
  for (int pass = 0; pass < 2 && buf[0] && n_languages < MAX_LANGUAGES; pass++)
    {
      int dup = 0;
      for (int i = 0; i < n_languages; i++)
        dup |= !strcmp (languages[i], buf);
      if (!dup)
        languages[n_languages++] = _strdup (buf);
      if (!(cut = strchr (buf, '_')))
        break;
      *cut = '\0';
    }
}

static int
is_c_locale (const char *name)
{
  return !strcmp (name, "C") || !strncmp (name, "C.", 2) || !strcmp (name, "POSIX");
}

/* Called with the lock held. */
static void
choose_languages (void)
{
  const char *locale = NULL, *list;
  char windows[32] = "";

  n_languages = 0;
  /* The first of LC_ALL, LC_MESSAGES and LANG that is set, as on POSIX. */
  const char *vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
  for (int i = 0; i < 3 && !locale; i++)
    {
      const char *v = getenv (vars[i]);
      if (v && *v)
        locale = v;
    }
  /* Else the Windows display language, as ISO names: "de" + "DE". */
  if (!locale)
    {
      LCID lcid = MAKELCID (GetUserDefaultUILanguage (), SORT_DEFAULT);
      char lang[9], country[9];
      if (GetLocaleInfoA (lcid, LOCALE_SISO639LANGNAME, lang, sizeof lang) > 0)
        {
          if (GetLocaleInfoA (lcid, LOCALE_SISO3166CTRYNAME, country, sizeof country) > 0)
            snprintf (windows, sizeof windows, "%s_%s", lang, country);
          else
            snprintf (windows, sizeof windows, "%s", lang);
        }
      locale = windows;
    }
  /* Untranslated in the C locale, whatever LANGUAGE says (GNU does so too). */
  if (!*locale || is_c_locale (locale))
    return;
  /* LANGUAGE: a list of fallbacks, "de:fr". */
  list = getenv ("LANGUAGE");
  if (list && *list)
    {
      for (const char *p = list; *p;)
        {
          size_t len = strcspn (p, ":");
          add_language (p, len);
          p += len + (p[len] == ':');
        }
    }
  add_language (locale, strlen (locale));
}

static uint32_t
read32 (const Catalogue *c, size_t offset)
{
  uint32_t v;
  memcpy (&v, c->data + offset, 4);
  if (c->swapped)
    v = (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
  return v;
}

/* String I of the table at TABLE (lengths and offsets), or NULL when the
 * entry points outside the file or is not NUL-terminated. */
static const char *
string_at (const Catalogue *c, uint32_t table, uint32_t i, uint32_t *len)
{
  size_t entry = (size_t) table + (size_t) i * 8;
  uint32_t n, offset;

  if (entry + 8 > c->size)
    return NULL;
  n = read32 (c, entry);
  offset = read32 (c, entry + 4);
  if ((size_t) offset + n >= c->size || c->data[offset + n] != '\0')
    return NULL;
  if (len)
    *len = n;
  return (const char *) c->data + offset;
}

static const char *
find (const Catalogue *c, const char *msgid, uint32_t *len)
{
  /* msgfmt sorts the originals (strcmp order, which a plural entry's
   * "msgid\0msgid_plural" keeps): a binary search. */
  uint32_t lo = 0, hi = c->count;
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      const char *s = string_at (c, c->originals, mid, NULL);
      int cmp;
      if (!s)
        return NULL;
      cmp = strcmp (msgid, s);
      if (cmp == 0)
        return string_at (c, c->translations, mid, len);
      if (cmp < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return NULL;
}

/* The plural rule from the header's "Plural-Forms: nplurals=2; plural=(n > 1);".
 * The rules of Diskmeter's languages are recognised; any other falls back to
 * the Germanic n != 1. */
static void
read_plural_forms (Catalogue *c)
{
  const char *header = find (c, "", NULL), *p;
  char rule[64];
  size_t j = 0;

  c->nplurals = 2;
  c->plural = PLURAL_NOT_ONE;
  if (!header || !(p = strstr (header, "Plural-Forms:")))
    return;
  if ((p = strstr (p, "nplurals=")) && atoi (p + 9) > 0)
    c->nplurals = atoi (p + 9);
  if (!(p = strstr (p ? p : header, "plural=")))
    return;
  /* Without blanks and the outer parentheses: "n>1". */
  for (p += 7; *p && *p != ';' && *p != '\n' && j < sizeof rule - 1; p++)
    if (*p != ' ' && *p != '\t')
      rule[j++] = *p;
  rule[j] = '\0';
  while (j >= 2 && rule[0] == '(' && rule[j - 1] == ')')
    {
      memmove (rule, rule + 1, j - 2);
      rule[j -= 2] = '\0';
    }
  if (!strcmp (rule, "0"))
    c->plural = PLURAL_ZERO;
  else if (!strcmp (rule, "n>1"))
    c->plural = PLURAL_MORE_THAN_ONE;
}

/* Reads PATH (UTF-8, as GLib passes folders, else the ANSI code page). */
static uint8_t *
read_file (const char *path, size_t *size)
{
  wchar_t wpath[MAX_PATH * 2];
  FILE *f;
  uint8_t *data = NULL;
  long n;

  if (!MultiByteToWideChar (CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wpath, MAX_PATH * 2) &&
      !MultiByteToWideChar (CP_ACP, 0, path, -1, wpath, MAX_PATH * 2))
    return NULL;
  if (!(f = _wfopen (wpath, L"rb")))
    return NULL;
  if (fseek (f, 0, SEEK_END) == 0 && (n = ftell (f)) > 0 && fseek (f, 0, SEEK_SET) == 0 &&
      (data = malloc ((size_t) n)) && fread (data, 1, (size_t) n, f) == (size_t) n)
    *size = (size_t) n;
  else
    {
      free (data);
      data = NULL;
    }
  fclose (f);
  return data;
}

/* Accepts DATA as a catalogue if its header is one. */
static int
open_catalogue (Catalogue *c, uint8_t *data, size_t size)
{
  uint32_t magic;

  if (size < 28)
    return 0;
  memcpy (&magic, data, 4);
  c->data = data;
  c->size = size;
  c->swapped = magic == 0xde120495;
  if (magic != 0x950412de && !c->swapped)
    return 0;
  /* Revision: major 0 (minor 1 adds system-dependent strings we skip). */
  if (read32 (c, 4) >> 16 != 0)
    return 0;
  c->count = read32 (c, 8);
  c->originals = read32 (c, 12);
  c->translations = read32 (c, 16);
  if (c->count > size / 8 || c->originals > size - (size_t) c->count * 8 ||
      c->translations > size - (size_t) c->count * 8)
    return 0;
  read_plural_forms (c);
  return 1;
}

/* The catalogue of DOMAIN in the first language that has one; a domain
 * without one is remembered too, so that it is looked for once. Called
 * with the lock held. */
static Catalogue *
catalogue_for (const char *domain)
{
  Catalogue *c;
  const char *dir = NULL;

  for (c = catalogues; c; c = c->next)
    if (!strcmp (c->domain, domain))
      return c;
  if (n_languages < 0)
    choose_languages ();
  if (!(c = calloc (1, sizeof *c)) || !(c->domain = _strdup (domain)))
    {
      free (c);
      return NULL;
    }
  for (Binding *b = bindings; b; b = b->next)
    if (!strcmp (b->domain, domain))
      dir = b->dirname;
  for (int i = 0; dir && i < n_languages && !c->data; i++)
    {
      size_t size = 0;
      size_t len = strlen (dir) + strlen (languages[i]) + strlen (domain) + 32;
      char *path = malloc (len);
      uint8_t *data;
      if (!path)
        break;
      snprintf (path, len, "%s\\%s\\LC_MESSAGES\\%s.mo", dir, languages[i], domain);
      data = read_file (path, &size);
      free (path);
      if (data && !open_catalogue (c, data, size))
        {
          free (data);
          c->data = NULL;
        }
    }
  c->next = catalogues;
  catalogues = c;
  return c;
}

/* The translation of MSGID (with MSGID_PLURAL: form N) in DOMAIN, or NULL. */
static const char *
lookup (const char *domain, const char *msgid, const char *msgid_plural, unsigned long n)
{
  Catalogue *c;
  const char *found = NULL;
  uint32_t len, index = 0;

  if (!msgid)
    return NULL;
  AcquireSRWLockExclusive (&lock);
  c = catalogue_for (domain ? domain : current_domain);
  ReleaseSRWLockExclusive (&lock);
  if (!c || !c->data || !(found = find (c, msgid, &len)))
    return NULL;
  if (msgid_plural)
    {
      index = c->plural == PLURAL_ZERO ? 0
            : c->plural == PLURAL_MORE_THAN_ONE ? n > 1 : n != 1;
      if ((int) index >= c->nplurals)
        return NULL;
      /* The forms follow each other, NUL-separated, within LEN. */
      for (uint32_t i = 0; i < index; i++)
        {
          size_t skip = strlen (found) + 1;
          if (skip > len)
            return NULL;
          len -= (uint32_t) skip;
          found += skip;
        }
    }
  /* An empty translation means untranslated (fuzzy entries are not in
   * catalogues, but a hand-made one could hold ""), except the header. */
  return *found || !*msgid ? found : NULL;
}

EXPORT char *
dcngettext (const char *domain, const char *msgid, const char *msgid_plural,
            unsigned long n, int category)
{
  const char *t = lookup (domain, msgid, msgid_plural, n);
  (void) category;
  if (t)
    return (char *) t;
  return (char *) (msgid_plural && n != 1 ? msgid_plural : msgid);
}

EXPORT char *
dngettext (const char *domain, const char *msgid, const char *msgid_plural,
           unsigned long n)
{
  return dcngettext (domain, msgid, msgid_plural, n, 0);
}

EXPORT char *
ngettext (const char *msgid, const char *msgid_plural, unsigned long n)
{
  return dcngettext (NULL, msgid, msgid_plural, n, 0);
}

EXPORT char *
dcgettext (const char *domain, const char *msgid, int category)
{
  return dcngettext (domain, msgid, NULL, 1, category);
}

EXPORT char *
dgettext (const char *domain, const char *msgid)
{
  return dcngettext (domain, msgid, NULL, 1, 0);
}

EXPORT char *
gettext (const char *msgid)
{
  return dcngettext (NULL, msgid, NULL, 1, 0);
}

EXPORT char *
textdomain (const char *domain)
{
  char *result;

  AcquireSRWLockExclusive (&lock);
  if (domain && *domain)
    {
      char *copy = _strdup (domain);
      if (copy)
        current_domain = copy;   /* the old name may still be in use: kept */
    }
  result = current_domain;
  ReleaseSRWLockExclusive (&lock);
  return result;
}

/* The binding of DOMAIN, made if MAKE. Called with the lock held. */
static Binding *
binding_for (const char *domain, int make)
{
  Binding *b;

  for (b = bindings; b; b = b->next)
    if (!strcmp (b->domain, domain))
      return b;
  if (!make || !(b = calloc (1, sizeof *b)) || !(b->domain = _strdup (domain)))
    {
      free (b);
      return NULL;
    }
  b->next = bindings;
  bindings = b;
  return b;
}

EXPORT char *
bindtextdomain (const char *domain, const char *dirname)
{
  Binding *b;
  char *result = NULL;

  if (!domain || !*domain)
    return NULL;
  AcquireSRWLockExclusive (&lock);
  if ((b = binding_for (domain, dirname != NULL)))
    {
      if (dirname && (!b->dirname || strcmp (b->dirname, dirname)))
        {
          char *copy = _strdup (dirname);
          if (copy)
            b->dirname = copy;   /* the old one may be in use: kept */
          /* A domain looked up before it was bound is looked for again
           * (unlinked, not freed: a lookup may hold it). */
          for (Catalogue **c = &catalogues; *c;)
            if (!(*c)->data && !strcmp ((*c)->domain, domain))
              *c = (*c)->next;
            else
              c = &(*c)->next;
        }
      result = b->dirname;
    }
  ReleaseSRWLockExclusive (&lock);
  return result ? result : empty;
}

/* Catalogues are returned as written, UTF-8 for Diskmeter's, GLib's and
 * GTK's, which all ask for UTF-8: the codeset is remembered only. */
EXPORT char *
bind_textdomain_codeset (const char *domain, const char *codeset)
{
  Binding *b;
  char *result = NULL;

  if (!domain || !*domain)
    return NULL;
  AcquireSRWLockExclusive (&lock);
  if ((b = binding_for (domain, codeset != NULL)))
    {
      if (codeset && (!b->codeset || strcmp (b->codeset, codeset)))
        {
          char *copy = _strdup (codeset);
          if (copy)
            b->codeset = copy;
        }
      result = b->codeset;
    }
  ReleaseSRWLockExclusive (&lock);
  return result;
}
