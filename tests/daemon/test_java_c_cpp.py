"""Java, C and C++ summaries and skeletons: realistic files (overloads, nested types, generics
and templates, doc comments, preprocessor, strings that span lines, a file that does not parse)."""

from __future__ import annotations

import pytest

from daemon.context.assemble import summarize_stable
from daemon.languages import detect_language, editor_language
from daemon.parse import mask_prose, summarize
from daemon.skeleton import Outline, render_entry, render_skeleton
from daemon.symbols import DefKind
from engine.code_scan import open_state
from tests.daemon.summaries import defs, one

JAVA = '''package com.acme.store;

import java.util.ArrayList;
import java.util.List;
import static java.util.Objects.requireNonNull;
import com.acme.util.*;

/**
 * An inventory of items, kept in memory.
 *
 * @param <T> the item type
 */
public class Inventory<T extends Item> implements Iterable<T> {
    /** Most items one inventory holds. */
    public static final int MAX_ITEMS = 1_000;
    private final List<T> items = new ArrayList<>();
    private final String name;  // shown in reports

    /** Creates an empty inventory. */
    public Inventory(String name) {
        this.name = requireNonNull(name);
    }

    /** Creates an inventory holding {@code first}. */
    public Inventory(String name, T first) {
        this(name);
        add(first);
    }

    /**
     * Adds an item.
     * @return false when full
     */
    public boolean add(T item) {
        if (items.size() >= MAX_ITEMS) {
            return false;
        }
        return items.add(item);
    }

    // Sums the prices.
    public long total() {
        long sum = 0;
        for (T item : items) {
            sum += item.price();
        }
        return sum;
    }

    @Override
    public java.util.Iterator<T> iterator() {
        return items.iterator();
    }

    /** Where an item is kept. */
    public enum Location {
        SHELF, BACKROOM, WAREHOUSE;

        /** Whether customers see it. */
        boolean visible() { return this == SHELF; }
    }

    /** A line of a report. */
    public record Line(String sku, int count) {
        public Line {
            if (count < 0) throw new IllegalArgumentException("count");
        }
    }

    interface Listener {
        /** Called after an add. */
        void added(Object item);
    }

    static final String BANNER = """
        Inventory report (in stock)
        ================
        """;
}
'''

C_SOURCE = r"""/* queue.c - a ring buffer of ints. */
#include <stdlib.h>
#include <string.h>
#include "queue.h"

#define QUEUE_MIN 8
#define QUEUE_GROW(n) ((n) * 2 + \
                       QUEUE_MIN)

static const char *const NAMES[] = {
    "empty",
    "full",
};

/** A queue of ints. */
struct queue {
    int *items;
    size_t head, len, cap;
};

typedef enum { Q_OK, Q_FULL, Q_EMPTY } queue_status;

typedef int (*queue_visit_fn)(int item, void *ctx);

/**
 * Creates a queue.
 * Returns NULL when out of memory.
 */
struct queue *queue_new(size_t cap)
{
    struct queue *q = malloc(sizeof *q);
    if (!q) {
        return NULL;
    }
    q->items = calloc(cap, sizeof(int));
    return q;
}

// Pushes an item; Q_FULL when there is no room.
queue_status queue_push(struct queue *q, int item) {
    if (q->len == q->cap) return Q_FULL;
    q->items[(q->head + q->len++) % q->cap] = item;
    return Q_OK;
}

/* Returns the function that prints items. */
static void (*printer_for(int verbose))(int) {
    return verbose ? print_long : print_short;
}

const char OPEN = '{';
"""

C_HEADER = """#ifndef QUEUE_H
#define QUEUE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct queue;

/** Creates a queue of cap items. */
struct queue *queue_new(size_t cap);
/** Frees q. */
void queue_free(struct queue *q);
int queue_len(const struct queue *q);

#ifdef __cplusplus
}
#endif
#endif /* QUEUE_H */
"""

CPP = """#include <memory>
#include <string>
#include <vector>
#include "geometry/shape.hpp"

namespace geometry {

/// A polygon with n sides.
class Polygon : public Shape {
public:
    /// Builds a regular polygon.
    explicit Polygon(int sides, double length = 1.0);
    Polygon(const Polygon& other) = default;
    ~Polygon() override;

    /// The area, in square units.
    double area() const override;
    int sides() const { return sides_; }
    /// Scales it.
    Polygon& scale(double factor);
    Polygon& scale(double fx, double fy);

    static std::unique_ptr<Polygon> square(double side);

    struct Vertex {
        double x, y;
    };

private:
    int sides_;
    double length_;
    std::vector<Vertex> vertices_;
};

/// Largest element of a non-empty vector.
template <typename T>
const T& largest(const std::vector<T>& values) {
    return *std::max_element(values.begin(), values.end());
}

template <typename T, std::size_t N>
struct FixedStack {
    T data[N];
    std::size_t size = 0;
    void push(const T& value) { data[size++] = value; }
};

using Polygons = std::vector<Polygon>;

/** Computes the area from the side count. */
double Polygon::area() const {
    return sides_ * length_ * length_ / (4.0 * std::tan(kPi / sides_));
}

Polygon::Polygon(int sides, double length) : sides_(sides), length_(length) {}

Polygon& Polygon::scale(double factor) { return scale(factor, factor); }

const char* kHelp = R"(usage: poly [--sides N] (
  prints the area)";

}  // namespace geometry
"""


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("src/main/java/a/B.java", "java"),
        ("lib/queue.c", "c"),
        ("lib/queue.h", "cpp"),  # C++ parses C headers too; the C grammar no C++ header
        ("geo/poly.cpp", "cpp"),
        ("geo/poly.cc", "cpp"),
        ("geo/poly.cxx", "cpp"),
        ("geo/poly.hpp", "cpp"),
        ("geo/poly.hh", "cpp"),
        ("geo/poly.hxx", "cpp"),
        ("kern/saxpy.cu", "cpp"),  # CUDA, parsed as C++
        ("kern/saxpy.cuh", "cpp"),
    ],
)
def test_the_extensions_of_java_c_and_cpp(path: str, language: str) -> None:
    assert detect_language(path) == language


def test_an_editors_language_id_without_a_grammar_gives_way_to_the_extensions() -> None:
    assert editor_language("src/poly.cpp", "c++") == "cpp"  # Emacs eglot: from c++-mode
    assert editor_language("src/queue.h", "c") == "c"  # the editor's choice, a known one
    assert editor_language("src/App.java", "java") == "java"
    assert editor_language("src/a.jsx", "javascriptreact") == "javascript"
    assert editor_language("build.gradle", "groovy") == "groovy"  # no grammar either way
    assert editor_language("notes.md", None) == "text"


def test_java_classes_members_overloads_and_javadoc() -> None:
    s = summarize("src/main/java/com/acme/store/Inventory.java", JAVA)
    assert s.language == "java" and not s.has_syntax_errors
    cls = one(s, "Inventory")
    assert cls.kind.value == "class"
    assert cls.doc == "An inventory of items, kept in memory."
    assert cls.signature == "public class Inventory<T extends Item> implements Iterable<T>"
    assert one(s, "Inventory.MAX_ITEMS").kind.value == "variable"
    assert one(s, "Inventory.MAX_ITEMS").signature == "public static final int MAX_ITEMS = 1_000;"
    assert one(s, "Inventory.name").signature == "private final String name;"
    ctors = defs(s)["Inventory.Inventory"]  # overloads: both kept
    assert [(c.kind.value, c.params, c.doc) for c in ctors] == [
        ("method", "(String name)", "Creates an empty inventory."),
        ("method", "(String name, T first)", "Creates an inventory holding {@code first}."),
    ]
    add = one(s, "Inventory.add")
    assert (add.kind.value, add.params, add.return_type, add.doc, add.parent) == (
        "method",
        "(T item)",
        "boolean",
        "Adds an item.",
        "Inventory",
    )
    assert one(s, "Inventory.total").doc == "Sums the prices."
    iterator = one(s, "Inventory.iterator")
    assert iterator.signature == "@Override public java.util.Iterator<T> iterator()"
    assert iterator.return_type == "java.util.Iterator<T>"
    location = one(s, "Inventory.Location")  # nested enum: a class with its constants
    assert location.parent == "Inventory" and location.doc == "Where an item is kept."
    assert location.attributes == ("SHELF", "BACKROOM", "WAREHOUSE")
    assert one(s, "Inventory.Location.visible").parent == "Inventory.Location"
    line = one(s, "Inventory.Line")
    assert (line.kind.value, line.params) == ("class", "(String sku, int count)")
    added = one(s, "Inventory.Listener.added")
    assert (added.signature, added.doc) == ("void added(Object item);", "Called after an add.")
    banner = one(s, "Inventory.BANNER")  # a text block running on: elided
    assert banner.signature == "static final String BANNER = …"
    assert "sum" not in defs(s) and "item" not in defs(s)  # locals are no definitions


def test_java_imports_name_package_and_class() -> None:
    s = summarize("Inventory.java", JAVA)
    assert [(i.module, i.names) for i in s.imports] == [
        ("com.acme.store", ("*",)),  # its own package: visible without an import
        ("java.util", ("ArrayList",)),
        ("java.util", ("List",)),
        ("java.util.Objects", ("requireNonNull",)),  # static: a member of a class
        ("com.acme.util", ("*",)),  # a whole package
    ]
    assert s.imports[0].text == "package com.acme.store;"
    assert s.imports[3].text == "import static java.util.Objects.requireNonNull;"


def test_java_skeleton_elides_bodies() -> None:
    s = summarize("Inventory.java", JAVA)
    skeleton = render_skeleton(s)
    assert "import static java.util.Objects.requireNonNull;\n" in skeleton
    assert "// An inventory of items, kept in memory.\n" in skeleton
    assert "public class Inventory<T extends Item> implements Iterable<T> { … }\n" in skeleton
    assert "    // Adds an item.\n    public boolean add(T item) { … }\n" in skeleton
    assert "    public static final int MAX_ITEMS = 1_000;\n" in skeleton
    assert "        void added(Object item);\n" in skeleton  # no body: as written
    assert "// fields: SHELF, BACKROOM, WAREHOUSE" in skeleton
    assert "items.size() >= MAX_ITEMS" not in skeleton and "sum += " not in skeleton
    assert open_state(skeleton, "java") == ([], "")


def test_java_text_blocks_and_javadoc_are_prose() -> None:
    s = summarize("Inventory.java", JAVA, prose=True)
    lines = JAVA.split("\n")
    banner = next(i for i, t in enumerate(lines) if "BANNER" in t)
    assert (banner, banner + 3) in s.prose_spans  # the text block
    assert (7, 11) in s.prose_spans  # the class's Javadoc
    assert s.spans_continued_at(banner + 1)[-1] == (banner, banner + 3)
    masked = mask_prose(JAVA, "java").decode()
    assert "Inventory report" not in masked and "kept in memory" not in masked
    assert "MAX_ITEMS = 1_000" in masked


def test_c_functions_prototypes_types_and_macros() -> None:
    s = summarize("lib/queue.c", C_SOURCE)
    assert s.language == "c" and not s.has_syntax_errors
    new = one(s, "queue_new")
    assert (new.kind.value, new.params, new.return_type, new.doc) == (
        "function",
        "(size_t cap)",
        "struct queue *",
        "Creates a queue.",
    )
    assert new.signature == "struct queue *queue_new(size_t cap)"
    push = one(s, "queue_push")
    assert (push.return_type, push.doc) == (
        "queue_status",
        "Pushes an item; Q_FULL when there is no room.",
    )
    # a function returning a pointer to a function: the name is deep in the declarator
    printer = one(s, "printer_for")
    assert (printer.kind.value, printer.params, printer.return_type) == (
        "function",
        "(int verbose)",
        "void (*)(int)",
    )
    queue = one(s, "queue")
    assert (queue.kind.value, queue.signature, queue.doc) == (
        "class",
        "struct queue",
        "A queue of ints.",
    )
    assert one(s, "queue.items").signature == "int *items;"
    status = one(s, "queue_status")  # typedef of an anonymous enum
    assert status.signature == "typedef enum { … } queue_status;"
    assert status.attributes == ("Q_OK", "Q_FULL", "Q_EMPTY")
    assert one(s, "queue_visit_fn").signature == (
        "typedef int (*queue_visit_fn)(int item, void *ctx);"
    )
    assert one(s, "QUEUE_MIN").signature == "#define QUEUE_MIN 8"
    assert one(s, "QUEUE_GROW").signature == "#define QUEUE_GROW(n) ((n) * 2 + …)"
    assert one(s, "NAMES").signature == "static const char *const NAMES[] = {…}"
    assert one(s, "OPEN").signature == "const char OPEN = '{';"
    assert "q" not in defs(s)  # a local
    assert [(i.module, i.names) for i in s.imports] == [
        ("<stdlib.h>", ("*",)),
        ("<string.h>", ("*",)),
        ("queue.h", ("*",)),
    ]
    skeleton = render_skeleton(s)
    assert "// Creates a queue.\nstruct queue *queue_new(size_t cap) { … }\n" in skeleton
    assert "malloc" not in skeleton
    assert open_state(skeleton, "c") == ([], "")


def test_a_c_header_gives_its_prototypes_as_functions_with_their_docs() -> None:
    """The ``extern "C" {`` split over ``#ifdef``s does not parse: the partial tree serves."""
    s = summarize("include/queue.h", C_HEADER)
    assert s.has_syntax_errors
    assert [(d.qualname, d.kind.value, d.doc) for d in s.definitions] == [
        ("queue_new", "function", "Creates a queue of cap items."),
        ("queue_free", "function", "Frees q."),
        ("queue_len", "function", ""),
    ]  # no forward declaration, no include guard macro
    assert render_skeleton(s).endswith(
        "// Creates a queue of cap items.\nstruct queue *queue_new(size_t cap);\n"
        "// Frees q.\nvoid queue_free(struct queue *q);\n"
        "int queue_len(const struct queue *q);\n"
    )


def test_cpp_classes_methods_templates_and_out_of_class_definitions() -> None:
    s = summarize("geo/polygon.cpp", CPP)
    assert s.language == "cpp" and not s.has_syntax_errors
    poly = one(s, "Polygon")
    assert (poly.kind.value, poly.doc, poly.signature) == (
        "class",
        "A polygon with n sides.",
        "class Polygon : public Shape",
    )  # in a namespace: still a top-level class
    ctors = defs(s)["Polygon.Polygon"]  # two declared in the class, one defined outside
    assert [c.params for c in ctors] == [
        "(int sides, double length = 1.0)",
        "(const Polygon& other)",
        "(int sides, double length)",
    ]
    assert ctors[0].doc == "Builds a regular polygon." and ctors[0].kind.value == "method"
    assert one(s, "Polygon.~Polygon").signature == "~Polygon() override;"
    area_decl, area_def = defs(s)["Polygon.area"]
    assert area_decl.signature == "double area() const override;"
    assert area_decl.doc == "The area, in square units."
    assert (area_def.parent, area_def.kind.value, area_def.doc, area_def.return_type) == (
        "Polygon",
        "method",
        "Computes the area from the side count.",
        "double",
    )
    assert area_def.signature == "double Polygon::area() const"
    scales = defs(s)["Polygon.scale"]  # overloads and the definition of one
    assert [(d.params, d.return_type) for d in scales] == [
        ("(double factor)", "Polygon&"),
        ("(double fx, double fy)", "Polygon&"),
        ("(double factor)", "Polygon&"),
    ]
    assert one(s, "Polygon.square").return_type == "std::unique_ptr<Polygon>"
    assert one(s, "Polygon.Vertex").kind.value == "class"
    assert one(s, "Polygon.Vertex.x").signature == "double x, y;"
    assert one(s, "Polygon.sides_").kind.value == "variable"
    largest = one(s, "largest")  # the template line is part of the signature
    assert largest.signature == (
        "template <typename T> const T& largest(const std::vector<T>& values)"
    )
    assert (largest.return_type, largest.doc) == (
        "const T&",
        "Largest element of a non-empty vector.",
    )
    stack = one(s, "FixedStack")
    assert stack.signature == "template <typename T, std::size_t N> struct FixedStack"
    assert one(s, "FixedStack.push").kind.value == "method"
    assert one(s, "Polygons").signature == "using Polygons = std::vector<Polygon>;"
    assert one(s, "kHelp").signature == "const char* kHelp = …"  # a raw string spans lines
    assert [i.module for i in s.imports] == [
        "<memory>",
        "<string>",
        "<vector>",
        "geometry/shape.hpp",
    ]


def test_cpp_skeleton_nests_members_and_keeps_declarations_as_written() -> None:
    s = summarize("geo/polygon.cpp", CPP)
    skeleton = render_skeleton(s)
    assert (
        "// A polygon with n sides.\n"
        "class Polygon : public Shape { … }\n"
        "public:\n"
        "    // Builds a regular polygon.\n"
        "    explicit Polygon(int sides, double length = 1.0);\n"
        "    Polygon(const Polygon& other) = default;\n"
    ) in skeleton
    # defined below the class: where they are, not under the class's last label (private)
    assert "private:\n    int sides_;\n    double length_;\n" in skeleton
    assert (
        "using Polygons = std::vector<Polygon>;\n"
        "// Computes the area from the side count.\n"
        "double Polygon::area() const { … }\n"
    ) in skeleton
    polygon = render_entry(s, one(s, "Polygon"))
    assert polygon.endswith("    std::vector<Vertex> vertices_;\n")
    assert "    int sides() const { … }\n" in skeleton
    assert "template <typename T> const T& largest(const std::vector<T>& values) { … }\n" in (
        skeleton
    )
    assert "max_element" not in skeleton and "std::tan" not in skeleton
    assert open_state(skeleton, "cpp") == ([], "")
    # a method defined outside its class, the class in another file (the usual .cpp): a root
    outside = summarize("geo/polygon_more.cpp", "/// Rotates.\nvoid Polygon::rotate(double a) {}\n")
    assert render_skeleton(outside) == "// Rotates.\nvoid Polygon::rotate(double a) { … }\n"
    rotate = outside.definitions[0]
    assert (rotate.qualname, rotate.parent) == ("Polygon.rotate", "Polygon")
    assert render_entry(outside, rotate) == "// Rotates.\nvoid Polygon::rotate(double a) { … }\n"


def test_cpp_raw_strings_are_prose() -> None:
    s = summarize("geo/polygon.cpp", CPP, prose=True)
    row = next(i for i, t in enumerate(CPP.split("\n")) if "kHelp" in t)
    assert (row, row + 1) in s.prose_spans
    assert "prints the area" not in mask_prose(CPP, "cpp").decode()


@pytest.mark.parametrize(
    ("path", "source", "kept"),
    [
        (
            "Broken.java",
            "public class Broken {\n    /** Fine. */\n    int good(int a) { return a; }\n"
            '    int bad(int a {\n        return a;\n    }\n    String still() { return ""; }\n}\n',
            {"Broken", "Broken.good"},
        ),
        (
            "broken.c",
            "/** Fine. */\nint good(int a) { return a; }\n\nint bad(int a {\n    return a;\n}\n\n"
            "struct after { int x; };\n",
            {"good", "after"},
        ),
        (
            "broken.cpp",
            "class Keep {\n  public:\n    int ok() const { return 1; }\n};\n"
            "template <typename T\nT broken(T t) { return t; }\n",
            {"Keep", "Keep.ok"},
        ),
    ],
)
def test_syntax_errors_keep_the_definitions_that_parse(
    path: str, source: str, kept: set[str]
) -> None:
    s = summarize(path, source)
    assert s.has_syntax_errors
    assert kept <= set(defs(s)), list(defs(s))
    if path.endswith(".java"):
        assert one(s, "Broken.good").doc == "Fine."
    render_skeleton(s)  # renders whatever was kept


CUDA = """#include "kernels.cuh"

/** y = a * x + y, one element per thread. */
__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

void run_saxpy(int n, float a, const float *x, float *y) {
    saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y);
}

template <typename T>
__global__ void fill(T *out, T value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}
"""


def test_cuda_kernels_are_definitions_despite_the_launch_syntax() -> None:
    """A GPU workstation's code: the C++ grammar takes ``__global__`` functions and templates;
    the ``<<<...>>>`` launch is a syntax error that costs nothing after it."""
    summary = summarize("kern/saxpy.cu", CUDA)
    assert summary.language == "cpp" and summary.has_syntax_errors
    by_name = {d.name: d for d in summary.definitions}
    assert set(by_name) == {"saxpy", "run_saxpy", "fill"}
    assert by_name["saxpy"].signature.startswith("__global__ void saxpy(int n, float a,")
    assert by_name["saxpy"].doc == "y = a * x + y, one element per thread."
    assert by_name["fill"].signature.startswith("template <typename T> __global__ void fill(")
    assert [i.module for i in summary.imports] == ["kernels.cuh"]


NAMESPACED = """#include "geom/shape.hpp"

namespace geom {
/// Makes the default shape.
Shape make_shape();
}

/// Makes the default shape.
geom::Shape geom::make_shape() { return Shape{}; }

std::unique_ptr<Shape> geom::make_shape(int k) { return nullptr; }

template <typename T>
T geom::detail::clamp(T v, T lo, T hi) { return v < lo ? lo : v > hi ? hi : v; }

int geom::num_shapes = 0;

double geom::Circle::area() const { return kPi * r_ * r_; }

void Circle::grow(double by) { r_ += by; }
"""


def test_a_function_defined_outside_its_namespace_is_no_method() -> None:
    """``geom::make_shape`` names a namespace, not a class: the definition is the function its
    declaration in ``namespace geom {…}`` is (namespaces are no definitions, their members
    top-level ones), and the signature keeps the qualifier as written."""
    s = summarize("geo/shape.cpp", NAMESPACED)
    assert not s.has_syntax_errors
    makers = defs(s)["make_shape"]
    assert [(d.kind.value, d.parent, d.params, d.return_type) for d in makers] == [
        ("function", "", "()", "Shape"),
        ("function", "", "()", "geom::Shape"),
        ("function", "", "(int k)", "std::unique_ptr<Shape>"),
    ]
    assert makers[1].signature == "geom::Shape geom::make_shape()"
    assert makers[1].doc == "Makes the default shape."
    clamp = one(s, "clamp")  # geom::detail: a namespace in a namespace
    assert (clamp.kind.value, clamp.parent) == ("function", "")
    assert (one(s, "num_shapes").kind.value, one(s, "num_shapes").parent) == ("variable", "")
    assert (one(s, "Circle.area").parent, one(s, "Circle.grow").parent) == ("Circle", "Circle")
    assert render_skeleton(s).endswith(
        "// Makes the default shape.\ngeom::Shape geom::make_shape() { … }\n"
        "std::unique_ptr<Shape> geom::make_shape(int k) { … }\n"
        "template <typename T> T geom::detail::clamp(T v, T lo, T hi) { … }\n"
        "int geom::num_shapes = 0;\n"
        "double geom::Circle::area() const { … }\n"
        "void Circle::grow(double by) { … }\n"
    )


@pytest.mark.parametrize(
    ("source", "qualname", "parent"),
    [
        # the namespace declared only in the header: a lower-case qualifier is one
        ('#include "util.h"\n\nint util::parse_int(const char* s) { return 0; }\n',
         "parse_int", ""),
        # a lower-case class: its constructor in the file says so
        ("logger::logger(std::string name) : name_(name) {}\n\nvoid logger::flush() {}\n",
         "logger.flush", "logger"),
        # a lower-case class: a const method is a member
        ("std::size_t buffer::size() const { return len_; }\n", "buffer.size", "buffer"),
        # a lower-case class defined in the file
        ("struct ring { void clear(); };\n\nvoid ring::clear() {}\n", "ring.clear", "ring"),
        # a capitalised namespace the file opens
        ("namespace Geo { int f(); }\n\nint Geo::f() { return 1; }\n", "f", ""),
    ],
)
def test_a_qualifier_is_a_namespace_or_a_class_by_what_the_file_says(
    source: str, qualname: str, parent: str
) -> None:
    s = summarize("src/impl.cpp", source)
    found = defs(s)[qualname][-1]
    assert found.parent == parent
    assert found.kind.value == ("method" if parent else "function")


STRUCT_AND_VARIABLE = """/** Global configuration. */
struct config {
    int verbose;
    const char *name;
} g_config;

struct point { int x, y; } origin = {0, 0}, *cursor;

static struct { int hits; } stats;
"""


@pytest.mark.parametrize("path", ["src/config.c", "src/config.cpp"])
def test_a_struct_defined_with_a_variable_is_a_struct_and_a_variable(path: str) -> None:
    """``struct config {…} g_config;`` defines the struct (its fields, its doc) and a variable
    of it; a struct without a name is the variable's alone."""
    s = summarize(path, STRUCT_AND_VARIABLE)
    assert not s.has_syntax_errors
    config = one(s, "config")
    assert (config.kind.value, config.signature, config.doc) == (
        "class",
        "struct config",
        "Global configuration.",
    )
    assert [d.signature for d in s.definitions if d.parent == "config"] == [
        "int verbose;",
        "const char *name;",
    ]
    assert (one(s, "g_config").kind.value, one(s, "g_config").parent) == ("variable", "")
    assert one(s, "point.x").signature == "int x, y;"
    assert render_skeleton(s) == (
        "// Global configuration.\n"
        "struct config { … }\n"
        "    int verbose;\n"
        "    const char *name;\n"
        "struct config g_config;\n"
        "struct point { … }\n"
        "    int x, y;\n"
        "struct point origin = {0, 0}, *cursor;\n"
        "static struct { … } stats;\n"
    )


def test_a_member_struct_defined_with_a_field_is_a_nested_struct_and_a_field() -> None:
    s = summarize("geo/mesh.hpp", "class Mesh {\n    struct Face { int a, b, c; } first_;\n};\n")
    assert one(s, "Mesh.Face").parent == "Mesh"
    assert one(s, "Mesh.Face.a").signature == "int a, b, c;"
    assert one(s, "Mesh.first_").signature == "struct Face first_;"
    assert render_skeleton(s) == (
        "class Mesh { … }\n"
        "    struct Face { … }\n"
        "        int a, b, c;\n"
        "    struct Face first_;\n"
    )


COUNTER = """#include <string>

/// A named counter.
class Counter {
public:
    explicit Counter(std::string name);
    int value() const { return value_; }
private:
    std::string name_;
    int value_ = 0;
};

/// The sum of all counters.
int total(const Counter& c);
"""


def test_members_of_a_class_that_does_not_parse_are_no_top_level_variables() -> None:
    """With the cursor on a class's last line, the summary the assembler works from (the
    cursor line left out) has no class: its fields are members of an error, not variables of
    the file; what follows the class is still there."""
    s = summarize_stable("src/counter.hpp", COUNTER, COUNTER.split("\n").index("};"))
    assert s.has_syntax_errors
    variables = [d.qualname for d in s.definitions if d.kind.value == "variable"]
    assert variables == []
    assert one(s, "total").kind.value == "function"
    assert one(s, "total").doc == "The sum of all counters."
    assert {d.qualname for d in summarize("src/counter.hpp", COUNTER).definitions} == {
        "Counter",
        "Counter.Counter",
        "Counter.value",
        "Counter.name_",
        "Counter.value_",
        "total",
    }


def test_access_specifiers_stay_before_the_members_they_precede() -> None:
    """A private member cannot be called from outside: the class skeleton keeps ``public:``,
    ``protected:`` and ``private:`` where they precede members (not before ``friend``), and
    a member shown on its own (the expanded class at the cursor) brings its label along."""
    source = """class Account {
public:
    /// Opens an account.
    explicit Account(int id);
    int balance() const { return balance_; }
    friend class Audit;
protected:
    void log(const char* what);
private:
    friend class Bank;
    int balance_ = 0;
    int id_;
};
"""
    s = summarize("bank/account.hpp", source)
    assert [(d.name, d.access) for d in s.definitions] == [
        ("Account", ""),
        ("Account", "public"),
        ("balance", ""),
        ("log", "protected"),
        ("balance_", "private"),
        ("id_", ""),
    ]
    assert render_skeleton(s) == (
        "class Account { … }\n"
        "public:\n"
        "    // Opens an account.\n"
        "    explicit Account(int id);\n"
        "    int balance() const { … }\n"
        "protected:\n"
        "    void log(const char* what);\n"
        "private:\n"
        "    int balance_ = 0;\n"
        "    int id_;\n"
    )
    outline = Outline(s, expand=["Account"])
    assert outline.text(4) == "private:\n    int balance_ = 0;\n"


def test_a_fields_doc_comment_is_its_doc() -> None:
    """Javadoc on a field (and a C/C++ doc comment on a field, a global or a macro) is the
    field's doc, shown above its line as a method's is; a comment ending the line before is
    not."""
    s = summarize("Inventory.java", JAVA)
    items = one(s, "Inventory.MAX_ITEMS")
    assert items.doc == "Most items one inventory holds."
    assert (one(s, "Inventory.items").doc, one(s, "Inventory.name").doc) == ("", "")
    assert (
        "    // Most items one inventory holds.\n"
        "    public static final int MAX_ITEMS = 1_000;\n"
        "    private final List<T> items = new ArrayList<>();\n"
    ) in render_skeleton(s)
    c = summarize(
        "lib/limits.h",
        "/** Largest queue. */\n#define QUEUE_MAX 64\n\nstruct queue {\n"
        "    int len;  // items in it\n    /// Room for this many.\n    int cap;\n};\n",
    )
    assert [(d.qualname, d.doc) for d in c.definitions if d.kind.value == "variable"] == [
        ("QUEUE_MAX", "Largest queue."),
        ("queue.len", ""),
        ("queue.cap", "Room for this many."),
    ]


def test_fields_of_a_struct_defined_in_each_preprocessor_branch_stay_in_it() -> None:
    """Two ``typedef struct {…} params;`` in ``#if`` branches: one qualname, two classes; the
    fields of the first are inside a class of their name, not defined outside it."""
    source = (
        "#ifdef BIG\ntypedef struct {\n    char buf[1024];\n} params;\n"
        "#else\ntypedef struct {\n    char buf[64];\n    int len;\n} params;\n#endif\n"
    )
    skeleton = render_skeleton(summarize("include/params.h", source))
    assert [line for line in skeleton.splitlines() if not line.startswith(("typedef", " "))] == []
    assert "    char buf[1024];\n" in skeleton


def test_a_statement_at_class_level_in_a_buffer_mid_edit_is_no_field() -> None:
    """Typing a block whose braces are not closed yet puts the method's last statement at the
    class's level: error recovery reads ``return new Box<>(value);`` as a field ``new`` (the
    skeleton showed ``return new`` among the fields: gson's TypeToken)."""
    text = (
        "public class Box<T> {\n  private final T value;\n\n  public Box<T> copy() {\n"
        "    for (T item : items) {\n      if (item != null) {\n        }\n      }\n    }\n\n"
        "    return new Box<>(value);\n  }\n}\n"
    )
    summary = summarize("Box.java", text)
    fields = [d.signature for d in summary.definitions if d.kind is DefKind.VARIABLE]
    assert fields == ["private final T value;"]


def test_a_c_head_cut_for_room_keeps_the_projects_includes_first() -> None:
    """hiredis's async.c: a head too long for its room kept the first statements in file order,
    six ``<system>`` headers, and lost ``"async.h"`` and ``"net.h"``; the project's includes
    are kept first (the output in file order)."""
    from daemon.skeleton import fit_head
    from daemon.tokens import CharEstimator

    lines = [
        '#include "fmacros.h"\n', "#include <stdlib.h>\n", "#include <string.h>\n",
        "#include <assert.h>\n", "#include <ctype.h>\n", "#include <errno.h>\n",
        '#include "async.h"\n', '#include "net.h"\n',
    ]
    counter = CharEstimator("c")
    limit = counter.count("".join(lines[:1] + lines[6:])) + 2
    head = fit_head(lines, "c", counter, limit)
    assert '#include "async.h"\n#include "net.h"\n' in head
    assert head.startswith('#include "fmacros.h"\n')
    assert "#include <errno.h>" not in head  # the system ones are what the room left out
