/// The difference between two lists of ``PhotoSection``s, with `Changeset(from: old, to: new).apply(to: old) == new`.
///
/// Sections are identified by position and kind: the sections at index `i` of both lists are
/// the same section when their kinds match; otherwise the old one is deleted and the new one
/// inserted. Rows are identified by the photo's `link`, across sections. When a link occurs
/// more than once in a list, its k-th occurrence in the old list (in reading order) is the
/// same row as its k-th occurrence in the new list; extra occurrences are deleted or inserted.
///
/// Paths follow batch-update conventions: deletions (`deletedSections`, `deletedItems`, move
/// sources) are in old coordinates, insertions (`insertedSections`, `insertedItems`, move
/// targets) and `updatedItems` in new coordinates. Every row of a deleted section is listed in
/// `deletedItems` or `movedItems`, and every row of an inserted section in `insertedItems` or
/// `movedItems`. A row is updated when its link is kept but another field changed; it may also
/// be moved. Rows that stay in their section keep their relative order; the others are moved
/// (a single row moved is one move; moves are not guaranteed minimal in general).
///
/// Computing and applying take expected time linear in the number of rows and sections.
public struct Changeset: Sendable, Equatable {
    /// Indices of removed sections in the old list, ascending.
    public let deletedSections: [Int]
    /// Indices of added sections in the new list, ascending.
    public let insertedSections: [Int]
    /// Paths of removed rows in the old list, ascending.
    public let deletedItems: [ItemPath]
    /// Paths of added rows in the new list, ascending.
    public let insertedItems: [ItemPath]
    /// Rows kept but placed elsewhere, ascending by `to`.
    public let movedItems: [ItemMove]
    /// Paths, in the new list, of kept rows whose fields other than `link` changed, ascending.
    public let updatedItems: [ItemPath]

    let insertedSectionKinds: [PhotoSection.Kind]
    let insertedValues: [PhotoSectionItem]
    let updatedValues: [PhotoSectionItem]

    /// Whether the two lists are identical, field for field.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && deletedItems.isEmpty
            && insertedItems.isEmpty && movedItems.isEmpty && updatedItems.isEmpty
    }

    /// The changes that turn `old` into `new`.
    public init(from old: [PhotoSection], to new: [PhotoSection]) {
        let common = min(old.count, new.count)
        var sectionKept = [Bool](repeating: false, count: common)
        var deletedSections: [Int] = []
        var insertedSections: [Int] = []
        var insertedSectionKinds: [PhotoSection.Kind] = []
        for index in 0..<common {
            if old[index].kind == new[index].kind {
                sectionKept[index] = true
            } else {
                deletedSections.append(index)
            }
        }
        deletedSections.append(contentsOf: common..<old.count)
        for index in 0..<new.count where index >= common || !sectionKept[index] {
            insertedSections.append(index)
            insertedSectionKinds.append(new[index].kind)
        }

        var oldPaths: [ItemPath] = []
        var oldItems: [PhotoSectionItem] = []
        for (sectionIndex, section) in old.enumerated() {
            for (itemIndex, item) in section.items.enumerated() {
                oldPaths.append(ItemPath(section: sectionIndex, item: itemIndex))
                oldItems.append(item)
            }
        }
        var nextOccurrence = [Int](repeating: -1, count: oldItems.count)
        var firstOccurrence: [String: Int] = [:]
        firstOccurrence.reserveCapacity(oldItems.count)
        for flat in oldItems.indices.reversed() {
            let identity = oldItems[flat].identity
            if let later = firstOccurrence.updateValue(flat, forKey: identity) {
                nextOccurrence[flat] = later
            }
        }

        var oldMatched = [Bool](repeating: false, count: oldItems.count)
        var insertedItems: [ItemPath] = []
        var insertedValues: [PhotoSectionItem] = []
        var movedItems: [ItemMove] = []
        var updatedItems: [ItemPath] = []
        var updatedValues: [PhotoSectionItem] = []
        var rowSources: [ItemPath?] = []
        var rowCandidates: [Int] = []
        var candidateOldItems: [Int] = []
        for (sectionIndex, section) in new.enumerated() {
            rowSources.removeAll(keepingCapacity: true)
            rowCandidates.removeAll(keepingCapacity: true)
            candidateOldItems.removeAll(keepingCapacity: true)
            let canKeep = sectionIndex < common && sectionKept[sectionIndex]
            for (itemIndex, item) in section.items.enumerated() {
                let path = ItemPath(section: sectionIndex, item: itemIndex)
                guard let slot = firstOccurrence.index(forKey: item.identity) else {
                    insertedItems.append(path)
                    insertedValues.append(item)
                    rowSources.append(nil)
                    rowCandidates.append(-1)
                    continue
                }
                let flat = firstOccurrence.values[slot]
                if nextOccurrence[flat] >= 0 {
                    firstOccurrence.values[slot] = nextOccurrence[flat]
                } else {
                    firstOccurrence.remove(at: slot)
                }
                oldMatched[flat] = true
                let from = oldPaths[flat]
                if !item.hasSameContent(as: oldItems[flat]) {
                    updatedItems.append(path)
                    updatedValues.append(item)
                }
                rowSources.append(from)
                if canKeep && from.section == sectionIndex {
                    rowCandidates.append(candidateOldItems.count)
                    candidateOldItems.append(from.item)
                } else {
                    rowCandidates.append(-1)
                }
            }
            let kept = Self.rowsKeepingOrder(candidateOldItems)
            for (itemIndex, source) in rowSources.enumerated() {
                guard let from = source else { continue }
                let candidate = rowCandidates[itemIndex]
                if candidate < 0 || !kept[candidate] {
                    movedItems.append(ItemMove(from: from, to: ItemPath(section: sectionIndex, item: itemIndex)))
                }
            }
        }

        var deletedItems: [ItemPath] = []
        for flat in oldItems.indices where !oldMatched[flat] {
            deletedItems.append(oldPaths[flat])
        }

        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
        self.insertedSectionKinds = insertedSectionKinds
        self.deletedItems = deletedItems
        self.insertedItems = insertedItems
        self.insertedValues = insertedValues
        self.movedItems = movedItems
        self.updatedItems = updatedItems
        self.updatedValues = updatedValues
    }

    /// Which rows keep their place: an increasing run of old indices, the larger of a forward
    /// and a backward greedy pass (so one row moved to either end costs one move).
    private static func rowsKeepingOrder(_ oldIndices: [Int]) -> [Bool] {
        var forward = [Bool](repeating: false, count: oldIndices.count)
        var forwardCount = 0
        var last = Int.min
        for (position, oldIndex) in oldIndices.enumerated() where oldIndex > last {
            forward[position] = true
            forwardCount += 1
            last = oldIndex
        }
        var backward = [Bool](repeating: false, count: oldIndices.count)
        var backwardCount = 0
        var first = Int.max
        for (position, oldIndex) in oldIndices.enumerated().reversed() where oldIndex < first {
            backward[position] = true
            backwardCount += 1
            first = oldIndex
        }
        return backwardCount > forwardCount ? backward : forward
    }

    /// Equal when every path and every carried row (field for field) is equal.
    public static func == (lhs: Changeset, rhs: Changeset) -> Bool {
        lhs.deletedSections == rhs.deletedSections
            && lhs.insertedSections == rhs.insertedSections
            && lhs.insertedSectionKinds == rhs.insertedSectionKinds
            && lhs.deletedItems == rhs.deletedItems
            && lhs.insertedItems == rhs.insertedItems
            && lhs.movedItems == rhs.movedItems
            && lhs.updatedItems == rhs.updatedItems
            && sameContent(lhs.insertedValues, rhs.insertedValues)
            && sameContent(lhs.updatedValues, rhs.updatedValues)
    }

    private static func sameContent(_ lhs: [PhotoSectionItem], _ rhs: [PhotoSectionItem]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.hasSameContent(as: $1) }
    }
}
