import ContractModel
import Testing

@testable import ContractFixtures

/// How the planner's work grows with a tree: with its cases plus its schema files, never with
/// their product, as in Microsoft Graph's modules (hundreds of cases over hundreds of schema
/// files, each case's body built by a synthesizer of its own). Counted, never timed.
struct PlanningGrowthTests {
    /// `contracts` contracts of one case each, whose body is built from the first of `files`
    /// schema files referring to one another in a chain.
    static func tree(contracts: Int, files: Int) -> ContractSet {
        var sources: [SourceFile] = []
        for index in 0..<files {
            let next = index + 1 < files ? #", "next": { "$ref": "s\#(index + 1).json" }"# : ""
            let text = #"{ "type": "object", "required": ["id"], "properties": { "id": { "type": "string" }\#(next) } }"#
            sources.append(SourceFile(path: "c/schemas/s\(index).json", relativePath: "schemas/s\(index).json", bytes: Array(text.utf8)))
        }
        for index in 0..<contracts {
            let text = """
                { "id": "item\(index).get", "request": { "method": "GET", "path": "/items\(index)" },
                  "cases": [ { "name": "ok", "response": { "status": 200, "schema": { "$ref": "schemas/s0.json" } } } ] }
                """
            sources.append(SourceFile(path: "c/item\(index).json", relativePath: "item\(index).json", bytes: Array(text.utf8)))
        }
        return ContractLoader.load(files: sources, directory: "c")
    }

    /// Documents looked through for identifiers while planning `tree`, and the fixtures made.
    static func work(_ set: ContractSet) -> (scanned: Int, fixtures: Int) {
        #expect(!set.hasErrors, "\(set.diagnostics.map(\.rendered))")
        let work = PlanningWork()
        let fixtures = PlanningWork.$current.withValue(work) { FixturePlanner(set).plan().fixtures.count }
        return (work.documentsScanned, fixtures)
    }

    @Test func lookingForIdentifiersIsDoneOnceForTheTreeNotOncePerCase() {
        let small = Self.work(Self.tree(contracts: 4, files: 30))
        let large = Self.work(Self.tree(contracts: 32, files: 30))
        #expect(small.fixtures == 4 && large.fixtures == 32)
        // Eight times the cases over the same schema files: the tree is looked through once, so the
        // work grows as the documents do (4 + 30 to 32 + 30), not eight times (once per case).
        #expect(small.scanned == 4 + 30, "\(small.scanned)")
        #expect(large.scanned == 32 + 30, "\(large.scanned)")
        #expect(Double(large.scanned) / Double(small.scanned) < 2)
    }

    /// `files` schema files, each an object with an optional member referring to each of the
    /// next `fanOut` files (wrapping around), like Graph's entities and their navigation
    /// properties; one contract whose body is built from the first.
    static func graph(files: Int, fanOut: Int) -> ContractSet {
        var sources: [SourceFile] = []
        for index in 0..<files {
            let links = (1...fanOut).map { #""link\#($0)": { "$ref": "g\#((index + $0) % files).json" }"# }.joined(separator: ", ")
            let text = #"{ "type": "object", "required": ["id"], "properties": { "id": { "type": "string" }, \#(links) } }"#
            sources.append(SourceFile(path: "c/schemas/g\(index).json", relativePath: "schemas/g\(index).json", bytes: Array(text.utf8)))
        }
        let contract = """
            { "id": "root.get", "request": { "method": "GET", "path": "/root" },
              "cases": [ { "name": "ok", "response": { "status": 200, "schema": { "$ref": "schemas/g0.json" } } } ] }
            """
        sources.append(SourceFile(path: "c/root.json", relativePath: "root.json", bytes: Array(contract.utf8)))
        return ContractLoader.load(files: sources, directory: "c")
    }

    static func steps(_ set: ContractSet) -> Int {
        #expect(!set.hasErrors, "\(set.diagnostics.map(\.rendered))")
        let work = PlanningWork()
        let fixtures = PlanningWork.$current.withValue(work) { FixturePlanner(set).plan().fixtures.count }
        #expect(fixtures == 1)
        return work.synthesisSteps
    }

    @Test func aBodyTakesStepsBoundedByTheCaseNotByTheSchemaGraph() {
        // Two optional links an object, each taken on a coin toss: the body ends soon. Six links:
        // each object leads to three more on average, level after level.
        let sparse = Self.steps(Self.graph(files: 8, fanOut: 2))
        let dense = Self.steps(Self.graph(files: 40, fanOut: 6))
        #expect(sparse > 0 && sparse <= BodySynthesizer.growthSteps, "\(sparse)")
        // Past the growth steps only required members are built: the dense graph's body stops
        // there, where it took a share of the whole step budget (3^8 objects expected).
        #expect(dense <= 2 * BodySynthesizer.growthSteps, "\(dense)")
    }
}
