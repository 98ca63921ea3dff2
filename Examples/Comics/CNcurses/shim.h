// ncursesw with its wide-character API, and small functions for the
// attribute macros Swift cannot import.
#ifndef OAK_CNCURSES_SHIM_H
#define OAK_CNCURSES_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncurses.h>

static inline int oak_attr_bold(void) { return (int)A_BOLD; }
static inline int oak_attr_dim(void) { return (int)A_DIM; }
static inline int oak_attr_reverse(void) { return (int)A_REVERSE; }
static inline int oak_attr_underline(void) { return (int)A_UNDERLINE; }
static inline int oak_color_pair(short pair) { return (int)COLOR_PAIR(pair); }
static inline WINDOW *oak_stdscr(void) { return stdscr; }

#endif
