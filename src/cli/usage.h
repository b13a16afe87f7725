/*
 * usage: the --help text and the version line.
 */
#ifndef IOPROBE_USAGE_H
#define IOPROBE_USAGE_H

/* The full usage text, ending in a blank line. */
const char *usage_text(void);

/* "ioprobe <version>". */
const char *usage_version(void);

#endif
