/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tags in a comparison: what a user compares is often not a setting but
 * where a run came from (controller=pvscsi vs nvme, host=a vs b), so each
 * run's tags go with it and the ones that differ are named.
 */
#include "dm-compare-private.h"

#include <string.h>
#include <stdio.h>

#include "dm-gettext.h"
#include "dm-text.h"

/* In the user's language only where asked (the window). */
#define R_(s) s
static const char *
words (const char *english, bool translate)
{
  return translate ? dm_gettext (english) : english;
}

/* The keys of every run's tags (dm_report_tags), each once, in the order
 * they first come; past KEYS_MAX the rest are left out. */
enum { KEYS_MAX = 128 };
typedef struct tag_keys {
  char     key[KEYS_MAX][DM_TAG_KEY_MAX + 1];
  unsigned n;
} tag_keys;

static void
all_keys (const dm_compare *c, tag_keys *k)
{
  dm_tag t[DM_TAGS_ALL_MAX];
  k->n = 0;
  for (unsigned i = 0; i < c->n_runs; i++)
    {
      unsigned n = dm_report_tags (c->runs[i], t);
      for (unsigned j = 0; j < n && k->n < KEYS_MAX; j++)
        {
          bool seen = false;
          for (unsigned m = 0; m < k->n && !seen; m++)
            seen = !strcmp (k->key[m], t[j].key);
          if (!seen)
            snprintf (k->key[k->n++], sizeof k->key[0], "%s", t[j].key);
        }
    }
}

/* Run r's value of a tag, false when it has none; *users says whether the
 * value is the user's word rather than the fact's own. */
static bool
run_tag (const dm_report *r, const char *key, char value[DM_TAG_VALUE_MAX + 1], bool *users)
{
  dm_tag t[DM_TAGS_ALL_MAX];
  unsigned n = dm_report_tags (r, t);
  for (unsigned i = 0; i < n; i++)
    if (!strcmp (t[i].key, key))
      {
        snprintf (value, DM_TAG_VALUE_MAX + 1, "%s", t[i].value);
        *users = !dm_tag_is_fact (&t[i], &r->system, &r->target);
        return true;
      }
  value[0] = '\0';
  *users = false;
  return false;
}

bool
dm_compare_tag_differs (const dm_compare *c, const char *key)
{
  char first[DM_TAG_VALUE_MAX + 1], value[DM_TAG_VALUE_MAX + 1];
  bool fact = dm_tag_key_is_fact (key), started = false, first_has = false, differ = false;
  bool users = false, any_users = false;
  for (unsigned i = 0; i < c->n_runs; i++)
    {
      bool has = run_tag (c->runs[i], key, value, &users);
      any_users |= users;
      /* A fact a run does not know is no difference, as with the
       * settings; a tag one user gave and another did not is one. */
      if (!has && fact)
        continue;
      if (!started)
        {
          memcpy (first, value, sizeof first);
          first_has = has;
          started = true;
        }
      else
        differ |= has != first_has || strcmp (first, value) != 0;
    }
  /* The vCPUs are "logical CPUs" among the settings already; as a tag
   * only when a user gave them ("vcpus=48 (HT)"). */
  if (!strcmp (key, "vcpus") && !any_users)
    return false;
  return differ;
}

unsigned
dm_compare_write_tag_differences (const dm_compare *c, bool translate, dm_buf *out)
{
  tag_keys k;
  unsigned n = 0;
  all_keys (c, &k);
  for (unsigned m = 0; m < k.n; m++)
    {
      if (!dm_compare_tag_differs (c, k.key[m]))
        continue;
      dm_buf_add (out, n++ ? "; " : words (R_ ("Different tags:"), translate));
      if (n == 1)
        dm_buf_add (out, " ");
      dm_buf_add (out, k.key[m]);
      for (unsigned i = 0; i < c->n_runs; i++)
        {
          char value[DM_TAG_VALUE_MAX + 1];
          bool users;
          bool has = run_tag (c->runs[i], k.key[m], value, &users);
          if (i)
            dm_buf_printf (out, " %s", words (R_ ("vs"), translate));
          dm_buf_add (out, " ");
          if (has)
            dm_text_add_shown (out, value);
          else
            dm_buf_add (out, "-");
        }
    }
  return n;
}

static bool
any_user_tags (const dm_compare *c)
{
  dm_tag t[DM_TAGS_ALL_MAX];
  for (unsigned i = 0; i < c->n_runs; i++)
    if (dm_report_user_tags (c->runs[i], t))
      return true;
  return false;
}


void
dm_compare_json_tags (const dm_report *r, dm_buf *b)
{
  dm_tag t[DM_TAGS_ALL_MAX];
  unsigned n = dm_report_tags (r, t);
  dm_buf_add (b, "{");
  for (unsigned k = 0; k < n; k++)
    {
      dm_buf_add (b, k ? ", " : "");
      dm_buf_add_json_string (b, t[k].key);
      dm_buf_add (b, ": ");
      dm_buf_add_json_string (b, t[k].value);
    }
  dm_buf_add (b, "}");
}

void
dm_compare_json_different_tags (const dm_compare *c, dm_buf *b)
{
  tag_keys k;
  unsigned n = 0;
  all_keys (c, &k);
  dm_buf_add (b, "{");
  for (unsigned m = 0; m < k.n; m++)
    {
      if (!dm_compare_tag_differs (c, k.key[m]))
        continue;
      dm_buf_add (b, n++ ? ", " : "");
      dm_buf_add_json_string (b, k.key[m]);
      dm_buf_add (b, ": [");
      for (unsigned i = 0; i < c->n_runs; i++)
        {
          char value[DM_TAG_VALUE_MAX + 1];
          bool users;
          dm_buf_add (b, i ? ", " : "");
          if (run_tag (c->runs[i], k.key[m], value, &users))
            dm_buf_add_json_string (b, value);
          else
            dm_buf_add (b, "null");
        }
      dm_buf_add (b, "]");
    }
  dm_buf_add (b, "}");
}

bool
dm_compare_csv_tags (const dm_compare *c, dm_buf *header, dm_buf *row)
{
  dm_tag t[DM_TAGS_ALL_MAX];
  tag_keys k;
  if (!any_user_tags (c))
    return false;
  for (unsigned i = 0; i < c->n_runs; i++)
    dm_buf_printf (header, ",%c_tags", 'A' + (i % 26));
  dm_buf_add (header, ",different_tags");
  /* A run's tags in one field, "key=value; key=value", as text shows them. */
  for (unsigned i = 0; i < c->n_runs; i++)
    {
      dm_buf one;
      dm_buf_init (&one);
      dm_tags_add_text (&one, t, dm_report_user_tags (c->runs[i], t), "; ");
      dm_buf_add (row, ",");
      dm_buf_add_csv_field (row, one.data ? one.data : "");
      dm_buf_free (&one);
    }
  all_keys (c, &k);
  dm_buf_add (row, ",");
  for (unsigned m = 0, n = 0; m < k.n; m++)
    if (dm_compare_tag_differs (c, k.key[m]))
      dm_buf_printf (row, "%s%s", n++ ? ";" : "", k.key[m]);
  return true;
}
