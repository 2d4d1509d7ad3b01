"""PHP and Ruby summaries, skeletons, imports and related definitions, with the real grammars:
a Laravel-like PHP project (PSR-4 namespaces, grouped and aliased ``use``, ``require_once``)
and a Ruby gem with a Rails-like app (``require_relative``, the load path, autoloaded
constants)."""

from __future__ import annotations

from pathlib import Path

import pytest

from daemon.languages import detect_language
from daemon.parse import mask_prose, summarize
from daemon.skeleton import render_skeleton
from daemon.symbols import Definition, FileSummary
from tests.daemon.summaries import index_of, related_segments

USER_PHP = """<?php

declare(strict_types=1);

namespace App\\Models;

use Illuminate\\Database\\Eloquent\\Model;
use App\\Services\\{Mailer, Billing as Bill};
use function App\\Support\\format_cents;

/**
 * A customer account.
 */
final class User extends Model implements HasName
{
    use Notifiable;

    /** Most login attempts before a lock. */
    public const MAX_TRIES = 5;
    protected $fillable = [
        'name',
        'email',
    ];
    private ?string $nickname = null, $other;

    public function __construct(private readonly Mailer $mailer) {}

    /**
     * The name shown on invoices.
     */
    public function displayName(string $prefix = ''): string
    {
        return $prefix . $this->name;
    }

    // Finds a user by email.
    public static function findByEmail(string $email): ?self
    {
        return null;
    }
}

interface HasName
{
    /** The name shown on invoices. */
    public function displayName(string $prefix = ''): string;
}

trait Greets
{
    public function greet(): string
    {
        return "Hello {$this->name}";
    }
}

enum Status: string
{
    case Active = 'active';
    case Banned = 'banned';

    public function label(): string
    {
        return ucfirst($this->value);
    }
}

/** Formats cents as "12.34". */
function format_money(int $cents): string
{
    return sprintf('%d.%02d', intdiv($cents, 100), $cents % 100);
}

const VERSION = '1.0';

$banner = <<<EOT
    Welcome, {$name}
    EOT;
"""

CART_RB = """require "json"
require_relative "money"

module Shop
  # Items a customer is about to buy.
  # Kept in memory.
  class Cart < Base
    include Enumerable
    attr_accessor :items
    attr_reader :owner, :created_at
    MAX_ITEMS = 50

    def initialize(owner)
      @owner = owner
      @items = []
      @discount = 0
    end

    # Adds an item with its price.
    def add(name, price)
      items << [name, price]
      self
    end

    # An empty cart for a guest.
    def self.guest
      new(nil)
    end

    def reset; end

    def size = items.size

    class << self
      def build = new(nil)
    end
  end
end

class Admin::CartsController < ApplicationController
  def index
    @carts = Cart.all
  end
end

def helper(x)
  x * 2
end

BANNER = <<~EOS
  Welcome, #{name}
EOS
"""


def _defs(summary: FileSummary) -> dict[str, Definition]:
    return {d.qualname: d for d in summary.definitions}


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("app/Models/User.php", "php"),
        ("resources/views/home.phtml", "php"),
        ("lib/shop/cart.rb", "ruby"),
        ("lib/tasks/db.rake", "ruby"),
        ("shop.gemspec", "ruby"),
        ("config.ru", "ruby"),
        ("Gemfile", "ruby"),
        ("Rakefile", "ruby"),
        ("Gemfile.lock", "text"),
    ],
)
def test_the_extensions_and_file_names_of_php_and_ruby(path: str, language: str) -> None:
    assert detect_language(path) == language


def test_php_classes_interfaces_traits_enums_functions_and_members() -> None:
    s = summarize("app/Models/User.php", USER_PHP)
    assert s.language == "php" and not s.has_syntax_errors
    defs = _defs(s)
    kinds = {q: d.kind.value for q, d in defs.items()}
    assert kinds == {
        "User": "class",
        "User.MAX_TRIES": "variable",
        "User.fillable": "variable",
        "User.nickname": "variable",
        "User.__construct": "method",
        "User.displayName": "method",
        "User.findByEmail": "method",
        "HasName": "class",
        "HasName.displayName": "method",
        "Greets": "class",
        "Greets.greet": "method",
        "Status": "class",
        "Status.label": "method",
        "format_money": "function",
        "VERSION": "variable",
    }
    user = defs["User"]
    assert user.signature == "final class User extends Model implements HasName"
    assert user.doc == "A customer account."
    display = defs["User.displayName"]
    assert (display.params, display.return_type, display.doc) == (
        "(string $prefix = '')",
        "string",
        "The name shown on invoices.",
    )
    assert defs["User.findByEmail"].doc == "Finds a user by email."
    assert defs["User.MAX_TRIES"].doc == "Most login attempts before a lock."
    assert defs["User.fillable"].signature == "protected $fillable = […]"
    assert defs["Status"].attributes == ("Active", "Banned")  # the cases, as a Java enum's
    assert defs["format_money"].doc == 'Formats cents as "12.34".'


def test_php_skeleton_elides_bodies_and_lists_members() -> None:
    skeleton = render_skeleton(summarize("app/Models/User.php", USER_PHP))
    assert skeleton == (
        "namespace App\\Models;\n"
        "use Illuminate\\Database\\Eloquent\\Model;\n"
        "use App\\Services\\Mailer;\n"
        "use App\\Services\\Billing as Bill;\n"
        "use function App\\Support\\format_cents;\n"
        "\n"
        "// A customer account.\n"
        "final class User extends Model implements HasName { … }\n"
        "    // Most login attempts before a lock.\n"
        "    public const MAX_TRIES = 5;\n"
        "    protected $fillable = […]\n"
        "    private ?string $nickname = null, $other;\n"
        "    public function __construct(private readonly Mailer $mailer) { … }\n"
        "    // The name shown on invoices.\n"
        "    public function displayName(string $prefix = ''): string { … }\n"
        "    // Finds a user by email.\n"
        "    public static function findByEmail(string $email): ?self { … }\n"
        "interface HasName { … }\n"
        "    // The name shown on invoices.\n"
        "    public function displayName(string $prefix = ''): string;\n"
        "trait Greets { … }\n"
        "    public function greet(): string { … }\n"
        "// fields: Active, Banned\n"
        "enum Status: string { … }\n"
        "    public function label(): string { … }\n"
        "// Formats cents as \"12.34\".\n"
        "function format_money(int $cents): string { … }\n"
        "const VERSION = '1.0';\n"
    )
    assert "sprintf" not in skeleton and "ucfirst" not in skeleton


def test_php_imports_namespaces_groups_aliases_and_requires() -> None:
    source = USER_PHP.replace(
        "use function", "require_once __DIR__ . '/../helpers.php';\ninclude 'config.php';\n"
        "require dirname(__DIR__) . '/vendor/autoload.php';\nrequire $path;\nuse function"
    )
    s = summarize("app/Models/User.php", source)
    assert [(i.module, i.names, i.alias) for i in s.imports] == [
        ("App.Models", ("*",), ""),  # the file's own namespace: its classes need no use
        ("Illuminate.Database.Eloquent", ("Model",), ""),
        ("App.Services", ("Mailer",), ""),
        ("App.Services.Billing", (), "Bill"),
        ("../helpers", ("*",), ""),
        ("./config", ("*",), ""),
        ("../vendor/autoload", ("*",), ""),
        ("App.Support", ("format_cents",), ""),
    ]


def test_php_strings_heredocs_and_comments_are_prose() -> None:
    masked = mask_prose(USER_PHP, "php").decode()
    assert "Welcome" not in masked and "customer account" not in masked
    assert "Hello" not in masked and "format_money" in masked


def test_ruby_modules_classes_methods_and_attributes() -> None:
    s = summarize("lib/shop/cart.rb", CART_RB)
    assert s.language == "ruby" and not s.has_syntax_errors
    defs = _defs(s)
    assert list(defs) == [
        "Shop",
        "Shop.Cart",
        "Shop.Cart.MAX_ITEMS",  # a constant of the class
        "Shop.Cart.initialize",
        "Shop.Cart.add",
        "Shop.Cart.guest",
        "Shop.Cart.reset",
        "Shop.Cart.size",
        "Shop.Cart.build",  # ``class << self``: a method of the class
        "CartsController",  # ``class Admin::CartsController``: the name is the last part
        "CartsController.index",
        "helper",
        "BANNER",
    ]
    cart = defs["Shop.Cart"]
    # the comments above a module's first statement are that statement's doc
    assert (cart.signature, cart.doc) == ("class Cart < Base", "Items a customer is about to buy.")
    # attr_* names first, then the instance variables the methods assign
    assert cart.attributes == ("items", "owner", "created_at", "discount")
    assert defs["Shop"].attributes == ()  # the class's, not the module's
    assert defs["Shop"].signature == "module Shop"
    add = defs["Shop.Cart.add"]
    assert (add.kind.value, add.signature, add.params, add.doc) == (
        "method",
        "def add(name, price)",
        "(name, price)",
        "Adds an item with its price.",
    )
    assert defs["Shop.Cart.guest"].signature == "def self.guest"
    assert defs["Shop.Cart.guest"].doc == "An empty cart for a guest."
    assert defs["Shop.Cart.reset"].signature == "def reset"
    assert defs["Shop.Cart.size"].signature == "def size"
    assert defs["helper"].kind.value == "function"


def test_ruby_skeleton_elides_bodies_with_end() -> None:
    skeleton = render_skeleton(summarize("lib/shop/cart.rb", CART_RB))
    assert skeleton.startswith(
        'require "json"\n'
        'require_relative "money"\n'
        "\n"
        "module Shop … end\n"
        "    # Items a customer is about to buy.\n"
        "    # fields: items, owner, created_at, discount\n"
        "    class Cart < Base … end\n"
        "        MAX_ITEMS = 50\n"
        "        def initialize(owner) … end\n"
        "        # Adds an item with its price.\n"
        "        def add(name, price) … end\n"
        "        # An empty cart for a guest.\n"
        "        def self.guest … end\n"
        "        def reset … end\n"
        "        def size … end\n"
        "        def build … end\n"
        "# fields: carts\n"
        "class Admin::CartsController < ApplicationController … end\n"
        "    def index … end\n"
        "def helper(x) … end\n"
    ), skeleton
    assert "items << " not in skeleton


def test_ruby_constants_and_access_sections_of_a_class() -> None:
    """A class's constants are its definitions (``Cart::TAX``; an ``@x =`` or a local in its
    body is none, nor a constant assigned in a method), and ``private`` / ``protected`` on
    their own line are shown where they stand; ``private def x`` keeps its word."""
    source = (
        "class Cart\n"
        "  TAX = 0.2\n"
        "  Shop::LIMIT = 3\n"
        "  @registry = {}\n"
        "  x = 1\n"
        "  A, B = 1, 2\n"
        "\n"
        "  def total\n"
        "    subtotal * (1 + TAX)\n"
        "  end\n"
        "\n"
        "  protected\n"
        "\n"
        "  # For other carts.\n"
        "  def weight; end\n"
        "\n"
        "  private\n"
        "  attr_reader :log\n"
        "\n"
        "  def subtotal\n"
        "    @items.sum\n"
        "  end\n"
        "  private def round(x) = x.round(2)\n"
        "  def audit; end\n"
        "end\n"
    )
    s = summarize("lib/cart.rb", source)
    assert not s.has_syntax_errors
    defs = _defs(s)
    assert list(defs) == ["Cart", "Cart.TAX", "Cart.LIMIT", "Cart.total", "Cart.weight",
                          "Cart.subtotal", "Cart.round", "Cart.audit"]
    assert [defs[q].access for q in defs] == ["", "", "", "", "protected", "private", "", ""]
    assert defs["Cart.TAX"].kind.value == "variable"
    assert render_skeleton(s) == (
        "# fields: log, registry\n"
        "class Cart … end\n"
        "    TAX = 0.2\n"
        "    Shop::LIMIT = 3\n"
        "    def total … end\n"
        "    protected\n"
        "    # For other carts.\n"
        "    def weight … end\n"
        "    private\n"
        "    def subtotal … end\n"
        "    private def round(x) … end\n"
        "    def audit … end\n"
    )
    # ``private :x`` names methods (no definition of its own): the section above goes on
    other = summarize("lib/b.rb", "class B\n  private\n  private :zz\n  def c; end\nend\n")
    assert [d.access for d in other.definitions] == ["", "private"]


def test_a_compact_ruby_class_names_its_methods_not_its_constants() -> None:
    """A class too long to show whole names the members the code does not use; a constant is
    left out (rack's Lint named a dozen ``REQUEST_PATH_…`` constants there)."""
    from daemon.skeleton import render_entry

    source = (
        "class Lint\n  MAX = 3\n  PATTERN = /x/\n  def call(env); end\n"
        "  def check(x); end\n  def verify(y); end\nend\n"
    )
    s = summarize("lib/lint.rb", source)
    lint = _defs(s)["Lint"]
    text = render_entry(s, lint, only={"call", "PATTERN"})
    assert "# members: check, verify\n" in text, text
    assert "    PATTERN = /x/\n" in text and "def call(env) … end" in text
    assert "MAX" not in text


def test_ruby_requires_and_prose() -> None:
    source = (
        'require "json"\nrequire_relative "money"\nrequire_relative "../util/text.rb"\n'
        "require('shop/cart')\nload \"tasks/setup.rb\"\nputs 'require \"x\"'\n"
        "items.each { |i| require_item(i) }\n"
    )
    s = summarize("lib/shop/checkout.rb", source)
    assert [(i.module, i.names) for i in s.imports] == [
        ("json", ("*",)),
        ("./money", ("*",)),
        ("../util/text", ("*",)),
        ("shop/cart", ("*",)),
        ("tasks/setup", ("*",)),
    ]
    masked = mask_prose(CART_RB, "ruby").decode()
    assert "Welcome" not in masked and "customer" not in masked and "Cart" in masked


def test_php_namespaces_resolve_by_psr4_folders_and_path_suffixes() -> None:
    """``App\\Models\\User`` is app/Models/User.php (composer's ``"App\\\\": "app/"``); a
    vendor prefix mapped to src/ is found by the namespace's suffix; a namespace is a
    folder; ``require`` is relative to the file."""
    snap = index_of(
        {
            "app/Models/User.php": "<?php\nnamespace App\\Models;\nclass User {}\n",
            "app/Http/Controllers/UserController.php": "<?php\n"
            "namespace App\\Http\\Controllers;\nclass UserController {}\n",
            "app/helpers.php": "<?php\nfunction money() {}\n",
            "packages/billing/src/Invoices/Invoice.php": "<?php\n"
            "namespace Acme\\Billing\\Invoices;\nclass Invoice {}\n",
        }
    ).snapshot()
    ctrl = "app/Http/Controllers/UserController.php"
    assert snap.resolve_module("App.Models.User", ctrl) == "app/Models/User.php"
    assert snap.resolve_module("Acme.Billing.Invoices.Invoice", ctrl) == (
        "packages/billing/src/Invoices/Invoice.php"
    )
    assert snap.resolve_package("App.Models", ctrl) == ("app/Models",)
    assert snap.resolve_module("../../helpers", ctrl) == "app/helpers.php"
    assert snap.resolve_module("Illuminate.Support.Str", ctrl) is None


def test_ruby_requires_resolve_relative_from_the_root_and_by_the_load_path() -> None:
    snap = index_of(
        {
            "lib/shop/cart.rb": "module Shop; class Cart; end; end\n",
            "lib/shop/money.rb": "module Shop; class Money; end; end\n",
            "gems/pay/lib/pay/client.rb": "module Pay; class Client; end; end\n",
            "app/models/user.rb": "class User; end\n",
            "bin/checkout.rb": "",
        }
    ).snapshot()
    cart = "lib/shop/cart.rb"
    assert snap.resolve_module("./money", cart) == "lib/shop/money.rb"
    assert snap.resolve_module("shop/money", "bin/checkout.rb") == "lib/shop/money.rb"
    assert snap.resolve_module("pay/client", "bin/checkout.rb") == "gems/pay/lib/pay/client.rb"
    assert snap.resolve_module("app/models/user", "bin/checkout.rb") == "app/models/user.rb"
    assert snap.resolve_module("json", cart) is None
    assert snap.resolve_module("x/cart", cart) is None  # no suffix of the require is tried


LARAVEL = {
    "composer.json": '{"autoload": {"psr-4": {"App\\\\": "app/"}}}\n',
    "app/Models/User.php": """<?php

namespace App\\Models;

use Illuminate\\Database\\Eloquent\\Model;

/**
 * A customer account.
 */
class User extends Model
{
    /** Columns filled from a form. */
    protected $fillable = ['name', 'email'];

    /**
     * Whether the user may see the admin pages.
     */
    public function isAdmin(): bool
    {
        return $this->role === 'admin';
    }
}
""",
    "app/Models/Order.php": """<?php

namespace App\\Models;

/** One order of a user. */
final class Order
{
    public function __construct(public readonly int $id, public int $totalCents = 0) {}

    /** Total with tax, in cents. */
    public function totalWithTax(float $rate): int
    {
        return (int) round($this->totalCents * (1 + $rate));
    }
}
""",
    "app/Services/Mailer.php": """<?php

namespace App\\Services;

use App\\Models\\User;

interface Mailer
{
    /** Delivers a message to a user; false when it bounced. */
    public function deliver(User $user, string $subject): bool;
}
""",
    "app/Services/InvoiceService.php": """<?php

namespace App\\Services;

use App\\Models\\Order;
use App\\Models\\User;

/**
 * Builds invoices for orders.
 */
class InvoiceService
{
    public function __construct(private Mailer $mailer) {}

    /**
     * Sends the invoice of an order to its user.
     */
    public function send(User $user, Order $order): bool
    {
        $sent = $this->mailer->deliver($user, 'Invoice');
        <|>
    }
}
""",
    "app/helpers.php": """<?php

/** Formats cents as "12.34". */
function format_cents(int $cents): string
{
    return sprintf('%d.%02d', intdiv($cents, 100), $cents % 100);
}
""",
    "app/Http/Controllers/InvoiceController.php": """<?php

namespace App\\Http\\Controllers;

use App\\Models\\{Order, User};
require_once __DIR__ . '/../../helpers.php';

class InvoiceController
{
    public function store(int $userId, int $orderId): array
    {
        $user = User::find($userId);
        $order = new Order($orderId);
        $label = format_cents($order->totalWithTax(0.2));
        <|>
    }
}
""",
}


@pytest.mark.parametrize("layout", ["stable", "cursor"])
def test_a_php_controller_gets_the_classes_it_uses_from_their_files(
    tmp_path: Path, layout: str
) -> None:
    """Classes of a grouped ``use``, a function of a ``require_once``d file: signatures and
    PHPDoc lines, bodies elided."""
    current = "app/Http/Controllers/InvoiceController.php"
    related = related_segments(tmp_path, LARAVEL, current, layout)
    text = "\n".join(related)
    lead = "// " if layout == "stable" else ""
    assert f"{lead}// One order of a user.\n{lead}final class Order {{ … }}" in text, related
    assert f"{lead}    // Total with tax, in cents.\n" in text
    assert f"{lead}    public function totalWithTax(float $rate): int {{ … }}" in text
    assert f"{lead}// A customer account.\n{lead}class User extends Model {{ … }}" in text
    assert f"{lead}    protected $fillable = ['name', 'email'];" in text
    assert f'{lead}// Formats cents as "12.34".\n' in text
    assert f"{lead}function format_cents(int $cents): string {{ … }}" in text
    assert "round(" not in text and "sprintf" not in text  # bodies elided
    assert "interface Mailer" not in text  # another namespace, not used


@pytest.mark.parametrize("layout", ["stable", "cursor"])
def test_php_parameter_types_are_looked_up_and_same_namespace_classes_need_no_use(
    tmp_path: Path, layout: str
) -> None:
    """``function send(User $user, Order $order)`` bound User and Order as if they were the
    parameters (the parameter names of other languages come first): the two classes the
    method is typed with were left out. Mailer, of the file's own namespace, needs no use."""
    related = related_segments(tmp_path, LARAVEL, "app/Services/InvoiceService.php", layout)
    text = "\n".join(related)
    lead = "// " if layout == "stable" else ""
    assert f"{lead}class User extends Model {{ … }}" in text, related
    assert f"{lead}final class Order {{ … }}" in text, related
    assert f"{lead}interface Mailer {{ … }}" in text
    assert f"{lead}    // Delivers a message to a user; false when it bounced.\n" in text


@pytest.mark.parametrize("layout", ["stable", "cursor"])
def test_a_php_class_imported_under_another_name_is_looked_up_by_its_own(
    tmp_path: Path, layout: str
) -> None:
    """``use App\\Models\\User as Customer;``: the code says Customer, the file defines
    User (a grouped ``use`` renames the same way)."""
    files = dict(LARAVEL)
    files["app/Services/Report.php"] = (
        "<?php\n\nnamespace App\\Services;\n\nuse App\\Models\\User as Customer;\n"
        "use App\\Models\\{Order as Purchase};\n\n"
        "class Report\n{\n    public function line(Customer $c, Purchase $p): string\n"
        "    {\n        <|>\n    }\n}\n"
    )
    related = related_segments(tmp_path, files, "app/Services/Report.php", layout)
    text = "\n".join(related)
    lead = "// " if layout == "stable" else ""
    assert f"{lead}class User extends Model {{ … }}" in text, related
    assert f"{lead}final class Order {{ … }}" in text, related


RUBY_PROJECT = {
    "Gemfile": 'source "https://rubygems.org"\ngem "rails"\n',
    "lib/shop.rb": 'require_relative "shop/cart"\n\n# The shop.\nmodule Shop\n'
    '  VERSION = "1.0"\nend\n',
    "lib/shop/money.rb": """module Shop
  # An amount in cents, never a float.
  class Money
    CURRENCIES = %w[EUR USD].freeze
    attr_reader :cents, :currency

    def initialize(cents, currency = "EUR")
      @cents = cents
      @currency = currency
    end

    # Formats as "12.34 EUR".
    def format
      "#{cents / 100}.#{cents % 100} #{currency}"
    end

    # Nothing, in a currency.
    def self.zero(currency = "EUR")
      new(0, currency)
    end

    private

    def pad(n)
      n.to_s.rjust(2, "0")
    end
  end
end
""",
    "lib/shop/cart.rb": """require_relative "money"

module Shop
  # Items a customer is about to buy.
  class Cart
    attr_accessor :items

    def initialize
      @items = []
    end

    # Adds an item with its price.
    def add(name, price)
      items << [name, price]
      self
    end
  end
end
""",
    "bin/checkout.rb": """require "shop/cart"

cart = Shop::Cart.new
cart.add("tea", Shop::Money.zero)
<|>
""",
    "app/models/user.rb": """# A customer with an email address.
class User < ApplicationRecord
  has_many :orders

  # Whether the user may see the admin pages.
  def admin?
    role == "admin"
  end
end
""",
    "app/mailers/user_mailer.rb": """class UserMailer < ApplicationMailer
  # Sends the receipt of an order.
  def receipt(user, order)
    @user = user
    mail(to: user.email, subject: "Your receipt")
  end
end
""",
    "app/services/checkout_service.rb": """# Places an order and sends its receipt.
class CheckoutService
  def call(order)
    user = User.find(order.user_id)
    UserMailer.receipt(user, order).deliver_later
    <|>
  end
end
""",
}


@pytest.mark.parametrize("layout", ["stable", "cursor"])
def test_ruby_required_classes_come_from_the_load_path_and_relative_requires(
    tmp_path: Path, layout: str
) -> None:
    """``require "shop/cart"`` is lib/shop/cart.rb (the load path), which requires money.rb;
    ``Shop``, a module reopened in every file of the gem holding only classes, is a namespace:
    it was shown once per file, each holding again the class shown on its own."""
    related = related_segments(tmp_path, RUBY_PROJECT, "bin/checkout.rb", layout)
    text = "\n".join(related)
    lead = "# " if layout == "stable" else ""
    assert f"{lead}# Items a customer is about to buy.\n{lead}# fields: items\n" in text, related
    assert f"{lead}class Cart … end\n" in text
    assert f"{lead}    # Adds an item with its price.\n{lead}    def add(name, price) … end" in text
    assert f"{lead}class Money … end" in text
    assert f"{lead}    def self.zero(currency = \"EUR\") … end" in text
    # its constants and its private section (since 2026-12-02)
    assert f"{lead}class Money … end\n{lead}    CURRENCIES = %w[EUR USD].freeze\n" in text
    assert f"{lead}    private\n{lead}    def pad(n) … end" in text
    assert "items << " not in text
    assert f"{lead}module Shop … end\n{lead}    # Items" not in text
    assert sum(f"{lead}class Cart … end" in r for r in related) == 1


@pytest.mark.parametrize("layout", ["stable", "cursor"])
def test_rails_constants_come_from_the_files_named_after_them(
    tmp_path: Path, layout: str
) -> None:
    """Rails autoloads ``UserMailer`` from app/mailers/user_mailer.rb: no require names it."""
    related = related_segments(tmp_path, RUBY_PROJECT, "app/services/checkout_service.rb", layout)
    text = "\n".join(related)
    lead = "# " if layout == "stable" else ""
    assert f"{lead}# fields: user\n{lead}class UserMailer < ApplicationMailer … end" in text
    assert f"{lead}    # Sends the receipt of an order.\n" in text
    assert f"{lead}# A customer with an email address.\n{lead}class User < Appl" in text
    assert "mail(to:" not in text
