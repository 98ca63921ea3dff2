// The page shell and the forms of a web front end. Every intent is a
// plain HTML form posted to /intent with the session's token, so the page
// works without JavaScript (a full reload after each intent); with it,
// /app.js posts the forms in the background and replaces the page's content
// with each state the server pushes (Server-Sent Events on /events).

/// What the forms of one browser session need.
public struct WebContext: Sendable, Hashable {
    /// The session's anti-forgery token: every intent carries it.
    public var token: String

    /// The context of a session whose token is `token`.
    public init(token: String) {
        self.token = token
    }

    /// A form with one button that sends `intent` (and `number`, if any).
    /// The intent's name is `feature.kind`, e.g. `comics.next`.
    public func button(_ label: String, intent: String, number: Int? = nil, isPrimary: Bool = false) -> HTML {
        let numberField: HTML? = number.map { "<input type=\"hidden\" name=\"number\" value=\"\($0)\">" }
        let style: HTML = isPrimary ? " class=\"primary\"" : ""
        return """
            <form method="post" action="\(WebPage.intentPath)" class="intent">\
            <input type="hidden" name="token" value="\(token)">\
            <input type="hidden" name="intent" value="\(intent)">\(numberField)\
            <button type="submit"\(style)>\(label)</button></form>
            """
    }

    /// A form with a number field and a button that sends `intent` with
    /// the number typed.
    public func numberForm(_ label: String, intent: String, placeholder: String) -> HTML {
        """
        <form method="post" action="\(WebPage.intentPath)" class="intent number">\
        <input type="hidden" name="token" value="\(token)">\
        <input type="hidden" name="intent" value="\(intent)">\
        <input type="number" name="number" min="1" inputmode="numeric" placeholder="\(placeholder)" \
        aria-label="\(placeholder)">\
        <button type="submit">\(label)</button></form>
        """
    }
}

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
    /// The id of the element whose content every state replaces.
    public static let contentID = "app"

    /// The policy every response carries: scripts, styles, images and
    /// connections from this server only; no inline script, no framing.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// A whole page: `content` inside the element the script updates.
    public static func document(title: String, content: HTML) -> HTML {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
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

    /// The page's script: posts forms in the background and shows every
    /// state the server pushes. Without it the forms still work.
    public static let script = """
        "use strict";
        (function () {
          const app = document.getElementById("\(contentID)");
          if (!app || !window.EventSource || !window.fetch) { return; }
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
          events.addEventListener("page", (event) => {
            app.innerHTML = event.data;
            document.body.dataset.version = event.lastEventId;
            const next = toneOf();
            if (tone !== null && next !== null && next !== tone) { playTone(); }
            tone = next;
          });
          events.addEventListener("error", () => {
            // The session has ended (it expired, or the server restarted):
            // a reload starts a new one.
            if (events.readyState === EventSource.CLOSED) { window.location.reload(); }
          });
          document.addEventListener("submit", (event) => {
            const form = event.target;
            if (!(form instanceof HTMLFormElement) || !form.classList.contains("intent")) { return; }
            event.preventDefault();
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
              if (response.status === 409 || response.status === 403) { window.location.reload(); }
            }).catch(() => { form.submit(); });
          });
        })();

        """

    /// The base style sheet; an app's own rules follow it.
    public static let style = """
        :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
        body { margin: 0 auto; max-width: 48rem; padding: 1rem; }
        header nav { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
        header h1 { font-size: 1.2rem; margin: 0 1rem 0 0; }
        form.intent { display: inline-block; margin: .25rem .25rem .25rem 0; }
        form.number input { width: 6rem; }
        button { font: inherit; padding: .3rem .8rem; cursor: pointer; }
        button.primary { font-weight: bold; }
        figure { margin: 1rem 0; }
        figure img { max-width: 100%; height: auto; border: 1px solid #8884; }
        .notice { padding: .4rem .6rem; border-left: 4px solid #c90; background: #c901; }
        .error { padding: .4rem .6rem; border-left: 4px solid #c33; background: #c331; }
        .dim { opacity: .7; }

        """
}
