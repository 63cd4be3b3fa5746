/* SPDX-License-Identifier: MIT */
/* Help texts made from the knob tables (knob_help.c, ethdrv/knob.h). */
#ifndef ETHDRV_TOOLS_KNOB_HELP_H
#define ETHDRV_TOOLS_KNOB_HELP_H

#include <stdio.h>

/* The knobs of every device kind and the media's keys (`ethdrv set --help`). */
void knob_help_set(FILE *f);
/* The device-spec keys of every kind (`ethdrv up --help`, `ethdrv segment --help`). */
void knob_help_spec(FILE *f);

#endif /* ETHDRV_TOOLS_KNOB_HELP_H */
