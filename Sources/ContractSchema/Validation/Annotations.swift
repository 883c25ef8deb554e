/// What the subschemas applied to one instance evaluated, for `unevaluatedProperties` and
/// `unevaluatedItems`. Only collected where such a keyword needs it.
struct Annotations {
    var properties: Set<String> = []
    var allProperties = false
    /// Items `0..<itemPrefix` were evaluated (by `prefixItems` or a draft 7 `items` array).
    var itemPrefix = 0
    var allItems = false
    var containedItems: Set<Int> = []

    mutating func merge(_ other: Annotations) {
        properties.formUnion(other.properties)
        allProperties = allProperties || other.allProperties
        itemPrefix = max(itemPrefix, other.itemPrefix)
        allItems = allItems || other.allItems
        containedItems.formUnion(other.containedItems)
    }
}
