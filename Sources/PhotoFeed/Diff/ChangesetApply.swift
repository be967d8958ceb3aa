extension Changeset {
    /// The list this changeset leads to, rebuilt from `sections`, the list it was computed from:
    /// `Changeset(from: old, to: new).apply(to: old)` equals `new` field for field.
    ///
    /// Applied to a different list the result is unspecified, but nothing traps: paths out of
    /// range are skipped.
    public func apply(to sections: [PhotoSection]) -> [PhotoSection] {
        var leaving = sections.map { [Bool](repeating: false, count: $0.items.count) }
        func markLeaving(_ path: ItemPath) {
            guard leaving.indices.contains(path.section), leaving[path.section].indices.contains(path.item) else { return }
            leaving[path.section][path.item] = true
        }
        for path in deletedItems { markLeaving(path) }
        for move in movedItems { markLeaving(move.from) }

        var sectionDeleted = [Bool](repeating: false, count: sections.count)
        for index in deletedSections where sectionDeleted.indices.contains(index) {
            sectionDeleted[index] = true
        }
        var survivors: [(kind: PhotoSection.Kind, staying: [PhotoSectionItem])] = []
        survivors.reserveCapacity(sections.count)
        for (sectionIndex, section) in sections.enumerated() where !sectionDeleted[sectionIndex] {
            var staying: [PhotoSectionItem] = []
            staying.reserveCapacity(section.items.count)
            for (itemIndex, item) in section.items.enumerated() where !leaving[sectionIndex][itemIndex] {
                staying.append(item)
            }
            survivors.append((section.kind, staying))
        }

        var layout: [(kind: PhotoSection.Kind, staying: [PhotoSectionItem])] = []
        layout.reserveCapacity(survivors.count + insertedSections.count)
        var nextInsertion = 0
        var nextSurvivor = 0
        while nextInsertion < insertedSections.count || nextSurvivor < survivors.count {
            if nextInsertion < insertedSections.count,
                insertedSections[nextInsertion] <= layout.count || nextSurvivor == survivors.count
            {
                layout.append((insertedSectionKinds[nextInsertion], []))
                nextInsertion += 1
            } else {
                layout.append(survivors[nextSurvivor])
                nextSurvivor += 1
            }
        }

        var incoming: [ItemPath: PhotoSectionItem] = [:]
        incoming.reserveCapacity(insertedItems.count + movedItems.count)
        var incomingCount = [Int](repeating: 0, count: layout.count)
        func arrive(_ value: PhotoSectionItem, at path: ItemPath) {
            guard incomingCount.indices.contains(path.section), path.item >= 0 else { return }
            if incoming.updateValue(value, forKey: path) == nil {
                incomingCount[path.section] += 1
            }
        }
        for (path, value) in zip(insertedItems, insertedValues) { arrive(value, at: path) }
        for move in movedItems {
            let from = move.from
            guard sections.indices.contains(from.section), sections[from.section].items.indices.contains(from.item) else {
                continue
            }
            arrive(sections[from.section].items[from.item], at: move.to)
        }

        var rows: [[PhotoSectionItem]] = []
        rows.reserveCapacity(layout.count)
        for (sectionIndex, entry) in layout.enumerated() {
            guard incomingCount[sectionIndex] > 0 else {
                rows.append(entry.staying)
                continue
            }
            let count = entry.staying.count + incomingCount[sectionIndex]
            var items: [PhotoSectionItem] = []
            items.reserveCapacity(count)
            var nextStaying = 0
            for itemIndex in 0..<count {
                if let value = incoming[ItemPath(section: sectionIndex, item: itemIndex)] {
                    items.append(value)
                } else if nextStaying < entry.staying.count {
                    items.append(entry.staying[nextStaying])
                    nextStaying += 1
                }
            }
            items.append(contentsOf: entry.staying[nextStaying...])
            rows.append(items)
        }

        for (path, value) in zip(updatedItems, updatedValues)
        where rows.indices.contains(path.section) && rows[path.section].indices.contains(path.item) {
            rows[path.section][path.item] = value
        }

        return zip(layout, rows).map { PhotoSection(kind: $0.kind, items: $1) }
    }
}
