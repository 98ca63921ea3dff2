// The page shell of a web front end (the forms are `WebContext`'s). Every
// intent is a plain HTML form posted to /intent with the session's token, so
// the page works without JavaScript (a full reload after each intent); with it,
// /app.js posts the forms in the background and replaces the page's content
// with each state the server pushes (Server-Sent Events on /events).

/// The document around the content, and the page's fixed resources.
public enum WebPage {
    /// Where forms post intents.
    public static let intentPath = "/intent"
    /// Where the page's script listens for new content.
    public static let eventsPath = "/events"
    /// The script.
    public static let scriptPath = "/app.js"
    /// The style sheet.
    public static let stylePath = "/style.css"
    /// The prefix of the streams a page sends (`/streams/<name>`).
    public static let streamsPath = "/streams/"
    /// The audio worklet that turns the microphone into 16 kHz mono 16-bit
    /// PCM.
    public static let microphoneWorkletPath = "/microphone-worklet.js"
    /// The id of the element whose content every state replaces.
    public static let contentID = "app"

    /// The policy every response carries: scripts, styles, images and
    /// connections from this server only; no inline script, no framing.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// A whole page: `content` inside the element the script updates.
    /// A session's page carries its `token` for the script, which posts
    /// the forms of pushed content with it (pushed content is shared by
    /// every session that shows the same, and carries
    /// ``WebContext/tokenPlaceholder`` in its forms).
    public static func document(title: String, content: HTML, token: HTML? = nil) -> HTML {
        let tokenMeta: HTML = token.map { "\n<meta name=\"oak-token\" content=\"\($0)\">" } ?? ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">\(tokenMeta)
            <title>\(title)</title>
            <link rel="stylesheet" href="\(stylePath)">
            <script src="\(scriptPath)" defer></script>
            </head>
            <body>
            <main id="\(contentID)">\(content)</main>
            </body>
            </html>
            """
    }

    /// A page that is only a message: errors, a full server.
    public static func message(title: String, text: String) -> HTML {
        document(title: title, content: "<section class=\"message\"><h1>\(title)</h1><p>\(text)</p></section>")
    }

    /// The page a form posted without the script gets when its intent was
    /// not performed: why, and the way back to the app.
    public static func refusal(_ reason: String) -> HTML {
        document(
            title: "Not done",
            content: """
                <section class="message"><h1>Not done</h1><p class="notice" role="alert">\(reason)</p>\
                <p><a href="/">Back to the app</a></p></section>
                """)
    }

    /// The page's script: posts forms in the background and shows every
    /// state the server pushes. Without it the forms still work.
    public static let script = """
        "use strict";
        (function () {
          const app = document.getElementById("\(contentID)");
          if (!app || !window.EventSource || !window.fetch) { return; }
          // The session's token, from the page as it was loaded: pushed
          // content is the same for every session that shows it, so its
          // forms carry a placeholder, which posting replaces with this.
          const tokenMeta = document.querySelector('meta[name="oak-token"]');
          const token = tokenMeta ? tokenMeta.content : null;
          // Pushed content gets the token where the page as loaded has it,
          // so that it is the same page a reload shows.
          const owned = (root) => {
            if (token === null) { return; }
            root.querySelectorAll('input[name="token"]').forEach((input) => input.setAttribute("value", token));
            root.querySelectorAll("[data-token]").forEach((element) => { element.dataset.token = token; });
          };
          // A short tone whenever a pushed page's [data-tone] changes (a
          // meeting's speaker). Browsers let a page play sound only once the
          // user has clicked in it: the audio context starts then. Every
          // tone due is counted on the body (data-tones), played or not.
          let audio = null;
          let tone = null;
          document.addEventListener("click", () => {
            if (!audio && window.AudioContext) { audio = new AudioContext(); }
            if (audio && audio.state === "suspended") { audio.resume(); }
          }, { capture: true });
          const playTone = () => {
            document.body.dataset.tones = String(Number(document.body.dataset.tones || "0") + 1);
            if (!audio || audio.state !== "running") { return; }
            const oscillator = audio.createOscillator();
            const gain = audio.createGain();
            oscillator.frequency.value = 880;
            gain.gain.setValueAtTime(0.2, audio.currentTime);
            gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.3);
            oscillator.connect(gain).connect(audio.destination);
            oscillator.start();
            oscillator.stop(audio.currentTime + 0.3);
          };
          const toneOf = () => {
            const element = app.querySelector("[data-tone]");
            return element ? element.dataset.tone : null;
          };
          tone = toneOf();
          const events = new EventSource("\(eventsPath)");
          // What the stream brought, counted on the body for whoever
          // measures: whole pages, pushes of parts, and their characters.
          const counted = (name, size) => {
            const data = document.body.dataset;
            data[name] = String(Number(data[name] || "0") + 1);
            data[name + "Size"] = String(Number(data[name + "Size"] || "0") + size);
          };
          const changed = (version) => {
            document.body.dataset.version = version;
            const next = toneOf();
            if (tone !== null && next !== null && next !== tone) { playTone(); }
            tone = next;
          };
          const show = (content, version) => {
            app.innerHTML = content;
            owned(app);
            const titled = app.querySelector("template[data-page-title]");
            if (titled) {
              document.title = titled.dataset.pageTitle;
              // The address bar follows the screen (a path of this origin
              // only): a reload opens the same screen.
              const path = titled.dataset.pagePath;
              if (path && /^\\/(?!\\/)/.test(path) && path !== window.location.pathname) {
                window.history.replaceState(null, "", path);
              }
            }
            placeMicrophone();
            changed(version);
          };
          // Parts pushed alone (<oak-part data-key>) replace their
          // namesakes; a part the page does not have means the page is not
          // what the server thinks: it is loaded again.
          const parts = document.createElement("template");
          const replaceParts = (markup, version) => {
            parts.innerHTML = markup;
            owned(parts.content);
            for (const part of [...parts.content.children]) {
              const key = part.dataset.key;
              const target = key === undefined ? null
                : app.querySelector('oak-part[data-key="' + CSS.escape(key) + '"]');
              if (!target) { window.location.reload(); return; }
              target.replaceWith(part);
            }
            changed(version);
          };
          // A page pushed while a button is held down waits until it is
          // released and its click has gone to the button pressed (a
          // meeting's page comes every second: replacing the button under
          // the pointer would lose the click).
          let pressed = false;
          let waiting = null;
          const release = () => {
            pressed = false;
            delete document.body.dataset.held;
            if (waiting) {
              const page = waiting;
              waiting = null;
              show(page.content, page.version);
              page.parts.forEach((pushed) => replaceParts(pushed.markup, pushed.version));
            }
          };
          document.addEventListener("pointerdown", () => { pressed = true; }, { capture: true });
          document.addEventListener("pointerup", () => { setTimeout(release, 0); }, { capture: true });
          document.addEventListener("pointercancel", release, { capture: true });
          events.addEventListener("page", (event) => {
            counted("pages", event.data.length);
            if (pressed) {
              waiting = { content: event.data, version: event.lastEventId, parts: [] };
              document.body.dataset.held = "true";
            } else {
              show(event.data, event.lastEventId);
            }
          });
          // Parts (the stream's unnamed events) replace no button: they are
          // shown at once, unless a whole page waits for the button's
          // release (then they follow it).
          events.addEventListener("message", (event) => {
            counted("parts", event.data.length);
            if (waiting) {
              waiting.parts.push({ markup: event.data, version: event.lastEventId });
            } else {
              replaceParts(event.data, event.lastEventId);
            }
          });
          // The server is stopping (a deploy, a restart): say so until the
          // page reconnects to it or reloads into a new session.
          events.addEventListener("stopping", (event) => { showRefusal(event.data); });
          // Too many pages of this session are open and this is the oldest:
          // it stops following (a reconnection would replace another page).
          // A form pressed there reloads the page, which follows again.
          let replaced = false;
          events.addEventListener("replaced", (event) => {
            replaced = true;
            events.close();
            showRefusal(event.data);
          });
          events.addEventListener("error", () => {
            // The session has ended (it expired, or the server restarted):
            // a reload starts a new one.
            if (events.readyState === EventSource.CLOSED) { window.location.reload(); }
          });
          // The microphone: a [data-microphone] place in the content names
          // the stream it is sent to. One control lives as long as the page
          // and is moved into each pushed content's place; when a content
          // has none, the microphone stops.
          const microphone = { name: null, token: null, on: null };
          const control = document.createElement("span");
          const button = document.createElement("button");
          const status = document.createElement("span");
          button.type = "button";
          status.className = "microphone-status";
          status.setAttribute("role", "status");
          control.append(button, " ", status);
          const showMicrophone = (state, text) => {
            document.body.dataset.microphone = state;
            button.textContent = state === "off" ? "Speak" : "Stop speaking";
            status.textContent = text;
          };
          const stopMicrophone = (text) => {
            const on = microphone.on;
            microphone.on = null;
            if (on) {
              on.socket.onclose = null;
              if (on.socket.readyState <= WebSocket.OPEN) { on.socket.close(1000); }
              on.media.getTracks().forEach((track) => track.stop());
              on.context.close();
            }
            showMicrophone("off", text);
          };
          const startMicrophone = async () => {
            showMicrophone("starting", "Asking for the microphone…");
            let media = null;
            let context = null;
            const releaseMedia = () => {
              if (media) { media.getTracks().forEach((track) => track.stop()); }
              if (context) { context.close(); }
            };
            try {
              media = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1 } });
              context = new AudioContext();
              await context.audioWorklet.addModule("\(microphoneWorkletPath)");
              // Stopped, or the page moved on, while the browser asked.
              if (document.body.dataset.microphone !== "starting") {
                releaseMedia();
                return;
              }
              const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
              const socket = new WebSocket(scheme + "//" + window.location.host + "\(streamsPath)"
                + encodeURIComponent(microphone.name) + "?token=" + encodeURIComponent(microphone.token));
              socket.binaryType = "arraybuffer";
              const on = { media, context, socket };
              microphone.on = on;
              const recorder = new AudioWorkletNode(context, "oak-microphone");
              const silence = context.createGain();
              silence.gain.value = 0;
              recorder.port.onmessage = (message) => {
                // A connection that cannot keep up drops audio, not the page.
                if (socket.readyState === WebSocket.OPEN && socket.bufferedAmount < 65536) {
                  socket.send(message.data);
                }
              };
              socket.onopen = () => {
                context.createMediaStreamSource(media).connect(recorder).connect(silence).connect(context.destination);
                showMicrophone("on", "Your microphone is on.");
              };
              socket.onclose = (event) => {
                if (microphone.on === on) { stopMicrophone(event.reason || "The microphone's stream closed."); }
              };
            } catch (error) {
              if (!microphone.on) { releaseMedia(); }
              stopMicrophone("The microphone is unavailable: " + error.message);
            }
          };
          button.addEventListener("click", () => {
            if (document.body.dataset.microphone === "off") { startMicrophone(); } else { stopMicrophone(""); }
          });
          const placeMicrophone = () => {
            const place = app.querySelector("[data-microphone]");
            if (!place) {
              if (document.body.dataset.microphone !== "off") { stopMicrophone(""); }
              return;
            }
            microphone.name = place.dataset.microphone;
            microphone.token = token !== null ? token : place.dataset.token;
            place.append(control);
          };
          showMicrophone("off", "");
          placeMicrophone();
          // Why the last intent was not done, above the app's content
          // (which pushed pages replace); gone at the next one that is.
          const refusal = document.createElement("p");
          refusal.id = "oak-refusal";
          refusal.className = "notice";
          refusal.setAttribute("role", "alert");
          refusal.hidden = true;
          app.before(refusal);
          const showRefusal = (text) => {
            refusal.textContent = text;
            refusal.hidden = text === "";
          };
          document.addEventListener("submit", (event) => {
            const form = event.target;
            if (!(form instanceof HTMLFormElement) || !form.classList.contains("intent")) { return; }
            event.preventDefault();
            if (replaced) { window.location.reload(); return; }
            if (token !== null) {
              form.querySelectorAll('input[name="token"]').forEach((input) => { input.value = token; });
            }
            // The button pressed names the intent in forms with several.
            const data = new FormData(form);
            const button = event.submitter;
            if (button && button.name) { data.append(button.name, button.value); }
            fetch(form.action, {
              method: "POST",
              headers: { "X-Oak-Intent": "fetch" },
              body: new URLSearchParams(data),
              credentials: "same-origin",
            }).then((response) => {
              const elsewhere = response.headers.get("X-Oak-Location");
              if (elsewhere && /^https?:\\/\\//.test(elsewhere)) { window.location.assign(elsewhere); return; }
              if (response.status === 403) { window.location.reload(); return; }
              if (response.status === 409
                && (response.headers.get("Content-Type") || "").startsWith("text/plain")) {
                // Not done: say why (the stream brings the page up to date).
                response.text().then(showRefusal);
                return;
              }
              showRefusal(response.ok ? "" : "That was not done: the server answered " + response.status + ".");
            }).catch(() => { form.submit(); });
          });
        })();

        """

    /// The audio worklet of ``WebContext/microphone(_:)``: the
    /// microphone's samples, at the audio context's rate, averaged down to
    /// 16 kHz mono and posted as 16-bit little-endian PCM in chunks of
    /// 1,600 samples (100 ms). A same-origin script, as the page's
    /// Content-Security-Policy requires.
    public static let microphoneWorklet = """
        "use strict";
        class OakMicrophone extends AudioWorkletProcessor {
          constructor() {
            super();
            this.step = sampleRate / 16000;
            this.position = 0;
            this.sum = 0;
            this.count = 0;
            this.chunk = new Int16Array(1600);
            this.filled = 0;
          }
          process(inputs) {
            const input = inputs[0];
            if (!input || input.length === 0) { return true; }
            for (let index = 0; index < input[0].length; index += 1) {
              let value = 0;
              for (const channel of input) { value += channel[index]; }
              this.sum += value / input.length;
              this.count += 1;
              this.position += 1;
              if (this.position < this.step) { continue; }
              this.position -= this.step;
              const sample = Math.max(-1, Math.min(1, this.sum / this.count));
              this.sum = 0;
              this.count = 0;
              this.chunk[this.filled] = sample < 0 ? sample * 32768 : sample * 32767;
              this.filled += 1;
              if (this.filled === this.chunk.length) {
                // Int16Array is little-endian on every platform browsers run on.
                this.port.postMessage(this.chunk.buffer, [this.chunk.buffer]);
                this.chunk = new Int16Array(1600);
                this.filled = 0;
              }
            }
            return true;
          }
        }
        registerProcessor("oak-microphone", OakMicrophone);

        """

    /// The base style sheet; an app's own rules follow it.
    public static let style = """
        :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
        body { margin: 0 auto; max-width: 48rem; padding: 1rem; }
        header nav { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
        header h1 { font-size: 1.2rem; margin: 0 1rem 0 0; }
        form.intent { display: inline-block; margin: .25rem .25rem .25rem 0; }
        form.number input { width: 8rem; }
        input, select, textarea { font: inherit; }
        button { font: inherit; padding: .4rem .9rem; cursor: pointer; border-radius: .55rem; \
        border: 1px solid #8886; background: color-mix(in srgb, CanvasText 6%, Canvas); color: CanvasText; }
        button:hover { background: color-mix(in srgb, CanvasText 11%, Canvas); }
        button.primary { font-weight: 600; background: #1f6feb; border-color: #1f6feb; color: #fff; }
        button.primary:hover { background: #195ec9; }
        :is(a, button, input, select, textarea):focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
        figure { margin: 1rem 0; }
        figure img { max-width: 100%; height: auto; border: 1px solid #8884; }
        .notice { padding: .4rem .6rem; border-left: 4px solid #c90; background: #c901; }
        #oak-refusal { position: sticky; top: 0; z-index: 1; background: color-mix(in srgb, #c90 12%, Canvas); }
        .error { padding: .4rem .6rem; border-left: 4px solid #c33; background: #c331; }
        .dim { opacity: .7; }
        .microphone { margin: .5rem 0; }
        .microphone-status { opacity: .8; }
        oak-part { display: contents; }

        """
}
