// pocketsphinx's functions, looked up at run time (Debian's libpocketsphinx3
// and libsphinxbase3, the 0.8 / 5prealpha API). Their signatures are
// checked against pocketsphinx.h in CPocketsphinx's shim where the headers
// exist.

import CPocketsphinx

/// The functions the decoder calls, loaded once per process.
///
/// `@unchecked Sendable`: C function pointers, set once when loading and
/// never changed; the library's functions are safe to call from any
/// thread on distinct decoders.
struct PocketsphinxLibrary: @unchecked Sendable {
    let args: oak_ps_args_fn
    let parseArguments: oak_cmd_ln_parse_r_fn
    let freeArguments: oak_cmd_ln_free_r_fn
    let initialize: oak_ps_init_fn
    let free: oak_ps_free_fn
    let startUtterance: oak_ps_start_utt_fn
    let processRaw: oak_ps_process_raw_fn
    let isInSpeech: oak_ps_get_in_speech_fn
    let hypothesis: oak_ps_get_hyp_fn
    let endUtterance: oak_ps_end_utt_fn

    /// The library, or why it cannot be used; loaded on first use.
    static let shared: Result<PocketsphinxLibrary, LibraryMissing> = Result { () throws(LibraryMissing) in
        try PocketsphinxLibrary()
    }

    private init() throws(LibraryMissing) {
        // sphinxbase first: pocketsphinx needs its symbols (RTLD_GLOBAL).
        let sphinxbase = try DynamicLibrary("libsphinxbase.so.3")
        let pocketsphinx = try DynamicLibrary("libpocketsphinx.so.3")
        args = try pocketsphinx.function("ps_args", as: oak_ps_args_fn.self)
        parseArguments = try sphinxbase.function("cmd_ln_parse_r", as: oak_cmd_ln_parse_r_fn.self)
        freeArguments = try sphinxbase.function("cmd_ln_free_r", as: oak_cmd_ln_free_r_fn.self)
        initialize = try pocketsphinx.function("ps_init", as: oak_ps_init_fn.self)
        free = try pocketsphinx.function("ps_free", as: oak_ps_free_fn.self)
        startUtterance = try pocketsphinx.function("ps_start_utt", as: oak_ps_start_utt_fn.self)
        processRaw = try pocketsphinx.function("ps_process_raw", as: oak_ps_process_raw_fn.self)
        isInSpeech = try pocketsphinx.function("ps_get_in_speech", as: oak_ps_get_in_speech_fn.self)
        hypothesis = try pocketsphinx.function("ps_get_hyp", as: oak_ps_get_hyp_fn.self)
        endUtterance = try pocketsphinx.function("ps_end_utt", as: oak_ps_end_utt_fn.self)
    }
}
