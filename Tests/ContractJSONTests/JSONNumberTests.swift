import ContractJSON
import Testing

struct JSONNumberTests {
    func number(_ text: String) throws -> JSONNumber {
        let value = try JSONParser().parse(text).value
        return try #require(value.numberValue)
    }

    @Test func integralDecimalsAreIntegers() throws {
        #expect(try number("1.0").isInteger)
        #expect(try number("1e3").isInteger)
        #expect(try number("1.0") == number("1"))
        #expect(try number("-0") == number("0"))
        #expect(try number("1.5").isInteger == false)
        #expect(try number("1.0").int64Value == 1)
    }

    @Test func decimalsStayExact() throws {
        #expect(try number("0.1").description == "0.1")
        #expect(try number("0.10").description == "0.1")
        #expect(try number("0.1") != number("0.1000000000000000055511151231257827"))
        #expect(try number("123.456e-2").description == "1.23456")
    }

    @Test func integersBeyond64BitsStayExact() throws {
        let big = try number("123456789012345678901234567890")
        #expect(big.isInteger)
        #expect(big.int64Value == nil)
        #expect(big.description == "1.2345678901234568e+29" || big.description == "1.2345678901234567890123456789e+29")
        #expect(big.description == "1.2345678901234567890123456789e+29")
        #expect(try number("9223372036854775807").int64Value == Int64.max)
        #expect(try number("-9223372036854775808").int64Value == Int64.min)
        #expect(try number("9223372036854775808").int64Value == nil)
        #expect(try number("9223372036854775808") > number("9223372036854775807"))
    }

    @Test(arguments: [
        ("100", "100"), ("1e21", "1e+21"), ("1e20", "100000000000000000000"), ("0.000001", "0.000001"),
        ("0.0000001", "1e-7"), ("-1.5E+2", "-150"), ("12.5e-10", "1.25e-9"), ("1E400", "1e+400"),
    ])
    func canonicalText(_ input: String, _ expected: String) throws {
        #expect(try number(input).description == expected)
    }

    @Test func ordering() throws {
        #expect(try number("0.1") < number("0.11"))
        #expect(try number("-2") < number("-1.5"))
        #expect(try number("1e400") > number("9e399"))
        #expect(try number("-1e400") < number("-9e399"))
        #expect(try number("0") < number("1e-400"))
    }

    @Test func hugeExponentsDoNotOverflow() throws {
        let huge = try number("1e99999999999999999999999999")
        #expect(huge.doubleValue == .infinity)
        let tiny = try number("1e-99999999999999999999999999")
        #expect(tiny.doubleValue == 0)
        #expect(tiny.isInteger == false)
    }

    @Test func doubleValue() throws {
        #expect(try number("0.1").doubleValue == 0.1)
        #expect(try number("-2.5e3").doubleValue == -2500)
    }

    @Test func parsesFromText() {
        #expect(JSONNumber("12.50")?.description == "12.5")
        #expect(JSONNumber(" 1") == nil)
        #expect(JSONNumber("01") == nil)
        #expect(JSONNumber("1.") == nil)
    }
}
