"""The JSON API's documentation at ``/api/``: the OpenAPI schema rendered on the server as a
plain page (every path, method, parameter and response schema), so it reads offline; an
interactive docs page would load its scripts and styles from another host."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup, escape

from arena.web.deps import TEMPLATES

router = APIRouter()

METHODS = ("get", "put", "post", "delete", "patch")


def type_text(schema: dict[str, Any], components: dict[str, Any], depth: int = 0) -> str:
    """A schema in a few words: ``array of object {pool: string, ...}``, ``integer ≥ 0``."""
    if "$ref" in schema:
        name = schema["$ref"].rpartition("/")[2]
        return name if depth > 1 else type_text(components.get(name, {}), components, depth)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(type_text(s, components, depth) for s in schema[key])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {type_text(schema.get('items', {}), components, depth + 1)}"
    if kind == "object":
        fields = schema.get("properties", {})
        if not fields or depth > 1:
            return "object"
        inner = ", ".join(f"{k}: {type_text(v, components, depth + 1)}" for k, v in fields.items())
        return f"object {{{inner}}}"
    limits = [
        f"{word} {schema[key]}"
        for key, word in (
            ("minimum", "≥"),
            ("maximum", "≤"),
            ("minLength", "length ≥"),
            ("maxLength", "length ≤"),
        )
        if key in schema
    ]
    return " ".join([str(kind), *limits])


def _parameter(param: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    schema = param.get("schema", {})
    return {
        "name": param["name"],
        "where": param.get("in", ""),
        "required": bool(param.get("required")),
        "type": type_text(schema, components),
        "default": json.dumps(schema["default"]) if "default" in schema else "",
        "description": param.get("description", ""),
    }


def _responses(operation: dict[str, Any], components: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for status, answer in operation.get("responses", {}).items():
        if status == "422":  # parameter errors are answered 400, described on the page
            continue
        schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
        found.append(
            {
                "status": status,
                "description": answer.get("description", ""),
                "type": type_text(schema, components) if schema else "",
                "schema": json.dumps(schema, indent=2) if schema else "",
            }
        )
    return found


def endpoints(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Every path and method of an OpenAPI schema with its parameters and responses."""
    components = schema.get("components", {}).get("schemas", {})
    found = []
    for path, item in schema.get("paths", {}).items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            description = operation.get("description", "")
            found.append(
                {
                    "kind": "api" if path.startswith("/api/") else "page",
                    "method": method.upper(),
                    "path": path,
                    "anchor": re.sub(r"[^a-z0-9]+", "-", f"{method} {path}".lower()).strip("-"),
                    "summary": _docstring(_first_sentence(description)),
                    "description": _docstring(description),
                    "parameters": [
                        _parameter(p, components) for p in operation.get("parameters", [])
                    ],
                    "responses": _responses(operation, components),
                }
            )
    return sorted(found, key=lambda e: e["kind"] != "api")  # the JSON API first, then pages


def _first_sentence(text: str) -> str:
    first = " ".join(text.split()).split(". ")[0]
    return first if first.endswith(".") else first + "."


def _docstring(text: str) -> Markup:
    """A route's docstring as HTML: escaped, its ````code```` spans as code."""
    return Markup(re.sub(r"``(.+?)``", r"<code>\1</code>", str(escape(text)), flags=re.S))


@router.get("/api/", response_class=HTMLResponse, include_in_schema=False)
def api_docs(request: Request) -> HTMLResponse:
    """The API's documentation, from the same schema as ``/api/openapi.json``."""
    schema = request.app.openapi()
    context = {"info": schema.get("info", {}), "endpoints": endpoints(schema)}
    return TEMPLATES.TemplateResponse(request, "api.html", context)
