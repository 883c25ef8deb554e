import Foundation
import Hummingbird

/// The endpoints of `contracts/`: health, and the product catalogue (list, get, create, update,
/// delete).
struct Routes: Sendable {
    let store: ProductStore
    let rendering: Rendering
    let token: String

    func register(on router: Router<BasicRequestContext>) {
        router.get("/health") { _, _ in json(200, #"{"status":"ok"}"#) }
        router.get("/api/products") { request, _ in await list(request) }
        router.get("/api/products/:id") { _, context in await get(context.parameters.get("id") ?? "") }
        router.post("/api/products") { request, _ in await create(request) }
        router.patch("/api/products/:id") { request, context in await update(request, context.parameters.get("id") ?? "") }
        router.delete("/api/products/:id") { request, context in await delete(request, context.parameters.get("id") ?? "") }
    }

    private func list(_ request: Request) async -> Response {
        let query = request.uri.queryParameters
        guard let number = Int(query.get("page_no") ?? "1"), number >= 1 else {
            return failure(.invalidPage("page_no must be 1 or more"))
        }
        guard let size = Int(query.get("items_per_page") ?? "20"), (1...100).contains(size) else {
            return failure(.invalidPage("items_per_page must be from 1 to 100"))
        }
        let page = await store.page(number: number, size: size)
        return json(200, rendering.page(page.items, number: number, size: size, total: page.total))
    }

    private func get(_ id: String) async -> Response {
        guard let number = Int(id), let product = await store.product(number) else { return failure(.notFound(id)) }
        return json(200, rendering.product(product))
    }

    private func create(_ request: Request) async -> Response {
        guard isAuthorized(request) else { return failure(.unauthorized) }
        guard let buffer = try? await request.body.collect(upTo: 1 << 20) else {
            return failure(.invalidProduct("the body must be at most 1 MiB of JSON"))
        }
        switch NewProduct.parse(Data(buffer.readableBytesView)) {
        case .failure(let error):
            return failure(error)
        case .success(var new):
            if rendering.drift.contains(.priceRoundedOnStore) { new.cents = (new.cents + 50) / 100 * 100 }
            let product = await store.create(new)
            var response = json(201, rendering.product(product))
            if !rendering.drift.contains(.missingLocation) { response.headers[.location] = "/api/products/\(product.id)" }
            return response
        }
    }

    /// The token first, then the id, then the body: a bad body for a missing product is a 404.
    private func update(_ request: Request, _ id: String) async -> Response {
        guard isAuthorized(request) else { return failure(.unauthorized) }
        guard let number = Int(id), await store.product(number) != nil else { return failure(.notFound(id)) }
        guard let buffer = try? await request.body.collect(upTo: 1 << 20) else {
            return failure(.invalidProduct("the body must be at most 1 MiB of JSON"))
        }
        switch ProductChanges.parse(Data(buffer.readableBytesView)) {
        case .failure(let error):
            return failure(error)
        case .success(var changes):
            if rendering.drift.contains(.updateResetsFields), changes.cents != nil, changes.currency == nil { changes.currency = "USD" }
            let updated = await store.update(
                number, with: changes, keep: !rendering.drift.contains(.updateNotStored), stamp: !rendering.drift.contains(.staleUpdatedAt))
            // Deleted since the look-up above.
            guard let product = updated else { return failure(.notFound(id)) }
            return json(200, rendering.product(product))
        }
    }

    private func delete(_ request: Request, _ id: String) async -> Response {
        guard isAuthorized(request) else { return failure(.unauthorized) }
        guard let number = Int(id), await store.product(number) != nil else { return failure(.notFound(id)) }
        if !rendering.drift.contains(.deleteKeepsProduct) { _ = await store.delete(number) }
        if rendering.drift.contains(.deleteReturnsOK) { return json(200, #"{"deleted":\#(number)}"#) }
        return Response(status: .noContent)
    }

    private func isAuthorized(_ request: Request) -> Bool {
        request.headers[.authorization] == "Bearer \(token)"
    }

    private func failure(_ error: APIError) -> Response {
        var response = json(error.status, rendering.error(error))
        if error.status == 401 { response.headers[.wwwAuthenticate] = #"Bearer realm="market""# }
        return response
    }
}

private func json(_ status: Int, _ body: String) -> Response {
    Response(
        status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
}
