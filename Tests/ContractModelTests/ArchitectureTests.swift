import Foundation
import TestSupport
import Testing

/// docs/ARCHITECTURE.md draws the module graph; Package.swift declares it; the source files'
/// imports use it. The three must agree: a module that imports what it does not declare builds
/// only by luck (through another module's dependency), and a drawing that drifted misleads the
/// next engineer.
struct ArchitectureTests {
    static let root = SharedData.packageRoot

    /// The modules of the package and the external products they may name; Foundation, the C
    /// library (Glibc, or Musl in the static Linux SDK) and Dispatch come with the toolchain and
    /// are not part of the graph.
    static let system: Set<String> = ["Foundation", "FoundationNetworking", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch", "Synchronization"]

    /// `name -> dependencies` of every library and executable target in Package.swift, read from
    /// its text (`.target(name: "X", dependencies: [...])`, products by their names).
    static func declared() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var graph: [String: Set<String>] = [:]
        let pattern = try NSRegularExpression(pattern: #"\.(target|executableTarget)\(\s*name:\s*"([A-Za-z]+)"\s*,\s*dependencies:\s*\[(.*?)\]\s*[,)]"#, options: [.dotMatchesLineSeparators])
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let name = String(text[Range(match.range(at: 2), in: text)!])
            let list = String(text[Range(match.range(at: 3), in: text)!])
            let names = try NSRegularExpression(pattern: #"(?:\.product\(name:\s*)?"([A-Za-z][A-Za-z0-9]*)""#)
            var dependencies: Set<String> = []
            for item in names.matches(in: list, range: NSRange(list.startIndex..., in: list)) {
                let whole = String(list[Range(item.range, in: list)!])
                let captured = String(list[Range(item.range(at: 1), in: list)!])
                // `.product(name: "Yams", package: "Yams")`: the product's name, not the package's.
                if whole.hasPrefix(".product") || !list.contains("package: \"\(captured)\"") || list.contains(".product(name: \"\(captured)\"") {
                    dependencies.insert(captured)
                }
            }
            graph[name] = dependencies
        }
        // Targets without dependencies, and the system library of libcurl's headers.
        graph["CCurl"] = graph["CCurl"] ?? []
        graph["ContractTesting"] = graph["ContractTesting"] ?? []
        graph["ContractFiles"] = graph["ContractFiles"] ?? []
        graph["ContractJSON"] = graph["ContractJSON"] ?? []
        return graph
    }

    /// `module -> modules its files import`, for every folder under Sources.
    static func imported() throws -> [String: Set<String>] {
        let sources = root.appendingPathComponent("Sources")
        var graph: [String: Set<String>] = [:]
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) where !module.hasPrefix(".") {
            var imports: Set<String> = []
            let folder = sources.appendingPathComponent(module)
            for path in FileManager.default.subpaths(atPath: folder.path) ?? [] where path.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                        words[..<index].allSatisfy({ $0.hasPrefix("@") || $0 == "public" || $0 == "internal" || $0 == "private" })
                    else { continue }
                    imports.insert(String(words[index + 1]))
                }
            }
            graph[module] = imports.subtracting(system)
        }
        return graph
    }

    /// `module -> dependencies` as the module table of docs/ARCHITECTURE.md gives them: the
    /// backticked names and the product names in its last column.
    static func drawn(modules: Set<String>) throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        var graph: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let last = cells[cells.count - 2]
            var dependencies: Set<String> = []
            for candidate in modules where last.range(of: #"(^|[^A-Za-z])\#(candidate)([^A-Za-z]|$)"#, options: .regularExpression) != nil {
                dependencies.insert(candidate)
            }
            graph[name] = dependencies
        }
        return graph
    }

    @Test func everyImportIsDeclaredInPackageSwift() throws {
        let declared = try Self.declared()
        for (module, imports) in try Self.imported() {
            let allowed = try #require(declared[module], "Sources/\(module) is no target of Package.swift")
            // ContractTesting fails the running test, in whichever framework runs it.
            let frameworks: Set<String> = module == "ContractTesting" ? ["Testing", "XCTest"] : []
            let undeclared = imports.subtracting(allowed).subtracting([module]).subtracting(frameworks)
            #expect(undeclared.isEmpty, "Sources/\(module) imports \(undeclared.sorted()) without declaring it in Package.swift")
        }
    }

    @Test func everyDeclaredDependencyIsImported() throws {
        let imported = try Self.imported()
        for (module, dependencies) in try Self.declared() {
            guard let imports = imported[module] else { continue }  // benchmarks and test support live elsewhere
            let unused = dependencies.subtracting(imports)
            #expect(unused.isEmpty, "\(module) declares \(unused.sorted()) in Package.swift but no file of it imports them")
        }
    }

    @Test func theDocumentDrawsThePackagesGraph() throws {
        let declared = try Self.declared()
        let sources = Set(try Self.imported().keys)
        let everything = Set(declared.values.joined()).union(declared.keys)
        let drawn = try Self.drawn(modules: everything)
        for module in sources {
            let dependencies = try #require(drawn[module], "docs/ARCHITECTURE.md has no row for the module \(module)")
            let wanted = declared[module] ?? []
            #expect(dependencies == wanted, "docs/ARCHITECTURE.md: \(module) depends on \(wanted.sorted()), the table says \(dependencies.sorted())")
        }
    }

    /// The one way modules depend: ContractTesting, which users link into app test targets, links
    /// the request checks and the validator, nothing of the tool (no model, no libcurl, no file
    /// edge), and no library depends on the executable or on a test helper.
    @Test func dependenciesPointOneWay() throws {
        let declared = try Self.declared()
        #expect(declared["ContractTesting"] == ["ContractRequests", "ContractSchema", "ContractJSON"], "\(declared["ContractTesting"] ?? [])")
        #expect(declared["ContractRequests"] == ["ContractSchema", "ContractJSON"], "\(declared["ContractRequests"] ?? [])")
        #expect(declared["ContractTestingOpenAPI"] == ["ContractTesting", "OpenAPIRuntime", "HTTPTypes"])
        // The mock server UI tests link: the request checks and SwiftNIO, nothing of the tool,
        // and not ContractTesting, whose frameworks (Testing, XCTest) the executable must not link.
        #expect(
            declared["ContractMockServer"] == ["ContractRequests", "ContractSchema", "ContractJSON", "NIOCore", "NIOConcurrencyHelpers", "NIOPosix", "NIOHTTP1"],
            "\(declared["ContractMockServer"] ?? [])")
        var visiting: [String] = []
        func visit(_ module: String) {
            #expect(!visiting.contains(module), "a cycle: \(visiting + [module])")
            guard !visiting.contains(module) else { return }
            visiting.append(module)
            for dependency in declared[module] ?? [] { visit(dependency) }
            visiting.removeLast()
        }
        for module in declared.keys { visit(module) }
        for (module, dependencies) in declared where module != "contract" {
            #expect(!dependencies.contains("contract") && !dependencies.contains("TestSupport"), "\(module): \(dependencies.sorted())")
        }
    }
}
