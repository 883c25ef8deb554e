// What a stub's recorded requests hold (`Received.violations`: `RequestViolation`) and what its
// fixtures describe (`StubFixture.endpoint`: `RequestDescription`) are ContractRequests' types: a
// test names them with `import ContractTesting` alone.
@_exported import ContractRequests
