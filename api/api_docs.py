"""The API's description: `/openapi.json` for any known key, and, only when an operator turns
it on (`RAILBIRD_API_DOCS=true`), Swagger UI at `/docs` with the schema public.

Why not FastAPI's own pages: they load Swagger UI and ReDoc from a public CDN (a floating major
version, no integrity check) into the service's origin, with inline script and no CSP, and on
an offline deployment they are blank. Here the UI's files come from the `fastapi-offline`
package installed with railbird, the starting script is a file of ours, and the page's CSP
allows nothing from any other host. ReDoc is not served.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Request, status
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from railbird.api.auth import KeyRing, api_key_header

SWAGGER_FILES = Path(str(files("fastapi_offline") / "static"))
OUR_FILES = Path(__file__).parent / "docs_static"
# Swagger UI sets styles through the DOM's style properties (which a CSP does not govern) and
# a few style attributes in its markup (which it does): hence 'unsafe-inline' for styles only.
DOCS_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; form-action 'none'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title} API</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css">
<link rel="icon" href="/docs/static/favicon.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script src="/docs/static/swagger-init.js"></script>
</body>
</html>
"""


def install(app: FastAPI, public: bool) -> None:
    """`/openapi.json` (a known key, or anyone when `public`), and `/docs` when `public`."""

    async def openapi(
        request: Request, key: Annotated[str | None, Depends(api_key_header)]
    ) -> JSONResponse:
        if not public:
            keyring: KeyRing = request.app.state.keyring
            if not key:
                raise HTTPException(status.HTTP_401_UNAUTHORIZED, "missing X-API-Key header")
            if keyring.lookup(key) is None:
                raise HTTPException(status.HTTP_401_UNAUTHORIZED, "unknown API key")
        document: dict[str, Any] = request.app.openapi()
        return JSONResponse(document)

    app.add_api_route("/openapi.json", openapi, include_in_schema=False, methods=["GET"])
    if not public:
        return
    page = _PAGE.format(title=app.title)

    async def docs() -> HTMLResponse:
        return HTMLResponse(page, headers={"Content-Security-Policy": DOCS_CSP})

    app.add_api_route("/docs", docs, include_in_schema=False, methods=["GET"])
    assets = StaticFiles(directory=str(SWAGGER_FILES))
    assets.all_directories = [*assets.all_directories, str(OUR_FILES)]  # our starting script
    app.mount("/docs/static", assets, name="docs-static")
