// The inspector's page: the apps and their runs as a tree, and for the run
// chosen its steps — the state at any step (a slider, or ← and →), each
// step's event, state diff, effects and outputs. Plain HTML, one script and
// one style sheet served by the inspector itself; every text from an app
// is set as text (never as markup).

enum InspectorPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Oak Inspector</title>
        <link rel="stylesheet" href="inspector.css?token=TOKEN">
        </head>
        <body>
        <header>
          <h1>Oak Inspector</h1>
          <span id="status" class="status">connecting…</span>
        </header>
        <main>
          <nav id="runs" aria-label="Apps and their runs"><p class="hint">No app has connected yet. Start one with
            <code>--inspect</code>, for example <code>swift run --package-path Examples/Comics comics --inspect</code>.</p></nav>
          <section id="run" aria-live="polite">
            <p class="hint">Choose a run to see its state and its steps.</p>
          </section>
        </main>
        <script src="inspector.js?token=TOKEN"></script>
        </body>
        </html>
        """

    static let style = """
        :root { color-scheme: light dark; --accent: #2f7d4f; --muted: #777; --line: #8883;
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
        body { margin: 0; }
        header { display: flex; align-items: baseline; gap: 1rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
        h1 { font-size: 1.1rem; margin: 0; }
        h1::before { content: ""; display: inline-block; width: .7rem; height: .7rem; border-radius: 50%;
          background: var(--accent); margin-right: .45rem; }
        .status { color: var(--muted); font-size: .85rem; }
        .status.live { color: var(--accent); }
        main { display: grid; grid-template-columns: minmax(14rem, 22rem) 1fr; min-height: calc(100vh - 3rem); }
        nav { border-right: 1px solid var(--line); padding: .5rem; overflow: auto; }
        section { padding: .75rem 1rem; overflow: auto; }
        .hint { color: var(--muted); }
        .app { font-weight: 600; margin: .6rem 0 .2rem; overflow-wrap: anywhere; }
        .app.gone::after { content: " · disconnected"; color: var(--muted); font-weight: 400; }
        .app.recorded::after { content: ""; }
        ul.tree { list-style: none; margin: 0; padding-left: .9rem; }
        ul.tree > li > button { all: unset; cursor: pointer; display: block; padding: .15rem .35rem; border-radius: .3rem;
          width: calc(100% - .7rem); }
        ul.tree > li > button:hover, ul.tree > li > button:focus-visible { background: #8882; }
        ul.tree > li > button.chosen { background: var(--accent); color: white; }
        .type { font-weight: 600; }
        .now { display: block; font: .8rem ui-monospace, monospace; opacity: .8; white-space: nowrap; overflow: hidden;
          text-overflow: ellipsis; }
        .ended .type::after { content: " · ended"; font-weight: 400; opacity: .8; }
        .restored { font-size: .75rem; border: 1px solid currentColor; border-radius: .3rem; padding: 0 .25rem; margin-left: .3rem; }
        .controls { display: flex; align-items: center; gap: .5rem; margin: .5rem 0; flex-wrap: wrap; }
        .controls input[type=range] { flex: 1; min-width: 10rem; }
        .controls button { font: inherit; padding: .2rem .6rem; }
        .controls a.export { font-size: .9rem; color: var(--accent); }
        pre { font: .85rem/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; background: #8881; padding: .6rem .6rem .6rem 1.4rem;
          border-radius: .4rem; overflow: auto; margin: .3rem 0; }
        .added { background: #2f7d4f33; }
        .added::before { content: "+ "; position: absolute; margin-left: -1.1rem; opacity: .6; }
        .removed { background: #c0392b26; color: #c0392b; text-decoration: line-through; }
        table.sequence { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: .8rem;
          width: 100%; table-layout: fixed; }
        table.sequence th { text-align: left; font-weight: 600; border-bottom: 2px solid var(--line); padding: .2rem .4rem;
          overflow-wrap: anywhere; }
        table.sequence th.this { color: var(--accent); }
        table.sequence td { border-left: 2px solid var(--line); padding: .1rem .4rem; overflow-wrap: anywhere; }
        table.sequence td.output { color: var(--muted); }
        ol.steps { padding-left: 0; list-style: none; }
        ol.steps li { border-left: 3px solid var(--line); padding: .2rem .6rem; margin: .2rem 0; cursor: pointer; }
        ol.steps li.current { border-left-color: var(--accent); background: #2f7d4f14; }
        .event { font: .85rem ui-monospace, monospace; font-weight: 600; overflow-wrap: anywhere; }
        .removed, .added { display: block; }
        .effect { font-size: .8rem; color: var(--muted); display: block; overflow-wrap: anywhere; }
        .failed { color: #c0392b; }
        #diagram { width: 100%; max-width: 760px; height: auto; display: block; }
        #diagram .node rect { fill: #8881; stroke: currentColor; stroke-width: 1; }
        #diagram .node.current rect { fill: var(--accent); stroke: var(--accent); }
        #diagram .node.current text { fill: white; font-weight: 600; }
        #diagram text { font: 12px ui-monospace, monospace; fill: currentColor; }
        #diagram .edge { fill: none; stroke: currentColor; opacity: .55; }
        #diagram marker path { fill: currentColor; opacity: .55; }
        #diagram .edge-label { font-size: 11px; opacity: .8; }
        #diagram .node.unseen { opacity: .5; }
        #diagram .node.unseen rect { stroke-dasharray: 4 3; }
        #diagram .edge.unseen { stroke-dasharray: 4 3; opacity: .3; }
        #diagram tspan.unseen { opacity: .55; }
        #diagram .edge.unexplored, #diagram .node.unexplored rect { stroke: #c0392b; opacity: 1; }
        #diagram tspan.unexplored { fill: #c0392b; font-weight: 600; }
        p.legend { font-size: .8rem; color: var(--muted); margin: .2rem 0 .6rem; }
        p.legend .unexplored { color: #c0392b; font-weight: 600; }
        @media (max-width: 700px) { main { grid-template-columns: 1fr; } nav { border-right: 0; border-bottom: 1px solid var(--line); } }
        """

    static let script = #"""
        "use strict";
        const token = new URLSearchParams(location.search).get("token") || "";
        const apps = new Map();      // id -> {app, runs: Map(run -> run)}
        let chosen = null;           // {app, run}
        let step = null;             // the step shown, or null: the latest

        function el(tag, cls, text) {
          const node = document.createElement(tag);
          if (cls) node.className = cls;
          if (text !== undefined) node.textContent = text;
          return node;
        }

        function runOf(appID, entry) {
          const app = apps.get(appID);
          let run = app.runs.get(entry.run);
          if (!run) {
            run = {id: entry.run, type: "?", parent: null, steps: [], ended: false, restored: null, state: "",
              node: "", nodes: new Map(), edges: new Map(), diagram: null};
            app.runs.set(entry.run, run);
          }
          return run;
        }

        function shortType(type) {
          return (type || "?").split(".").slice(-1)[0];
        }

        // A run's steps: the start, then one a taken event, each with the
        // state after it, its diff, its outputs and its effects.
        function take(appID, entry) {
          if (entry.kind === "dropped") return;
          const run = runOf(appID, entry);
          // What passes between runs, for the sequence view: the newest 5,000.
          if (["started", "event", "output", "ended"].includes(entry.kind)) {
            const log = apps.get(appID).log;
            log.push({run: entry.run, kind: entry.kind, text: entry.text || "", sequence: entry.sequence});
            if (log.length > 5000) log.splice(0, log.length - 5000);
          }
          switch (entry.kind) {
          case "started":
          case "running":
            run.type = entry.type; run.parent = entry.parent ?? null; run.restored = entry.restoredFrom || null;
            run.diagram = entry.diagram || run.diagram;
            if (run.steps.length === 0 || entry.kind === "started") {
              const label = entry.kind === "started" ? "started" : "(already running)";
              const at = entry.node || node(entry.state);
              run.steps = [{label: label + (entry.restoredFrom ? " from a state restored from " + entry.restoredFrom : ""),
                state: entry.state || "", node: at, diff: [], notes: [], time: entry.time}];
              run.nodes.set(at, true);
            }
            run.state = entry.state || ""; run.node = entry.node || node(entry.state); run.ended = false;
            if (entry.json == null) run.notCodable = "State";
            break;
          case "event":
            if (entry.json == null) run.notCodable = "Event";
            run.steps.push({label: entry.text, name: entry.node || caseName(entry.text), state: run.state,
              node: run.node, diff: [], notes: [], time: entry.time, sequence: entry.sequence});
            break;
          case "state": {
            run.state = entry.state || run.state;
            run.node = entry.node || node(run.state);
            if (entry.json == null) run.notCodable = run.notCodable || "State";
            const last = run.steps[run.steps.length - 1];
            if (last) {
              const from = run.steps.length > 1 ? run.steps[run.steps.length - 2].node : last.node;
              last.state = run.state; last.diff = entry.diff || []; last.node = run.node;
              run.nodes.set(last.node, true);
              const edge = from + "\u0000" + last.node + "\u0000" + (last.name || caseName(last.label));
              run.edges.set(edge, (run.edges.get(edge) || 0) + 1);
            }
            break;
          }
          case "waiting":
            break;
          case "ended":
            run.ended = true;
            note(run, entry.text ? "ended: " + entry.text : "ended (terminal state)", !!entry.text);
            break;
          default:
            note(run, describe(entry), entry.kind === "effectFailed" || entry.kind === "testFailed");
          }
        }

        // A state's node in the diagram: the cases of its enum properties
        // (`phase: .showing` → "showing"), else the type.
        function node(text) {
          const lines = (text || "").split("\n");
          const cases = lines.slice(1).filter(l => /^  \w+: \.\w+/.test(l)).map(l => l.trim().replace(/^\w+: \./, ""));
          if (/^\./.test(lines[0] || "")) cases.unshift(lines[0].slice(1));
          return cases.length ? cases.join(" · ") : plain(lines[0] || "state");
        }

        // An event's case: `answer(…)` → "answer".
        function caseName(label) {
          return (label || "").replace(/\(.*$/s, "").replace(/^\./, "");
        }

        // The states seen and the transitions between them, the state at
        // the step shown highlighted. Nodes on a circle, edges as arcs.
        // With the diagram its tests explored: every state and transition
        // they found, those the run has not taken faint, and one it took
        // that they never found in red.
        function diagram(run, current) {
          const ns = "http://www.w3.org/2000/svg";
          const explored = run.diagram ? run.diagram.nodes : [];
          const names = [...explored, ...[...run.nodes.keys()].filter(name => !explored.includes(name))];
          // A diagram's labels are longer: more room around the circle,
          // and above it for the top state's loop.
          const width = run.diagram ? 760 : 640, height = names.length > 2 ? (run.diagram ? 520 : 300) : 140;
          const radius = run.diagram ? 150 : Math.min(width, height) / 2 - 40;
          const middle = run.diagram ? 250 : height / 2;
          const spread = run.diagram ? (width / 2 - 130) / radius : 1.6;
          const svg = document.createElementNS(ns, "svg");
          svg.setAttribute("viewBox", "0 0 " + width + " " + height);
          svg.setAttribute("role", "img");
          svg.setAttribute("aria-label", "The states seen and the transitions between them");
          svg.id = "diagram";
          const defs = document.createElementNS(ns, "defs");
          const marker = document.createElementNS(ns, "marker");
          for (const [k, v] of Object.entries({id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7",
            markerHeight: "7", orient: "auto-start-reverse"})) marker.setAttribute(k, v);
          const tip = document.createElementNS(ns, "path"); tip.setAttribute("d", "M 0 0 L 10 5 L 0 10 z");
          marker.append(tip); defs.append(marker); svg.append(defs);
          const at = new Map(names.map((name, index) => {
            if (names.length <= 2) return [name, {x: width / 2 + (index - (names.length - 1) / 2) * 260, y: height / 2}];
            const angle = -Math.PI / 2 + 2 * Math.PI * index / names.length;
            return [name, {x: width / 2 + radius * spread * Math.cos(angle), y: middle + radius * Math.sin(angle)}];
          }));
          // One arc a pair of states, its events listed on it: each with
          // how often the run took it, and whether the tests found it.
          const pairs = new Map();
          function arc(from, to) {
            const pair = from + "\u0000" + to;
            if (!pairs.has(pair)) pairs.set(pair, {from, to, events: [], seen: false, unexplored: false});
            return pairs.get(pair);
          }
          const taken = new Map(run.edges);
          for (const t of run.diagram ? run.diagram.transitions : []) {
            const key = t.from + "\u0000" + t.to + "\u0000" + t.event.replace(/ \(received\)$/, "");
            const count = taken.get(key) || 0;
            taken.delete(key);
            const pair = arc(t.from, t.to);
            pair.events.push({text: t.event + (count > 1 ? " ×" + count : ""), cls: count ? "" : "unseen"});
            pair.seen = pair.seen || count > 0;
          }
          for (const [key, count] of taken) {
            const [from, to, event] = key.split("\u0000");
            const pair = arc(from, to);
            pair.events.push({text: event + (count > 1 ? " ×" + count : ""), cls: run.diagram ? "unexplored" : ""});
            pair.seen = true;
            pair.unexplored = pair.unexplored || !!run.diagram;
          }
          for (const {from, to, events, seen, unexplored} of pairs.values()) {
            const a = at.get(from), b = at.get(to);
            if (!a || !b) continue;
            const path = document.createElementNS(ns, "path");
            const label = document.createElementNS(ns, "text");
            // A loop points away from the circle's middle: up, or down
            // for a state in its lower half.
            const down = run.diagram && a.y > middle + 1 ? -1 : 1;
            if (from === to) {
              path.setAttribute("d", `M ${a.x - 12} ${a.y - 14 * down} C ${a.x - 40} ${a.y - 70 * down}, ${a.x + 40} ${a.y - 70 * down}, ${a.x + 12} ${a.y - 14 * down}`);
              label.setAttribute("x", a.x); label.setAttribute("y", down > 0 ? a.y - 62 : a.y + 76);
            } else {
              const mx = (a.x + b.x) / 2 + (b.y - a.y) * 0.15, my = (a.y + b.y) / 2 - (b.x - a.x) * 0.15;
              const shorten = (p, q) => { const d = Math.hypot(q.x - p.x, q.y - p.y) || 1; return {x: p.x + (q.x - p.x) * 26 / d, y: p.y + (q.y - p.y) * 16 / d}; };
              const s = shorten(a, {x: mx, y: my}), e = shorten(b, {x: mx, y: my});
              path.setAttribute("d", `M ${s.x} ${s.y} Q ${mx} ${my} ${e.x} ${e.y}`);
              label.setAttribute("x", mx); label.setAttribute("y", my - 4);
            }
            path.setAttribute("class", "edge" + (unexplored ? " unexplored" : seen ? "" : " unseen"));
            path.setAttribute("marker-end", "url(#arrow)");
            label.setAttribute("class", "edge-label"); label.setAttribute("text-anchor", "middle");
            // The events on lines of about 24 characters, at most three:
            // those the tests never found first, then those taken.
            const rank = {unexplored: 0, "": 1, unseen: 2};
            events.sort((a, b) => rank[a.cls] - rank[b.cls]);
            const lines = [[]];
            let length = 0;
            events.forEach((event, index) => {
              const text = event.text + (index < events.length - 1 ? "," : "");
              if (length > 0 && length + text.length > 24) { lines.push([]); length = 0; }
              lines[lines.length - 1].push({text, cls: event.cls});
              length += text.length + 1;
            });
            if (lines.length > 3) { lines.length = 3; lines[2].push({text: "…", cls: ""}); }
            lines.forEach((parts, index) => {
              const line = document.createElementNS(ns, "tspan");
              line.setAttribute("x", label.getAttribute("x"));
              // A loop's label stands on the loop; another is centred on its arc.
              const first = from === to && down < 0 ? 0 : -(lines.length - 1) * (from === to ? 1.15 : 0.575);
              line.setAttribute("dy", index ? "1.15em" : first + "em");
              parts.forEach((part, at) => {
                const span = document.createElementNS(ns, "tspan");
                if (part.cls) span.setAttribute("class", part.cls);
                span.textContent = (at ? " " : "") + part.text;
                line.append(span);
              });
              label.append(line);
            });
            svg.append(path, label);
          }
          for (const name of names) {
            const {x, y} = at.get(name);
            const group = document.createElementNS(ns, "g");
            const kind = run.diagram && !explored.includes(name) ? " unexplored" : run.nodes.has(name) ? "" : " unseen";
            group.setAttribute("class", "node" + kind + (name === current ? " current" : ""));
            const box = document.createElementNS(ns, "rect");
            const w = Math.max(60, name.length * 7.5 + 20);
            for (const [k, v] of Object.entries({x: x - w / 2, y: y - 14, width: w, height: 28, rx: 8})) box.setAttribute(k, v);
            const text = document.createElementNS(ns, "text");
            text.setAttribute("x", x); text.setAttribute("y", y + 5); text.setAttribute("text-anchor", "middle");
            text.textContent = name;
            group.append(box, text);
            svg.append(group);
          }
          return svg;
        }

        function note(run, text, failed) {
          const last = run.steps[run.steps.length - 1];
          if (last) last.notes.push({text, failed});
        }

        function describe(entry) {
          const effect = entry.effect ? entry.effect.kind + " #" + entry.effect.number + (entry.effect.id ? " (" + entry.effect.id + ")" : "") : "";
          switch (entry.kind) {
          case "output": return "output " + entry.text;
          case "effectStarted": return "started " + effect;
          case "effectFinished": return "finished " + effect;
          case "effectCancelled": return "cancelled " + effect;
          case "effectFailed": return "failed " + effect + ": " + entry.text;
          case "eventRefused": return "refused an event of cancelled " + effect;
          case "intentRefused": return "refused intent " + entry.text;
          case "testFailed": return "✘ the test failed here: " + entry.text;
          default: return entry.kind;
          }
        }

        // Type names without their modules and enclosing types: `.comics`
        // for `ComicsMain.Main.Scene.comics`, `Comic` for `ComicsFeature.Comic`.
        function plain(text) {
          return text.replace(/\b(?:[A-Za-z_]\w*\.)+([a-z_]\w*)/g, ".$1").replace(/\b(?:[A-Za-z_]\w*\.)+([A-Z]\w*)/g, "$1");
        }

        // A state on one line: its top-level properties.
        function summary(text) {
          const lines = (text || "").split("\n");
          if (lines.length <= 1) return plain(lines[0] || "");
          return plain(lines.slice(1).filter(l => /^  [-▿] /.test(l)).map(l => l.trim().replace(/^[-▿] /, "")).join(", "));
        }

        function renderRuns() {
          const nav = document.getElementById("runs");
          nav.replaceChildren();
          if (apps.size === 0) {
            nav.append(el("p", "hint", "No app has connected yet."));
            return;
          }
          for (const [appID, app] of apps) {
            const recorded = !app.app.pid;
            nav.append(el("div", "app" + (app.app.isConnected ? "" : " gone") + (recorded ? " recorded" : ""),
              app.app.name + (recorded ? " · recording" : " · pid " + app.app.pid)));
            const roots = [...app.runs.values()].filter(r => r.parent === null || !app.runs.has(r.parent));
            nav.append(tree(appID, app, roots));
          }
        }

        function tree(appID, app, runs) {
          const list = el("ul", "tree");
          for (const run of runs.sort((a, b) => a.id - b.id)) {
            const item = el("li", run.ended ? "ended" : "");
            const button = el("button", chosen && chosen.app === appID && chosen.run === run.id ? "chosen" : "");
            button.dataset.run = run.id;
            button.append(el("span", "type", shortType(run.type)));
            if (run.restored) button.append(el("span", "restored", "restored"));
            button.append(el("span", "now", summary(run.state)));
            button.addEventListener("click", () => { chosen = {app: appID, run: run.id}; step = null; render(); });
            item.append(button);
            const children = [...app.runs.values()].filter(r => r.parent === run.id);
            if (children.length) item.append(tree(appID, app, children));
            list.append(item);
          }
          return list;
        }

        function renderRun() {
          const section = document.getElementById("run");
          const app = chosen && apps.get(chosen.app);
          const run = app && app.runs.get(chosen.run);
          if (!run) {
            section.replaceChildren(el("p", "hint", "Choose a run to see its state and its steps."));
            return;
          }
          const last = run.steps.length - 1;
          const at = step === null ? last : Math.min(step, last);
          const shown = run.steps[at];
          const title = el("h2", "", shortType(run.type) + " · run " + run.id);
          if (run.restored) title.append(el("span", "restored", "restored from " + run.restored));
          if (run.ended) title.append(el("span", "restored", "ended"));
          const controls = el("div", "controls");
          const back = el("button", "", "←"); back.title = "Step back (←)"; back.id = "back";
          const forward = el("button", "", "→"); forward.title = "Step forward (→)"; forward.id = "forward";
          const slider = el("input"); slider.type = "range"; slider.min = 0; slider.max = last; slider.value = at;
          slider.id = "step"; slider.setAttribute("aria-label", "Step");
          const where = el("span", "where", "step " + at + " of " + last + (step === null ? " (live)" : ""));
          where.id = "where";
          back.addEventListener("click", () => go(at - 1, last));
          forward.addEventListener("click", () => go(at + 1, last));
          slider.addEventListener("input", () => go(Number(slider.value), last));
          controls.append(back, slider, forward, where);
          // The steps up to the one shown, as a session file and as a test.
          if (run.notCodable) {
            const hint = el("span", "hint", "to export, make " + shortType(run.type) + "." + run.notCodable + " Codable");
            hint.id = "export-hint";
            hint.title = "A run whose Event and State are Codable (State also Equatable) can be exported as a test.";
            controls.append(hint);
          } else if (at > 0) {
            const through = at < last ? run.steps[at + 1].sequence - 1 : "";
            const query = "token=" + encodeURIComponent(token) + "&app=" + chosen.app + "&run=" + run.id +
              "&through=" + through;
            const session = el("a", "export", "Export session"); session.id = "export-session";
            session.href = "export?" + query + "&as=session"; session.setAttribute("download", "");
            const test = el("a", "export", "Export test"); test.id = "export-test";
            test.href = "export?" + query + "&as=test"; test.setAttribute("download", "");
            test.title = "A Swift Testing test that replays steps 1 to " + at + " and checks every state";
            controls.append(session, test);
          }

          // The state at the step; with its change from the step before.
          const state = el("pre", "state"); state.id = "state";
          const lines = shown.diff.length ? shown.diff : shown.state.split("\n").map(text => ({mark: " ", text}));
          for (const line of lines) {
            state.append(el("span", line.mark === "+" ? "added" : line.mark === "-" ? "removed" : "", line.text + "\n"));
          }

          const steps = el("ol", "steps"); steps.id = "steps";
          run.steps.forEach((s, index) => {
            const item = el("li", index === at ? "current" : "");
            item.append(el("span", "event", index === 0 ? s.label : plain(s.label)));
            for (const n of s.notes) item.append(el("span", "effect" + (n.failed ? " failed" : ""), plain(n.text)));
            item.addEventListener("click", () => go(index, last));
            steps.append(item);
          });
          const legend = el("p", "legend", run.diagram
            ? "Every state and transition its tests found; faint: this run has not taken it. "
            : "The states this run has been in. Give the inspector the diagram its tests explored to see them all.");
          if (run.diagram) legend.append(el("span", "unexplored", "Red: taken, but no test found it."));
          section.replaceChildren(title, controls, el("h3", "", run.diagram ? "States" : "States seen"),
            diagram(run, shown.node), legend,
            el("h3", "", "State at this step"), state, el("h3", "", "Between runs"), sequence(app, run, at),
            el("h3", "", "Steps"), steps);
        }

        // A sequence view: one lane a run (its parent, the run, its
        // children), the events each took (→) and the outputs each gave
        // (←), in the order they happened, up to the step shown. A child's
        // output is followed by the parent's event it became.
        function sequence(app, run, at) {
          const lanes = [];
          if (run.parent !== null && app.runs.has(run.parent)) lanes.push(app.runs.get(run.parent));
          lanes.push(run);
          for (const child of app.runs.values()) if (child.parent === run.id && lanes.length < 6) lanes.push(child);
          const ids = new Map(lanes.map((lane, index) => [lane.id, index]));
          const next = run.steps[at + 1];
          const until = next && next.sequence ? next.sequence : Infinity;
          const rows = app.log.filter(e => ids.has(e.run) && e.sequence < until).slice(-40);
          const table = el("table", "sequence"); table.id = "sequence";
          const head = el("tr");
          for (const lane of lanes) {
            head.append(el("th", lane.id === run.id ? "this" : "", shortType(lane.type) + " · " + lane.id));
          }
          table.append(head);
          for (const entry of rows) {
            const row = el("tr");
            lanes.forEach((lane, index) => {
              const mark = {started: "started", ended: "ended", event: "→ ", output: "← "}[entry.kind];
              const full = entry.kind === "event" || entry.kind === "output" ? mark + plain(entry.text) : mark;
              const mine = index === ids.get(entry.run);
              // Long values cut to a line or two; the whole on hover.
              const cell = el("td", mine ? entry.kind : "", mine ? (full.length > 160 ? full.slice(0, 159) + "…" : full) : "");
              if (mine && full.length > 160) cell.title = full;
              row.append(cell);
            });
            table.append(row);
          }
          if (!rows.length) table.append(el("tr", "", ""));
          return table;
        }

        function go(index, last) {
          step = index >= last ? null : Math.max(0, index);
          renderRun();
        }

        // `#APP/RUN[/STEP]` chooses a run (and a step): a link to what one saw.
        function fromHash() {
          const [app, run, at] = location.hash.slice(1).split("/").map(Number);
          if (app && run) { chosen = {app, run}; step = Number.isInteger(at) ? at : null; }
        }
        window.addEventListener("hashchange", () => { fromHash(); render(); });
        fromHash();

        function render() {
          if (!chosen) {
            // The first app's first run, until one is chosen.
            const first = [...apps.entries()].find(([, app]) => app.runs.size > 0);
            if (first) chosen = {app: first[0], run: Math.min(...first[1].runs.keys())};
          }
          renderRuns();
          renderRun();
        }

        document.addEventListener("keydown", event => {
          if (!chosen || event.target.tagName === "INPUT" && event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
          const run = apps.get(chosen.app)?.runs.get(chosen.run);
          if (!run) return;
          const last = run.steps.length - 1;
          const at = step === null ? last : step;
          if (event.key === "ArrowLeft") { go(at - 1, last); event.preventDefault(); }
          if (event.key === "ArrowRight") { go(at + 1, last); event.preventDefault(); }
        });

        let pending = false;
        function schedule() {
          if (pending) return;
          pending = true;
          requestAnimationFrame(() => { pending = false; render(); });
        }

        function connect() {
          const status = document.getElementById("status");
          const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host +
            "/live?token=" + encodeURIComponent(token));
          socket.onopen = () => { status.textContent = "live"; status.className = "status live"; };
          socket.onmessage = event => {
            const message = JSON.parse(event.data);
            if (message.kind === "app") {
              const known = apps.get(message.app.id);
              if (known) known.app = message.app; else apps.set(message.app.id, {app: message.app, runs: new Map(), log: []});
            } else if (message.kind === "entries" && apps.has(message.of)) {
              for (const entry of message.entries) take(message.of, entry);
            }
            schedule();
          };
          socket.onclose = () => {
            status.textContent = "the inspector stopped; reload when it runs again";
            status.className = "status";
          };
        }
        connect();
        """#
}
