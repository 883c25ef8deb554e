"""Items service: a small FastAPI CRUD app, written the way a team writes one.

scripts/round-trip imports the OpenAPI document this app serves (/openapi.json) with
`contract import openapi` and verifies the same app against the contracts it gets.

Run it:  ITEMS_TOKEN=secret python app.py --port 8000   (or PORT=8000; or `uvicorn app:app`)
Creating an item needs the header `x-token: $ITEMS_TOKEN` (401 otherwise, and always when
ITEMS_TOKEN is not set).

Deliberate drift: `created_at` is a naive datetime (no tzinfo), which FastAPI serializes without
an offset ("2026-11-24T09:00:00.123456"), while the document says `format: date-time` (RFC 3339,
which requires an offset). Many real FastAPI services do exactly this; verify must report it.
"""

import argparse
import itertools
import os
import secrets
from datetime import datetime
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException, Query, Response, status
from pydantic import BaseModel, Field

app = FastAPI(
    title="Items service",
    version="1.0.0",
    description="Items of a catalogue: create, list, read, replace and delete.",
)


class ItemIn(BaseModel):
    name: str = Field(min_length=1, max_length=100)
    price: float = Field(gt=0)
    description: str | None = None
    tags: list[str] = []


class Item(ItemIn):
    id: int
    created_at: datetime


class Message(BaseModel):
    """FastAPI's usual error body, as HTTPException sends it."""

    detail: str


NOT_FOUND = {404: {"model": Message, "description": "No item with that id"}}

_items: dict[int, Item] = {}
_ids = itertools.count(1)


def _find(item_id: int) -> Item:
    item = _items.get(item_id)
    if item is None:
        raise HTTPException(status_code=404, detail="Item not found")
    return item


@app.post(
    "/items",
    response_model=Item,
    status_code=status.HTTP_201_CREATED,
    tags=["items"],
    summary="Create an item",
    responses={401: {"model": Message, "description": "Missing or wrong x-token"}},
)
def create_item(item: ItemIn, x_token: Annotated[str, Header()]) -> Item:
    expected = os.environ.get("ITEMS_TOKEN")
    if not expected or not secrets.compare_digest(x_token.encode(), expected.encode()):
        raise HTTPException(status_code=401, detail="Invalid X-Token header")
    # Naive on purpose (see the module docstring): serialized without an offset.
    created = Item(id=next(_ids), created_at=datetime.now(), **item.model_dump())
    _items[created.id] = created
    return created


@app.get("/items", response_model=list[Item], tags=["items"], summary="List items")
def list_items(limit: Annotated[int, Query(ge=1, le=100)] = 10) -> list[Item]:
    return list(_items.values())[:limit]


@app.get("/items/{item_id}", response_model=Item, tags=["items"], summary="Read an item", responses=NOT_FOUND)
def read_item(item_id: int) -> Item:
    return _find(item_id)


@app.put("/items/{item_id}", response_model=Item, tags=["items"], summary="Replace an item", responses=NOT_FOUND)
def replace_item(item_id: int, item: ItemIn) -> Item:
    old = _find(item_id)
    new = Item(id=old.id, created_at=old.created_at, **item.model_dump())
    _items[item_id] = new
    return new


@app.delete(
    "/items/{item_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    tags=["items"],
    summary="Delete an item",
    responses=NOT_FOUND,
)
def delete_item(item_id: int) -> Response:
    _find(item_id)
    del _items[item_id]
    return Response(status_code=status.HTTP_204_NO_CONTENT)


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description="Run the items service.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")),
                        help="0 picks a free port (printed by uvicorn); default $PORT or 8000")
    args = parser.parse_args()
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")


if __name__ == "__main__":
    main()
