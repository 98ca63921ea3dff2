// The server the client's tests fetch from (its own file: Hummingbird's
// `HTTPError` would shadow the client's in the tests).

import Hummingbird
import Logging
import ServerSupport

/// A server with the answers the tests need.
func startServer() async throws -> HTTPServer {
    let router = Router()
    router.get("ok") { _, _ in "hello" }
    router.get("big") { _, _ in String(repeating: "x", count: 4_096) }
    router.get("missing") { _, _ -> Response in Response(status: .notFound) }
    router.get("redirect") { _, _ -> Response in Response(status: .found, headers: [.location: "/ok"]) }
    router.get("slow") { _, _ -> String in
        // The server is slow on purpose: the client gives up first.
        try await Task.sleep(for: .seconds(2))
        return "late"
    }
    var logger = Logger(label: "oak.test.http")
    logger.logLevel = .critical
    return try await HTTPServer.start(responder: router.buildResponder(), logger: logger)
}
