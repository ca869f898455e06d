/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PRF_UI_TUI_SLANG_DL_H
#define PRF_UI_TUI_SLANG_DL_H
/*
 * libslang, loaded when the TUI starts (dlopen) rather than linked: every
 * prf command paid for mapping and relocating it at start-up (1.4 ms of a
 * do-nothing program linked like prf, here), and only `prf report` on a
 * terminal uses it. The TUI's files include this header instead of
 * <slang.h>; the SL* names below then go through the table, so the code
 * reads as plain slang calls. Types and constants are slang.h's.
 */
#include <slang.h>

/* the slang functions and variables the TUI uses: X(name) */
#define SLANG_DL_FUNCS(X)						\
	X(SLang_getkey) X(SLang_init_tty) X(SLang_input_pending)		\
	X(SLang_reset_tty) X(SLang_ungetkey) X(SLkp_define_keysym)		\
	X(SLkp_getkey) X(SLkp_init) X(SLsmg_cls) X(SLsmg_draw_box)		\
	X(SLsmg_erase_eos) X(SLsmg_fill_region) X(SLsmg_gotorc)		\
	X(SLsmg_init_smg) X(SLsmg_refresh) X(SLsmg_reinit_smg)		\
	X(SLsmg_reset_smg) X(SLsmg_set_color) X(SLsmg_write_nchars)		\
	X(SLsmg_write_nstring) X(SLsmg_write_string) X(SLtt_get_screen_size)	\
	X(SLtt_get_terminfo) X(SLtt_set_color) X(SLtt_set_cursor_visibility)	\
	X(SLutf8_enable)
#define SLANG_DL_VARS(X) X(SLtt_Screen_Cols) X(SLtt_Screen_Rows)

#define SLANG_DL_MEMBER(name) __typeof__(name) *dl_##name;
struct slang_dl {
	SLANG_DL_FUNCS(SLANG_DL_MEMBER)
	SLANG_DL_VARS(SLANG_DL_MEMBER)
};
#undef SLANG_DL_MEMBER

extern struct slang_dl slang_dl;

/*
 * Load libslang (its soname, as the build's slang.h) and fill slang_dl;
 * once per process. 0, or -ENOENT when it is not there or lacks a name
 * (the reason is printed at -v); then no SL* name may be used.
 */
int slang_dl__load(void);

#define SLang_getkey			(*slang_dl.dl_SLang_getkey)
#define SLang_init_tty			(*slang_dl.dl_SLang_init_tty)
#define SLang_input_pending		(*slang_dl.dl_SLang_input_pending)
#define SLang_reset_tty			(*slang_dl.dl_SLang_reset_tty)
#define SLang_ungetkey			(*slang_dl.dl_SLang_ungetkey)
#define SLkp_define_keysym		(*slang_dl.dl_SLkp_define_keysym)
#define SLkp_getkey			(*slang_dl.dl_SLkp_getkey)
#define SLkp_init			(*slang_dl.dl_SLkp_init)
#define SLsmg_cls			(*slang_dl.dl_SLsmg_cls)
#define SLsmg_draw_box			(*slang_dl.dl_SLsmg_draw_box)
#define SLsmg_erase_eos			(*slang_dl.dl_SLsmg_erase_eos)
#define SLsmg_fill_region		(*slang_dl.dl_SLsmg_fill_region)
#define SLsmg_gotorc			(*slang_dl.dl_SLsmg_gotorc)
#define SLsmg_init_smg			(*slang_dl.dl_SLsmg_init_smg)
#define SLsmg_refresh			(*slang_dl.dl_SLsmg_refresh)
#define SLsmg_reinit_smg		(*slang_dl.dl_SLsmg_reinit_smg)
#define SLsmg_reset_smg			(*slang_dl.dl_SLsmg_reset_smg)
#define SLsmg_set_color			(*slang_dl.dl_SLsmg_set_color)
#define SLsmg_write_nchars		(*slang_dl.dl_SLsmg_write_nchars)
#define SLsmg_write_nstring		(*slang_dl.dl_SLsmg_write_nstring)
#define SLsmg_write_string		(*slang_dl.dl_SLsmg_write_string)
#define SLtt_get_screen_size		(*slang_dl.dl_SLtt_get_screen_size)
#define SLtt_get_terminfo		(*slang_dl.dl_SLtt_get_terminfo)
#define SLtt_set_color			(*slang_dl.dl_SLtt_set_color)
#define SLtt_set_cursor_visibility	(*slang_dl.dl_SLtt_set_cursor_visibility)
#define SLutf8_enable			(*slang_dl.dl_SLutf8_enable)
#define SLtt_Screen_Cols		(*slang_dl.dl_SLtt_Screen_Cols)
#define SLtt_Screen_Rows		(*slang_dl.dl_SLtt_Screen_Rows)

#endif
