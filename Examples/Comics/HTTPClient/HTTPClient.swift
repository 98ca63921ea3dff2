// A thin async HTTP client over URLSession (FoundationNetworking on Linux):
// GET with a timeout, a bound on the response's size, and the status turned
// into typed errors. See the decision note in the Comics README for why
// URLSession and not AsyncHTTPClient.

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a request failed.
public enum HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The address is not one this client may fetch.
    case refused(String)
    /// The server could not be reached, or the connection broke.
    case unreachable(String)
    /// No answer within the timeout.
    case timedOut
    /// The server answered with this status (not 2xx).
    case status(Int)
    /// The body was larger than the limit.
    case tooLarge(limit: Int)

    /// For example "The server answered with status 404."
    public var description: String {
        switch self {
        case .refused(let reason): "Refused to fetch: \(reason)."
        case .unreachable(let reason): "The server could not be reached: \(reason)."
        case .timedOut: "The server did not answer in time."
        case .status(let status): "The server answered with status \(status)."
        case .tooLarge(let limit): "The answer was larger than \(limit) bytes."
        }
    }
}

/// Fetches bodies over HTTP(S).
public struct HTTPClient: Sendable {
    /// Seconds to wait for an answer.
    public var timeout: TimeInterval
    /// The largest body accepted, in bytes.
    public var maxBodySize: Int
    private let session: URLSession

    /// A client with its own session (no cookies, no cache).
    public init(timeout: TimeInterval = 10, maxBodySize: Int = 1 << 20) {
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration)
    }

    /// GETs `url`; returns the body of a 2xx answer.
    public func get(_ url: URL) async throws(HTTPError) -> Data {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .refused("\(url.absoluteString) is not an http(s) address")
        }
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError where error.code == .timedOut {
            throw .timedOut
        } catch let error as URLError {
            throw .unreachable(error.localizedDescription)
        } catch {
            throw .unreachable("\(error)")
        }
        guard let http = response as? HTTPURLResponse else { throw .unreachable("not an HTTP answer") }
        guard (200..<300).contains(http.statusCode) else { throw .status(http.statusCode) }
        guard data.count <= maxBodySize else { throw .tooLarge(limit: maxBodySize) }
        return data
    }
}
