// ncursesw with its wide-character API, and small functions for what Swift
// cannot import (the attribute macros, the C library's standard streams) or
// should not spell itself (terminfo lookups, the locale's character set).
#ifndef OAK_CNCURSES_SHIM_H
#define OAK_CNCURSES_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <langinfo.h>
#include <locale.h>
#include <ncurses.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <unistd.h>

static inline int oak_attr_bold(void) { return (int)A_BOLD; }
static inline int oak_attr_dim(void) { return (int)A_DIM; }
static inline int oak_attr_reverse(void) { return (int)A_REVERSE; }
static inline int oak_attr_underline(void) { return (int)A_UNDERLINE; }
static inline int oak_color_pair(short pair) { return (int)COLOR_PAIR(pair); }
static inline WINDOW *oak_stdscr(void) { return stdscr; }
/// How many colours and colour pairs the terminal has (after `start_color`).
static inline int oak_colors(void) { return COLORS; }
static inline int oak_color_pairs(void) { return COLOR_PAIRS; }

/// A screen on the process's terminal (standard output and input), or NULL
/// when the terminal type is unknown (ncurses's `initscr` would exit).
static inline SCREEN *oak_newterm(void) { return newterm(NULL, stdout, stdin); }

/// Whether the terminal of the current screen can move the cursor to any
/// cell (`cup`): a full-screen program needs it (`TERM=dumb` cannot).
static inline int oak_can_address_cursor(void) {
    char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

/// Whether the locale (after `setlocale(LC_ALL, "")`) encodes text as UTF-8.
static inline int oak_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

/// The terminal's size from the kernel, or 0 × 0 when unknown.
/// (`term.h` defines `lines` and `columns` as macros: hence the names.)
static inline void oak_terminal_size(int *out_rows, int *out_columns) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) {
        *out_rows = size.ws_row;
        *out_columns = size.ws_col;
    } else {
        *out_rows = 0;
        *out_columns = 0;
    }
}

#endif
