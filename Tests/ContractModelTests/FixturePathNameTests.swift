import ContractModel
import Testing

/// Contract ids and case names become fixture paths (`DIR/<id>/<case>.json` beside
/// `DIR/contract-fixtures.json`), so lint rejects those that are not a path on every platform.
struct FixturePathNameTests {
    func load(_ files: [String: String]) -> ContractSet {
        let sources = files.keys.sorted().map { SourceFile(path: "c/" + $0, relativePath: $0, bytes: Array(files[$0, default: ""].utf8)) }
        return ContractLoader.load(files: sources, directory: "c")
    }

    /// A valid contract with this id (at line 1, column 9) and these case names (case `n` at line `n + 3`, column 15).
    func contract(id: String, cases: [String] = ["ok"]) -> String {
        let caseLines = cases.map { #"    { "name": "\#($0)", "response": { "status": 200 } }"# }
        return """
            { "id": "\(id)",
              "request": { "method": "GET", "path": "/a" },
              "cases": [
            \(caseLines.joined(separator: ",\n"))
              ]
            }
            """
    }

    func errors(id: String, cases: [String] = ["ok"]) -> [String] {
        load(["x.json": contract(id: id, cases: cases)]).diagnostics.filter { $0.severity == .error }.map(\.rendered)
    }

    @Test func theRuleOnItsOwn() {
        #expect(FixturePathName.problem(with: "products.get", as: .contractID) == nil)
        #expect(FixturePathName.problem(with: "Com7.list", as: .contractID) == .windowsDevice)
        #expect(FixturePathName.problem(with: "lpt0", as: .caseName) == .windowsDevice)
        #expect(FixturePathName.problem(with: "Contract-Fixtures.json", as: .contractID) == .manifestName)
        #expect(FixturePathName.problem(with: "contract-fixtures.json", as: .caseName) == nil)
        #expect(FixturePathName.problem(with: "CONTRACT-FIXTURES", as: .caseName) == .manifestName)
        #expect(FixturePathName.problem(with: "contract-fixtures", as: .contractID) == nil)
        #expect(FixturePathName.problem(with: "a.", as: .caseName) == .trailingDot)
        #expect(FixturePathName.problem(with: String(repeating: "a", count: 201), as: .contractID) == .tooLong(length: 201))
        #expect(FixturePathName.collisionKey("Products.GET") == FixturePathName.collisionKey("products.get"))
    }

    static let device = "must not be a name Windows reserves for a device (CON, PRN, AUX, NUL, COM0-9, LPT0-9), with or without an extension"

    @Test(arguments: ["con", "CON", "Aux.get", "nul.json", "com1.x", "COM0", "lpt9", "prn.a.b"])
    func windowsDeviceNamesAreNotIds(id: String) {
        #expect(errors(id: id) == [#"c/x.json:1:9: error: 'id' \#(Self.device), found "\#(id)" [/id]"#])
    }

    @Test(arguments: ["con", "Aux.get", "nul.json", "LPT1"])
    func windowsDeviceNamesAreNotCaseNames(name: String) {
        #expect(errors(id: "a", cases: ["ok", name]) == [#"c/x.json:5:15: error: 'name' \#(Self.device), found "\#(name)" [/cases/1/name]"#])
    }

    @Test(arguments: ["console", "con-get", "com10", "lpt", "com", "aux_1", "nul-", "a.con", "com1-x"])
    func namesThatOnlyLookLikeDevicesAreFine(name: String) {
        #expect(errors(id: name, cases: [name]).isEmpty)
    }

    @Test func aTrailingDotIsAnError() {
        #expect(errors(id: "products.", cases: ["found.."]) == [
            #"c/x.json:1:9: error: 'id' must not end with '.' (Windows drops it, so "a." and "a" would be one file), found "products." [/id]"#,
            #"c/x.json:4:15: error: 'name' must not end with '.' (Windows drops it, so "a." and "a" would be one file), found "found.." [/cases/0/name]"#,
        ])
    }

    @Test(arguments: ["contract-fixtures.json", "Contract-Fixtures.JSON"])
    func theManifestNameIsNotAnId(id: String) {
        #expect(errors(id: id) == [
            #"c/x.json:1:9: error: 'id' must not be "contract-fixtures.json" in any case: the fixtures folder keeps that name for its manifest, found "\#(id)" [/id]"#
        ])
    }

    @Test func aCaseNameThatWouldBeTheManifestsFileIsAnError() {
        // Its fixture, `<id>/contract-fixtures.json`, would be taken for a manifest and skipped.
        #expect(errors(id: "a", cases: ["Contract-Fixtures"]) == [
            #"c/x.json:4:15: error: 'name' must not be "contract-fixtures" in any case: its fixture file would have the fixtures manifest's name, found "Contract-Fixtures" [/cases/0/name]"#
        ])
        #expect(errors(id: "contract-fixtures", cases: ["contract-fixtures.json"]).isEmpty)
    }

    @Test func idsAndCaseNamesAreAtMost200Characters() {
        let longest = String(repeating: "a", count: 200)
        #expect(errors(id: longest, cases: [longest]).isEmpty)
        let tooLong = String(repeating: "b", count: 201)
        #expect(errors(id: tooLong, cases: [tooLong + "cc"]) == [
            #"c/x.json:1:9: error: 'id' must be at most 200 characters long, so that its fixture's path fits every file system, found 201 characters [/id]"#,
            #"c/x.json:4:15: error: 'name' must be at most 200 characters long, so that its fixture's path fits every file system, found 203 characters [/cases/0/name]"#,
        ])
    }

    @Test func idsThatDifferOnlyInCaseCollide() {
        let set = load(["a.json": contract(id: "products.get"), "b.json": contract(id: "Products.Get"), "c.json": contract(id: "products.get")])
        #expect(set.diagnostics.map(\.rendered) == [
            "c/b.json:1:9: error: contract id 'Products.Get' differs only in case from 'products.get', first defined at c/a.json:1:9; file systems that ignore case would give both one fixture folder [/id]",
            "c/c.json:1:9: error: duplicate contract id 'products.get', first defined at c/a.json:1:9 [/id]",
        ])
    }

    @Test func caseNamesThatDifferOnlyInCaseCollide() {
        #expect(errors(id: "a", cases: ["found", "Found", "found"]) == [
            "c/x.json:5:15: error: case name 'Found' differs only in case from 'found', first used at line 4, column 15; file systems that ignore case would give both one fixture file [/cases/1/name]",
            "c/x.json:6:15: error: duplicate case name 'found', first used at line 4, column 15 [/cases/2/name]",
        ])
    }

    @Test func setupStepNamesAreNotPaths() {
        let text = """
            { "id": "a", "request": { "method": "GET", "path": "/a" },
              "cases": [{ "name": "ok", "setup": [{ "name": "con.", "request": { "method": "GET", "path": "/b" } }], "response": { "status": 200 } }] }
            """
        #expect(load(["x.json": text]).diagnostics.isEmpty)
    }

    @Test func aContractWithAnUnportableIdIsStillChecked() {
        // The id is reported, and the rest of the file is still read, so one run reports everything.
        let text = contract(id: "aux", cases: ["ok", "ok"])
        #expect(load(["x.json": text]).diagnostics.count == 2)
    }
}
