/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * engine/dm-text: copies cut only at character boundaries, the shown form
 * escapes every control and stray byte and nothing else, the JSON string
 * is valid UTF-8 whatever the bytes, hex goes both ways, and a sentence
 * naming a long path keeps its reason.
 */
#include <errno.h>
#include <string.h>

#include "dm-test.h"
#include "dm-text.h"

static void
test_copy (void)
{
  char dst[512], big[1300] = "";
  for (int i = 0; i < 600; i++)
    strcat (big, "\xc3\xa9"); /* é */
  DM_CHECK_INT (dm_text_copy (dst, sizeof dst, big), ==, -E2BIG);
  DM_CHECK_INT (strlen (dst), ==, 510); /* 255 whole é, not 511 bytes */
  DM_CHECK (dm_utf8_valid (dst));

  /* A four-byte character that does not fit is left out whole. */
  DM_CHECK_INT (dm_text_copy (dst, 6, "ab\xf0\x9f\x98\x80"), ==, -E2BIG);
  DM_CHECK_STR (dst, "ab");
  /* A stray byte is a character of its own, kept where it fits. */
  DM_CHECK_INT (dm_text_copy (dst, 3, "a\xff" "b"), ==, -E2BIG);
  DM_CHECK_STR (dst, "a\xff");
  DM_CHECK_INT (dm_text_copy (dst, sizeof dst, "caf\xe9"), ==, 0);
  DM_CHECK_STR (dst, "caf\xe9");
}

static void
test_valid (void)
{
  DM_CHECK (dm_utf8_valid (""));
  DM_CHECK (dm_utf8_valid ("gr\xc3\xb6\xc3\x9f" "e \xe2\x82\xac \xf0\x9f\x98\x80"));
  DM_CHECK (!dm_utf8_valid ("\xff"));
  DM_CHECK (!dm_utf8_valid ("caf\xe9"));           /* Latin-1 */
  DM_CHECK (!dm_utf8_valid ("\xc3"));               /* cut short */
  DM_CHECK (!dm_utf8_valid ("\xc0\xaf"));           /* overlong '/' */
  DM_CHECK (!dm_utf8_valid ("\xed\xa0\x80"));       /* a surrogate */
  DM_CHECK (!dm_utf8_valid ("\xf4\x90\x80\x80"));   /* past U+10FFFF */
}

static void
check_shown (const char *in, const char *want)
{
  char out[256];
  DM_CHECK_STR (dm_text_shown (out, sizeof out, in), want);
}

static void
test_shown (void)
{
  check_shown ("\n[Read]\n  SEQ1M_Q8T1:", "\\n[Read]\\n  SEQ1M_Q8T1:");
  check_shown ("\x1b[2J", "\\x1b[2J");
  check_shown ("tab\there\r", "tab\\there\\r");
  check_shown ("\x7f", "\\x7f");
  check_shown ("\xff", "\\xff");
  check_shown ("/home/caf\xe9", "/home/caf\\xe9");
  check_shown ("csi \xc2\x9b" "2J", "csi \\u009b2J");    /* C1 CSI */
  check_shown ("evil\xe2\x80\xae" "fdp.exe", "evil\\u202efdp.exe"); /* RLO */
  /* Valid text and backslashes read as they are. */
  check_shown ("C:\\Users\\gr\xc3\xb6\xc3\x9f" "e \xe2\x82\xac", "C:\\Users\\gr\xc3\xb6\xc3\x9f" "e \xe2\x82\xac");
  check_shown ("", "");

  dm_buf b;
  dm_buf_init (&b);
  dm_buf_add_csv_field (&b, "a,\"b\"\nc\x1b");
  DM_CHECK_STR (b.data, "\"a,\"\"b\"\"\nc\\x1b\"");
  dm_buf_clear (&b);
  dm_buf_add_csv_field (&b, "plain");
  DM_CHECK_STR (b.data, "plain");
  dm_buf_free (&b);
}

static void
test_json (void)
{
  dm_buf b;
  dm_buf_init (&b);
  dm_text_add_json (&b, "caf\xe9 \"q\" \\ \n\x1b\x7f\xc2\x85\xe2\x80\xae \xc3\xa9");
  DM_CHECK_STR (b.data, "\"caf\xef\xbf\xbd \\\"q\\\" \\\\ \\n\\u001b\\u007f\\u0085\\u202e \xc3\xa9\"");
  DM_CHECK (dm_utf8_valid (b.data));
  dm_buf_free (&b);
}

static void
test_hex (void)
{
  char out[16];
  dm_buf b;
  dm_buf_init (&b);
  dm_text_add_hex (&b, "caf\xe9");
  DM_CHECK_STR (b.data, "636166e9");
  DM_CHECK_INT (dm_text_from_hex (out, sizeof out, b.data), ==, 0);
  DM_CHECK_STR (out, "caf\xe9");
  DM_CHECK_INT (dm_text_from_hex (out, sizeof out, "FF"), ==, 0);
  DM_CHECK_STR (out, "\xff");
  DM_CHECK_INT (dm_text_from_hex (out, sizeof out, "6"), ==, -EINVAL);
  DM_CHECK_INT (dm_text_from_hex (out, sizeof out, "zz"), ==, -EINVAL);
  DM_CHECK_INT (dm_text_from_hex (out, sizeof out, "6100"), ==, -EINVAL); /* a NUL */
  dm_buf_free (&b);
}

static void
test_say (void)
{
  char path[600] = "/srv", error[320], shortened[64];
  /* Over 500 bytes, with é and ô across the places a cut could fall. */
  while (strlen (path) < 520)
    strcat (path, "/d\xc3\xa9p\xc3\xb4t");
  strcat (path, "/disk");

  DM_CHECK_INT (dm_text_say (error, sizeof error, path, "cannot create a test file in %s: %s", path,
                             "Permission denied"), ==, 0);
  size_t n = strlen (error), tail = strlen (": Permission denied");
  DM_CHECK (n < sizeof error);
  DM_CHECK (n >= tail && !strcmp (error + n - tail, ": Permission denied"));
  DM_CHECK (!strncmp (error, "cannot create a test file in /srv/d", 35));
  DM_CHECK (strstr (error, "\xe2\x80\xa6") != NULL);
  DM_CHECK (strstr (error, "/disk: Permission denied") != NULL);
  DM_CHECK (dm_utf8_valid (error));

  /* Twice in one sentence: both places give up their share. */
  DM_CHECK_INT (dm_text_say (error, sizeof error, path, "writing to %s would destroy it; pass %s",
                             path, path), ==, 0);
  DM_CHECK (strlen (error) < sizeof error);
  DM_CHECK (dm_utf8_valid (error));
  DM_CHECK (strstr (error, "would destroy it; pass /srv") != NULL);

  /* A sentence that fits is left alone. */
  DM_CHECK_INT (dm_text_say (error, sizeof error, "/mnt", "%s does not exist", "/mnt"), ==, 0);
  DM_CHECK_STR (error, "/mnt does not exist");

  dm_text_shorten (shortened, sizeof shortened, path, 40);
  DM_CHECK (strlen (shortened) <= 40);
  DM_CHECK (dm_utf8_valid (shortened));
  DM_CHECK (strstr (shortened, "\xe2\x80\xa6") != NULL);
  n = strlen (shortened);
  DM_CHECK (n > 5 && !strcmp (shortened + n - 5, "/disk"));
}

int
main (void)
{
  DM_RUN ("/engine/text/copy", test_copy);
  DM_RUN ("/engine/text/valid", test_valid);
  DM_RUN ("/engine/text/shown", test_shown);
  DM_RUN ("/engine/text/json", test_json);
  DM_RUN ("/engine/text/hex", test_hex);
  DM_RUN ("/engine/text/say", test_say);
  return dm_test_done ();
}
