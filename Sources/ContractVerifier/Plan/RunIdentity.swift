import ContractModel

/// What a run is, apart from its results: the tree, the cases of the whole run (all shards), the
/// baseline and what fails it. The shards of one run share all of it but ``shard``; reports carry
/// it so that `contract merge` can tell the parts of one run from those of another, and put the
/// cases back in the order one unsharded run would have.
public struct RunIdentity: Sendable, Hashable {
    /// ``TreeDigest`` of the contracts tree; nil for a plan made from contracts in memory.
    public var tree: String?
    /// SHA-256 of the whole run's cases in plan order, and of the options that change what the
    /// checks find (format assertion).
    public var plan: String
    /// Cases in the whole run, every shard together.
    public var cases: Int
    /// SHA-256 of the baseline's text, when the run has one.
    public var baseline: String?
    public var failOn: FailOn
    /// This part of the run, when sharded.
    public var shard: Shard?

    public init(tree: String?, plan: String, cases: Int, baseline: String?, failOn: FailOn, shard: Shard?) {
        self.tree = tree
        self.plan = plan
        self.cases = cases
        self.baseline = baseline
        self.failOn = failOn
        self.shard = shard
    }

    /// The run as a whole, as one unsharded run would describe itself.
    public var whole: RunIdentity {
        var whole = self
        whole.shard = nil
        return whole
    }

    /// The digest of the whole run's case names, in plan order.
    static func planDigest(_ names: [String], assertsFormats: Bool) -> String {
        var hash = SHA256()
        hash.update(assertsFormats ? "formats asserted\n" : "formats annotated\n")
        for name in names {
            hash.update(name)
            hash.update([0])
        }
        return hash.hexDigest()
    }
}

extension Shard: CustomStringConvertible {
    /// `2/4`, as `--shard` takes it.
    public var description: String { "\(index)/\(count)" }
}
