// A thin async HTTP client over URLSession (FoundationNetworking on Linux):
// GET with a timeout, a bound on the response's size enforced while it
// arrives, no redirects followed, and the status turned into typed errors.
// See decision 0020 for why URLSession and not AsyncHTTPClient.

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
    /// The server answered with this status (not 2xx; a redirect is not
    /// followed and is reported with its status too).
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

    /// A client; every request uses an ephemeral session (no cookies, no
    /// cache).
    public init(timeout: TimeInterval = 10, maxBodySize: Int = 1 << 20) {
        self.timeout = timeout
        self.maxBodySize = maxBodySize
    }

    /// GETs `url`; returns the body of a 2xx answer.
    public func get(_ url: URL) async throws(HTTPError) -> Data {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .refused("\(url.absoluteString) is not an http(s) address")
        }
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let download = BoundedDownload(limit: maxBodySize)
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        let result = await withTaskCancellationHandler {
            await download.run(task)
        } onCancel: {
            download.cancel()
        }
        return try result.get()
    }
}

/// One download: collects the body as it arrives, stops it once it is over
/// the limit, refuses redirects, and reports the outcome once.
///
/// Safety (`@unchecked Sendable`): every field is read and written under
/// `lock`; URLSession calls the delegate methods on its own queue.
final class BoundedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var body = Data()
    private var status: Int?
    private var isTooLarge = false
    private var continuation: CheckedContinuation<Result<Data, HTTPError>, Never>?
    private var outcome: Result<Data, HTTPError>?

    init(limit: Int) {
        self.limit = limit
    }

    /// Starts `task` and returns its outcome.
    func run(_ task: URLSessionDataTask) async -> Result<Data, HTTPError> {
        // Resumed exactly once: by `finish`, which takes the continuation
        // out under the lock, or at once if the outcome is already known.
        await withCheckedContinuation { continuation in
            let known = lock.withLock { () -> Result<Data, HTTPError>? in
                if let outcome { return outcome }
                self.continuation = continuation
                return nil
            }
            if let known {
                // Cancelled before it started: a task never resumed would
                // keep its session from ever being invalidated.
                task.cancel()
                continuation.resume(returning: known)
            } else {
                task.resume()
            }
        }
    }

    /// Stops waiting for the answer: the caller was cancelled. The transfer
    /// itself is left to end (within the timeout and the size limit) rather
    /// than cancelled: FoundationNetworking on Linux traps ("a task that is
    /// not in the registry") when a task is cancelled as it completes.
    func cancel() {
        finish(.failure(.unreachable("the request was cancelled")))
    }

    private func finish(_ result: Result<Data, HTTPError>) {
        let waiting = lock.withLock { () -> CheckedContinuation<Result<Data, HTTPError>, Never>? in
            guard outcome == nil else { return nil }
            outcome = result
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: result)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode
        let tooLarge = response.expectedContentLength > Int64(limit)
        lock.withLock {
            self.status = status
            if tooLarge { isTooLarge = true }
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock { () -> Bool in
            body.append(data)
            if body.count > limit { isTooLarge = true }
            return isTooLarge
        }
        if over { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Not followed: the answer is the redirect itself, a non-2xx status
        // (URLSession then reports no response of its own).
        lock.withLock { status = response.statusCode }
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (seen, body, isTooLarge) = lock.withLock { (self.status, self.body, self.isTooLarge) }
        // A redirect that is not followed may reach neither delegate method:
        // its status is then the task's response's.
        let status = seen ?? (task.response as? HTTPURLResponse)?.statusCode
        if isTooLarge {
            finish(.failure(.tooLarge(limit: limit)))
        } else if let error = error as? URLError {
            finish(.failure(error.code == .timedOut ? .timedOut : .unreachable(error.localizedDescription)))
        } else if let error {
            finish(.failure(.unreachable("\(error)")))
        } else if let status, !(200..<300).contains(status) {
            finish(.failure(.status(status)))
        } else if status == nil {
            finish(.failure(.unreachable("not an HTTP answer")))
        } else {
            finish(.success(body))
        }
    }
}
