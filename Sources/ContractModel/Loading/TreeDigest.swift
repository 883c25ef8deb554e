/// What a contracts tree is, as one SHA-256: every file the tree holds (contracts, shared
/// schemas, `contract.json`), by its path inside the tree and its bytes. Two runs with the same
/// digest read the same contracts; reports carry it so that the shards of one run can be told
/// from shards of a tree edited in between (`contract merge`). Where the tree lies and how its
/// path was spelt do not count.
public enum TreeDigest {
    public static func of(_ files: [SourceFile]) -> String {
        var hash = SHA256()
        for file in files.sorted(by: { $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8) }) {
            // Each file framed by its path and length, so no two trees hash the same stream.
            hash.update(file.relativePath)
            hash.update([0])
            hash.update(String(file.bytes.count))
            hash.update([0])
            hash.update(file.bytes)
        }
        return hash.hexDigest()
    }
}
