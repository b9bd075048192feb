/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tags a run is labelled with: checked once where they come in (--tag, a
 * loaded file), kept as the user gave them, merged with the facts
 * Diskmeter offers as tags where a report shows them.
 */
#include "dm-tags.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dm-report.h"
#include "dm-text.h"

bool
dm_tag_key_valid (const char *key)
{
  size_t n = strlen (key);
  if (n < 1 || n > DM_TAG_KEY_MAX)
    return false;
  for (size_t i = 0; i < n; i++)
    {
      char c = key[i];
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
        return false;
    }
  return true;
}

/* A one-line reason; -EINVAL. */
#define REFUSE(...) (why && ws ? (void) snprintf (why, ws, __VA_ARGS__) : (void) 0, -EINVAL)

int
dm_tag_make (dm_tag *tag, const char *key, const char *value, char *why, size_t ws)
{
  char shown[80];
  if (!dm_tag_key_valid (key))
    return REFUSE ("tag key '%s' is not 1 to 32 of a-z 0-9 _ . -",
                   dm_text_shown (shown, sizeof shown, key));
  if (strlen (value) > DM_TAG_VALUE_MAX)
    return REFUSE ("tag %s: a value keeps at most %d bytes; this one has %u", key,
                   DM_TAG_VALUE_MAX, (unsigned) strlen (value));
  if (!dm_utf8_valid (value))
    return REFUSE ("tag %s: the value is not UTF-8", key);
  snprintf (tag->key, sizeof tag->key, "%s", key);
  snprintf (tag->value, sizeof tag->value, "%s", value);
  return 0;
}

int
dm_tag_parse (const char *text, dm_tag *tag, char *why, size_t ws)
{
  char key[DM_TAG_KEY_MAX + 2], shown[80];
  const char *eq = strchr (text, '=');
  if (!eq)
    return REFUSE ("'%s' is not KEY=VALUE", dm_text_shown (shown, sizeof shown, text));
  size_t n = (size_t) (eq - text);
  if (n == 0 || n > DM_TAG_KEY_MAX)
    {
      snprintf (key, sizeof key, "%.*s", (int) (n > DM_TAG_KEY_MAX ? DM_TAG_KEY_MAX + 1 : n), text);
      return REFUSE ("tag key '%s%s' is not 1 to 32 of a-z 0-9 _ . -",
                     dm_text_shown (shown, sizeof shown, key), n > DM_TAG_KEY_MAX ? "..." : "");
    }
  memcpy (key, text, n);
  key[n] = '\0';
  return dm_tag_make (tag, key, eq + 1, why, ws);
}

int
dm_tags_set (dm_tag *tags, unsigned *n, unsigned max, const dm_tag *tag)
{
  for (unsigned i = 0; i < *n; i++)
    if (!strcmp (tags[i].key, tag->key))
      {
        tags[i] = *tag;
        return 0;
      }
  if (*n >= max)
    return -E2BIG;
  tags[(*n)++] = *tag;
  return 0;
}

const char *
dm_tags_get (const dm_tag *tags, unsigned n, const char *key)
{
  for (unsigned i = 0; i < n; i++)
    if (!strcmp (tags[i].key, key))
      return tags[i].value;
  return NULL;
}

/* The facts offered as tags, in this order; "" or 0 is not known and left
 * out. */
static const char *const fact_keys[] = {
  "hypervisor", "vcpus", "sockets", "cores_per_socket", "threads_per_core", "numa_nodes",
  "controller", "driver", "queue_depth", "host_queue", "nr_requests", "hw_queues",
  "max_segments",
};
enum { N_FACTS = sizeof fact_keys / sizeof fact_keys[0] };

static void
fact_value (unsigned i, const dm_system_info *s, const dm_target_info *t, char *v, size_t size)
{
  unsigned n = 0;
  v[0] = '\0';
  switch (i)
    {
    case 0: dm_text_copy (v, size, s ? s->hypervisor : ""); return;
    case 1: n = s ? s->logical_cpus : 0; break;
    case 2: n = s ? s->sockets : 0; break;
    case 3: n = s ? s->cores_per_socket : 0; break;
    case 4: n = s ? s->threads_per_core : 0; break;
    case 5: n = s ? s->numa_nodes : 0; break;
    case 6: dm_text_copy (v, size, t ? t->controller : ""); return;
    case 7: dm_text_copy (v, size, t ? t->driver : ""); return;
    case 8: n = t ? t->queue_depth : 0; break;
    case 9: n = t ? t->host_queue : 0; break;
    case 10: n = t ? t->nr_requests : 0; break;
    case 11: n = t ? t->hw_queues : 0; break;
    case 12: n = t ? t->max_segments : 0; break;
    }
  if (n)
    snprintf (v, size, "%u", n);
}

unsigned
dm_tags_effective (const dm_tag *user, unsigned n_user, const dm_system_info *sys,
                   const dm_target_info *target, dm_tag *out)
{
  bool shown[N_FACTS] = { false };
  unsigned n = 0;

  static_assert (N_FACTS <= DM_TAGS_ALL_MAX - DM_TAGS_MAX, "room for every fact");
  for (unsigned i = 0; i < N_FACTS; i++)
    {
      char v[DM_TAG_VALUE_MAX + 1];
      fact_value (i, sys, target, v, sizeof v);
      /* An OS string that is not UTF-8 is no tag value. */
      if (!v[0] || !dm_utf8_valid (v))
        continue;
      const char *mine = dm_tags_get (user, n_user, fact_keys[i]);
      snprintf (out[n].key, sizeof out[n].key, "%s", fact_keys[i]);
      snprintf (out[n].value, sizeof out[n].value, "%s", mine ? mine : v);
      n++;
      shown[i] = true;
    }
  for (unsigned u = 0; u < n_user && n < DM_TAGS_ALL_MAX; u++)
    {
      bool done = false;
      for (unsigned i = 0; i < N_FACTS; i++)
        done |= shown[i] && !strcmp (user[u].key, fact_keys[i]);
      if (!done)
        out[n++] = user[u];
    }
  return n;
}

bool
dm_tag_is_fact (const dm_tag *tag, const dm_system_info *sys, const dm_target_info *target)
{
  for (unsigned i = 0; i < N_FACTS; i++)
    if (!strcmp (tag->key, fact_keys[i]))
      {
        char v[DM_TAG_VALUE_MAX + 1];
        fact_value (i, sys, target, v, sizeof v);
        return v[0] && !strcmp (v, tag->value);
      }
  return false;
}

unsigned
dm_report_tags (const dm_report *r, dm_tag *out)
{
  return dm_tags_effective (r->tags, r->n_tags, &r->system, &r->target, out);
}

bool
dm_tag_key_is_fact (const char *key)
{
  for (unsigned i = 0; i < N_FACTS; i++)
    if (!strcmp (key, fact_keys[i]))
      return true;
  return false;
}

int
dm_tags_parse_list (const char *text, dm_tag *tags, unsigned *n, unsigned max, char *why,
                    size_t ws)
{
  *n = 0;
  for (const char *p = text; p && *p;)
    {
      size_t len = strcspn (p, ",\n");
      const char *next = p[len] ? p + len + 1 : NULL;
      while (len && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++, len--;
      while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
        len--;
      if (len)
        {
          /* One item longer than any key, '=' and value is refused whole. */
          char item[DM_TAG_KEY_MAX + DM_TAG_VALUE_MAX + 8];
          dm_tag tag;
          if (len >= sizeof item)
            return REFUSE ("a tag keeps at most %d bytes of key and %d of value",
                           DM_TAG_KEY_MAX, DM_TAG_VALUE_MAX);
          memcpy (item, p, len);
          item[len] = '\0';
          if (dm_tag_parse (item, &tag, why, ws) < 0)
            return -EINVAL;
          if (dm_tags_set (tags, n, max, &tag) < 0)
            {
              if (why && ws)
                snprintf (why, ws, "at most %u tags", max);
              return -E2BIG;
            }
        }
      p = next;
    }
  return 0;
}

void
dm_report_set_tags (dm_report *r, const dm_tag *tags, unsigned n)
{
  if (n > DM_TAGS_MAX)
    n = DM_TAGS_MAX;
  memcpy (r->tags, tags, n * sizeof *tags);
  r->n_tags = n;
}

unsigned
dm_report_user_tags (const dm_report *r, dm_tag *out)
{
  dm_tag all[DM_TAGS_ALL_MAX];
  unsigned n = dm_report_tags (r, all), k = 0;
  for (unsigned i = 0; i < n; i++)
    if (!dm_tag_is_fact (&all[i], &r->system, &r->target))
      out[k++] = all[i];
  return k;
}

void
dm_tags_add_text (dm_buf *b, const dm_tag *tags, unsigned n, const char *sep)
{
  for (unsigned i = 0; i < n; i++)
    {
      dm_buf_printf (b, "%s%s=", i ? sep : "", tags[i].key);
      dm_text_add_shown (b, tags[i].value);
    }
}

void
dm_report_add_tags_line (dm_buf *b, const dm_report *r, const char *lead)
{
  dm_tag tags[DM_TAGS_ALL_MAX];
  unsigned n = dm_report_user_tags (r, tags);
  if (!n)
    return;
  dm_buf_add (b, lead);
  dm_tags_add_text (b, tags, n, ", ");
  dm_buf_add (b, "\n");
}
