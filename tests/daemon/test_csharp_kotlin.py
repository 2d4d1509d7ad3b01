"""C# and Kotlin summaries, skeletons, imports and related definitions with the real parsers:
realistic files (XML doc comments, records, properties, namespaces spanning folders, data
classes, companion objects, extension functions, packages that do not match folders)."""

from __future__ import annotations

from pathlib import Path

import pytest

from daemon.languages import detect_language
from daemon.parse import mask_prose, summarize
from daemon.skeleton import render_skeleton
from engine.code_scan import line_comment_start, open_state
from tests.daemon.summaries import (
    defs,
    index_of,
    one,
    related_segments,
)

CSHARP = '''using System;
using System.Collections.Generic;
using static System.Math;
using Json = System.Text.Json.JsonSerializer;
global using Shop.Core.Models;

namespace Shop.Core.Services;

/// <summary>
/// Places and pays orders, kept in memory.
/// </summary>
/// <remarks>Not thread-safe.</remarks>
public sealed class OrderService : IOrderService, IDisposable
{
    /// <summary>Most orders kept.</summary>
    public const int MaxOrders = 1_000;
    private readonly List<Order> _orders = new(), _archived = new();
    private int _placed;  // since start

    /// <summary>The number of open orders.</summary>
    public int Count => _orders.Count;
    public string Name { get; private set; } = "";

    /// <summary>Creates the service; see <see cref="IOrderService"/>.</summary>
    public OrderService(string name) { Name = name; }

    /// <summary>
    /// Places an order for <paramref name="customer"/>.
    /// </summary>
    /// <param name="customer">who orders</param>
    /// <returns>the new order</returns>
    public async Task<Order> PlaceAsync(string customer, CancellationToken ct = default)
    {
        var order = new Order(customer);
        _orders.Add(order);
        return order;
    }

    [Obsolete("use PlaceAsync")]
    public Order Place(string customer) => PlaceAsync(customer).Result;

    internal event EventHandler? Changed;

    public void Dispose() { }

    private static readonly string Banner = @"Orders
(in memory) ""demo""";
    private const string Help = """
        usage: orders [--all] (
        """;

    /// <summary>A page of orders.</summary>
    public record Page(int Number, IReadOnlyList<Order> Items);
}

/// <summary>Places orders.</summary>
public interface IOrderService
{
    /// <summary>Places an order.</summary>
    Task<Order> PlaceAsync(string customer, CancellationToken ct = default);
    int Count { get; }
}

/// <summary>An order's id.</summary>
public readonly record struct OrderId(Guid Value);

public enum OrderStatus { Open, Paid = 2, Shipped }

/// <summary>Called when an order changes.</summary>
public delegate void OrderChanged(Order order);
'''

KOTLIN = '''@file:JvmName("Orders")
package com.acme.shop.model

import java.time.Instant
import com.acme.shop.util.*
import com.acme.shop.util.shortId
import kotlinx.coroutines.flow.Flow as F

/**
 * An order placed by a customer.
 *
 * @property id the order's id
 */
data class Order(
    val id: String,
    val lines: List<OrderLine> = emptyList(),
) : Comparable<Order> {
    /** The sum of the lines' prices. */
    val total: Long
        get() = lines.sumOf { it.price * it.quantity }
    var note: String? = null

    init {
        val count = lines.size
        require(count >= 0)
    }

    /** A copy with [line] added. */
    fun with(line: OrderLine): Order = copy(lines = lines + line)

    override fun compareTo(other: Order): Int = id.compareTo(other.id)

    companion object {
        /** An order without lines. */
        fun empty(id: String): Order = Order(id)
        const val MAX_LINES = 100
    }

    /** Where an order is. */
    enum class Status {
        OPEN,
        PAID,
    }
}

/** A line of an order. */
data class OrderLine(val sku: String, val quantity: Int, val price: Long)

/** Stores orders. */
interface OrderRepository {
    /** Finds an order, or null. */
    suspend fun find(id: String): Order?
    val size: Int
}

object Registry {
    private val known = mutableListOf<Order>()

    fun register(order: Order) {
        val seen = known.map { o -> val key = o.id; key }
        known += order
    }
}

/** The text as a URL slug. */
fun String.slug(): String = lowercase().replace(" ", "-")

fun <T : Comparable<T>> List<T>.largest(): T? = maxOrNull()

private fun helper(x: Int): Int {
    val doubled = x * 2
    return doubled
}

/** The id new orders start from. */
val FIRST_ID = "A-0001"
const val BANNER = """
    Orders (${'$'}shop) {
"""
typealias Lines = List<OrderLine>
'''


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("src/Shop.Core/Services/OrderService.cs", "csharp"),
        ("scripts/build.csx", "csharp"),
        ("src/main/kotlin/com/acme/Order.kt", "kotlin"),
        ("build.gradle.kts", "kotlin"),
    ],
)
def test_the_extensions_of_csharp_and_kotlin(path: str, language: str) -> None:
    assert detect_language(path) == language


# --- C# -------------------------------------------------------------------------------------


def test_csharp_types_members_and_xml_doc_summaries() -> None:
    s = summarize("src/Shop.Core/Services/OrderService.cs", CSHARP)
    assert s.language == "csharp" and not s.has_syntax_errors
    service = one(s, "OrderService")
    assert service.kind.value == "class"
    assert service.signature == "public sealed class OrderService : IOrderService, IDisposable"
    assert service.doc == "Places and pays orders, kept in memory."  # <summary>, not <remarks>
    max_orders = one(s, "OrderService.MaxOrders")
    assert (max_orders.kind.value, max_orders.signature, max_orders.doc) == (
        "variable",
        "public const int MaxOrders = 1_000;",
        "Most orders kept.",
    )
    # two names, one declaration: one line, named by the first
    orders = one(s, "OrderService._orders")
    assert orders.signature == "private readonly List<Order> _orders = new(), _archived = new();"
    assert "OrderService._archived" not in defs(s)
    assert one(s, "OrderService._placed").doc == ""  # a comment ending the line is no doc
    count = one(s, "OrderService.Count")
    assert (count.signature, count.doc) == (
        "public int Count => _orders.Count;",
        "The number of open orders.",
    )
    assert one(s, "OrderService.Name").signature == (
        'public string Name { get; private set; } = "";'
    )
    ctor = one(s, "OrderService.OrderService")
    assert (ctor.kind.value, ctor.params, ctor.doc) == (
        "method",
        "(string name)",
        "Creates the service; see IOrderService.",  # <see cref="…"/>: the name
    )
    place = one(s, "OrderService.PlaceAsync")
    assert (place.kind.value, place.params, place.return_type, place.doc, place.parent) == (
        "method",
        "(string customer, CancellationToken ct = default)",
        "Task<Order>",
        "Places an order for customer.",
        "OrderService",
    )
    assert place.signature == (
        "public async Task<Order> PlaceAsync(string customer, CancellationToken ct = default)"
    )
    sync = one(s, "OrderService.Place")  # an attribute is part of the signature
    assert sync.signature == (
        '[Obsolete("use PlaceAsync")] public Order Place(string customer) => …'
    )
    assert one(s, "OrderService.Changed").signature == "internal event EventHandler? Changed;"
    page = one(s, "OrderService.Page")  # a nested record: its parameters are its params
    assert (page.kind.value, page.params, page.doc) == (
        "class",
        "(int Number, IReadOnlyList<Order> Items)",
        "A page of orders.",
    )
    assert one(s, "OrderService.Banner").signature == "private static readonly string Banner = …"
    assert one(s, "OrderService.Help").signature == "private const string Help = …"
    interface_place = one(s, "IOrderService.PlaceAsync")
    assert interface_place.signature == (
        "Task<Order> PlaceAsync(string customer, CancellationToken ct = default);"
    )
    assert one(s, "IOrderService.Count").signature == "int Count { get; }"
    order_id = one(s, "OrderId")
    assert (order_id.signature, order_id.params, order_id.doc) == (
        "public readonly record struct OrderId(Guid Value);",
        "(Guid Value)",
        "An order's id.",
    )
    assert one(s, "OrderStatus").attributes == ("Open", "Paid", "Shipped")
    changed = one(s, "OrderChanged")
    assert (changed.kind.value, changed.signature, changed.doc) == (
        "class",
        "public delegate void OrderChanged(Order order);",
        "Called when an order changes.",
    )
    assert "order" not in defs(s) and "OrderService.order" not in defs(s)  # a local


def test_csharp_usings_and_namespaces_are_imports() -> None:
    s = summarize("src/Shop.Core/Services/OrderService.cs", CSHARP)
    assert [(i.module, i.names, i.alias, i.text) for i in s.imports] == [
        ("System", ("*",), "", "using System;"),
        ("System.Collections.Generic", ("*",), "", "using System.Collections.Generic;"),
        ("System.Math", ("*",), "", "using static System.Math;"),  # the members of a type
        (
            "System.Text.Json.JsonSerializer",
            (),
            "Json",
            "using Json = System.Text.Json.JsonSerializer;",
        ),
        ("Shop.Core.Models", ("*",), "", "global using Shop.Core.Models;"),
        ("Shop.Core.Services", ("*",), "", "namespace Shop.Core.Services;"),  # its own
    ]
    blocks = summarize(
        "src/Legacy.cs",
        "namespace Shop.Legacy\n{\n    using System.Linq;\n\n    namespace Import\n    {\n"
        "        /// <summary>Reads old orders.</summary>\n        public class Reader { }\n"
        "    }\n\n    public class Writer { }\n}\n",
    )
    assert [(i.module, i.text) for i in blocks.imports] == [
        ("Shop.Legacy", "namespace Shop.Legacy;"),
        ("System.Linq", "using System.Linq;"),
        ("Shop.Legacy.Import", "namespace Shop.Legacy.Import;"),  # nested: the full name
    ]
    # the types of a namespace block are top level, not members of the namespace
    assert [(d.qualname, d.parent, d.doc) for d in blocks.definitions] == [
        ("Reader", "", "Reads old orders."),
        ("Writer", "", ""),
    ]


def test_csharp_skeleton_elides_bodies_and_keeps_members_as_written() -> None:
    skeleton = render_skeleton(summarize("src/Shop.Core/Services/OrderService.cs", CSHARP))
    assert skeleton.startswith("using System;\n")
    assert "namespace Shop.Core.Services;\n\n" in skeleton
    assert (
        "// Places and pays orders, kept in memory.\n"
        "public sealed class OrderService : IOrderService, IDisposable { … }\n"
        "    // Most orders kept.\n"
        "    public const int MaxOrders = 1_000;\n"
        "    private readonly List<Order> _orders = new(), _archived = new();\n"
        "    private int _placed;\n"
    ) in skeleton
    assert (
        "    // Places an order for customer.\n"
        "    public async Task<Order> PlaceAsync(string customer, CancellationToken ct = default)"
        " { … }\n"
    ) in skeleton
    assert "    public void Dispose() { … }\n" in skeleton
    assert "    Task<Order> PlaceAsync(string customer, CancellationToken ct = default);\n" in (
        skeleton
    )  # an interface method: no body, as written
    assert "// fields: Open, Paid, Shipped\npublic enum OrderStatus { … }\n" in skeleton
    assert "public delegate void OrderChanged(Order order);\n" in skeleton
    assert "_orders.Add" not in skeleton and "usage: orders" not in skeleton
    assert open_state(skeleton, "csharp") == ([], "")


def test_csharp_verbatim_raw_and_interpolated_strings_and_xml_docs_are_prose() -> None:
    s = summarize("OrderService.cs", CSHARP, prose=True)
    lines = CSHARP.split("\n")
    banner = next(i for i, t in enumerate(lines) if "Banner" in t)
    help_row = next(i for i, t in enumerate(lines) if "Help =" in t)
    assert (banner, banner + 1) in s.prose_spans  # @"…" over two lines
    assert (help_row, help_row + 2) in s.prose_spans  # """…"""
    masked = mask_prose(CSHARP + 'var s = $"{Count} (open)";\n', "csharp").decode()
    assert "in memory" not in masked and "usage" not in masked and "(open)" not in masked
    assert "MaxOrders = 1_000" in masked


@pytest.mark.parametrize(
    ("line", "still_open"),
    [
        ('var dir = @"C:\\temp\\"; Open(', ["("]),  # no escapes in a verbatim string
        ('var q = @"say ""hi"" ("; Open(', ["("]),  # "" is a quote
        ('var t = $"{order.Id} ({n}"; Open(', ["("]),  # interpolated
        ("var c = '('; Open(", ["("]),
        ('var s = """\n  a raw ( "quoted" string\n  """; Open(', ["("]),
    ],
)
def test_csharp_strings_are_skipped_by_the_bracket_scans(line: str, still_open: list[str]) -> None:
    assert open_state(line, "csharp") == (still_open, "")


def test_a_csharp_verbatim_string_spans_lines_for_the_scans() -> None:
    assert open_state('var s = @"first (\n', "csharp") == ([], '@"')
    assert line_comment_start('var url = "http://x"; // the site', "csharp") == 22


def test_csharp_syntax_errors_keep_the_members_that_parse() -> None:
    source = (
        "namespace A;\n\npublic class Broken\n{\n    /// <summary>Fine.</summary>\n"
        "    public int Good(int a) { return a; }\n\n    public int Bad(int a {\n"
        "        return a;\n    }\n}\n"
    )
    s = summarize("src/Broken.cs", source)
    assert s.has_syntax_errors
    assert one(s, "Broken.Good").doc == "Fine."
    render_skeleton(s)


# --- Kotlin ---------------------------------------------------------------------------------


def test_kotlin_classes_objects_functions_and_kdoc() -> None:
    s = summarize("src/main/kotlin/com/acme/shop/model/Order.kt", KOTLIN)
    assert s.language == "kotlin" and not s.has_syntax_errors
    order = one(s, "Order")
    assert (order.kind.value, order.doc) == ("class", "An order placed by a customer.")
    assert order.signature == (
        "data class Order(val id: String, val lines: List<OrderLine> = emptyList()) "
        ": Comparable<Order>"
    )
    assert order.params == "(val id: String, val lines: List<OrderLine> = emptyList())"
    total = one(s, "Order.total")
    assert (total.kind.value, total.signature, total.doc) == (
        "variable",
        "val total: Long …",  # its getter on the next line: elided
        "The sum of the lines' prices.",
    )
    assert one(s, "Order.note").signature == "var note: String? = null"
    with_line = one(s, "Order.with")
    assert (with_line.kind.value, with_line.params, with_line.return_type, with_line.doc) == (
        "method",
        "(line: OrderLine)",
        "Order",
        "A copy with [line] added.",
    )
    assert one(s, "Order.compareTo").signature == (
        "override fun compareTo(other: Order): Int = …"
    )
    # a companion object's members are its class's: ``Order.empty(id)``
    empty = one(s, "Order.empty")
    assert (empty.parent, empty.doc, empty.return_type) == (
        "Order",
        "An order without lines.",
        "Order",
    )
    assert one(s, "Order.MAX_LINES").signature == "const val MAX_LINES = 100"
    status = one(s, "Order.Status")
    assert (status.kind.value, status.attributes) == ("class", ("OPEN", "PAID"))
    line = one(s, "OrderLine")
    assert line.params == "(val sku: String, val quantity: Int, val price: Long)"
    find = one(s, "OrderRepository.find")  # no body: as written, ended
    assert (find.signature, find.return_type, find.doc) == (
        "suspend fun find(id: String): Order?",
        "Order?",
        "Finds an order, or null.",
    )
    assert one(s, "OrderRepository.size").signature == "val size: Int"
    assert one(s, "Registry").signature == "object Registry"
    assert one(s, "Registry.register").kind.value == "method"
    # an extension function is named by the function; the receiver is in the signature
    slug = one(s, "slug")
    assert (slug.kind.value, slug.signature, slug.return_type, slug.doc) == (
        "function",
        "fun String.slug(): String = …",
        "String",
        "The text as a URL slug.",
    )
    largest = one(s, "largest")
    assert (largest.signature, largest.return_type) == (
        "fun <T : Comparable<T>> List<T>.largest(): T? = …",
        "T?",
    )
    assert one(s, "helper").signature == "private fun helper(x: Int): Int"
    first = one(s, "FIRST_ID")
    assert (first.signature, first.doc) == (
        'val FIRST_ID = "A-0001"',
        "The id new orders start from.",
    )
    assert one(s, "BANNER").signature == "const val BANNER = …"
    assert one(s, "Lines").signature == "typealias Lines = List<OrderLine>"
    # locals of a function, an init block and a lambda are no definitions
    names = {d.name for d in s.definitions}
    assert not names & {"count", "doubled", "seen", "key", "o"}


def test_kotlin_imports_and_package() -> None:
    s = summarize("Order.kt", KOTLIN)
    assert [(i.module, i.names, i.alias, i.text) for i in s.imports] == [
        ("com.acme.shop.model", ("*",), "", "package com.acme.shop.model"),
        ("java.time.Instant", ("Instant",), "", "import java.time.Instant"),
        ("com.acme.shop.util", ("*",), "", "import com.acme.shop.util.*"),
        ("com.acme.shop.util.shortId", ("shortId",), "", "import com.acme.shop.util.shortId"),
        ("kotlinx.coroutines.flow.Flow", (), "F", "import kotlinx.coroutines.flow.Flow as F"),
    ]


def test_kotlin_skeleton() -> None:
    skeleton = render_skeleton(summarize("Order.kt", KOTLIN))
    assert skeleton.startswith("package com.acme.shop.model\nimport java.time.Instant\n")
    assert (
        "    // A copy with [line] added.\n    fun with(line: OrderLine): Order = …\n"
    ) in skeleton
    assert "    // An order without lines.\n    fun empty(id: String): Order = …\n" in skeleton
    assert "    // fields: OPEN, PAID\n    enum class Status { … }\n" in skeleton
    assert "// The text as a URL slug.\nfun String.slug(): String = …\n" in skeleton
    assert "typealias Lines = List<OrderLine>\n" in skeleton
    assert "sumOf" not in skeleton and "require(" not in skeleton
    assert open_state(skeleton, "kotlin") == ([], "")


def test_bodiless_classes_and_expression_bodies_are_not_shown_with_braces() -> None:
    """``data class P(val x: Int)``, ``class Empty``, ``object Registry`` read ``{ … }`` (a
    body they have not), and ``fun twice(x: Int) = x * 2`` (C# ``int Twice(int x) => x *
    2;``) read ``fun twice(x: Int) { … }``: a block body, not the expression it has."""
    kotlin = render_skeleton(summarize("P.kt", (
        "/** A point. */\ndata class P(val x: Int, val y: Int)\nclass Empty\nobject Registry\n"
        "fun twice(x: Int) = x * 2\nclass Box(val w: Int) {\n"
        "    fun scaled(k: Int): Box = Box(w * k)\n    fun area(): Int {\n        return w * w\n"
        "    }\n}\n"
    )))
    assert kotlin == (
        "// A point.\ndata class P(val x: Int, val y: Int)\nclass Empty\nobject Registry\n"
        "fun twice(x: Int) = …\nclass Box(val w: Int) { … }\n    fun scaled(k: Int): Box = …\n"
        "    fun area(): Int { … }\n"
    )
    csharp = render_skeleton(summarize("A.cs", (
        "class A {\n    int Twice(int x) => x * 2;\n    public A(int x) => _x = x;\n"
        "    int Full(int x) { return x; }\n}\n"
    )))
    assert csharp == (
        "class A { … }\n    int Twice(int x) => …\n    public A(int x) => …\n"
        "    int Full(int x) { … }\n"
    )


def test_kotlin_raw_strings_and_kdoc_are_prose() -> None:
    s = summarize("Order.kt", KOTLIN, prose=True)
    row = next(i for i, t in enumerate(KOTLIN.split("\n")) if "BANNER" in t)
    assert (row, row + 2) in s.prose_spans
    masked = mask_prose(KOTLIN, "kotlin").decode()
    assert "Orders (" not in masked and "placed by a customer" not in masked
    assert open_state('val s = """\n  raw \\ ( "x"\n"""; f(', "kotlin") == (["("], "")
    assert open_state('val t = "${order.id} ("; f(', "kotlin") == (["("], "")
    assert open_state("val c = '{'; f(", "kotlin") == (["("], "")


# --- resolution across files: namespaces and packages ---------------------------------------

CS_FILES = {
    "src/Shop.Core/Models/Money.cs": "namespace Shop.Core.Models;\n\n"
    "/// <summary>An amount in one currency.</summary>\n"
    "public readonly record struct Money(decimal Amount, string Currency);\n",
    # a block namespace, and a folder that does not match it
    "src/Shop.Core/Legacy/OrderV1.cs": "namespace Shop.Core.Models\n{\n"
    "    public class OrderV1 { }\n}\n",
    "src/Shop.Core/Services/OrderService.cs": "using Shop.Core.Models;\n\n"
    "namespace Shop.Core.Services;\n\npublic class OrderService { }\n",
    "tools/System.py": "def helper():\n    pass\n",
}


def test_a_csharp_namespace_is_every_file_declaring_it_wherever_it_is() -> None:
    snap = index_of(CS_FILES).snapshot()
    service = "src/Shop.Core/Services/OrderService.cs"
    assert snap.files_of_package("Shop.Core.Models", service) == (
        "src/Shop.Core/Legacy/OrderV1.cs",
        "src/Shop.Core/Models/Money.cs",
    )
    assert snap.resolve_module("Shop.Core.Models.Money", service) == (
        "src/Shop.Core/Models/Money.cs"
    )  # ``using X = Shop.Core.Models.Money;``: the file declaring the type
    assert snap.resolve_module("System", service) is None  # not tools/System.py
    assert snap.resolve_package("Shop.Core.Models", service) == ()
    assert snap.files_of_package("Shop.Core", service) == ()  # no file declares it


def test_namespace_keys_follow_an_edit_of_the_namespace_line() -> None:
    index = index_of(CS_FILES)
    money = "src/Shop.Core/Models/Money.cs"
    index.apply({money: summarize(money, CS_FILES[money].replace("Models;", "Values;"))})
    snap = index.snapshot()
    assert snap.files_of_package("Shop.Core.Values", money) == (money,)
    assert money not in snap.files_of_package("Shop.Core.Models", money)
    assert snap.resolve_module("Shop.Core.Values.Money", money) == money
    assert snap.resolve_module("Shop.Core.Models.Money", money) is None


def test_a_kotlin_package_is_every_file_declaring_it_and_names_its_top_level_functions() -> None:
    files = {
        # the common prefix left out of the folders, as Kotlin's style guide allows
        "src/main/kotlin/util/Text.kt": "package com.acme.shop.util\n\nfun String.slug() = this\n"
        "fun shortId(): String = \"x\"\n",
        "src/main/kotlin/util/Ids.kt": "package com.acme.shop.util\n\nclass IdSource\n",
        "src/main/kotlin/App.kt": "package com.acme.shop\n\nimport com.acme.shop.util.slug\n",
    }
    snap = index_of(files).snapshot()
    app = "src/main/kotlin/App.kt"
    assert snap.resolve_module("com.acme.shop.util.slug", app) == "src/main/kotlin/util/Text.kt"
    assert snap.resolve_module("com.acme.shop.util.IdSource", app) == (
        "src/main/kotlin/util/Ids.kt"
    )
    assert snap.files_of_package("com.acme.shop.util", app) == (
        "src/main/kotlin/util/Ids.kt",
        "src/main/kotlin/util/Text.kt",
    )


CS_PROJECT = {
    "src/Shop.Core/Shop.Core.csproj": '<Project Sdk="Microsoft.NET.Sdk" />\n',
    "src/Shop.Core/Models/Order.cs": """using System.Collections.Generic;

namespace Shop.Core.Models
{
    /// <summary>A line of an order.</summary>
    public record OrderLine(string Sku, int Quantity);

    /// <summary>
    /// An order placed by a customer.
    /// </summary>
    public class Order
    {
        private readonly List<OrderLine> _lines = new();

        /// <summary>The order's id.</summary>
        public Guid Id { get; } = Guid.NewGuid();

        /// <summary>Adds a line; returns the order.</summary>
        public Order Add(OrderLine line)
        {
            _lines.Add(line);
            return this;
        }
    }
}
""",
    "src/Shop.Core/Services/IOrderRepository.cs": """using Shop.Core.Models;

namespace Shop.Core.Services;

/// <summary>Stores orders.</summary>
public interface IOrderRepository
{
    /// <summary>Saves an order, new or changed.</summary>
    Task SaveAsync(Order order, CancellationToken ct = default);
}
""",
    "src/Shop.Core/Services/OrderService.cs": """using Shop.Core.Models;

namespace Shop.Core.Services;

/// <summary>Places orders.</summary>
public sealed class OrderService
{
    private readonly IOrderRepository _repository;

    public OrderService(IOrderRepository repository) { _repository = repository; }

    /// <summary>Places an order for <paramref name="customer"/>.</summary>
    public async Task<Order> PlaceAsync(string customer, IEnumerable<OrderLine> lines)
    {
        var order = new Order();
        await _repository.SaveAsync(order);
        return order;
    }
}
""",
    "src/Shop.App/Program.cs": """using Shop.Core.Models;
using Shop.Core.Services;

namespace Shop.App;

public static class Program
{
    public static async Task Main(string[] args)
    {
        var service = new OrderService(new InMemoryRepository());
        var lines = new[] { new OrderLine("A-1", 2) };
        var order = await service.PlaceAsync("ada", lines);
        <|>
    }
}
""",
    "src/Shop.App/InMemoryRepository.cs": """using Shop.Core.Models;
using Shop.Core.Services;

namespace Shop.App;

/// <summary>Orders in memory.</summary>
internal sealed class InMemoryRepository : IOrderRepository
{
    private readonly Dictionary<Guid, Order> _orders = new();

    public Task SaveAsync(Order order, CancellationToken ct = default)
    {
        _orders[order.Id] = order;
        return Task.CompletedTask;
    }
}
""",
}


def test_csharp_classes_of_used_namespaces_come_with_signatures_and_docs(
    tmp_path: Path,
) -> None:
    """A ``using`` names a namespace, declared by files in other folders (and projects): the
    classes the code uses come from there, and from the file's own namespace."""
    related = related_segments(tmp_path, CS_PROJECT, "src/Shop.App/Program.cs")
    text = "\n".join(related)
    assert (
        "src/Shop.Core/Services/OrderService.cs:6-19\n"
        "// Places orders.\n"
        "public sealed class OrderService { … }\n"
        "    private readonly IOrderRepository _repository;\n"
        "    public OrderService(IOrderRepository repository) { … }\n"
        "    // Places an order for customer.\n"
        "    public async Task<Order> PlaceAsync(string customer, IEnumerable<OrderLine> lines)"
        " { … }\n"
    ) in related
    assert (
        "src/Shop.Core/Models/Order.cs:6-6\n"
        "// A line of an order.\n"
        "public record OrderLine(string Sku, int Quantity);\n"
    ) in related
    # the file's own namespace needs no using
    assert "internal sealed class InMemoryRepository : IOrderRepository { … }" in text
    assert "_repository.SaveAsync" not in text  # bodies elided


def test_csharp_using_static_gives_a_types_methods_and_their_parameter_types(
    tmp_path: Path,
) -> None:
    """``using static A.B.OrderFactory;`` makes the type's static methods callable bare: a call
    finds the method, and the class its parameters are typed with comes one hop further,
    found through the factory file's own namespace."""
    files = {
        **CS_PROJECT,
        "src/Shop.Core/Services/OrderFactory.cs": """namespace Shop.Core.Services;

public static class OrderFactory
{
    /// <summary>A service over <paramref name="repository"/>.</summary>
    public static OrderService Create(IOrderRepository repository) => new(repository);
}
""",
        "src/Shop.App/Program.cs": """using static Shop.Core.Services.OrderFactory;

namespace Shop.App;

public static class Program
{
    public static void Main(IOrderRepository repository)
    {
        var service = Create(repository);
        <|>
    }
}
""",
    }
    related = related_segments(tmp_path, files, "src/Shop.App/Program.cs")
    text = "\n".join(related)
    assert (
        "// A service over repository.\n"
        "public static OrderService Create(IOrderRepository repository) => …\n"
    ) in text
    assert "// Stores orders.\npublic interface IOrderRepository { … }\n" in text


KT_PROJECT = {
    "settings.gradle.kts": 'rootProject.name = "shop"\n',
    "src/main/kotlin/com/acme/shop/model/Order.kt": """package com.acme.shop.model

/** A line of an order. */
data class OrderLine(val sku: String, val quantity: Int)

/** An order placed by a customer. */
data class Order(val id: String, val lines: List<OrderLine> = emptyList()) {
    /** A copy with [line] added. */
    fun with(line: OrderLine): Order = copy(lines = lines + line)

    companion object {
        /** An order without lines. */
        fun empty(id: String): Order = Order(id)
    }
}
""",
    "src/main/kotlin/com/acme/shop/util/Text.kt": """package com.acme.shop.util

/** The text as a URL slug. */
fun String.slug(): String = lowercase().replace(" ", "-")

/** A short random id. */
fun shortId(length: Int = 8): String = "x".repeat(length)
""",
    "src/main/kotlin/com/acme/shop/service/OrderRepository.kt": """package com.acme.shop.service

import com.acme.shop.model.Order

/** Stores orders. */
interface OrderRepository {
    /** Saves an order. */
    fun save(order: Order)
}

class InMemoryOrderRepository : OrderRepository {
    private val orders = mutableMapOf<String, Order>()

    override fun save(order: Order) {
        orders[order.id] = order
    }
}
""",
    "src/main/kotlin/com/acme/shop/service/OrderService.kt": """package com.acme.shop.service

import com.acme.shop.model.*
import com.acme.shop.util.shortId
import com.acme.shop.util.slug

/**
 * Places orders.
 */
class OrderService(private val repository: OrderRepository) {
    fun place(customer: String, lines: List<OrderLine>): Order {
        val order = Order.empty(shortId())
        val full = lines.fold(order) { acc, line -> acc.with(line) }
        <|>
    }
}
""",
}


def test_kotlin_imported_functions_and_package_classes_come_with_their_kdoc(
    tmp_path: Path,
) -> None:
    current = "src/main/kotlin/com/acme/shop/service/OrderService.kt"
    related = related_segments(tmp_path, KT_PROJECT, current)
    text = "\n".join(related)
    util = "src/main/kotlin/com/acme/shop/util/Text.kt"
    assert (
        f"{util}:7-7\n// A short random id.\nfun shortId(length: Int = 8): String = …\n"
    ) in related  # a top-level function, imported by name
    assert (
        "// An order placed by a customer.\n"
        "data class Order(val id: String, val lines: List<OrderLine> = emptyList()) { … }\n"
        "    // A copy with [line] added.\n"
        "    fun with(line: OrderLine): Order = …\n"
        "    // An order without lines.\n"
        "    fun empty(id: String): Order = …\n"
    ) in text  # through ``import com.acme.shop.model.*``
    assert "// A line of an order.\ndata class OrderLine(" in text
    # the file's own package: no import needed
    assert "// Stores orders.\ninterface OrderRepository { … }\n" in text


def test_fields_of_classes_in_an_imported_package_are_no_related_definitions(
    tmp_path: Path,
) -> None:
    """A whole package's files (Kotlin ``package``, ``import a.b.*``; C# namespaces) were
    imported files: ``orders``, a word of the class's doc comment, brought
    ``private val orders`` of another class of the package. A package's top-level constant
    still comes."""
    files = {
        **KT_PROJECT,
        "src/main/kotlin/com/acme/shop/service/Limits.kt": "package com.acme.shop.service\n\n"
        "/** Most lines an order takes. */\nconst val MAX_LINES = 100\n",
    }
    current = "src/main/kotlin/com/acme/shop/service/OrderService.kt"
    files[current] = files[current].replace(
        "        <|>", "        require(lines.size <= MAX_LINES)\n        <|>"
    )
    text = "\n".join(related_segments(tmp_path, files, current))
    assert "private val orders" not in text
    assert "// Most lines an order takes.\nconst val MAX_LINES = 100\n" in text


def test_dotnet_bin_and_obj_folders_are_build_output(tmp_path: Path) -> None:
    """``dotnet build`` writes generated C# (``GlobalUsings.g.cs``, ``AssemblyInfo.cs``) under
    obj/ and copies under bin/: indexed, they were definitions and namespaces of the project.
    Without a project file beside them, bin/ and obj/ are sources. (A discovery test, kept
    with the C# tests.)"""
    from daemon.discovery import changes_folder_skip, walk_project

    files = {
        "src/Shop.App/Shop.App.csproj": '<Project Sdk="Microsoft.NET.Sdk" />\n',
        "src/Shop.App/Program.cs": "namespace Shop.App;\n",
        "src/Shop.App/obj/Debug/net8.0/Shop.App.GlobalUsings.g.cs": "global using System;\n",
        "src/Shop.App/bin/Debug/net8.0/appsettings.cs": "namespace Shop.App;\n",
        "tools/bin/deploy.cs": "namespace Tools;\n",  # no project file beside it
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    found = [f.rel for f in walk_project(tmp_path, max_bytes=1 << 20)]
    assert found == [
        "src/Shop.App/Program.cs",
        "src/Shop.App/Shop.App.csproj",
        "tools/bin/deploy.cs",
    ]
    assert changes_folder_skip("src/Other/Other.csproj")


def test_kotlin_locals_and_private_top_level_names_of_other_files_are_not_looked_up(
    tmp_path: Path,
) -> None:
    """``val logger = …`` in a function binds ``logger`` (a local, not the package's other
    file's ``private val logger``), and so do ``val line: String = …`` and the parameters of
    ``fun checkout(…)`` (``line`` and ``currency`` were looked up: the package's top-level
    ``val line`` and ``fun currency()`` came); a file-private function of another file of
    the package cannot be called from here (``private fun format`` came for ``format(…)``),
    its public one can."""
    files = {
        "settings.gradle.kts": 'rootProject.name = "shop"\n',
        "src/main/kotlin/shop/Audit.kt": """package shop

private val logger = System.getLogger("audit")

/** Formats a line for the audit log. */
private fun format(line: String): String = "[audit] " + line

/** Writes a line to the audit log. */
fun audit(line: String) {
    logger.log(System.Logger.Level.INFO, format(line))
}

/** The shop's currency. */
fun currency(): String = "EUR"

/** A rule between sections. */
val line = "-----"
""",
        "src/main/kotlin/shop/Checkout.kt": """package shop

fun checkout(total: Long, currency: String) {
    val logger = System.getLogger("checkout")
    val line: String = format(total) + currency
    audit(line)
    logger.log(System.Logger.Level.INFO, line)
    <|>
}
""",
    }
    text = "\n".join(related_segments(tmp_path, files, "src/main/kotlin/shop/Checkout.kt"))
    assert "// Writes a line to the audit log.\nfun audit(line: String) { … }\n" in text
    assert "private val logger" not in text
    assert "private fun format" not in text
    assert "fun currency()" not in text and 'val line = "-----"' not in text


def test_a_csharp_property_with_accessor_bodies_shows_its_accessors() -> None:
    """A property whose accessors have bodies over several lines was ``public int Count …``:
    whether it can be set was lost. Its line now lists the accessors as an interface's
    property does; ``/// <inheritdoc/>`` is no doc line."""
    source = """namespace Shop.Data;

public class Repository
{
    /// <summary>How many items.</summary>
    public int Count
    {
        get { return _items.Count; }
    }

    public string Name
    {
        get => _name;
        private set
        {
            _name = value ?? "";
        }
    }

    /// <inheritdoc/>
    public override string ToString() => "repo";
}
"""
    s = summarize("src/Repository.cs", source)
    count = one(s, "Repository.Count")
    assert (count.signature, count.doc) == ("public int Count { get; }", "How many items.")
    assert one(s, "Repository.Name").signature == "public string Name { get; private set; }"
    assert one(s, "Repository.ToString").doc == ""
    assert "    public string Name { get; private set; }\n" in render_skeleton(s)


def test_csharp_code_sees_the_types_of_its_enclosing_namespaces(tmp_path: Path) -> None:
    """Code in namespace Shop.Core.Services uses Shop.Core's and Shop's types without a
    ``using`` (C# looks a name up in the enclosing namespaces): they were not found. A
    ``using Shop.Core.Services;`` elsewhere does not bring Shop.Core."""
    files = {
        "src/Shop.Core/Shop.Core.csproj": '<Project Sdk="Microsoft.NET.Sdk" />\n',
        "src/Shop.Core/Result.cs": "namespace Shop.Core;\n\n"
        "/// <summary>The outcome of an operation.</summary>\n"
        "public record Result(bool Ok, string? Error = null);\n",
        "src/Shop/Clock.cs": "namespace Shop;\n\n/// <summary>The time now.</summary>\n"
        "public interface IClock { DateTime Now { get; } }\n",
        "src/Shop.Core/Services/Payments.cs": """namespace Shop.Core.Services;

public class Payments
{
    public Result Pay(IClock clock, decimal amount)
    {
        var started = clock.Now;
        <|>
    }
}
""",
    }
    text = "\n".join(related_segments(tmp_path, files, "src/Shop.Core/Services/Payments.cs"))
    assert "// The outcome of an operation.\npublic record Result(" in text
    assert "// The time now.\npublic interface IClock { … }" in text
    elsewhere = {
        **files,
        "src/Shop.App/Program.cs": "using Shop.Core.Services;\n\nnamespace Other.App;\n\n"
        "class Program\n{\n    Result Run(Payments p, IClock clock) => p.Pay(clock, 1m);\n"
        "    <|>\n}\n",
    }
    text = "\n".join(related_segments(tmp_path, elsewhere, "src/Shop.App/Program.cs"))
    assert "public class Payments { … }" in text
    assert "public record Result(" not in text and "interface IClock" not in text


def test_extension_methods_of_used_namespaces_are_found_for_their_calls(tmp_path: Path) -> None:
    """``name.Slug()`` calls a C# extension method of a used namespace, ``name.slug()`` a
    Kotlin extension function of a package imported whole: called as attributes, they were
    never looked up. A same-named member of a class is not an extension and stays out."""
    cs = {
        "src/Shop.Util/Text.cs": "namespace Shop.Util;\n\npublic static class TextExtensions\n{\n"
        "    /// <summary>The text as a URL slug.</summary>\n"
        "    public static string Slug(this string text) => text.ToLowerInvariant();\n}\n",
        "src/Shop.Util/Page.cs": "namespace Shop.Util;\n\npublic class Page\n{\n"
        "    public string Title(int n) => \"\";\n}\n",
        "src/Shop.App/Program.cs": "using Shop.Util;\n\nnamespace Shop.App;\n\nclass Program\n{\n"
        "    string Url(string name, Item item)\n    {\n        var title = item.Title(1);\n"
        "        return \"/\" + name.Slug();\n        <|>\n    }\n}\n",
    }
    text = "\n".join(related_segments(tmp_path / "cs", cs, "src/Shop.App/Program.cs"))
    assert "public static string Slug(this string text) => …" in text
    assert "Title(int n)" not in text
    kt = {
        "src/main/kotlin/shop/util/Text.kt": "package shop.util\n\n/** The text as a URL slug. */\n"
        "fun String.slug(): String = lowercase()\n",
        "src/main/kotlin/shop/App.kt": "package shop\n\nimport shop.util.*\n\n"
        "fun url(name: String): String {\n    val path = \"/\" + name.slug()\n    <|>\n}\n",
    }
    text = "\n".join(related_segments(tmp_path / "kt", kt, "src/main/kotlin/shop/App.kt"))
    assert "// The text as a URL slug.\nfun String.slug(): String = …\n" in text


def test_the_eval_identifier_match_knows_csharp_and_kotlin_keywords() -> None:
    """``nospin eval``'s identifier F1 took Python's keywords for C# and Kotlin: ``public``,
    ``var``, ``val``, ``fun`` counted as identifiers a completion got right. (An
    app/evaluation test, kept with the C# and Kotlin tests.)"""
    from app.evaluation.metrics import extract_identifiers

    assert extract_identifiers(
        "public override async Task<int> Count(this string s) { var n = await Get(s); }",
        "csharp",
    ) == ["Task", "Count", "s", "n", "Get", "s"]
    assert extract_identifiers(
        "override suspend fun count(s: String): Int { val n = get(s); return n }", "kotlin"
    ) == ["count", "s", "String", "Int", "n", "get", "s", "n"]


def test_preprocessor_lines_inside_a_signature_are_left_out() -> None:
    """serilog's ``Logger : ILogger, …, IDisposable`` then ``#if FEATURE_ASYNCDISPOSABLE`` /
    ``, IAsyncDisposable`` / ``#endif`` was one skeleton line with the directives in it (no
    C# a model has seen); the lines of an ``#else`` branch would have named both variants."""
    source = (
        "namespace Serilog.Core;\n\n"
        "public sealed class Logger : ILogger, IDisposable\n#if FEATURE_ASYNCDISPOSABLE\n"
        "    , IAsyncDisposable\n#endif\n{\n    public void Dispose() { }\n}\n"
    )
    logger = next(d for d in summarize("Logger.cs", source).definitions if d.name == "Logger")
    assert logger.signature == (
        "public sealed class Logger : ILogger, IDisposable , IAsyncDisposable")
    cpp = (
        "int open_file(const char* name\n#ifdef _WIN32\n    , HANDLE* out\n#else\n"
        "    , int* out\n#endif\n    ) {\n  return 0;\n}\n"
    )
    (fn,) = summarize("file.cpp", cpp).definitions
    assert fn.signature == "int open_file(const char* name , HANDLE* out )"
    # an #else of an #if opened above the declaration: its lines are left out too
    opened_above = (
        "int close_file(int fd\n#else\n    , void* handle\n#endif\n    ) {\n  return 0;\n}\n")
    (fn,) = summarize("file.cpp", opened_above).definitions
    assert fn.signature == "int close_file(int fd )"
