import PhotoFeed

/// j: `Changeset(from:to:)` with 5% edits at 10k and 100k items, to show linear growth.
enum ChangesetBenchmarks {
    static func run(_ context: BenchmarkContext) {
        let small = context.size(10_000)
        let large = context.size(100_000)
        let smallNanos = diff(context, items: small)
        let largeNanos = diff(context, items: large)
        if let smallNanos, let largeNanos {
            context.report(BenchmarkResult(
                name: "j.growth", unit: "x", value: largeNanos.ours * Double(large) / (smallNanos.ours * Double(small)),
                baseline: largeNanos.baseline * Double(large) / (smallNanos.baseline * Double(small)),
                baselineName: "the hash lookup's own growth (linear work)"))
        }
    }

    /// ns per item of the changeset and of the baseline, or `nil` when filtered out.
    private static func diff(_ context: BenchmarkContext, items: Int) -> (ours: Double, baseline: Double)? {
        let name = "j.changeset-\(items >= 1_000 ? "\(items / 1_000)k" : "\(items)")"
        guard context.selects(name) || context.selects("j.growth") else { return nil }
        let (old, new) = sections(items: items)
        let result = context.measurement.compare(operations: items, ours: {
            let changeset = Changeset(from: old, to: new)
            return changeset.insertedItems.count &+ changeset.deletedItems.count
                &+ changeset.movedItems.count &+ changeset.updatedItems.count
        }, baseline: {
            identityLookup(old, new)
        })
        context.report(BenchmarkResult(name: name, unit: "ns/item", value: result.ours, baseline: result.baseline,
                                       baselineName: "hash old links, look up new"))
        return result
    }

    /// The floor of any hash-based diff: index the old identities, look up every new one.
    private static func identityLookup(_ old: [PhotoSection], _ new: [PhotoSection]) -> Int {
        var index: [String: Int] = [:]
        index.reserveCapacity(old.first?.items.count ?? 0)
        for (position, item) in (old.first?.items ?? []).enumerated() { index[item.identity] = position }
        var found = 0
        for item in new.first?.items ?? [] where index[item.identity] != nil { found += 1 }
        return found
    }

    /// One section of `items` photos, and an edited copy: 1.25% each deleted, inserted, moved, updated.
    static func sections(items: Int) -> (old: [PhotoSection], new: [PhotoSection]) {
        var random = SimpleRandom(seed: UInt64(items))
        let photos = (0..<items).map(photo)
        var edited = photos
        let edits = max(1, items / 80)
        for _ in 0..<edits {
            let position = random.below(edited.count)
            edited[position].title += " (edited)"
        }
        for _ in 0..<edits {
            let from = random.below(edited.count)
            let moved = edited.remove(at: from)
            edited.insert(moved, at: random.below(edited.count + 1))
        }
        for _ in 0..<edits { edited.remove(at: random.below(edited.count)) }
        for extra in 0..<edits { edited.insert(photo(items + extra), at: random.below(edited.count + 1)) }
        return ([.result(photos.map(PhotoSectionItem.result))], [.result(edited.map(PhotoSectionItem.result))])
    }

    private static func photo(_ index: Int) -> Photo.Item {
        Photo.Item(
            title: "Photo \(index)", link: "https://www.flickr.com/photos/bench/\(index)/",
            media: .init(m: "https://live.staticflickr.com/65535/\(index)_m.jpg"),
            author: "nobody@flickr.com (\"bench\")", authorID: "1@N01",
            published: "2026-11-21T00:00:00Z", tags: "bench", description: "")
    }

    /// A small deterministic generator (xorshift) so every run diffs the same edits.
    struct SimpleRandom {
        var state: UInt64

        init(seed: UInt64) { state = seed | 1 }

        mutating func below(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(max(1, bound)))
        }
    }
}
