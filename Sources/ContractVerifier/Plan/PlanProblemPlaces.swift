import ContractJSON
import ContractModel

/// Places a plan problem in the contract it concerns: file, line and column, and pointer. Line
/// and column come from the contract's parsed document, which the plan needs only while it is
/// made; a set whose contract documents were already dropped still gives file and pointer.
struct PlanProblemPlaces {
    private let documents: [String: JSONDocument]
    private let relativePaths: [String: String]

    init(_ set: ContractSet) {
        documents = set.documents
        relativePaths = set.relativePaths
    }

    func error(_ message: String, file: String, at pointer: JSONPointer) -> Diagnostic {
        let document = documents[relativePaths[file] ?? file]
        return .error(message, file: file, location: document?.nearestLocation(of: pointer), pointer: pointer)
    }

    /// Where `${env:variable}` is first written for `testCase`: in the case (its request, setup
    /// steps and header checks), else in the endpoint's request it inherits, else the case itself.
    func firstUse(of variable: String, in contract: Contract, _ testCase: ContractCase) -> JSONPointer {
        guard let root = documents[relativePaths[contract.file] ?? contract.file]?.value else { return testCase.pointer }
        for start in [testCase.pointer, JSONPointer(tokens: ["request"])] {
            if let value = root[pointer: start], let found = Self.firstString(in: value, at: start, mentioning: variable) { return found }
        }
        return testCase.pointer
    }

    /// The first string, in document order, whose placeholders read `variable`.
    private static func firstString(in value: JSONValue, at pointer: JSONPointer, mentioning variable: String) -> JSONPointer? {
        switch value {
        case .string(let string):
            guard string.contains("${env:"), let template = try? TemplateString(parsing: string) else { return nil }
            return template.environmentVariables.contains(variable) ? pointer : nil
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = firstString(in: element, at: pointer.appending(index), mentioning: variable) { return found }
            }
            return nil
        case .object(let object):
            for member in object.members {
                if let found = firstString(in: member.value, at: pointer.appending(member.key), mentioning: variable) { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
