/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The run history: JSON reports in <data dir>/history, named by date, time
 * and target so a directory listing already reads well.
 */
#include "dm-history.h"

#include "dm-gettext.h"
#include "dm-profile.h"
#include "dm-text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


int
dm_history_dir (char *buf, size_t size)
{
  char base[1024];
  int err = dm_data_dir (base, sizeof base);
  if (err < 0)
    return err;
  if (snprintf (buf, size, "%s%chistory", base, dm_dir_separator ()) >= (int) size)
    return -ENAMETOOLONG;
  /* dm_data_dir creates its own folder; the history folder is one below,
   * and dm_file_write_new needs it to exist. */
  return dm_ensure_dir (buf);
}

/* "E:" or "/mnt/data" as a file-name-safe slug: "E", "mnt-data". */
static void
slug (const char *target, char *out, size_t size)
{
  size_t o = 0;
  bool dash = false;
  for (const char *p = target; *p && o + 1 < size; p++)
    {
      char c = *p;
      bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (keep)
        {
          if (dash && o)
            out[o++] = '-';
          if (o + 1 < size)
            out[o++] = c;
          dash = false;
        }
      else
        dash = true;
      if (o >= 40)
        break;
    }
  out[o] = '\0';
  if (!o)
    snprintf (out, size, "target");
}

int
dm_history_save (const dm_report *r, char *path, size_t path_size)
{
  char dir[1100], name[64], stamp[32];
  dm_buf json;
  int err = dm_history_dir (dir, sizeof dir);
  if (err < 0)
    return err;
  time_t t = (time_t) r->started;
  struct tm *tm = gmtime (&t);
  if (!tm || !strftime (stamp, sizeof stamp, "%Y%m%d-%H%M%S", tm))
    snprintf (stamp, sizeof stamp, "run");
  slug (r->target.path[0] ? r->target.path : "target", name, sizeof name);

  dm_buf_init (&json);
  dm_report_write_json (r, &json);
  if (json.error)
    {
      dm_buf_free (&json);
      return json.error;
    }
  err = -EEXIST;
  for (unsigned k = 1; k < 1000 && err == -EEXIST; k++)
    {
      char suffix[16] = "";
      if (k > 1)
        snprintf (suffix, sizeof suffix, "-%u", k);
      if (snprintf (path, path_size, "%s%c%sZ-%s%s.json", dir, dm_dir_separator (),
                    stamp, name, suffix)
          >= (int) path_size)
        {
          err = -ENAMETOOLONG;
          break;
        }
      err = dm_file_write_new (path, json.data, json.len);
    }
  dm_buf_free (&json);
  return err;
}

int
dm_history_load (const char *path, dm_report *report, char *why, size_t why_size)
{
  char *text = NULL;
  size_t len;
  int err = dm_file_read_all (path, DM_REPORT_FILE_MAX, &text, &len);
  if (err < 0)
    {
      snprintf (why, why_size, dm_gettext ("cannot read it: %s"),
                err == -EFBIG ? "larger than any result file" : dm_strerror (err));
      return err;
    }
  err = dm_report_load_json (report, text, len, why, why_size);
  free (text);
  return err;
}

typedef struct listing {
  const char       *dir;
  dm_history_entry *items;
  unsigned          n, cap;
  int               err;
} listing;

static double
headline (const dm_report *r, dm_pattern pattern, dm_mode mode, bool iops)
{
  double best = 0;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      const dm_result *res = &r->results[i];
      /* A workload row stands in a test but is not one: no headline. */
      if (!res->shaped && res->spec.pattern == pattern && res->mode == mode
          && res->status == DM_STATUS_COMPLETE)
        {
          double v = iops ? res->iops : res->mb_per_s;
          if (v > best)
            best = v;
        }
    }
  return best;
}

/* The workload rows' names, one after another, as many as fit whole. */
static void
workload_names (const dm_report *r, dm_history_entry *e)
{
  size_t used = 0;
  bool full = false;
  for (unsigned i = 0; i < r->n_results; i++)
    {
      if (!r->results[i].shaped)
        continue;
      char shown[DM_WORKLOAD_NAME_MAX * 4 + 8];
      dm_text_shown (shown, sizeof shown, r->results[i].workload.name);
      const char *sep = e->n_workloads++ ? ", " : "";
      size_t need = strlen (sep) + strlen (shown);
      /* Room is kept for ", ..." that says the rest did not fit. */
      if (!full && used + need + 6 <= sizeof e->workloads)
        {
          snprintf (e->workloads + used, sizeof e->workloads - used, "%s%s", sep, shown);
          used += need;
        }
      else if (!full)
        {
          snprintf (e->workloads + used, sizeof e->workloads - used, ", ...");
          full = true;
        }
    }
  memcpy (e->profile_hash, r->profile_hash, sizeof e->profile_hash);
}

/* The user's tags, as many as fit whole, ", ..." for the rest. */
static void
user_tags (const dm_report *r, dm_history_entry *e)
{
  dm_tag tags[DM_TAGS_ALL_MAX];
  unsigned n = dm_report_user_tags (r, tags);
  size_t used = 0;
  for (unsigned i = 0; i < n; i++)
    {
      dm_buf one;
      dm_buf_init (&one);
      dm_tags_add_text (&one, &tags[i], 1, "");
      const char *sep = i ? ", " : "";
      size_t need = strlen (sep) + one.len;
      bool fits = one.data && !one.error && used + need + 6 <= sizeof e->tags;
      if (fits)
        {
          snprintf (e->tags + used, sizeof e->tags - used, "%s%s", sep, one.data);
          used += need;
        }
      else
        snprintf (e->tags + used, sizeof e->tags - used, i ? ", ..." : "...");
      dm_buf_free (&one);
      if (!fits)
        break;
    }
}

const char *
dm_history_profile_title (const dm_history_entry *e)
{
  return e->n_workloads ? "Workloads" : dm_profile_title_of (e->profile);
}

static void
add_entry (const char *name, void *user)
{
  listing *l = user;
  size_t n = strlen (name);
  if (n < 6 || strcmp (name + n - 5, ".json") != 0 || l->err)
    return;
  if (l->n == l->cap)
    {
      unsigned cap = l->cap ? l->cap * 2 : 32;
      dm_history_entry *items = realloc (l->items, cap * sizeof *items);
      if (!items)
        {
          l->err = -ENOMEM;
          return;
        }
      l->items = items;
      l->cap = cap;
    }
  dm_history_entry *e = &l->items[l->n++];
  dm_report r;
  memset (e, 0, sizeof *e);
  dm_text_copy (e->name, sizeof e->name, name);
  snprintf (e->path, sizeof e->path, "%s%c%s", l->dir, dm_dir_separator (), name);
  if (dm_history_load (e->path, &r, e->error, sizeof e->error) < 0)
    return;
  e->ok = true;
  e->started = r.started;
  e->status = r.status;
  /* The listing's shorter fields, cut at a character boundary. */
  dm_text_copy (e->target, sizeof e->target, r.target.path);
  dm_text_copy (e->device, sizeof e->device, r.target.device);
  dm_text_copy (e->model, sizeof e->model, r.target.model);
  dm_text_copy (e->profile, sizeof e->profile, r.profile);
  dm_text_copy (e->comment, sizeof e->comment, r.comment);
  e->seq_read_mb_s = headline (&r, DM_SEQ, DM_MODE_READ, false);
  e->seq_write_mb_s = headline (&r, DM_SEQ, DM_MODE_WRITE, false);
  e->rnd_read_iops = headline (&r, DM_RND, DM_MODE_READ, true);
  e->rnd_write_iops = headline (&r, DM_RND, DM_MODE_WRITE, true);
  workload_names (&r, e);
  user_tags (&r, e);
  dm_report_clear (&r);
}

static int
newest_first (const void *a, const void *b)
{
  const dm_history_entry *x = a, *y = b;
  if (x->started != y->started)
    return x->started < y->started ? 1 : -1;
  return strcmp (y->name, x->name);
}

int
dm_history_list (dm_history_entry **entries, unsigned *n)
{
  char dir[1100];
  int err = dm_history_dir (dir, sizeof dir);
  listing l = { dir, NULL, 0, 0, 0 };
  if (err < 0)
    return err;
  err = dm_list_files (dir, add_entry, &l);
  if (err < 0 || l.err < 0)
    {
      free (l.items);
      return err < 0 ? err : l.err;
    }
  if (l.n)
    qsort (l.items, l.n, sizeof *l.items, newest_first);
  *entries = l.items;
  *n = l.n;
  return 0;
}

void
dm_history_free (dm_history_entry *entries)
{
  free (entries);
}

int
dm_history_set_comment (const char *path, const char *comment, char *why, size_t why_size)
{
  dm_report r;
  dm_buf json;
  /* Refused, not cut: the run keeps its old comment whole. */
  if (strlen (comment) > DM_REPORT_COMMENT_MAX)
    {
      snprintf (why, why_size,
                dm_gettext ("a comment keeps at most %d bytes; this one has %u"),
                DM_REPORT_COMMENT_MAX, (unsigned) strlen (comment));
      return -E2BIG;
    }
  int err = dm_history_load (path, &r, why, why_size);
  if (err < 0)
    return err;
  dm_report_set_comment (&r, comment);
  dm_buf_init (&json);
  dm_report_write_json (&r, &json);
  err = dm_write_file_atomic (path, &json);
  if (err < 0)
    snprintf (why, why_size, dm_gettext ("cannot write it: %s"), dm_strerror (err));
  dm_buf_free (&json);
  dm_report_clear (&r);
  return err;
}

int
dm_history_delete (const char *path)
{
  char dir[1100];
  int err = dm_history_dir (dir, sizeof dir);
  size_t n = strlen (dir), len = strlen (path);
  if (err < 0)
    return err;
  /* Only our own files: inside the history folder, no way out of it. */
  if (strncmp (path, dir, n) != 0 || (path[n] != '/' && path[n] != '\\')
      || strstr (path + n, "..") || len < 5 || strcmp (path + len - 5, ".json") != 0)
    return -EPERM;
  return dm_file_remove (path);
}
