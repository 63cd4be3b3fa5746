// SPDX-License-Identifier: MIT
/*
 * Help texts made from the knob tables (knob.h, knob_help.h): the knobs of
 * every device kind for `ethdrv set --help`, the read-only keys of the
 * media, and the device-spec keys for `ethdrv up --help` and `ethdrv
 * segment --help`. Nothing here names a knob: a knob added to its
 * component's table shows up in the help by itself.
 */
#include "knob_help.h"

#include <stdio.h>

#include "cli.h"
#include "node_priv.h"
#include "segment_priv.h"

#define KNOB_HELP_TABLES_MAX 16

static void knob_help_table(FILE *f, const struct ethdrv_knob_table *t)
{
	char line[512];

	for (size_t i = 0; i < t->count; i++) {
		ethdrv_knob_print(&t->knobs[i], line, sizeof(line));
		fputs(line, f);
	}
}

void knob_help_set(FILE *f)
{
	const struct ethdrv_knob_table *t[KNOB_HELP_TABLES_MAX];
	const struct node_backend *b;
	size_t n;

	fputs("Every device (KEY  VALUES UNIT  what it does):\n", f);
	b = node_backend_at(0);
	n = b ? node_knob_tables(b, NULL, t, KNOB_HELP_TABLES_MAX) : 0;
	for (size_t i = 0; i < n && t[i] != b->emu_knobs; i++)
		knob_help_table(f, t[i]);
	for (unsigned i = 0; (b = node_backend_at(i)); i++) {
		const struct ethdrv_driver *drv = ethdrv_driver_find(b->driver);

		fprintf(f, "\n%s, driver %s:\n", b->title, b->driver);
		for (const struct ethdrv_knob_table *const *d = drv ? drv->knobs : NULL; d && *d;
		     d++)
			knob_help_table(f, *d);
		if (b->emu_knobs) {
			fprintf(f, "  the model (%s only):\n", b->emu_knobs->owner);
			knob_help_table(f, b->emu_knobs);
		}
	}
	fputs("\nThe media (`ethdrv get segment KEY`, `ethdrv get link KEY`):\n", f);
	knob_help_table(f, &seg_t1s_knob_table);
	knob_help_table(f, &seg_enet_knob_table);
}

void knob_help_spec(FILE *f)
{
	for (const struct ethdrv_knob_table *const *t = cli_spec_tables; *t; t++) {
		fprintf(f, "%s keys (KEY  VALUES UNIT  what it sets):\n", (*t)->owner);
		knob_help_table(f, *t);
	}
}
