import PhotoFeed

/// The interactive viewer's key handling as a pure state machine: a key changes the
/// ``ScreenState`` (selection, scroll, filter, prompts, help, images) and may ask for a
/// ``ScreenCommand``; new sections and finished loads come in through ``sectionsChanged(_:width:height:)``
/// and ``loadFinished(succeeded:)``.
package struct ScreenModel: Equatable, Sendable {
    /// What the screen shows.
    package var state: ScreenState

    /// A model starting from `state`; keys and load results then move it on.
    package init(state: ScreenState) {
        self.state = state
    }

    /// Handles `key` on a screen of `width` x `height`; returns the command it asks for, if any.
    package mutating func handle(_ key: Key, width: Int, height: Int) -> ScreenCommand? {
        if key == .interrupt { return .quit }
        if state.prompt != nil { return handleTagsPrompt(key) }
        if state.filterPrompt != nil {
            handleFilterPrompt(key, width: width, height: height)
            return nil
        }
        state.notice = nil
        if state.showingHelp {
            state.showingHelp = false
            clampScroll(width: width, height: height)
            return nil
        }
        if state.previewing {
            state.previewing = false
            return nil
        }
        let page = max(1, ScreenRenderer.bodyHeight(state, height: height) / ScreenRenderer.linesPerPhoto(state, width: width))
        switch key {
        case .character("q"), .character("Q"):
            return .quit
        case .character("n"), .character("N"):
            state.followsNewSection = true
            state.pendingLoad = .more(photosBefore: state.photoCount)
            return .loadMore
        case .character("r"):
            state.reloading = true
            state.pendingLoad = .reload
            return .reload
        case .character("p"):
            if state.selectedPhoto == nil {
                state.notice = "No photo to preview"
            } else if state.imagesAvailable {
                state.previewing = true
            } else {
                state.notice = state.picturesOff.notice
            }
        case .character("t"):
            state.prompt = state.request.tags
            state.promptCursor = state.request.tags.count
        case .character("/"):
            state.filterPrompt = state.filter
            state.promptCursor = state.filter.count
        case .character("?"):
            state.showingHelp = true
            state.scroll = 0
        case .character("i"):
            if state.imagesAvailable {
                state.imagesEnabled.toggle()
                select(state.selection, width: width, height: height)
            } else {
                state.notice = state.picturesOff.notice
            }
        case .enter, .character("o"):
            if let photo = state.selectedPhoto { return .open(photo) }
        case .character("y"):
            if let photo = state.selectedPhoto { return .copyLink(photo) }
        case .character("j"), .down:
            select(state.selection + 1, width: width, height: height)
        case .character("k"), .up:
            select(state.selection - 1, width: width, height: height)
        case .pageDown, .character(" "), .character("f"):
            select(state.selection + page, width: width, height: height)
        case .pageUp, .character("b"):
            select(state.selection - page, width: width, height: height)
        case .home, .character("g"):
            select(0, width: width, height: height)
        case .end, .character("G"):
            select(state.shownPhotos.count - 1, width: width, height: height)
        case .escape:
            if !state.filter.isEmpty {
                state.filter = ""
                select(state.selection, width: width, height: height)
            }
        default:
            break
        }
        return nil
    }

    /// New sections from the store: shown, except an empty list during a reload (the old
    /// photos stay until the new ones are there); after `n`, the first new photo is selected.
    package mutating func sectionsChanged(_ sections: [PhotoSection], width: Int, height: Int) {
        if state.reloading && sections.isEmpty { return }
        let selected = state.selectedPhoto
        let grew = sections.count > state.sections.count && !state.reloading
        let wasReloading = state.reloading
        state.sections = sections
        state.reloading = false
        if grew && state.followsNewSection, let newest = sections.last {
            state.followsNewSection = false
            // the first new photo the filter shows
            let shown = state.shownPhotos
            if let index = newest.items.lazy.compactMap({ shown.firstIndex(of: $0.photo) }).first {
                select(index, width: width, height: height, showSectionBelow: true)
            } else {
                let count = newest.items.count
                state.notice = "\(count) new photo\(count == 1 ? "" : "s"), none matches the filter"
                select(selected.flatMap { shown.firstIndex(of: $0) } ?? state.selection, width: width, height: height)
            }
        } else if !wasReloading, let selected, let index = state.shownPhotos.firstIndex(of: selected) {
            select(index, width: width, height: height)
        } else {
            select(wasReloading ? 0 : state.selection, width: width, height: height)
        }
    }

    /// A load ended: a failed one ends a reload (keeping the old photos) and forgets `n`'s jump;
    /// a successful `n` that brought no new photo, or a reload, says so in the footer.
    package mutating func loadFinished(succeeded: Bool) {
        let pending = state.pendingLoad
        state.pendingLoad = nil
        guard succeeded else {
            state.reloading = false
            state.followsNewSection = false
            return
        }
        switch pending {
        case .more(let before) where state.photoCount == before:
            state.followsNewSection = false
            state.notice = "No new photos: the feed sent only photos already shown"
        case .reload:
            state.notice = "Reloaded: \(state.photoCount) photo\(state.photoCount == 1 ? "" : "s")"
        default:
            break
        }
    }

    /// Keeps `scroll` within the content after the sections or the size changed.
    package mutating func clampScroll(width: Int, height: Int) {
        state.scroll = min(max(0, state.scroll), ScreenRenderer.maxScroll(state, width: width, height: height))
    }

    /// Selects photo `index` (clamped to those shown) and scrolls so that all of it is on screen.
    private mutating func select(_ index: Int, width: Int, height: Int, showSectionBelow: Bool = false) {
        let count = state.shownPhotos.count
        state.selection = min(max(0, index), max(0, count - 1))
        clampScroll(width: width, height: height)
        guard count > 0, let rows = ScreenRenderer.rowRange(ofPhoto: state.selection, state, width: width) else { return }
        let visible = max(1, ScreenRenderer.bodyHeight(state, height: height))
        if showSectionBelow || rows.lowerBound < state.scroll {
            state.scroll = rows.lowerBound
        } else if rows.upperBound >= state.scroll + visible {
            state.scroll = rows.upperBound - visible + 1
        }
        clampScroll(width: width, height: height)
    }

    private mutating func handleTagsPrompt(_ key: Key) -> ScreenCommand? {
        guard var text = state.prompt else { return nil }
        switch key {
        case .enter:
            state.prompt = nil
            return .changeTags(text)
        case .escape:
            state.prompt = nil
            return nil
        default:
            edit(&text, key)
            state.prompt = text
            return nil
        }
    }

    /// Typing the filter keeps the selected photo while it still matches, else selects the first match.
    private mutating func handleFilterPrompt(_ key: Key, width: Int, height: Int) {
        guard var text = state.filterPrompt else { return }
        let selected = state.selectedPhoto
        switch key {
        case .enter:
            state.filterPrompt = nil
        case .escape:
            state.filterPrompt = nil
            state.filter = ""
        default:
            edit(&text, key)
            state.filterPrompt = text
            state.filter = text
        }
        let kept = selected.flatMap { state.shownPhotos.firstIndex(of: $0) }
        select(kept ?? 0, width: width, height: height)
    }

    /// Line editing at `promptCursor`: typing, Backspace, ←/→, Home/End, Ctrl-U, Ctrl-W.
    private mutating func edit(_ text: inout String, _ key: Key) {
        var characters = Array(text)
        var cursor = min(max(0, state.promptCursor), characters.count)
        switch key {
        case .backspace:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .left:
            cursor = max(0, cursor - 1)
        case .right:
            cursor = min(characters.count, cursor + 1)
        case .home:
            cursor = 0
        case .end:
            cursor = characters.count
        case .deleteToStart:
            characters.removeFirst(cursor)
            cursor = 0
        case .deleteWord:
            var start = cursor
            while start > 0, characters[start - 1] == " " || characters[start - 1] == "," { start -= 1 }
            while start > 0, characters[start - 1] != " " && characters[start - 1] != "," { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .character(let character):
            guard characters.count < 200, !character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { break }
            characters.insert(character, at: cursor)
            cursor += 1
        default:
            break
        }
        text = String(characters)
        state.promptCursor = cursor
    }
}
