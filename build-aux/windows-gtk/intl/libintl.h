/* SPDX-License-Identifier: GPL-3.0-or-later
 * The gettext API without catalogues: see meson.build. */
#ifndef DM_LIBINTL_H
#define DM_LIBINTL_H

#ifdef __cplusplus
extern "C" {
#endif

/* As in GNU libintl.h: the result is the format string the caller passed,
 * so printf format checks (-Wformat-nonliteral) look through the call. */
#define DM_INTL_FORMAT(n) __attribute__ ((__format_arg__ (n)))

char *gettext (const char *msgid) DM_INTL_FORMAT (1);
char *dgettext (const char *domain, const char *msgid) DM_INTL_FORMAT (2);
char *dcgettext (const char *domain, const char *msgid, int category)
  DM_INTL_FORMAT (2);
char *ngettext (const char *msgid, const char *msgid_plural, unsigned long n)
  DM_INTL_FORMAT (1) DM_INTL_FORMAT (2);
char *dngettext (const char *domain, const char *msgid, const char *msgid_plural,
                 unsigned long n) DM_INTL_FORMAT (2) DM_INTL_FORMAT (3);
char *dcngettext (const char *domain, const char *msgid, const char *msgid_plural,
                  unsigned long n, int category)
  DM_INTL_FORMAT (2) DM_INTL_FORMAT (3);
char *textdomain (const char *domain);
char *bindtextdomain (const char *domain, const char *dirname);
char *bind_textdomain_codeset (const char *domain, const char *codeset);

#ifdef __cplusplus
}
#endif
#endif
