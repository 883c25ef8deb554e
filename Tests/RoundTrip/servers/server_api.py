"""The round trip's own calls to a server's API (making what a user has, counting resources),
shared by the snippets of scripts/round-trip-servers.

A 503 or 429 is asked again, as the servers' own clients do: Prefect answers 503 to a write that
met SQLite's lock (its client retries it), and the call is no check of anything."""
import json
import time
import urllib.error
import urllib.request

REFUSALS = (429, 503)


def call(base, headers, method, path, body=None, tries=6):
    """The JSON answer of one call (None for an empty body); raises on any other error."""
    data = None if body is None else json.dumps(body).encode()
    for attempt in range(1, tries + 1):
        request = urllib.request.Request(base + path, data=data, method=method,
                                         headers={**headers, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            if error.code not in REFUSALS or attempt == tries:
                raise
            time.sleep(0.25 * attempt)


def pages(base, headers, path):
    """Every item of a Kinto listing, following Next-Page."""
    items, url = [], base + path + "?_limit=10000"
    while url:
        request = urllib.request.Request(url, headers=headers)
        with urllib.request.urlopen(request, timeout=30) as response:
            items += json.load(response)["data"]
            url = response.headers.get("Next-Page")
    return items
