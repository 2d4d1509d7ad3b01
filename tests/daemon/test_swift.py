"""Swift summaries, skeletons, imports, modules and related definitions with the real parser:
a realistic SwiftPM package (targets under Sources/, a module spanning subfolders, ``///``
docs, protocols, extensions, enums with cases, initializers, computed properties)."""

from __future__ import annotations

from pathlib import Path

import pytest

from daemon.languages import detect_language
from daemon.parse import mask_prose, summarize
from daemon.skeleton import render_skeleton
from engine.code_scan import open_state
from tests.daemon.summaries import defs, index_of, one, related_segments

SWIFT = '''import Foundation
@testable import Kit
import struct Shop.Cart

/// A shopping cart.
///
/// Not thread-safe.
public final class Basket: Codable, Equatable {
    private(set) var items: [Item] = []
    let owner: String, label: String
    static let shared = Basket(owner: "x")
    var count: Int { items.count }

    init(owner: String) {
        self.owner = owner
        self.label = owner
    }

    /** Builds a basket from a dictionary. */
    convenience init?(raw: [String: Any]) throws { nil }

    deinit { }

    /// Adds an item; returns whether it was new.
    @discardableResult
    public func add(_ item: Item, count: Int = 1) -> Bool {
        let before = items.count
        var seen = Set<String>()
        items.append(item)
        return items.count > before
    }

    static func == (lhs: Basket, rhs: Basket) -> Bool { lhs.owner == rhs.owner }
}

/// How an order is paid.
enum Payment: String {
    case card = "card", cash
    case voucher(code: String)

    func label() -> String { rawValue }
}

actor Ledger { var balance = 0 }

/// Loads and saves baskets.
protocol BasketStore: AnyObject {
    associatedtype Key
    var name: String { get }
    func load(_ key: Key) async throws -> Basket
}

extension Basket: CustomStringConvertible {
    public var description: String { owner }
}

typealias Handler = (Int) -> Void

/// Runs ``body`` on each store.
func each<S: BasketStore>(_ stores: [S], body: @escaping Handler) async -> Int? where S: Sendable {
    let total = stores.count
    return total
}

let limit = 10
let greeting = """
    Hello (there
    """
'''


def test_swift_files_are_swift() -> None:
    assert detect_language("Sources/Kit/Cart.swift") == "swift"


def test_swift_types_members_and_doc_comments() -> None:
    summary = summarize("Sources/Shop/Basket.swift", SWIFT)
    assert not summary.has_syntax_errors
    basket = defs(summary)["Basket"]
    assert [d.signature for d in basket] == [
        "public final class Basket: Codable, Equatable",
        "extension Basket: CustomStringConvertible",  # an extension is named by its type
    ]
    assert basket[0].doc == "A shopping cart."
    assert one(summary, "Basket.items").signature == "private(set) var items: [Item] = []"
    assert one(summary, "Basket.owner").signature == "let owner: String, label: String"
    assert one(summary, "Basket.count").signature == "var count: Int { items.count }"
    inits = defs(summary)["Basket.init"]
    assert [(d.signature, d.params, d.doc) for d in inits] == [
        ("init(owner: String)", "(owner: String)", ""),
        ("convenience init?(raw: [String: Any]) throws", "(raw: [String: Any])",
         "Builds a basket from a dictionary."),
    ]
    add = one(summary, "Basket.add")
    assert add.signature == (
        "@discardableResult public func add(_ item: Item, count: Int = 1) -> Bool"
    )
    assert (add.params, add.return_type, add.doc) == (
        "(_ item: Item, count: Int)", "Bool", "Adds an item; returns whether it was new."
    )
    assert one(summary, "Basket.==").return_type == "Bool"
    # a function's locals are no definitions
    assert "Basket.add.before" not in defs(summary) and "before" not in defs(summary)
    assert one(summary, "Payment").attributes == ("card", "cash", "voucher")
    assert one(summary, "Payment.label").signature == "func label() -> String"
    assert one(summary, "Ledger.balance").signature == "var balance = 0"
    # protocol requirements: no body, shown as written (no ";": lines end them)
    assert one(summary, "BasketStore.load").signature == (
        "func load(_ key: Key) async throws -> Basket"
    )
    assert one(summary, "BasketStore.name").signature == "var name: String { get }"
    each = one(summary, "each")
    assert (each.params, each.return_type, each.doc) == (
        "(_ stores: [S], body: @escaping Handler)", "Int?", "Runs ``body`` on each store."
    )
    assert one(summary, "Handler").signature == "typealias Handler = (Int) -> Void"
    assert one(summary, "limit").signature == "let limit = 10"
    assert "total" not in defs(summary)


def test_availability_and_compiler_attributes_are_left_out_of_signatures() -> None:
    """swift-argument-parser: ``@available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13,
    watchOS 6, *)`` and ``@_disfavoredOverload`` made half of a skeleton's lines; a property
    wrapper and ``@discardableResult`` say something and stay."""
    src = """extension Command {
  @available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13, watchOS 6, *)
  internal static func checkAsync(_ c: Int) -> Int { 0 }
  @_disfavoredOverload @available(*, deprecated, renamed: "help(for:)")
  public static func help(for s: Int, columns: Int? = nil) -> String { "" }
  @inlinable @discardableResult public func add() -> Int { 1 }
  @Option(help: "The name.") var name: String
}
"""
    assert [d.signature for d in summarize("Sources/X/Command.swift", src).definitions] == [
        "extension Command",
        "internal static func checkAsync(_ c: Int) -> Int",
        "public static func help(for s: Int, columns: Int? = nil) -> String",
        "@discardableResult public func add() -> Int",
        '@Option(help: "The name.") var name: String',
    ]


def test_swift_imports() -> None:
    summary = summarize("Sources/Shop/Basket.swift", SWIFT)
    assert [(i.module, i.names) for i in summary.imports] == [
        ("Foundation", ("*",)),
        ("Kit", ("*",)),  # @testable
        ("Shop", ("Cart",)),  # one declaration of a module
    ]


def test_swift_skeleton() -> None:
    skeleton = render_skeleton(summarize("Sources/Shop/Basket.swift", SWIFT))
    assert skeleton.startswith("import Foundation\n@testable import Kit\n")
    assert (
        "// A shopping cart.\npublic final class Basket: Codable, Equatable { … }\n"
    ) in skeleton
    assert (
        "    // Adds an item; returns whether it was new.\n"
        "    @discardableResult public func add(_ item: Item, count: Int = 1) -> Bool { … }\n"
    ) in skeleton
    assert (
        "protocol BasketStore: AnyObject { … }\n"
        "    var name: String { get }\n"
        "    func load(_ key: Key) async throws -> Basket\n"
    ) in skeleton
    assert "items.append" not in skeleton and "Hello" not in skeleton
    assert open_state(skeleton, "swift") == ([], "")


def test_swift_strings_and_comments_for_the_scans_and_the_prose_mask() -> None:
    # a multi-line string spans lines; an apostrophe is no quote in Swift
    assert open_state('let s = """\n  (a\n  """\nfoo(', "swift") == (["("], "")
    assert open_state("let n = count // don't (\nlet isn't = f(", "swift") == (["("], "")
    masked = mask_prose(SWIFT, "swift").decode()
    assert "Hello" not in masked and "A shopping cart" not in masked
    assert "public final class Basket" in masked


@pytest.mark.parametrize(
    ("path", "package"),
    [
        ("Sources/Shop/Models/Item.swift", "Sources/Shop"),
        ("Sources/Shop/Cart.swift", "Sources/Shop"),
        ("Tests/ShopTests/CartTests.swift", "Tests/ShopTests"),
        # no SwiftPM layout (an Xcode app): the top folder is the target
        ("MyApp/Views/Home.swift", "MyApp"),
        ("MyAppTests/HomeTests.swift", "MyAppTests"),
        ("main.swift", "."),
    ],
)
def test_a_swift_module_is_its_target_folder_with_its_subfolders(path: str, package: str) -> None:
    from daemon.index import _package_folder

    assert _package_folder(path) == package


SWIFT_PROJECT = {
    "Package.swift": """// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Shop",
    targets: [
        .target(name: "Shop"),
        .executableTarget(name: "App", dependencies: ["Shop"]),
    ]
)
""",
    "Sources/Shop/Models/Item.swift": """import Foundation

/// An item of the catalogue.
///
/// Prices are in cents.
public struct Item: Hashable, Codable {
    public let sku: String
    public let price: Int

    /// An item with a price in cents.
    public init(sku: String, price: Int) {
        self.sku = sku
        self.price = price
    }
}

/// How an order is paid.
public enum Payment: String {
    case card, cash
    case voucher = "voucher"
}

fileprivate func audit(_ line: String) {
    print(line)
}

/// Logs a line of the shop.
func log(_ line: String) {
    print(line)
}
""",
    "Sources/Shop/Cart.swift": """import Foundation

/// Holds items until checkout.
public final class Cart {
    private(set) var items: [Item] = []

    /// Adds an item; returns the new count.
    @discardableResult
    public func add(_ item: Item, count: Int = 1) -> Int {
        for _ in 0..<count { items.append(item) }
        return items.count
    }

    /// The total in cents.
    public var total: Int { items.reduce(0) { $0 + $1.price } }
}

/// Stores carts.
public protocol CartStore {
    func load(id: String) async throws -> Cart
}
""",
    "Sources/App/main.swift": """import Shop

let cart = Cart()
cart.add(Item(sku: "A-1", price: 250))
<|>
""",
}


def test_swift_module_files_and_imported_modules_resolve() -> None:
    files = {k: v.replace("<|>", "") for k, v in SWIFT_PROJECT.items()}
    snap = index_of(files).snapshot()
    shop = ("Sources/Shop/Cart.swift", "Sources/Shop/Models/Item.swift")
    assert snap.package_of("Sources/Shop/Models/Item.swift") == shop
    assert snap.files_of_package("Shop", "Sources/App/main.swift") == shop
    assert snap.files_of_package("Foundation", "Sources/App/main.swift") == ()


def test_an_imported_modules_types_come_with_their_members_and_docs(tmp_path: Path) -> None:
    """``import Shop`` in the app: Cart and Item, used at the cursor, come from the module's
    files (Item from a subfolder of the target), with their doc lines and members."""
    related = related_segments(tmp_path, SWIFT_PROJECT, "Sources/App/main.swift")
    text = "\n".join(related)
    assert (
        "// An item of the catalogue.\npublic struct Item: Hashable, Codable { … }\n"
        "    public let sku: String\n    public let price: Int\n"
        "    // An item with a price in cents.\n    public init(sku: String, price: Int) { … }\n"
    ) in text
    assert (
        "// Holds items until checkout.\npublic final class Cart { … }\n" in text
        and "    @discardableResult public func add(_ item: Item, count: Int = 1) -> Int { … }\n"
        in text
    )


def test_a_modules_files_see_each_other_without_imports(tmp_path: Path) -> None:
    """Cart.swift uses Payment and log of Models/Item.swift (another folder of the target, no
    import: one module); the ``fileprivate`` audit there is not visible here."""
    files = dict(SWIFT_PROJECT)
    files["Sources/Shop/Cart.swift"] = files["Sources/Shop/Cart.swift"].replace(
        "        return items.count",
        "        let paid: Payment = .card\n        audit(item.sku)\n        log(item.sku)\n"
        "        return items.count<|>",
    )
    files["Sources/App/main.swift"] = files["Sources/App/main.swift"].replace("<|>", "")
    text = "\n".join(related_segments(tmp_path, files, "Sources/Shop/Cart.swift"))
    assert "// How an order is paid.\n// fields: card, cash, voucher\npublic enum Payment" in text
    assert "// Logs a line of the shop.\nfunc log(_ line: String) { … }\n" in text
    assert "audit" not in text


def test_the_eval_identifier_match_knows_swift_keywords() -> None:
    from app.evaluation.metrics import extract_identifiers

    assert extract_identifiers(
        "guard let item = try await store.load(id: key) else { return nil }", "swift"
    ) == ["item", "store", "load", "id", "key"]


def test_an_extension_is_no_definition_of_the_type_it_extends(tmp_path: Path) -> None:
    """swift-argument-parser: ``var description: String`` brought the module's ``extension
    String { … }`` blocks (441 tokens of shell-escaping helpers) for the name String; the
    model wrote one of them at the cursor. A type of the project is found by its
    declaration."""
    files = dict(SWIFT_PROJECT)
    files["Sources/Shop/Strings.swift"] = """extension String {
    /// The text as a URL slug.
    func slug() -> String { lowercased() }
}

extension Item: CustomStringConvertible {
    public var description: String { sku }
}
"""
    files["Sources/App/main.swift"] = """import Shop

func label(_ name: String, _ item: Item) -> String {
    let text: String = name
    <|>
}
"""
    text = "\n".join(related_segments(tmp_path, files, "Sources/App/main.swift"))
    assert "extension String" not in text and "slug" not in text
    assert "public struct Item: Hashable, Codable { … }" in text


def test_a_method_of_an_extension_is_found_for_its_calls(tmp_path: Path) -> None:
    """``name.slug()``: the receiver's type is not known, but ``slug`` is a method of an
    ``extension String`` of the module (as a C# extension method or a Kotlin extension
    function of a used namespace is)."""
    files = dict(SWIFT_PROJECT)
    files["Sources/Shop/Strings.swift"] = """extension String {
    /// The text as a URL slug.
    func slug() -> String { lowercased() }
}
"""
    files["Sources/Shop/Cart.swift"] = files["Sources/Shop/Cart.swift"].replace(
        "        return items.count",
        "        let path = item.sku.slug()\n        return items.count<|>",
    )
    files["Sources/App/main.swift"] = files["Sources/App/main.swift"].replace("<|>", "")
    text = "\n".join(related_segments(tmp_path, files, "Sources/Shop/Cart.swift"))
    assert "// The text as a URL slug.\n" in text and "func slug() -> String { … }" in text


def test_an_xcode_apps_folders_are_one_module(tmp_path: Path) -> None:
    """No Package.swift: an Xcode app's target is a top folder with Views/, Models/ …; a view
    uses a model of another folder without an import."""
    files = {
        "MyApp/Models/Item.swift": "/// An item of the catalogue.\nstruct Item {\n"
        "    let sku: String\n    let price: Int\n}\n",
        "MyApp/Views/ItemRow.swift": "import SwiftUI\n\nstruct ItemRow: View {\n"
        "    let item: Item\n    var body: some View {\n        Text(item.<|>)\n    }\n}\n",
    }
    text = "\n".join(related_segments(tmp_path, files, "MyApp/Views/ItemRow.swift"))
    assert "// An item of the catalogue.\nstruct Item { … }\n    let sku: String\n" in text


CUSTOM_PATHS = {
    # two modules side by side under one folder that is no SwiftPM module folder, each named by
    # its target's path:, and an app target in Tools/ (no Sources/ anywhere)
    "Package.swift": """// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Kit",
    products: [.library(name: "Kit", targets: ["Core"])],
    dependencies: [.package(url: "https://example.com/y.git", from: "1.0.0")],
    targets: [
        .target(
            name: "Core",
            dependencies: [.product(name: "Y", package: "y"), "Money"],
            path: "Modules/Core",
            exclude: ["README.md"],
            resources: [.process("Assets")]
        ),
        .target(name: "Money", path: "Modules/Money/"),
        .executableTarget(name: "kit", dependencies: ["Core"], path: "Tools/CLI"),
        .binaryTarget(name: "Native", path: "bin/Native.xcframework"),
    ]
)
""",
    "Modules/Money/Amount.swift": """/// An amount of money in cents.
public struct Amount {
    public let cents: Int
}

/// Rounds to whole units.
func roundUnits(_ cents: Int) -> Int { cents / 100 * 100 }
""",
    "Modules/Core/Ledger.swift": """import Money

/// The books of the shop.
public final class Ledger {
    public private(set) var entries: [Amount] = []

    /// Books an amount.
    public func book(_ amount: Amount) { entries.append(amount) }
}
""",
    "Modules/Core/Reports/Summary.swift": """struct Summary {
    let ledger: Ledger

    func total() -> Int {
        let a = Amount(cents: 1)
        return roundUnits(a.cents)<|>
    }
}
""",
    "Tools/CLI/main.swift": """import Core

let ledger = Ledger()
""",
}


def test_package_swift_targets_with_a_path_are_modules() -> None:
    from daemon.manifests import read_module_roots
    from daemon.symbols import ModuleRoot

    assert read_module_roots("Package.swift", CUSTOM_PATHS["Package.swift"]) == (
        ModuleRoot("Core", under="Modules/Core"), ModuleRoot("Money", under="Modules/Money"),
        ModuleRoot("kit", under="Tools/CLI"))
    assert read_module_roots("Package.swift", '.target(name: "X", path: "../up")') == ()
    assert read_module_roots("Package.swift", '.target(name: "X", path: "Lib"') == ()  # open
    # an escaped backslash ends its literal: the exclude list's "\\" is closed, path: is read
    escaped = '.target(name: "W", exclude: ["a\\\\"], path: "Win")'
    assert read_module_roots("Package.swift", escaped) == (ModuleRoot("W", under="Win"),)
    files = {k: v.replace("<|>", "") for k, v in CUSTOM_PATHS.items()}
    snap = index_of(files).snapshot()
    core = ("Modules/Core/Ledger.swift", "Modules/Core/Reports/Summary.swift")
    # without the manifest, Modules/ would be one module of all four files, and ``import
    # Core`` would name nothing
    assert snap.package_of("Modules/Core/Reports/Summary.swift") == core
    assert snap.package_of("Modules/Money/Amount.swift") == ("Modules/Money/Amount.swift",)
    assert snap.files_of_package("Core", "Tools/CLI/main.swift") == core
    assert snap.files_of_package("Money", "Modules/Core/Ledger.swift") == (
        "Modules/Money/Amount.swift",)
    without = index_of({k: v for k, v in files.items() if k != "Package.swift"}).snapshot()
    assert len(without.package_of("Modules/Core/Ledger.swift")) == 3
    assert without.files_of_package("Core", "Tools/CLI/main.swift") == ()


def test_a_target_with_a_path_sees_its_own_files_not_another_modules(tmp_path: Path) -> None:
    """Summary.swift (a subfolder of Core) gets Ledger of its module without an import; the
    Amount it names is Money's, a module this file does not import (Ledger.swift does), and
    is not offered (without the manifest, Modules/ was one module and it was)."""
    path = "Modules/Core/Reports/Summary.swift"
    text = "\n".join(related_segments(tmp_path / "a", CUSTOM_PATHS, path))
    assert "// The books of the shop.\npublic final class Ledger { … }\n" in text
    assert "struct Amount" not in text
    files = {k: v for k, v in CUSTOM_PATHS.items() if k != "Package.swift"}
    assert "public struct Amount { … }" in "\n".join(related_segments(tmp_path / "b", files, path))
