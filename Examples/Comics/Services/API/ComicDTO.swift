// The xkcd JSON API: what `/info.0.json` and `/{n}/info.0.json` return.
// Data transfer objects only; the app's domain types live in the features
// and Services maps between them.

/// One comic as the xkcd JSON API describes it.
///
/// Field names are the API's. Every field the app needs is required; the
/// others are optional, so that a server that leaves them out still works.
public struct ComicDTO: Codable, Equatable, Sendable {
    /// The comic's number, from 1.
    public var num: Int
    /// The title.
    public var title: String
    /// The title without markup, as xkcd also sends it.
    public var safe_title: String?
    /// The alt text (the mouse-over text).
    public var alt: String
    /// The address of the image.
    public var img: String
    /// Year, month and day of publication, as decimal strings.
    public var year: String
    /// See ``year``.
    public var month: String
    /// See ``year``.
    public var day: String
    /// A transcript, often empty.
    public var transcript: String?
    /// A link the comic points to, often empty.
    public var link: String?
    /// News, often empty.
    public var news: String?

    /// A comic with every field given.
    public init(
        num: Int, title: String, safe_title: String? = nil, alt: String, img: String, year: String,
        month: String, day: String, transcript: String? = nil, link: String? = nil, news: String? = nil
    ) {
        self.num = num
        self.title = title
        self.safe_title = safe_title ?? title
        self.alt = alt
        self.img = img
        self.year = year
        self.month = month
        self.day = day
        self.transcript = transcript
        self.link = link
        self.news = news
    }
}

/// The paths of the xkcd JSON API.
public enum Endpoint: Hashable, Sendable {
    /// The latest comic: `/info.0.json`.
    case latest
    /// Comic `n`: `/{n}/info.0.json`.
    case comic(Int)

    /// The path of the endpoint, from the server's root.
    public var path: String {
        switch self {
        case .latest: "/info.0.json"
        case .comic(let number): "/\(number)/info.0.json"
        }
    }
}
