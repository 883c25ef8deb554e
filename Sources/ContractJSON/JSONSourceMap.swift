/// Where each value (and each object key) of a parsed document starts, mirroring the value's shape.
public enum JSONSourceMap: Sendable {
    public struct Member: Sendable {
        public var keyOffset: Int
        public var value: JSONSourceMap
    }

    case scalar(offset: Int)
    case array(offset: Int, elements: [JSONSourceMap])
    case object(offset: Int, members: [Member])

    public var offset: Int {
        switch self {
        case .scalar(let offset), .array(let offset, _), .object(let offset, _): offset
        }
    }
}
