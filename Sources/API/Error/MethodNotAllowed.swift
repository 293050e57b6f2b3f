import HTTPTypes
import Hummingbird

extension Router {
    /// Answers a request whose path is a route but whose method is not one of its methods with 405 and `Allow`
    /// (RFC 9110 §15.5.6), instead of the router's 404: a client learns the route exists and what it takes.
    /// Called once every route is added (its `routes` are then the served ones and these refusals); the refusals
    /// sit outside authentication, as the method alone decides them.
    func refusingOtherMethods() -> Self {
        // QUERY (the safe query-with-a-body method of the HTTP WG's draft) too: fuzzers and proxies send it.
        let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options, .trace, HTTPRequest.Method("QUERY")!]
        let byPath = Dictionary(grouping: routes, by: { $0.path.description })
        for (_, routes) in byPath {
            var allowed = Set(routes.map(\.method))
            // HEAD is GET without the body (the server answers it so wherever there is a GET).
            if allowed.contains(.get) { allowed.insert(.head) }
            let allow = methods.filter { allowed.contains($0) }.map(\.rawValue).joined(separator: ", ")
            for method in methods where !allowed.contains(method) {
                on(routes[0].path, method: method) { _, _ -> Response in
                    var problem = Problem(.methodNotAllowed, slug: "method-not-allowed", detail: "this route takes \(allow)")
                    problem.headers[.allow] = allow
                    throw problem
                }
            }
        }
        return self
    }
}
