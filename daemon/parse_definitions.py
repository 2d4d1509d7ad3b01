"""One definition node as a ``Definition``; the file's top-level variables.

Called by ``daemon.parse.summarize`` for each node the definitions query captures.
"""

from __future__ import annotations

import tree_sitter

from daemon.imports import is_commonjs_require
from daemon.languages import LanguageSpec
from daemon.nodes import IDENT, digest_text
from daemon.nodes import node_text as _text
from daemon.nodes import one_line as _one_line
from daemon.parse_access import access_label, inline_access
from daemon.parse_docs import definition_doc
from daemon.parse_members import SelfAttributes, class_attributes
from daemon.parse_names import (
    Scopes,
    definition_name,
    field_node,
    follow_declarator,
    named_as_defined,
    named_inner_type,
)
from daemon.parse_signature import (
    accessors_line,
    close_open_line,
    declaration_line,
    declared_return_type,
    keyword_block_head,
    noise_pattern,
    without_inner_comments,
)
from daemon.symbols import Definition, DefKind


def read_definition(
    spec: LanguageSpec,
    node: tree_sitter.Node,
    data: bytes,
    stack: list[tuple[int, str, DefKind]],
    attrs: SelfAttributes,
    absorbed: set[tuple[int, int]],
    scopes: Scopes | None,
) -> Definition | None:
    """The definition ``node`` (a definitions query capture) makes, or None where it makes
    none (a local variable, a use of a type, a field of a class that did not parse).
    ``stack``: the enclosing definitions as (end byte, qualname, kind); ``attrs``: the file's
    ``self.x =`` assignments; ``absorbed`` gains the inner types whose body a typedef took."""
    kind = spec.definitions[node.type]
    if kind is DefKind.VARIABLE and stack and stack[-1][2] is not DefKind.CLASS:
        return None  # a local variable (C declarations are the same node type)
    parents = spec.definition_parents.get(node.type)
    if parents and (node.parent is None or node.parent.type not in parents):
        return None  # Kotlin: a ``val`` of an ``init`` block or a lambda
    required = spec.required_fields.get(node.type)
    if required and node.child_by_field_name(required) is None:
        return None  # ``struct s *p``: a use of the type, not its definition
    name = definition_name(spec, node, data)
    declared = None
    if not name and spec.declarator:
        declared = follow_declarator(spec, node, data)
        name = _text(data, declared.name) if declared is not None else ""
    if not name:
        return None
    if not named_as_defined(spec, node.type, name):
        return None  # Ruby: ``@x = 1`` in a class body, no constant
    if kind is DefKind.VARIABLE and declared is not None and declared.function is not None:
        kind = DefKind.FUNCTION  # a prototype: ``int f(void);``
    in_class = bool(stack) and stack[-1][2] is DefKind.CLASS
    if kind is DefKind.VARIABLE and node.type in spec.member_nodes and not in_class:
        return None  # a field of a class that did not parse (its ``};`` being typed)
    parent = ""
    access = ""
    if in_class:
        parent = stack[-1][1]
        if kind is DefKind.FUNCTION:
            kind = DefKind.METHOD
        access = access_label(spec, node, data)
    elif stack:
        parent = ""  # nested in a function: still indexed, qualified by the function
    elif (
        declared is not None
        and declared.scope
        and (scopes is None or not scopes.is_namespace(declared.scope, name, declared.function))
    ):  # C++ ``double Shape::area() const {``; ``Shape geom::make_shape() {`` is a function
        parent = declared.scope
        if kind is DefKind.FUNCTION:
            kind = DefKind.METHOD
    receiver = node.child_by_field_name("receiver")  # Go methods
    if receiver is not None:
        recv_type = IDENT.findall(_text(data, receiver))
        parent = recv_type[-1] if recv_type else ""
    qualname = f"{parent}.{name}" if parent else (f"{stack[-1][1]}.{name}" if stack else name)
    body = field_node(spec, node, "body")
    whole = False
    if body is None and node.type == "type_spec":  # Go: a struct's or interface's body
        body = node.child_by_field_name("type")
        if body is not None and body.type not in ("struct_type", "interface_type"):
            body, whole = None, True  # ``type ID int64``, ``type H func(w io.Writer) error``
    if node.type == "type_alias_declaration":
        value = node.child_by_field_name("value")
        if value is not None and value.type == "object_type":
            body = value  # ``type Options = { a?: string }``: an interface written as a type
        else:
            whole = True  # ``type H = (c: Context) => Response``: shown as written
    # an expression for a body: Kotlin ``fun twice(x: Int) = x * 2``, C# ``int Twice(int x)
    # => x * 2;``: shown ``= …`` / ``=> …``; Kotlin ``class Empty``, ``data class P(val x:
    # Int)`` have no body to elide
    arrow = b""
    if body is not None and data[body.start_byte : body.start_byte + 1] == b"=":
        arrow = b"=>" if data[body.start_byte : body.start_byte + 2] == b"=>" else b"="
    if arrow or (spec.id == "kotlin" and body is None and kind is DefKind.CLASS):
        whole = True
    if body is not None and body.type == "ordered_field_declaration_list":
        body = None  # Rust ``struct P(i32, i32);``: shown as written
    typedef_body = False
    own_type = named_inner_type(spec, node) if kind is DefKind.VARIABLE else None
    if body is None and node.type in spec.typedef_nodes and own_type is None:
        inner = node.child_by_field_name("type")  # typedef struct {…} name; static struct {…} v;
        body = inner.child_by_field_name("body") if inner is not None else None
        if inner is not None and body is not None:
            typedef_body = True
            absorbed.add((inner.start_byte, inner.end_byte))
    params_node = field_node(spec, node, "parameters")
    own_params = [c for c in node.named_children if c.type in spec.parameter_nodes] if (
        spec.parameter_nodes and params_node is None) else []
    if declared is not None and declared.function is not None:
        params_node = declared.function.child_by_field_name("parameters")
    if node.type == "class_definition":
        params_node = node.child_by_field_name("superclasses")
    start, start_line = node.start_byte, node.start_point[0]
    wrapper = node.parent
    if wrapper is not None and wrapper.type in spec.wrapper_nodes:
        start, start_line = wrapper.start_byte, wrapper.start_point[0]  # decorators, templates
    if kind is DefKind.VARIABLE and not typedef_body:
        signature = declaration_line(spec, node, start, data, declared, own_type)
        accessors = node.child_by_field_name("accessors")  # C# ``{ get { … } set { … } }``
        if accessors is not None and accessors.end_point[0] > accessors.start_point[0]:
            signature = accessors_line(node, accessors, start, data)
    else:
        if spec.block_end:
            sig_text = keyword_block_head(spec, node, body, start, data)
        elif body is not None and body.start_byte > node.start_byte:
            sig_text = data[start : body.start_byte].decode("utf-8", "replace")
        else:
            sig_text = data[start : node.end_byte].decode("utf-8", "replace")
        signature = _one_line(without_inner_comments(sig_text, spec.id))
        if spec.block_end:
            pass  # ``def reset; end``: no declaration, a definition with an empty body
        elif body is None and kind is not DefKind.CLASS and not spec.doc_in_body:
            # a declaration without a body whose node leaves out the ";" (a TypeScript
            # interface's or abstract method): shown as written, not as ``f() { … }`` (where
            # lines end declarations, without a ";": Kotlin, Swift)
            if spec.semicolons:
                signature = signature if signature.endswith(";") else f"{signature};"
            else:
                whole = True
        if typedef_body and body is not None:  # the name follows the body
            trailer = _one_line(data[body.end_byte : node.end_byte].decode("utf-8", "replace"))
            signature = f"{signature} {spec.elided_body} {trailer}".rstrip()
    if arrow:
        signature = f"{signature} {arrow.decode()} …"
    if inline := inline_access(spec, node, data):
        signature = f"{inline} {signature}"  # Ruby ``private def x``: x's alone
    if node.type == "type_spec" and body is not None:  # Go: "type Name struct"
        signature = f"type {name} {_text(data, body).split(None, 1)[0].split('{')[0]}"
    elif whole and node.type == "type_spec":  # Go: the ``type`` keyword is the parent's
        signature = f"type {signature}"
    if spec.noise_attributes:
        signature = noise_pattern(spec.noise_attributes).sub("", signature)
    if len(signature) > 400:
        signature = signature[:400] + " …"
    end_line = node.end_point[0]
    if node.end_point[1] == 0 and end_line > start_line:
        end_line -= 1  # ``#define X 1\n`` ends with its newline
    if kind is DefKind.VARIABLE:  # a field, a global, a macro: its doc comment, no body
        return Definition(
            name=name,
            kind=kind,
            qualname=qualname,
            signature=signature,
            params="",
            return_type="",
            # the type's doc where it defines a type (``struct s {…} v;``)
            doc=definition_doc(spec, node, None, data) if own_type is None else "",
            start_line=start_line,
            end_line=end_line,
            body_start_line=start_line,
            parent=parent,
            access=access,
        )
    return_type = ""
    if kind is not DefKind.CLASS:
        ret_node = next(
            (c for f in spec.return_fields if (c := field_node(spec, node, f)) is not None),
            None,
        )
        if ret_node is not None and declared is not None and declared.function is not None:
            return_type = declared_return_type(node, ret_node, declared, data)
        elif ret_node is not None:
            return_type = _one_line(_text(data, ret_node))
    doc = definition_doc(spec, node, body, data)
    attributes: tuple[str, ...] = ()
    if kind is DefKind.CLASS and body is not None:
        attributes = class_attributes(spec, body, data, attrs)
    body_start_line = body.start_point[0] if body is not None else node.start_point[0]
    if body is not None and body.type == "block":  # Python: body starts on the next line
        sig_lines = data.count(b"\n", start, body.start_byte)
        body_start_line = max(body_start_line, node.start_point[0] + (sig_lines or 1))
    return Definition(
        name=name,
        kind=kind,
        qualname=qualname,
        signature=signature,
        params=_one_line(_text(data, params_node)) if params_node is not None else (
            "(" + ", ".join(_one_line(_text(data, c)) for c in own_params) + ")"
            if own_params else ""),
        return_type=return_type,
        doc=doc,
        start_line=start_line,
        end_line=end_line,
        body_start_line=body_start_line,
        parent=parent,
        attributes=attributes,
        body_digest=digest_text(_text(data, node)),
        access=access,
        whole=whole,
    )


def top_level_variables(
    spec: LanguageSpec, root: tree_sitter.Node, data: bytes
) -> list[Definition]:
    """Top-level constants and assignments: one skeleton line each (first line only)."""
    out: list[Definition] = []
    if not spec.variable_nodes:
        return out
    for child in root.named_children:
        if child.type == "export_statement":  # ``export const f = (x) => …`` (JS/TS)
            declaration = child.child_by_field_name("declaration")
            if declaration is None:
                continue
            child = declaration
        if child.type not in spec.variable_nodes:
            continue
        if spec.import_syntax == "javascript" and is_commonjs_require(_text(data, child)):
            continue  # an import (``const m = require("m")``), listed with the imports
        name = ""
        if spec.id == "python":
            inner = child.named_children[0] if child.named_child_count else None
            if inner is None or inner.type != "assignment":
                continue
            left = inner.child_by_field_name("left")
            if left is None or left.type != "identifier":
                continue
            name = _text(data, left)
        else:
            match = IDENT.findall(_text(data, child).split("=", 1)[0])
            keywords = {"const", "let", "var", "export", "static", "pub", "mut", "type"}
            names = [w for w in match if w not in keywords]
            if not names:
                continue
            name = names[0]
        first = _text(data, child).split("\n", 1)[0]
        if len(first) > 120:
            first = first[:117] + " …"
        if child.end_point[0] > child.start_point[0]:  # multi-line: the first line, closed
            closed = close_open_line(
                first.rstrip(),
                "..." if spec.id == "python" else "…",
                spec.id,
            )
            # a first line that closes nothing and goes on (``const f = (x: T): R =>``)
            first = closed if closed != first.rstrip() or spec.id == "python" else f"{closed} …"
        out.append(
            Definition(
                name=name,
                kind=DefKind.VARIABLE,
                qualname=name,
                signature=first.rstrip(),
                params="",
                return_type="",
                doc="" if spec.doc_in_body else definition_doc(spec, child, None, data),
                start_line=child.start_point[0],
                end_line=child.end_point[0],
                body_start_line=child.start_point[0],
                body_digest="",
            )
        )
    return out
