// The pocketsphinx (0.8 / 5prealpha) and ALSA functions the speech
// recogniser calls, as function pointer types: the recogniser loads the
// libraries with dlopen at run time and looks each function up with dlsym,
// so that the app builds and runs where they are not installed (speech is
// then "restricted"). Nothing here is linked.
//
// Handles are opaque (`void *`). Each signature is written once, as a macro
// over the handle types: the typedefs instantiate it with `void *`, and where
// the real headers are on the include path the same macro, instantiated with
// the real types, must match the real declaration. The build does not put
// them there (pkg-config would link the library too); a test of the app
// compiles this header with `pkg-config --cflags pocketsphinx`, so that a
// mistake in a signature fails on a machine with `libpocketsphinx-dev`. (ALSA's are not checked:
// its headers spell some parameters as enums, and this machine has none to
// check against; its constants below are copied from `<alsa/pcm.h>`.)
#ifndef OAK_CPOCKETSPHINX_SHIM_H
#define OAK_CPOCKETSPHINX_SHIM_H

#include <stddef.h>
#include <stdint.h>

// --- pocketsphinx and sphinxbase: D is the decoder, C the configuration,
// A the argument definitions.
#define OAK_SIG_ps_args(name, D, C, A) A (*name)(void)
#define OAK_SIG_cmd_ln_parse_r(name, D, C, A) C (*name)(C, A, int32_t argc, char *argv[], int32_t strict)
#define OAK_SIG_cmd_ln_free_r(name, D, C, A) int (*name)(C)
#define OAK_SIG_ps_init(name, D, C, A) D (*name)(C)
#define OAK_SIG_ps_free(name, D, C, A) int (*name)(D)
#define OAK_SIG_ps_start_utt(name, D, C, A) int (*name)(D)
#define OAK_SIG_ps_process_raw(name, D, C, A) \
    int (*name)(D, int16_t const *data, size_t n_samples, int no_search, int full_utt)
#define OAK_SIG_ps_get_in_speech(name, D, C, A) uint8_t (*name)(D)
#define OAK_SIG_ps_get_hyp(name, D, C, A) char const *(*name)(D, int32_t * out_best_score)
#define OAK_SIG_ps_end_utt(name, D, C, A) int (*name)(D)

/// `arg_t const *ps_args(void)`: the decoder's argument definitions.
typedef OAK_SIG_ps_args(oak_ps_args_fn, void *, void *, void const *);
/// `cmd_ln_t *cmd_ln_parse_r(cmd_ln_t *, arg_t const *, int32, char *[], int32 strict)` (libsphinxbase).
typedef OAK_SIG_cmd_ln_parse_r(oak_cmd_ln_parse_r_fn, void *, void *, void const *);
/// `int cmd_ln_free_r(cmd_ln_t *)` (libsphinxbase).
typedef OAK_SIG_cmd_ln_free_r(oak_cmd_ln_free_r_fn, void *, void *, void const *);
/// `ps_decoder_t *ps_init(cmd_ln_t *)`: NULL on failure.
typedef OAK_SIG_ps_init(oak_ps_init_fn, void *, void *, void const *);
/// `int ps_free(ps_decoder_t *)`.
typedef OAK_SIG_ps_free(oak_ps_free_fn, void *, void *, void const *);
/// `int ps_start_utt(ps_decoder_t *)`: negative on failure.
typedef OAK_SIG_ps_start_utt(oak_ps_start_utt_fn, void *, void *, void const *);
/// `int ps_process_raw(ps_decoder_t *, int16 const *, size_t, int, int)`: negative on failure.
typedef OAK_SIG_ps_process_raw(oak_ps_process_raw_fn, void *, void *, void const *);
/// `uint8 ps_get_in_speech(ps_decoder_t *)`.
typedef OAK_SIG_ps_get_in_speech(oak_ps_get_in_speech_fn, void *, void *, void const *);
/// `char const *ps_get_hyp(ps_decoder_t *, int32 *)`: NULL when there is none.
typedef OAK_SIG_ps_get_hyp(oak_ps_get_hyp_fn, void *, void *, void const *);
/// `int ps_end_utt(ps_decoder_t *)`: negative on failure.
typedef OAK_SIG_ps_end_utt(oak_ps_end_utt_fn, void *, void *, void const *);

#if __has_include(<pocketsphinx.h>)
#include <pocketsphinx.h>
#define OAK_CHECK_PS(fn)                                                                                   \
    _Static_assert(                                                                                        \
        __builtin_types_compatible_p(__typeof__(&fn), OAK_SIG_##fn(, ps_decoder_t *, cmd_ln_t *, arg_t const *)), \
        "CPocketsphinx: the signature of " #fn " differs from pocketsphinx.h")
OAK_CHECK_PS(ps_args);
OAK_CHECK_PS(cmd_ln_parse_r);
OAK_CHECK_PS(cmd_ln_free_r);
OAK_CHECK_PS(ps_init);
OAK_CHECK_PS(ps_free);
OAK_CHECK_PS(ps_start_utt);
OAK_CHECK_PS(ps_process_raw);
OAK_CHECK_PS(ps_get_in_speech);
OAK_CHECK_PS(ps_get_hyp);
OAK_CHECK_PS(ps_end_utt);
#undef OAK_CHECK_PS
#endif

// --- ALSA (libasound.so.2), for the microphone: P is the PCM handle; the
// enums (stream, format, access) are passed as `int`.
#define OAK_SIG_snd_pcm_open(name, P) int (*name)(P *pcm, char const *device, int stream, int mode)
#define OAK_SIG_snd_pcm_set_params(name, P)                                                          \
    int (*name)(P, int format, int access, unsigned int channels, unsigned int rate, int soft_resample, \
                unsigned int latency)
#define OAK_SIG_snd_pcm_readi(name, P) long (*name)(P, void *buffer, unsigned long frames)
#define OAK_SIG_snd_pcm_recover(name, P) int (*name)(P, int err, int silent)
#define OAK_SIG_snd_pcm_close(name, P) int (*name)(P)

/// `int snd_pcm_open(snd_pcm_t **, char const *, snd_pcm_stream_t, int)`.
typedef OAK_SIG_snd_pcm_open(oak_snd_pcm_open_fn, void *);
/// `int snd_pcm_set_params(snd_pcm_t *, format, access, channels, rate, soft_resample, latency)`.
typedef OAK_SIG_snd_pcm_set_params(oak_snd_pcm_set_params_fn, void *);
/// `snd_pcm_sframes_t snd_pcm_readi(snd_pcm_t *, void *, snd_pcm_uframes_t)`: frames read, or a negative error.
typedef OAK_SIG_snd_pcm_readi(oak_snd_pcm_readi_fn, void *);
/// `int snd_pcm_recover(snd_pcm_t *, int err, int silent)`: after an overrun.
typedef OAK_SIG_snd_pcm_recover(oak_snd_pcm_recover_fn, void *);
/// `int snd_pcm_close(snd_pcm_t *)`.
typedef OAK_SIG_snd_pcm_close(oak_snd_pcm_close_fn, void *);

/// ALSA's constants, as in `<alsa/pcm.h>`.
enum {
    OAK_SND_PCM_STREAM_CAPTURE = 1,
    OAK_SND_PCM_FORMAT_S16_LE = 2,
    OAK_SND_PCM_ACCESS_RW_INTERLEAVED = 3,
};

#endif
