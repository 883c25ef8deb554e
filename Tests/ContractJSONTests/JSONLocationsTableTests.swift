import ContractJSON
import Testing

/// Locations are kept in blocks of 4,096 entries: a document of many more values finds each
/// value and key where its text puts it, on either side of every block's edge.
struct JSONLocationsTableTests {
    @Test(arguments: [false, true])
    func everyValueAndKeyIsFoundWhereItsTextIs(sharesValues: Bool) throws {
        // 10,000 objects of two members: about 30,000 entries, seven blocks and a part. The
        // members differ per element so that sharing cannot fold them.
        var text = "[\n"
        var valueOffsets: [Int] = []
        var keyOffsets: [Int] = []
        for index in 0..<10_000 {
            let prefix = index == 0 ? "" : ",\n"
            text += prefix + "{\"id\": "
            valueOffsets.append(text.utf8.count)
            text += "\(index), "
            keyOffsets.append(text.utf8.count)
            text += "\"name\": \"n\(index)\"}"
        }
        text += "\n]\n"
        let document = try JSONParser(sharesValues: sharesValues, keepsText: false).parse(Array(text.utf8))
        for index in [0, 1, 1_364, 1_365, 1_366, 4_095, 4_096, 4_097, 8_191, 8_192, 9_998, 9_999] {
            let line = index + 2
            let value = try #require(document.location(of: JSONPointer(tokens: [String(index), "id"])))
            #expect(value.offset == valueOffsets[index] && value.line == line, "element \(index)")
            let key = try #require(document.keyLocation(of: JSONPointer(tokens: [String(index), "name"])))
            #expect(key.offset == keyOffsets[index] && key.line == line, "element \(index)")
        }
        #expect(document.location(of: JSONPointer(tokens: ["10000"])) == nil)
    }
}
