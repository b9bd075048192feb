/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each item holds a copy of its sheet row, so the table keeps what it
 * shows while the window loads the next sheet (a scenario just saved) and
 * swaps the store's items in one go. Figures are shown as the sheet's CSV
 * writes them, so the table and a saved CSV agree digit for digit.
 */
#include "dm-study-model.h"
#include "dm-i18n-ui.h"

#include <math.h>
#include <string.h>

struct _DmStudyItem
{
  GObject      parent_instance;
  dm_study_row row;
};

G_DEFINE_FINAL_TYPE (DmStudyItem, dm_study_item, G_TYPE_OBJECT)

static void
dm_study_item_class_init (DmStudyItemClass *klass)
{
}

static void
dm_study_item_init (DmStudyItem *self)
{
}

DmStudyItem *
dm_study_item_new (const dm_study_row *row)
{
  DmStudyItem *self = g_object_new (DM_TYPE_STUDY_ITEM, NULL);

  self->row = *row;
  return self;
}

const dm_study_row *
dm_study_item_row (DmStudyItem *item)
{
  g_return_val_if_fail (DM_IS_STUDY_ITEM (item), NULL);
  return &item->row;
}

/* A tag every row has with the same value (the machine's hypervisor,
 * the study's own tags) tells no row apart: the table leaves it out, as
 * the sheet's text does, and the CSV and workbook keep it. */
static gboolean
tag_shown (const dm_study_sheet *sheet,
           guint                 t)
{
  for (unsigned i = 1; i < sheet->n_rows; i++)
    if (strcmp (sheet->rows[i].tag_values[t], sheet->rows[0].tag_values[t]) != 0)
      return TRUE;
  return FALSE;
}

static guint
n_tags_shown (const dm_study_sheet *sheet)
{
  guint n = 0;

  for (guint t = 0; t < sheet->n_tag_keys; t++)
    n += tag_shown (sheet, t);
  return n;
}

guint
dm_study_model_n_columns (const dm_study_sheet *sheet)
{
  return 4 + n_tags_shown (sheet) + sheet->n_columns;
}

void
dm_study_model_column (const dm_study_sheet *sheet,
                       guint                 i,
                       DmStudyKey           *key,
                       guint                *index)
{
  guint n_tags = n_tags_shown (sheet);

  *index = 0;
  if (i == 0)
    *key = DM_STUDY_KEY_NR;
  else if (i == 1)
    *key = DM_STUDY_KEY_TARGET;
  else if (i < 2 + n_tags)
    {
      *key = DM_STUDY_KEY_TAG;
      for (guint t = 0, seen = 0; t < sheet->n_tag_keys; t++)
        if (tag_shown (sheet, t) && seen++ == i - 2)
          {
            *index = t;
            break;
          }
    }
  else if (i == 2 + n_tags)
    *key = DM_STUDY_KEY_Q;
  else if (i == 3 + n_tags)
    *key = DM_STUDY_KEY_T;
  else
    {
      *key = DM_STUDY_KEY_VALUE;
      *index = MIN (i - 4 - n_tags, sheet->n_columns ? sheet->n_columns - 1 : 0);
    }
}

char *
dm_study_model_title (const dm_study_sheet *sheet,
                      guint                 i)
{
  DmStudyKey key;
  guint index;

  dm_study_model_column (sheet, i, &key, &index);
  switch (key)
    {
    case DM_STUDY_KEY_NR: return g_strdup (_("Nr"));
    case DM_STUDY_KEY_TARGET: return g_strdup (_("Target"));
    case DM_STUDY_KEY_TAG: return g_strdup (sheet->tag_keys[index]);
    case DM_STUDY_KEY_Q: return g_strdup ("Q");
    case DM_STUDY_KEY_T: return g_strdup ("T");
    case DM_STUDY_KEY_VALUE: default: return g_strdup (sheet->columns[index].title);
    }
}

char *
dm_study_model_cell (const dm_study_sheet *sheet,
                     const dm_study_row   *row,
                     DmStudyKey            key,
                     guint                 index,
                     dm_colour            *colour)
{
  const dm_study_column *c;
  char buf[64];
  double v;

  *colour = DM_COLOUR_NONE;
  switch (key)
    {
    case DM_STUDY_KEY_NR: return g_strdup_printf ("%u", row->nr);
    case DM_STUDY_KEY_TARGET: return g_utf8_make_valid (row->target, -1);
    case DM_STUDY_KEY_TAG: return g_utf8_make_valid (row->tag_values[index], -1);
    case DM_STUDY_KEY_Q: return g_strdup_printf ("%u", row->qd);
    case DM_STUDY_KEY_T: return g_strdup_printf ("%u", row->threads);
    case DM_STUDY_KEY_VALUE: default: break;
    }
  c = &sheet->columns[index];
  v = row->values[index];
  *colour = row->colours[index];
  if (v < 0)
    return g_strdup ("");
  /* As the sheet's CSV: CPU and latency one decimal, MB/s two, IOPS none,
   * with a point whatever the locale. */
  g_ascii_formatd (buf, sizeof buf,
                   c->kind == DM_STUDY_COL_CPU   ? "%.1f"
                   : c->unit == DM_UNIT_MBPS     ? "%.2f"
                   : c->unit == DM_UNIT_IOPS     ? "%.0f"
                                                 : "%.1f", v);
  return g_strdup (buf);
}

void
dm_study_model_fill (GListStore           *store,
                     const dm_study_sheet *sheet)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);

  for (unsigned i = 0; i < sheet->n_rows; i++)
    g_ptr_array_add (items, dm_study_item_new (&sheet->rows[i]));
  /* One change for the view: a sorted, filtered table redraws once. */
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)),
                       items->pdata, items->len);
  g_ptr_array_unref (items);
}

typedef struct
{
  DmStudyKey key;
  guint      index;
} SortKey;

static int
compare_numbers (double a,
                 double b)
{
  return a < b ? -1 : a > b ? 1 : 0;
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  const dm_study_row *x = dm_study_item_row ((DmStudyItem *) a);
  const dm_study_row *y = dm_study_item_row ((DmStudyItem *) b);
  const SortKey *k = data;
  int c = 0;

  switch (k->key)
    {
    case DM_STUDY_KEY_NR: break;
    case DM_STUDY_KEY_TARGET: c = g_utf8_collate (x->target, y->target); break;
    case DM_STUDY_KEY_TAG:
      c = g_utf8_collate (x->tag_values[k->index], y->tag_values[k->index]);
      break;
    case DM_STUDY_KEY_Q: c = compare_numbers (x->qd, y->qd); break;
    case DM_STUDY_KEY_T: c = compare_numbers (x->threads, y->threads); break;
    case DM_STUDY_KEY_VALUE:
      {
        double u = x->values[k->index], v = y->values[k->index];

        /* Not measured after the figures (a descending sort, which GTK
         * makes by reversing this order, puts it first). */
        if ((u < 0) != (v < 0))
          c = u < 0 ? 1 : -1;
        else
          c = compare_numbers (u, v);
        break;
      }
    }
  if (c == 0)
    c = compare_numbers (x->nr, y->nr);
  return c < 0 ? GTK_ORDERING_SMALLER : c > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

GtkSorter *
dm_study_model_sorter (DmStudyKey key,
                       guint      index)
{
  SortKey *k = g_new (SortKey, 1);

  k->key = key;
  k->index = index;
  return GTK_SORTER (gtk_custom_sorter_new (compare_rows, k, g_free));
}

static gboolean
is_green (gpointer item,
          gpointer data)
{
  return dm_study_item_row (item)->all_green;
}

GtkFilter *
dm_study_model_green_filter (void)
{
  return GTK_FILTER (gtk_custom_filter_new (is_green, NULL, NULL));
}
