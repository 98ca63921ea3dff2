// The list in a browser: the web host runs one `ItemList` per browser
// session and renders this page for it; each form posts an intent the
// page was offered. What is interpolated into HTML is escaped.

import Oak
import WebHost
import WebUI
import __Name__Feature

/// The app, as the web host serves it.
public struct __Name__Web: WebApplication {
    /// Each session runs the list.
    public typealias Root = ItemList

    /// The port, shared by every session.
    public let environment: ItemList.Env

    /// The app over the port `env`.
    public init(env: ItemList.Env) {
        environment = env
    }

    /// "Oak __Name__".
    public var name: String { "Oak __Name__" }

    /// Loading.
    public func initialState() -> ItemList.State { ItemList.State() }

    /// Reads the items.
    public func start(_ proxy: ItemList.Proxy) async {
        await proxy.send(.start)
    }

    /// Nothing is on its way to the store.
    public func isSettled(_ state: ItemList.State) -> Bool { !state.isLoading && !state.isSaving }

    /// "Oak __Name__ · 3 items".
    public func title(of state: ItemList.State) -> String {
        "Oak __Name__ · \(state.items.count) item\(state.items.count == 1 ? "" : "s")"
    }

    /// The list, a Remove button per item, and a form that adds one.
    public func content(of state: ItemList.State, session: WebSessionContext<ItemList>) -> HTML {
        let intents = session.intents(scope: ItemList.mode(of:))
        let forms = session.forms
        let rows = state.items.map { item in
            HTML(
                """
                <li data-item="\(item.id)"><span>\(item.title)</span>\
                \(forms.button("Remove", key: "remove:\(item.id)", intent: intents(.remove(item.id))))</li>
                """)
        }
        let status: HTML =
            state.isLoading
            ? "<p class=\"dim\" role=\"status\">Reading the items…</p>"
            : rows.isEmpty ? "<p class=\"dim\" id=\"empty\">No items yet.</p>" : ""
        let problem: HTML = state.problem.map { "<p class=\"error\" role=\"alert\">\($0.description)</p>" } ?? ""
        let add = forms.bind("add") { form in intents(.add(form.fields["title"] ?? ""))() }
        return """
            <h1>Oak __Name__</h1>\(status)<ul class="items" id="items">\(HTML.join(rows))</ul>\(problem)\
            <form method="post" action="\(WebPage.intentPath)" class="intent add">\
            <input type="hidden" name="token" value="\(forms.token)">\
            <input type="hidden" name="intent" value="\(add)">\
            <label>New item <input type="text" name="title" maxlength="\(ItemList.maxTitle)" required></label>\
            <button type="submit" class="primary">Add</button></form>
            """
    }

    /// The list's rules.
    public var style: String {
        """
        ul.items { list-style: none; padding: 0; }
        ul.items li { display: flex; gap: .5rem; align-items: center; justify-content: space-between; }
        form.add { display: flex; gap: .5rem; align-items: end; flex-wrap: wrap; }

        """
    }
}
