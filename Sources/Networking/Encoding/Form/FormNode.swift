/// One value of a form being encoded: nothing yet, text, an array or keyed pairs (in the order
/// written). A reference, so that containers handed out by `FormValueEncoder` fill it later.
final class FormNode {
    enum Kind {
        case unset
        case string(String)
        case array([FormNode])
        case object([(key: String, value: FormNode)])
    }

    var kind: Kind = .unset

    /// The child under `key`, made (and kept in writing order) if there is none.
    func child(forKey key: String) -> FormNode {
        var pairs: [(key: String, value: FormNode)] = []
        if case .object(let existing) = kind {
            if let found = existing.first(where: { $0.key == key }) { return found.value }
            pairs = existing
        }
        let node = FormNode()
        pairs.append((key, node))
        kind = .object(pairs)
        return node
    }

    /// Removes the child under `key` (a `nil` whose key is dropped).
    func removeChild(forKey key: String) {
        guard case .object(let pairs) = kind else { return }
        kind = .object(pairs.filter { $0.key != key })
    }

    /// A new last element.
    func appendElement() -> FormNode {
        var elements: [FormNode] = []
        if case .array(let existing) = kind { elements = existing }
        let node = FormNode()
        elements.append(node)
        kind = .array(elements)
        return node
    }

    /// Makes this node keyed (or an array) if nothing was written to it yet.
    func becomeObject() {
        if case .unset = kind { kind = .object([]) }
    }

    /// Makes this node an array if nothing was written to it yet.
    func becomeArray() {
        if case .unset = kind { kind = .array([]) }
    }
}
