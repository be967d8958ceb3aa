import Foundation
import HTTPWire

/// A whole response: delivered, or the redirect decided at its head followed (the exchange goes
/// idle for the next hop).
extension ExchangeMachine {
    mutating func completed(reusable: Bool) -> Action {
        let disposal: Disposal = reusable ? .pool : .close
        guard let next = redirect else { return finish(.deliver(decodesBody: !downloadsToFile), disposal: disposal) }
        guard next.body?.isReplayable ?? true else { return finish(.fail(.bodyNotReplayable), disposal: disposal) }
        guard redirects < maximumRedirects ?? 0 else { return finish(.fail(.tooManyRedirects(redirects + 1)), disposal: disposal) }
        redirects += 1
        redirectedFrom = request.url
        request = next
        method = next.normalizedMethod
        redirect = nil
        let action = Action.finish(leaveQueue: false, disposal: holdsSlot ? disposal : .none, outcome: .followRedirect)
        holdsSlot = false
        phase = .idle
        return action
    }

    /// The redirect whose head is `head` is being followed: the request's `redirectHook` adjusts
    /// the next hop's fields (before its target is read and its head written).
    mutating func followingRedirect(answeredBy head: HTTPResponseHead) {
        switch phase {
        case .idle:
            guard let hook = request.redirectHook, let from = redirectedFrom else { return }
            hook(head, from, request.url, &request.headers)
        case .waiting, .sending, .receiving, .done:
            // The driver tells it as it performs the `.followRedirect` that left the exchange idle.
            impossible(.followingRedirect)
        }
    }
}
