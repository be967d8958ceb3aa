/// The interactive viewer's key handling as a pure state machine: a key changes the
/// ``ScreenState`` (scroll, prompt) and may ask for a ``ScreenCommand``.
public struct ScreenModel: Equatable, Sendable {
    /// What the screen shows.
    public var state: ScreenState

    /// A model showing `state`.
    public init(state: ScreenState) {
        self.state = state
    }

    /// Handles `key` on a screen of `width` x `height`; returns the command it asks for, if any.
    public mutating func handle(_ key: Key, width: Int, height: Int) -> ScreenCommand? {
        if key == .interrupt { return .quit }
        if state.prompt != nil { return handlePrompt(key) }
        let page = max(1, ScreenRenderer.bodyHeight(state, height: height) - 1)
        switch key {
        case .character("q"), .character("Q"):
            return .quit
        case .character("n"), .character("N"):
            return .loadMore
        case .character("r"):
            return .reload
        case .character("t"):
            state.prompt = state.request.tags
        case .character("j"), .down:
            scroll(by: 1, width: width, height: height)
        case .character("k"), .up:
            scroll(by: -1, width: width, height: height)
        case .pageDown, .character(" "), .character("f"):
            scroll(by: page, width: width, height: height)
        case .pageUp, .character("b"):
            scroll(by: -page, width: width, height: height)
        case .home, .character("g"):
            state.scroll = 0
        case .end, .character("G"):
            state.scroll = ScreenRenderer.maxScroll(state, width: width, height: height)
        default:
            break
        }
        return nil
    }

    /// Keeps `scroll` within the content after the sections or the size changed.
    public mutating func clampScroll(width: Int, height: Int) {
        state.scroll = min(max(0, state.scroll), ScreenRenderer.maxScroll(state, width: width, height: height))
    }

    private mutating func scroll(by rows: Int, width: Int, height: Int) {
        state.scroll += rows
        clampScroll(width: width, height: height)
    }

    private mutating func handlePrompt(_ key: Key) -> ScreenCommand? {
        guard var text = state.prompt else { return nil }
        switch key {
        case .enter:
            state.prompt = nil
            return .changeTags(text)
        case .escape:
            state.prompt = nil
        case .backspace:
            if !text.isEmpty { text.removeLast() }
            state.prompt = text
        case .character(let character):
            if text.count < 200 { text.append(character) }
            state.prompt = text
        default:
            break
        }
        return nil
    }
}
