/* SPDX-License-Identifier: GPL-3.0-or-later
 * The gettext API without catalogues: every lookup returns the message as
 * written (English), the domain and folder calls are remembered only so
 * that they return what the caller set. */
#include <stddef.h>
#include "libintl.h"

static char default_domain[] = "messages";
static const char *current_domain = default_domain;

__declspec(dllexport) char *
gettext (const char *msgid)
{
  return (char *) msgid;
}

__declspec(dllexport) char *
dgettext (const char *domain, const char *msgid)
{
  (void) domain;
  return (char *) msgid;
}

__declspec(dllexport) char *
dcgettext (const char *domain, const char *msgid, int category)
{
  (void) domain;
  (void) category;
  return (char *) msgid;
}

__declspec(dllexport) char *
ngettext (const char *msgid, const char *msgid_plural, unsigned long n)
{
  return (char *) (n == 1 ? msgid : msgid_plural);
}

__declspec(dllexport) char *
dngettext (const char *domain, const char *msgid, const char *msgid_plural,
           unsigned long n)
{
  (void) domain;
  return (char *) (n == 1 ? msgid : msgid_plural);
}

__declspec(dllexport) char *
dcngettext (const char *domain, const char *msgid, const char *msgid_plural,
            unsigned long n, int category)
{
  (void) domain;
  (void) category;
  return (char *) (n == 1 ? msgid : msgid_plural);
}

__declspec(dllexport) char *
textdomain (const char *domain)
{
  if (domain != NULL && domain[0] != '\0')
    current_domain = domain;
  return (char *) current_domain;
}

__declspec(dllexport) char *
bindtextdomain (const char *domain, const char *dirname)
{
  (void) domain;
  return (char *) dirname;
}

__declspec(dllexport) char *
bind_textdomain_codeset (const char *domain, const char *codeset)
{
  (void) domain;
  return (char *) codeset;
}
